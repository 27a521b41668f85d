import Foundation
import UniformTypes

/// Benchmark 4: the import of the Linux MIME database, warm conformance queries over built-in and MIME types, and tag
/// lookups.
enum TypeSystemBenchmark {
    /// The identifier prefix of the types the MIME import adds (MIME types no declared type carries).
    static let mimePrefix = "org.freedesktop.shared-mime-info."

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        var rows = [mimeImport(configuration)]
        // The shared catalogue would import on first need; import now, so queries and lookups see the whole
        // database and no measurement pays for the import.
        let summary = TypeCatalog.shared.importMIMEDatabase()
        rows.append(await conformance(configuration, hasMIMETypes: summary.importedTypeCount > 0))
        rows += await tagLookups(configuration)
        rows.append(await sniffing(configuration))
        return rows
    }

    /// Sniffing real files by content (`type(forContentsOf:)` of a file URL: open, read the magic's reach, match)
    /// against opening each file and reading the same prefix. Report only.
    private static func sniffing(_ configuration: RunConfiguration) async -> ResultRow {
        let name = "types: sniffing cost per file"
        do {
            let catalog = TypeCatalog.shared
            let length = try catalog.contentSniffingLength
            guard length > 0 else {
                return ResultRow(
                    name, status: .unavailable,
                    note: "No magic file in the MIME database; install it: apt-get install -y shared-mime-info")
            }
            let files = sampleFiles(limit: 200)
            guard !files.isEmpty else { throw BenchmarkError("no readable files under /usr/share or /usr/lib") }
            let samples = try await PairedRunner.compare(
                configuration,
                project: { iterations in
                    for index in 0..<iterations {
                        blackHole(try catalog.type(forContentsOf: files[index % files.count]))
                    }
                },
                baseline: { iterations in
                    for index in 0..<iterations {
                        let handle = try FileHandle(forReadingFrom: files[index % files.count])
                        blackHole(try handle.read(upToCount: length))
                        try handle.close()
                    }
                })
            return ResultRow(
                name, unit: "µs/file", project: Summary(lowerIsBetter: samples.project.map { $0 / 1000 }),
                baselineName: "open + read the same \(length)-byte prefix",
                baseline: Summary(lowerIsBetter: samples.baseline.map { $0 / 1000 }), ratio: samples.medianCostRatio,
                ratioMeaning: "time",
                note:
                    "\(files.count) files from /usr/share and /usr/lib (one per filename extension), warm page cache; "
                    + "the magic file was parsed before the run (it is parsed once, the first time anything sniffs).")
        } catch {
            return ResultRow(name, status: .error, note: "\(error)")
        }
    }

    /// Up to `limit` regular files, one per filename extension, in a fixed order.
    private static func sampleFiles(limit: Int) -> [URL] {
        var seen: Set<String> = []
        var result: [URL] = []
        for root in ["/usr/share", "/usr/lib"] {
            guard let enumerator = FileManager.default.enumerator(atPath: root) else { continue }
            var visited = 0
            while let relative = enumerator.nextObject() as? String, visited < 50_000, result.count < limit {
                visited += 1
                let kind =
                    relative.split(separator: "/").last?.split(separator: ".").dropFirst().last.map(String.init) ?? ""
                let path = root + "/" + relative
                guard !seen.contains(kind), FileManager.default.isReadableFile(atPath: path),
                    (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType)
                        == .typeRegular
                else { continue }
                seen.insert(kind)
                result.append(URL(fileURLWithPath: path))
            }
        }
        return result
    }

    /// Imports the database into fresh catalogues, one import per sample, after one import to warm up.
    private static func mimeImport(_ configuration: RunConfiguration) -> ResultRow {
        let name = "types: import Linux MIME database"
        var samples: [Double] = []
        var summary = TypeCatalog().importMIMEDatabase()
        for _ in 0..<configuration.importRuns {
            let catalog = TypeCatalog()
            let start = MonotonicClock.now()
            summary = catalog.importMIMEDatabase()
            samples.append(MonotonicClock.elapsed(since: start) / 1e6)
            blackHole(catalog)
        }
        let directories = summary.directories.map(\.path).joined(separator: ", ")
        guard !summary.isEmpty else {
            return ResultRow(
                name, status: .unavailable, target: "best ≤ 50 ms",
                note: "No shared-mime-info database in \(directories); install it: apt-get install -y shared-mime-info")
        }
        guard summary.importedTypeCount > 0, summary.problem == nil else {
            return ResultRow(
                name, status: .error, target: "best ≤ 50 ms",
                note: "The import added no types: \(summary.problem ?? "no problem reported")")
        }
        return ResultRow(
            name, unit: "ms", project: Summary(lowerIsBetter: samples), target: .bestAtMost(50),
            note: "importMIMEDatabase() into a fresh TypeCatalog() per sample (warm page cache, warm process), from "
                + "\(directories): \(summary.mimeTypeCount) MIME types, \(summary.importedTypeCount) new types, "
                + "\(summary.mappedToDeclaredTypeCount) mapped to declared types, \(summary.aliasCount) aliases, "
                + "\(summary.globCount) globs.")
    }

    /// A fixed mix of conformance questions: subjects alternate between built-in and MIME-database types (when
    /// there are any); half ask about a real supertype, half about a random declared type.
    static func conformanceQueries(
        _ catalog: TypeCatalog, count: Int
    ) -> (queries: [(UniformType, UniformType)], description: String) {
        let declared = catalog.declarations.map(\.identifier)
        let mime = declared.filter { $0.identifier.lowercased().hasPrefix(mimePrefix) }
        let builtIn = declared.filter { catalog.origin(of: $0) == .system }
        let pools = mime.isEmpty ? [builtIn] : [builtIn, mime]
        var generator = SplitMix(seed: 0x5EED)
        var queries: [(UniformType, UniformType)] = []
        queries.reserveCapacity(count)
        while queries.count < count, let type = pools[queries.count % pools.count].randomElement(using: &generator) {
            let supertypes = Array(catalog.supertypes(of: type))
            if Bool.random(using: &generator), let supertype = supertypes.randomElement(using: &generator) {
                queries.append((type, supertype))
            } else if let other = declared.randomElement(using: &generator) {
                queries.append((type, other))
            }
        }
        return (queries, "\(builtIn.count) built-in and \(mime.count) MIME-database types (\(declared.count) declared)")
    }

    private static func conformance(_ configuration: RunConfiguration, hasMIMETypes: Bool) async -> ResultRow {
        let name = "types: conforms(to:) warm"
        let (queries, description) = conformanceQueries(.shared, count: 4096)
        let trueCount = queries.reduce(0) { $0 + ($1.0.conforms(to: $1.1) ? 1 : 0) }
        do {
            guard queries.count == 4096, trueCount > 0, trueCount < queries.count else {
                throw BenchmarkError("the conformance queries are degenerate (\(trueCount) of \(queries.count) true)")
            }
            let mask = queries.count - 1
            let samples = try await PairedRunner.measure(configuration) { iterations in
                var count = 0
                for index in 0..<iterations {
                    let (type, other) = queries[index & mask]
                    if type.conforms(to: other) {
                        count += 1
                    }
                }
                blackHole(count)
            }
            return ResultRow(
                name, unit: "M/s", project: Summary(lowerIsBetter: samples).mapped { 1e3 / $0 },
                target: .bestAtLeast(20),
                note: "UniformType.conforms(to:) through TypeCatalog.shared over 4096 fixed queries (\(trueCount) "
                    + "true), subjects alternating between \(description)"
                    + (hasMIMETypes ? "." : "; the MIME database added no types, so built-in types only."))
        } catch {
            return ResultRow(name, status: .error, note: "\(error)")
        }
    }

    private static func tagLookups(_ configuration: RunConfiguration) async -> [ResultRow] {
        let catalog = TypeCatalog.shared
        var extensionMap: [String: UniformType] = [:]
        var mimeMap: [String: UniformType] = [:]
        for declaration in catalog.declarations {
            for tag in declaration.tags[.filenameExtension] ?? [] where extensionMap[tag.lowercased()] == nil {
                extensionMap[tag.lowercased()] = declaration.identifier
            }
            for tag in declaration.tags[.mimeType] ?? [] where mimeMap[tag.lowercased()] == nil {
                mimeMap[tag.lowercased()] = declaration.identifier
            }
        }
        // Declared tags in a fixed order, some in capitals, plus tags nobody declares (dynamic types).
        let extensions = extensionMap.keys.sorted() + ["PNG", "Json", "unknownext", "tar-ish"]
        let mimeTypes = mimeMap.keys.sorted() + ["IMAGE/PNG", "text/plain; charset=utf-8", "application/x-nobody"]
        let extensionRow = await lookup(
            configuration, name: "types: type(filenameExtension:)", tags: extensions, map: extensionMap
        ) { catalog.type(filenameExtension: $0) }
        let mimeRow = await lookup(configuration, name: "types: type(mimeType:)", tags: mimeTypes, map: mimeMap) {
            catalog.type(mimeType: $0)
        }
        return [extensionRow, mimeRow]
    }

    private static func lookup(
        _ configuration: RunConfiguration, name: String, tags: [String], map: [String: UniformType],
        _ resolve: (String) -> UniformType?
    ) async -> ResultRow {
        do {
            guard !tags.isEmpty, tags.allSatisfy({ resolve($0) != nil }) else {
                throw BenchmarkError("a tag lookup returned nil for a valid tag")
            }
            let samples = try await PairedRunner.compare(
                configuration,
                project: { iterations in
                    for index in 0..<iterations {
                        blackHole(resolve(tags[index % tags.count]))
                    }
                },
                baseline: { iterations in
                    for index in 0..<iterations {
                        blackHole(map[tags[index % tags.count].lowercased()])
                    }
                })
            return ResultRow(
                name, unit: "ns/op", project: Summary(lowerIsBetter: samples.project),
                baselineName: "Dictionary[tag.lowercased()]", baseline: Summary(lowerIsBetter: samples.baseline),
                ratio: samples.medianCostRatio, ratioMeaning: "time", target: .ratioAtMost(3),
                note: "\(tags.count) tags: every declared one, some in capitals or with parameters, and a few "
                    + "undeclared (which make dynamic types), each looked up again and again: after its first "
                    + "lookup a tag's answer comes from the snapshot's memo (TagAnswerMemo, 4096 tags a class). "
                    + "The baseline looks the lowercased tag up in a [String: UniformType].")
        } catch {
            return ResultRow(name, status: .error, note: "\(error)")
        }
    }
}
