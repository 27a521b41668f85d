import Foundation
public import TransferKit

/// `transferkit reencode`: the child side of `check --cross-process`. Reads an archive,
/// decodes and re-encodes every representation that has a registered reader, and writes the
/// archive back in the same form.
public struct ReencodeCommand: Command {
    /// The readers used to decode representations.
    public var registry: TransferRegistry

    /// Creates the command over `registry`.
    public init(registry: TransferRegistry) {
        self.registry = registry
    }

    /// `"reencode"`.
    public var name: String { "reencode" }
    /// One line of help.
    public var abstract: String { "Decode and re-encode every representation (the child of check --cross-process)." }
    /// The accepted options.
    public var signature: CommandSignature {
        CommandSignature(
            options: [.init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write (- for stdout).")],
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1)
        )
    }

    /// Re-encodes the archive.
    public func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        let file = try InputFile(path: arguments.positionals[0])
        let bytes = try file.readAll(limit: TransferArchive.Limits.default.maxJSONDocumentSize)
        guard let format = TransferArchiveFormat.detect(bytes.prefix(64)) else {
            throw UsageError("\(file.displayName) is not a TransferKit archive (neither CBOR nor JSON form)")
        }
        let archive = try TransferArchive(decoding: bytes, format: format)
        let result = try await Reencoder(checker: RoundTripChecker(registry: registry)).reencode(archive)
        let encoded = try result.encoded(as: format)
        try await ArchiveOutput.write(toPath: arguments.value("--output"), context: context) { _, sink in
            try sink.write(contentsOf: encoded)
        }
        return .success
    }
}
