import Foundation
import TransferClipboard
import TransferKit
import TransferKitCLI
import UniformTypes

/// `transferkit paste`: writes what the clipboard holds, lists the types it offers, or saves every representation
/// as an archive (a snapshot that `transferkit copy` restores).
struct PasteCommand: Command {
    /// The catalogue for type names and conformance.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"paste"`.
    var name: String { "paste" }
    /// One line of help.
    var abstract: String { "Write the clipboard's content, list its types, or save them all as an archive." }
    /// Rules and examples.
    var discussion: String {
        """
        Without --type, the owner's first (best) type is written. With --type (a uniform type identifier or a MIME
        type), the first offered type that is that type or conforms to it is written: the package's one
        representation-choice rule. Bytes stream from the owner to the output as they arrive. Exit status 1 when
        the selection is empty, offers nothing of the type, or offers only names that no uniform type stands for
        (the message lists them; --archive then writes nothing).

        EXAMPLES:
          transferkit paste --list
          transferkit paste --list --json
          transferkit paste --type public.utf8-plain-text
          transferkit paste --type public.image -o picture
          transferkit paste --archive -o clip.transferkit
          transferkit paste --from-history 1

        --from-history K reads the K-th newest snapshot that `transferkit keep --history N` kept of the selection
        (0 the newest) instead of the clipboard; no display server is needed then.
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--type"], valueName: "TYPE", help: "The type to write (identifier or MIME type)."),
                .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write (- for stdout)."),
                .init(names: ["--list"], help: "List the offered types instead, one per line."),
                .init(names: ["--json"], help: "With --list: print a JSON array."),
                .init(names: ["--archive"], help: "Write an archive of every offered representation."),
                .init(names: ["--format"], valueName: "cbor|json", help: "The archive's form (with --archive)."),
                .init(
                    names: ["--from-history"], valueName: "K",
                    help: "Read the keeper's K-th newest snapshot (0 the newest) instead of the clipboard."),
                DeclarationsOption.option,
            ] + ClipboardCommandOptions.options
        )
    }

    /// Pastes.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        if arguments.flag("--json"), !arguments.flag("--list") {
            throw UsageError("--json goes with --list")
        }
        if arguments.flag("--archive"), arguments.value("--type") != nil {
            throw UsageError("--archive saves every type; leave --type out")
        }
        let requested = try arguments.value("--type").map { try ClipboardCommandOptions.type($0, catalog: catalog) }
        let selection = ClipboardCommandOptions.selection(arguments)
        if let index = arguments.value("--from-history") {
            if arguments.flag("--list") { throw UsageError("--list lists the clipboard; leave --from-history out") }
            let provider = try historySnapshot(index, of: selection)
            return try await paste(
                provider, requested: requested, budget: nil, arguments: arguments, context: context
            ) {
                provider.registeredTypes.map(\.identifier)
            }
        }
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        if arguments.flag("--list") {
            return try await list(clipboard.offeredTypes(on: selection), json: arguments.flag("--json"), context)
        }
        // The text form is held whole: its snapshot counts the owners' bytes and stops at its limit.
        let budget =
            try arguments.flag("--archive")
            && ArchiveFormatChoice.output(arguments.value("--format"), path: arguments.value("--output")) == .json
            ? SnapshotBudget(limit: TransferArchive.Limits.default.maxJSONDocumentSize) : nil
        let items =
            if let budget {
                try await clipboard.read(from: selection, wrappingStreams: budget.counting)
            } else {
                try await clipboard.read(from: selection)
            }
        guard let provider = items.first else {
            throw CommandFailure(code: .empty, message: "the \(selection.rawValue) is empty")
        }
        guard !provider.registeredTypes.isEmpty else {
            // Only names without a uniform type (X11 atoms such as COMPOUND_TEXT, an application's private names):
            // nothing can be read, and a snapshot would be an item without representations.
            let names = try await clipboard.offeredTypes(on: selection).map(\.name)
            throw CommandFailure(
                code: .nothingReadable,
                message: "the \(selection.rawValue) offers no name that a uniform type stands for; it offers "
                    + names.joined(separator: ", "))
        }
        return try await paste(
            provider, requested: requested, budget: budget, arguments: arguments, context: context
        ) {
            try await clipboard.offeredTypes(on: selection).map { offer in
                offer.type.map { $0.identifier == offer.name ? offer.name : "\($0.identifier) (\(offer.name))" }
                    ?? offer.name
            }
        }
    }

    /// Writes `provider`'s representation of the requested type (the first one without `--type`), or its archive
    /// with `--archive` (the text form within `budget`); `offered` names what is there for the message when nothing is
    /// of the type.
    private func paste(
        _ provider: TransferProvider, requested: UniformType?, budget: SnapshotBudget?, arguments: ParsedArguments,
        context: CommandContext, offered: () async throws -> [String]
    ) async throws -> ExitCode {
        let source =
            arguments.value("--from-history").map { "snapshot \($0) of the keeper" } ?? "the "
            + ClipboardCommandOptions.selection(arguments).rawValue
        guard let first = provider.registeredTypes.first else {
            throw CommandFailure(code: .empty, message: "\(source) holds no representation")
        }
        if arguments.flag("--archive") {
            try await Self.reportingClipboardErrors {
                try await archive(provider, budget: budget, arguments: arguments, context: context)
            }
            return .success
        }
        let type = requested ?? first
        guard let chosen = catalog.chooseRepresentation(offered: provider.registeredTypes, requested: [type]) else {
            throw CommandFailure(
                code: .typeNotOffered,
                message: "\(source) offers nothing of type \(type.identifier); it offers "
                    + (try await offered()).joined(separator: ", "))
        }
        let chosenType = provider.registeredTypes[chosen]
        let stream = try await Self.reportingClipboardErrors { try await provider.loadStream(for: chosenType) }
        let isText = catalog.conforms(chosenType, to: .text)
        let progress = TransferProgress(totalUnitCount: stream.length.map { Int64(clamping: $0) } ?? 0)
        try await Self.reportingClipboardErrors {
            try await ProgressBar.drawing(progress, totalBytes: stream.length, context: context) {
                try await ArchiveOutput.write(toPath: arguments.value("--output"), isBinary: !isText, context: context)
                {
                    sink in
                    for try await chunk in stream {
                        try sink.write(contentsOf: chunk)
                        progress.advance(by: Int64(chunk.count))
                    }
                }
            }
        }
        return .success
    }

    /// Runs `body`, rethrowing a load's failure that the clipboard caused as the clipboard's own error, so the tool
    /// prints its code (`ownerGone`, `timedOut`, …) rather than the provider's `loaderFailed` around it.
    private static func reportingClipboardErrors<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as TransferError {
            if let cause = error.cause as? ClipboardError { throw cause }
            throw error
        }
    }

    /// The `--from-history` snapshot `value` (0 the newest) of `selection`'s history.
    private func historySnapshot(_ value: String, of selection: ClipboardSelection) throws -> TransferProvider {
        guard let index = Int(value), index >= 0 else {
            throw UsageError("--from-history needs a number, 0 for the newest snapshot")
        }
        let history = ClipboardKeeper.history(of: selection)
        guard index < history.count else {
            throw CommandFailure(
                code: .notFound,
                message: "the keeper's history of the \(selection.rawValue) has \(history.count) snapshots, so none "
                    + "numbered \(index) (run `transferkit keep --history N` to keep some)")
        }
        return try ClipboardKeeper.snapshot(at: history[index], catalog: catalog)
    }

    private func list(
        _ offered: [ClipboardOfferedType], json: Bool, _ context: CommandContext
    ) throws -> ExitCode {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let entries = offered.map { OfferedEntry(name: $0.name, type: $0.type?.identifier) }
            try context.standardOutput.writeLine(String(decoding: try encoder.encode(entries), as: UTF8.self))
        } else {
            for offer in offered {
                try context.standardOutput.writeLine(offer.type.map { "\(offer.name)\t\($0.identifier)" } ?? offer.name)
            }
        }
        return offered.isEmpty ? .failure : .success
    }

    /// One line of `--list --json`: the offered name, and its uniform type when it maps to one.
    private struct OfferedEntry: Encodable {
        var name: String
        var type: String?
    }

    private func archive(
        _ provider: TransferProvider, budget: SnapshotBudget?, arguments: ParsedArguments, context: CommandContext
    )
        async throws
    {
        let output = arguments.value("--output")
        let format = try ArchiveFormatChoice.output(arguments.value("--format"), path: output)
        // The archive's length is known only once every owner has written: on a terminal, a running count of the
        // archive's bytes (the writer then goes through the sink, which counts, rather than straight to its file).
        let progress = TransferProgress()
        try await ProgressBar.drawing(progress, totalBytes: nil, context: context) {
            try await ArchiveOutput.write(toPath: output, isBinary: format == .cbor, context: context) { sink in
                switch format {
                case .json:
                    let encoded = try await textSnapshot(
                        of: provider,
                        budget: budget ?? SnapshotBudget(limit: TransferArchive.Limits.default.maxJSONDocumentSize))
                    try sink.write(contentsOf: encoded)
                    progress.advance(by: Int64(encoded.count))
                case .cbor where context.standardErrorIsTerminal:
                    var writer = TransferArchiveWriter(sink: { bytes in
                        try sink.write(bytes)
                        progress.advance(by: Int64(bytes.count))
                    })
                    try await writer.write(providers: [provider])
                case .cbor:
                    var writer = ArchiveOutput.writer(to: sink)
                    try await writer.write(providers: [provider])
                }
            }
        }
    }
}
