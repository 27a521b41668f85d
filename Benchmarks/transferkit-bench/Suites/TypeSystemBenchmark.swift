import UniformTypes

/// Benchmark 4: warm conformance queries, tag lookups and (once the catalogue can import it) the Linux MIME database
/// import.
enum TypeSystemBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        var rows: [ResultRow] = []
        rows.append(await conformance(configuration))
        rows += await tagLookups(configuration)
        rows.append(
            ResultRow(
                "types: import Linux MIME database", status: .unavailable, target: "best ≤ 50 ms",
                note: "The catalogue has no public import of /usr/share/mime yet; it arrives with branch types-data."))
        return rows
    }

    /// A fixed mix of conformance questions: half ask about a real supertype, half about a random declared type.
    static func conformanceQueries(
        _ catalog: TypeCatalog, count: Int
    ) -> (queries: [(UniformType, UniformType)], description: String) {
        let declarations = catalog.declarations
        var generator = SplitMix(seed: 0x5EED)
        var queries: [(UniformType, UniformType)] = []
        queries.reserveCapacity(count)
        while queries.count < count, let declaration = declarations.randomElement(using: &generator) {
            let type = declaration.identifier
            let supertypes = Array(catalog.supertypes(of: type))
            if Bool.random(using: &generator), let supertype = supertypes.randomElement(using: &generator) {
                queries.append((type, supertype))
            } else if let other = declarations.randomElement(using: &generator) {
                queries.append((type, other.identifier))
            }
        }
        return (queries, "\(declarations.count) declared types")
    }

    private static func conformance(_ configuration: RunConfiguration) async -> ResultRow {
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
                    + "true) among \(description): built-in types only until branch types-data imports the MIME "
                    + "database.")
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
                ratio: samples.medianCostRatio, ratioMeaning: "time",
                note: "\(tags.count) tags: every declared one, some in capitals or with parameters, and a few "
                    + "undeclared (which make dynamic types); the baseline looks the lowercased tag up in a "
                    + "[String: UniformType].")
        } catch {
            return ResultRow(name, status: .error, note: "\(error)")
        }
    }
}
