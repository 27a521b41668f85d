import Foundation
import TransferKit
public import UniformTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `transferkit extract`: writes one representation of one item.
///
/// The choice follows the provider's rule: a representation of exactly the requested type
/// wins; otherwise the first one, in fidelity order, that conforms to it. The archive is read
/// once, front to back: an exact match streams straight to the output; a conforming one met
/// first is spooled to an unlinked temporary file in case an exact match follows.
public struct ExtractCommand: Command {
    /// The catalogue used for conformance.
    public var catalog: TypeCatalog

    /// Creates the command.
    public init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"extract"`.
    public var name: String { "extract" }
    /// One line of help.
    public var abstract: String { "Write one representation of an item, chosen by type." }
    /// Examples.
    public var discussion: String {
        """
        EXAMPLES:
          transferkit extract cards.transferkit --type public.utf8-plain-text
          transferkit extract cards.transferkit --type public.json --item 1 -o card.json
          transferkit pack - --type public.png < cover.png | transferkit extract - --type public.image > copy.png
        """
    }

    /// The accepted options.
    public var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--type"], valueName: "TYPE", help: "The uniform type wanted (required)."),
                .init(names: ["--item"], valueName: "N", help: "The item's index (default 0)."),
                .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write it (- for stdout)."),
                .init(names: ["--format"], valueName: "cbor|json", help: "The input's form (detected for files)."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1)
        )
    }

    /// Extracts the representation.
    public func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        guard let identifier = arguments.value("--type") else { throw UsageError("--type is required") }
        guard let wanted = UniformType(identifier) else {
            throw UsageError("'\(identifier)' is not a valid uniform type identifier")
        }
        var itemIndex = 0
        if let text = arguments.value("--item") {
            guard let index = Int(text), index >= 0 else { throw UsageError("--item needs a whole number ≥ 0") }
            itemIndex = index
        }
        let file = try InputFile(path: arguments.positionals[0])
        let format = try ArchiveFormatChoice.input(arguments.value("--format"), file: file)
        var bar: ProgressBar?
        do {
            let code = try await extract(
                wanted, item: itemIndex, from: file, format: format, to: arguments.value("--output"), bar: &bar,
                context: context)
            await bar?.finish()
            return code
        } catch {
            await bar?.cancel()
            throw error
        }
    }

    private func extract(
        _ wanted: UniformType, item itemIndex: Int, from file: InputFile, format: TransferArchiveFormat,
        to output: String?, bar: inout ProgressBar?, context: CommandContext
    ) async throws -> ExitCode {
        try await ArchiveOutput.write(toPath: output, context: context) { sink in
            var itemSeen = false
            var typesSeen: [UniformType] = []
            var extracted = false
            var candidate: Candidate?
            /// Copies a chosen payload to `destination`, advancing a progress bar for large ones.
            func copying(_ length: UInt64, to destination: any OutputSink) -> (UnsafeRawBufferPointer) throws -> Void {
                let progress = TransferProgress(totalUnitCount: Int64(clamping: length))
                if bar == nil { bar = ProgressBar.start(for: progress, totalBytes: length, context: context) }
                return { chunk in
                    try destination.write(chunk)
                    progress.advance(by: Int64(chunk.count))
                }
            }
            try ArchiveWalker.walk(
                file, format: format,
                item: { item in itemSeen = itemSeen || item.index == itemIndex },
                representation: { representation in
                    guard representation.itemIndex == itemIndex else {
                        return representation.itemIndex > itemIndex ? .stop : .skip
                    }
                    typesSeen.append(representation.type)
                    if representation.type == wanted {
                        extracted = true
                        return .readThenStop(copying(representation.length, to: sink))
                    }
                    if candidate == nil, catalog.conforms(representation.type, to: wanted) {
                        let spool = try Candidate()
                        candidate = spool
                        return .read(copying(representation.length, to: spool.output))
                    }
                    return .skip
                })
            if extracted { return .success }
            guard itemSeen else { throw UsageError("the archive has no item \(itemIndex)") }
            guard let candidate else {
                let list = typesSeen.map(\.identifier).joined(separator: ", ")
                throw UsageError(
                    "item \(itemIndex) has no representation conforming to \(wanted.identifier) (it has: \(list))")
            }
            try candidate.copy(to: sink)
            return .success
        }
    }
}

/// A conforming representation spooled to an unlinked temporary file.
private final class Candidate {
    let descriptor: Int32
    let output: FileDescriptorOutput

    init() throws {
        var template = Array("/tmp/transferkit-extract-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw UsageError("cannot create a temporary file") }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        output = FileDescriptorOutput(fileDescriptor: descriptor)
    }

    deinit { close(descriptor) }

    func copy(to sink: any OutputSink) throws {
        lseek(descriptor, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            try buffer.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
