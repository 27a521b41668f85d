import TransferKit
import TransferKitCLI
import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The items that the inputs of `copy` and `drag` stand for: one provider per file, or every item of one archive.
struct CommandLineItems {
    /// The items, in the order of the command line (or the archive).
    var providers: [TransferProvider]
    /// The temporary file that holds an archive's payloads, which must stay open while the providers serve.
    var spools: [InputFile]
    /// Whether the items are an archive's (then no file stands behind an item: nothing can be moved).
    var isArchive: Bool

    /// The items for `inputs`, opened from `paths`: an archive's items when the one input is an archive and no
    /// `type` is forced, else one provider per file, of `type` (else the type its name and bytes say).
    /// - Parameter offersFileURLs: Whether a file is offered as its URL too (for applications that paste files): not
    ///   when the items go to another machine, where the path names nothing (or another file).
    /// - Throws: ``UsageError`` for an archive without items; the archive's errors for a broken one.
    static func make(
        _ inputs: [InputFile], paths: [String], type: UniformType?, catalog: TypeCatalog, offersFileURLs: Bool = true
    ) throws -> CommandLineItems {
        if inputs.count == 1, type == nil, let input = inputs.first, isArchive(input, path: paths[0]) {
            let items = try restore(input, catalog: catalog)
            guard !items.providers.isEmpty else {
                throw UsageError("\(input.displayName) is an archive without items")
            }
            return items
        }
        let providers = try zip(inputs, paths).map { input, path in
            let provider = TransferProvider(catalog: catalog)
            let fileName = path == "-" ? nil : URL(fileURLWithPath: path).lastPathComponent
            let itemType = try type ?? input.inferredType(fileName: fileName, in: catalog)
            // The descriptor's own path, so standard input redirected from a file (or spooled) serves too.
            let url = URL(fileURLWithPath: "/proc/self/fd/\(input.fileDescriptor)")
            provider.registerFileRepresentation(for: itemType, openInPlace: true) { _ in url }
            // Standard input has no name to say what it is: when its bytes are text, it is offered as text too,
            // whatever sniffing made of them.
            if path == "-", type == nil, !catalog.conforms(itemType, to: .text), isUTF8TextWithoutNUL(input) {
                provider.registerFileRepresentation(for: .utf8PlainText, openInPlace: true) { _ in url }
            }
            if path != "-" {
                let fileURL = URL(fileURLWithPath: path).standardizedFileURL
                if offersFileURLs {
                    provider.registerDataRepresentation(for: .fileURL) { _ in Data(fileURL.absoluteString.utf8) }
                }
                provider.suggestedName = fileURL.lastPathComponent
            }
            return provider
        }
        return CommandLineItems(providers: providers, spools: [], isArchive: false)
    }

    /// The providers of an archive's items. A binary archive is walked once, whole (so a broken one is refused
    /// before anything is offered), and its payloads are copied as they are read into one unlinked temporary
    /// file (in `TMPDIR`), from which each paste or drop reads its representation's range: the process holds one
    /// chunk at a time whatever the payloads' size, and one descriptor whatever their number. The text form is read
    /// whole (within the JSON limit) and served from memory.
    static func restore(_ input: InputFile, catalog: TypeCatalog) throws -> CommandLineItems {
        guard try ArchiveFormatChoice.input(nil, file: input) == .cbor else {
            let data = try input.readAll(limit: TransferArchive.Limits.default.maxJSONDocumentSize)
            return CommandLineItems(
                providers: try TransferArchive(decoding: data).makeProviders(catalog: catalog), spools: [],
                isArchive: true)
        }
        let spooled = "the payloads of \(input.displayName)"
        let spool = try Spool.emptyFile(for: spooled)
        // Readers read ranges through a descriptor of their own, which a read still under way keeps open.
        let file: SharedDescriptor
        do {
            file = SharedDescriptor(adopting: try Syscall.duplicate(spool.fileDescriptor))
        } catch {
            throw Spool.failure(error, "cannot open the temporary file that holds \(spooled)")
        }
        var written: Int64 = 0
        var providers: [TransferProvider] = []
        try ArchiveWalker.walk(
            input, format: .cbor,
            item: { item in
                let provider = TransferProvider(catalog: catalog)
                provider.suggestedName = item.suggestedName
                provider.metadata = item.metadata
                providers.append(provider)
            },
            representation: { representation in
                let offset = written
                let name = "\(input.displayName), item \(representation.itemIndex), \(representation.type.identifier)"
                providers.last?.registerStreamRepresentation(for: representation.type) { _ in
                    TransferByteStream(range: offset, length: representation.length, of: file, name: name)
                }
                return .read { chunk in
                    try Spool.write(chunk, to: spool, holding: spooled)
                    written += Int64(chunk.count)
                }
            })
        return CommandLineItems(providers: providers, spools: [spool], isArchive: true)
    }

    /// Whether `input` is UTF-8 text without a NUL byte (reading at most `InputFile.sniffLimit` bytes; a longer or
    /// empty input is not taken for text).
    static func isUTF8TextWithoutNUL(_ input: InputFile) -> Bool {
        guard let size = input.size, size > 0, size <= InputFile.sniffLimit, let bytes = input.peek(Int(size)),
            bytes.count == Int(size), !bytes.contains(0)
        else { return false }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// Whether the single input is restored as an archive: a `.transferkit` name, or a binary archive's first bytes.
    static func isArchive(_ input: InputFile, path: String) -> Bool {
        if path.hasSuffix(".transferkit") || path.hasSuffix(".transferkit.json") { return true }
        guard let head = input.peek(3) else { return false }
        return head == [0xd9, 0xd9, 0xf7]
    }
}
