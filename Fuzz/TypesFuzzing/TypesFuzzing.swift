public import Foundation
import UniformTypes

/// The checks the type fuzzers run on one input; each fuzzer's `main.swift` only adapts them to libFuzzer or to
/// corpus replay (see `Fuzz/README.md`).
///
/// Bad input must make the loaders throw ``UniformTypeError`` (declarations) or skip lines (the MIME database);
/// anything else is a finding: a crash or ASan report, a hang, or a broken invariant, which ``violation(_:_:)``
/// turns into a deliberate trap.
///
/// ```swift
/// TypesFuzzing.checkDeclarations(Data(#"{"exported": []}"#.utf8))
/// ```
public enum TypesFuzzing {
    /// The most types whose conformance the checks walk per input, so one input stays cheap.
    static let checkedTypeCount = 64

    /// Loads `input` as a type-declaration file into a fresh catalog. The file's two readings, straight from the bytes
    /// and through a JSON tree, must agree: both reject it, or both read the same declarations. What loads must
    /// re-load to the same declarations: the exported and imported declarations the catalog then holds, written back
    /// with their `Codable` form as a declaration file, must load into another fresh catalog and give equal
    /// declarations of the same origins, in the same order. Every loaded type must conform to itself and not be its
    /// own strict supertype.
    /// - Parameter input: Any bytes.
    public static func checkDeclarations(_ input: Data) {
        guard DeclarationFileReadings.agree(on: [UInt8](input)) else {
            violation("the direct reading and the tree's reading of the file disagree", input)
        }
        let catalog = TypeCatalog()
        do {
            try catalog.loadDeclarations(from: input, source: "input")
        } catch {
            return
        }
        let (exported, imported) = loaded(in: catalog)
        let rewritten: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            rewritten = try encoder.encode(["exported": exported, "imported": imported])
        } catch {
            violation("loaded declarations do not encode: \(error)", input)
        }
        let again = TypeCatalog()
        do {
            try again.loadDeclarations(from: rewritten, source: "rewritten")
        } catch {
            violation("loaded declarations, written back, do not load: \(error)", input)
        }
        let (exportedAgain, importedAgain) = loaded(in: again)
        guard exportedAgain == exported, importedAgain == imported else {
            violation("loaded declarations, written back, load to different declarations", input)
        }
        for declaration in (exported + imported).prefix(checkedTypeCount) {
            let type = declaration.identifier
            guard catalog.conforms(type, to: type), !catalog.supertypes(of: type).contains(type) else {
                violation("'\(type)' does not conform to itself, or is its own strict supertype", input)
            }
        }
    }

    /// The catalog's exported and imported declarations, in catalog order.
    private static func loaded(
        in catalog: TypeCatalog
    ) -> (exported: [UniformTypeDeclaration], imported: [UniformTypeDeclaration]) {
        var exported: [UniformTypeDeclaration] = []
        var imported: [UniformTypeDeclaration] = []
        for declaration in catalog.declarations {
            switch catalog.origin(of: declaration.identifier) {
            case .exported?: exported.append(declaration)
            case .imported?: imported.append(declaration)
            default: break
            }
        }
        return (exported, imported)
    }

    /// The separator between the files of an input to ``checkMIMEDatabase(_:)``.
    static let fileSeparator = Array("\n--\n".utf8)

    /// Parses `input` as the files of up to two mime directories and imports the database into a fresh catalog.
    ///
    /// The input: one flags byte (bit 0: the glob files are the older `globs`, not `globs2`; bit 1: the catalog
    /// starts empty rather than with the built-in types, which makes the import several times cheaper), then the files
    /// separated by `\n--\n`: `types`, `aliases`, `subclasses`, globs of the first directory, then the same four of
    /// a second, lower-precedence directory; files past the end of the input are missing.
    ///
    /// Invariants: the database written back as files (``MIMEDatabase/files``; unless a legacy pattern holds a `:`,
    /// which `globs2` cannot express) parses without a skipped line to a
    /// database with the same contents; every type's ancestors exclude the type itself; the import into a catalog
    /// reports no problem (the importer builds valid declarations by construction, breaking cycles), and each
    /// extension of a glob can be looked up.
    /// - Parameter input: Any bytes.
    public static func checkMIMEDatabase(_ input: Data) {
        let bytes = [UInt8](input)
        guard let flags = bytes.first else { return }
        let parts = split(bytes.dropFirst())
        var directories: [MIMEDirectoryFiles] = []
        for start in stride(from: 0, to: parts.count, by: 4) {
            func part(_ offset: Int) -> [UInt8]? { start + offset < parts.count ? parts[start + offset] : nil }
            var files = MIMEDirectoryFiles(types: part(0), aliases: part(1), subclasses: part(2))
            if flags & 1 == 1 { files.globs = part(3) } else { files.globs2 = part(3) }
            directories.append(files)
            if directories.count == 2 { break }
        }
        let database = MIMEDatabase(files: directories)
        if database.isWritableAsFiles {
            let reparsed = MIMEDatabase(files: [database.files])
            guard reparsed.skippedLineCount == 0, reparsed.hasSameContents(as: database) else {
                violation("the database written back as files parses to a different database", bytes)
            }
        }
        for type in database.mimeTypes.prefix(checkedTypeCount) {
            let ancestors = database.ancestors(of: type)
            guard !ancestors.contains(where: { $0.lowercased() == type.lowercased() }) else {
                violation("'\(type)' is its own ancestor", bytes)
            }
        }
        let catalog = TypeCatalog(includingSystemTypes: flags & 2 == 0)
        let summary = catalog.importMIMEDatabase(database)
        if let problem = summary.problem {
            violation("the import reported a problem: \(problem)", bytes)
        }
        for filenameExtension in database.globExtensions.prefix(checkedTypeCount) {
            _ = catalog.type(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: nil)
        }
    }

    /// Parses `input` as a shared-mime-info `magic` file and matches a sample against it.
    ///
    /// The input: one flags byte (bit 0: put the `MIME-Magic\0\n` header in front, so that the fuzzer need not
    /// find it), one byte `n`, `n` bytes of sample data (fewer if the input ends), then the magic file.
    ///
    /// Invariants: the parser returns or throws `invalidMagic`, nothing else; a parsed file's reach
    /// (``MIMEMagic/maximumExtent``) is at most ``MIMEMagic/maximumPrefix``, and what the sample matches depends only
    /// on its first `maximumExtent` bytes (cutting the rest off changes nothing); a match's priority
    /// is within 0...100.
    /// - Parameter input: Any bytes.
    public static func checkMIMEMagic(_ input: Data) {
        let bytes = [UInt8](input)
        guard bytes.count >= 2 else { return }
        let sampleEnd = min(bytes.count, 2 + Int(bytes[1]))
        let sample = Array(bytes[2..<sampleEnd])
        let file = (bytes[0] & 1 == 1 ? Array("MIME-Magic\0\n".utf8) : []) + Array(bytes[sampleEnd...])
        let magic: MIMEMagic
        do {
            magic = try MIMEMagic(files: [("fuzz/magic", file)])
        } catch {
            guard error.code == .invalidMagic, error.offset.map({ $0 >= 0 && $0 <= file.count }) ?? false else {
                violation("the parser threw \(error), not invalidMagic with an offset in the file", bytes)
            }
            return
        }
        guard magic.maximumExtent >= 0, magic.maximumExtent <= MIMEMagic.maximumPrefix else {
            violation("the magic's extent \(magic.maximumExtent) is out of bounds", bytes)
        }
        // Bit 1: tight work limits, so that running out of work is explored too; bit 2: the sample repeated up to
        // the rules' reach (at most 64 KiB), so that wide ranges have data to cost work on.
        let limits =
            bytes[0] & 2 == 2
            ? ContentSniffingLimits(maximumRuleWork: 300, maximumMatchWork: 4096) : ContentSniffingLimits.default
        var data = sample
        if bytes[0] & 4 == 4, !sample.isEmpty {
            let length = min(magic.maximumExtent, 1 << 16)
            data = (0..<length).map { sample[$0 % sample.count] }
        }
        let report = magic.evaluate(data, limits: limits)
        guard report.work >= 0, report.work <= limits.maximumMatchWork else {
            violation("a match made \(report.work) comparisons, over the limit \(limits.maximumMatchWork)", bytes)
        }
        if report.isOutOfWork, report.mimeType != nil {
            violation("a match both ran out of work and found a type", bytes)
        }
        if report.mimeType != nil, !(0...100).contains(report.priority) {
            violation("a match has priority \(report.priority)", bytes)
        }
        let cut = Array(data.prefix(magic.maximumExtent))
        if magic.evaluate(cut, limits: limits) != report {
            violation("the match depends on bytes past the magic's extent", bytes)
        }
    }

    /// `bytes` split at every ``fileSeparator``.
    private static func split(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index + fileSeparator.count <= bytes.endIndex {
            if bytes[index..<index + fileSeparator.count].elementsEqual(fileSeparator) {
                parts.append(Array(bytes[start..<index]))
                index += fileSeparator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    /// Reports a broken invariant to libFuzzer.
    ///
    /// `fatalError` is deliberate and allowed here, in fuzz-harness code only: the trap is how libFuzzer learns
    /// about a finding and saves the input as `crash-…`. The library code under test never traps on input.
    static func violation(_ what: String, _ input: some Collection<UInt8>) -> Never {
        fatalError("Types invariant broken: \(what) (input of \(input.count) bytes)")
    }
}
