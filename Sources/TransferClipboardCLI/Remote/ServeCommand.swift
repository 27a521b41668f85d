import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferSessions
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit serve --stdio`: the far side of `paste --from ssh://host`. It serves this machine's clipboard (or the
/// named files) as a session on its standard input and output, each type read only when the near side loads it.
struct ServeCommand: Command {
    /// The catalogue for type inference and mapping.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"serve"`.
    var name: String { "serve" }
    /// One line of help.
    var abstract: String { "Serve the clipboard or files as a session on standard input and output (for ssh)." }
    /// Rules and examples.
    var discussion: String {
        """
        The far side of `transferkit paste --from ssh://HOST`, which runs `ssh HOST transferkit serve --stdio`: you
        seldom run it yourself. It speaks the session protocol (Schemas/transfer-session.md, section 8) on its
        standard input and output, and exits when the other side closes them.

        Without FILE it serves the clipboard (--primary: the primary selection) as the display server holds it when
        the near side connects: the near side sees every type at once, and each is read from the clipboard's owner
        only when the near side loads it. With FILE… it serves those files (or one archive's items) instead, and
        needs no display server. Nothing else on the machine is reachable: the near side can load only what this
        command offers.

        --stdio is required: standard input and output are the only transport (ssh, `docker exec -i`, `kubectl exec
        -i` carry them); TransferKit never listens on a network port.

        EXAMPLES:
          ssh build-server transferkit serve --stdio
          ssh build-server transferkit serve --stdio report.pdf
          docker exec -i box transferkit serve --stdio
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--stdio"], help: "Serve on standard input and output (required)."),
                .init(
                    names: ["--primary"],
                    help: "Serve the primary selection (middle-click paste) instead of the clipboard."),
                .init(
                    names: ["--backend"], valueName: "x11|wayland|wayland-focus",
                    help: "The display protocol, as for paste."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "FILE", help: "Files, or one archive, to serve instead of the clipboard.")
        )
    }

    /// Serves until the near side disconnects.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        guard arguments.flag("--stdio") else {
            throw UsageError("serve needs --stdio: it serves on standard input and output, which ssh carries")
        }
        let paths = arguments.positionals
        if !paths.isEmpty {
            if arguments.flag("--primary") || arguments.value("--backend") != nil {
                throw UsageError("--primary and --backend choose a clipboard; FILE… serves files instead")
            }
            if paths.contains("-") {
                throw UsageError("standard input carries the session; it cannot be served as a file (-)")
            }
            let inputs = try paths.map { try InputFile(path: $0) }
            let items = try CommandLineItems.make(inputs, paths: paths, type: nil, catalog: catalog)
            try await serve(items.providers)
            withExtendedLifetime((inputs, items.spools)) {}
            return .success
        }
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        // Read when the near side connects: the types the owner offers now, each loaded from it when asked.
        let providers = try await clipboard.read(from: ClipboardCommandOptions.selection(arguments))
        try await serve(providers.filter { !$0.registeredTypes.isEmpty })
        return .success
    }

    /// Serves `providers`, one item each, on standard input and output until the near side disconnects.
    private func serve(_ providers: [TransferProvider]) async throws {
        let items = providers.enumerated().map { index, provider in
            DragItem(id: TransferItemID(String(index)), provider: provider)
        }
        // No source: nothing here can be moved away (a move would need someone to remove the originals).
        let session = DragSession(items: items, source: nil, allowsMoveOperation: false)
        try await DragSessionPublication.serve(session, timeout: ClipboardCommandOptions.timeout)
    }
}
