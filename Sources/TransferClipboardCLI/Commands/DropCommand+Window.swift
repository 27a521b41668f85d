import TransferClipboard
import TransferDesktop
import TransferKit
import TransferKitCLI
import TransferSessions

extension DropCommand {
    /// Opens the window and takes `count` drops into `destination`, printing a line per item.
    /// - Throws: ``CommandFailure`` (`empty`) when the window closes before; what writing failed with.
    func drop(
        count: Int, into destination: Destination, maximumSize: Int64, choice: ClipboardBackendChoice,
        context: CommandContext
    ) async throws {
        let window = try await DesktopCommandOptions.openWindow(
            title: "transferkit drop", lines: Self.lines(received: 0, of: count), choice: choice, catalog: catalog,
            maximumDropSize: maximumSize)
        defer { window.close() }
        var received = 0
        var refusedFiles = 0
        var snapshots: [CommandLineItems] = []
        // A TransferKit drag that allows a move (`drag --move`) is moved, exactly once through its session; any other
        // program's drag is copied, so a file manager or an editor never deletes its data because of this window.
        let drops = window.drops { offer in
            DropProposal(operation: offer.isFromTransferKit && offer.allowedOperations.contains(.move) ? .move : .copy)
        }
        for try await drop in drops {
            let result: DropResult<CommandLineItems?>
            do {
                result = try await Self.unwrappingCommitErrors {
                    try await drop.perform { session, _ -> CommandLineItems? in
                        let providers = session.items.map(\.provider)
                        // An offer of nothing this can take (another program's file promise alone, XdndDirectSave0)
                        // is no drop: declined, not counted.
                        guard providers.contains(where: { !$0.registeredTypes.isEmpty }) else {
                            throw NothingToTake()
                        }
                        switch destination {
                        case .folder(let folder, let copyingFiles):
                            refusedFiles += try await write(
                                providers, into: folder, copyingFiles: copyingFiles, maximumSize: maximumSize,
                                context: context)
                            return nil
                        case .archive:
                            let taken = snapshots.reduce(0) { $0 + $1.providers.count }
                            return try await snapshot(providers, firstNumber: taken + 1, context: context)
                        }
                    }
                }
            } catch let failure where Self.failsThisDropAlone(failure) {
                // The source's fault (it died, stayed silent, sent too much, offered nothing to take): that drop
                // alone fails; the window waits for the next.
                try context.standardError.writeLine(Self.failureLine(failure, source: drop.source))
                continue
            }
            if let items = result.value ?? nil { snapshots.append(items) }
            received += 1
            if received == count { break }
            try await window.show(lines: Self.lines(received: received, of: count))
        }
        guard received == count else {
            throw CommandFailure(
                code: .empty, message: "the window closed after \(received) of \(count) drops")
        }
        if case .archive(let path, let format) = destination {
            try await PasteCommand.archive(
                snapshots.flatMap(\.providers), budget: nil, format: format, output: path, context: context)
            withExtendedLifetime(snapshots) {}
        }
        if refusedFiles > 0 {
            let files = refusedFiles == 1 ? "1 dropped file was" : "\(refusedFiles) dropped files were"
            throw ToolIOError(code: .openFailed, message: "\(files) not copied (named above)")
        }
    }

    /// A drop that offers nothing `drop` can write.
    struct NothingToTake: Error {}

    /// Whether `failure` is a drop's own (its source's fault: it died, stayed silent, passed the size limit, broke
    /// the protocol, offered nothing to take), which fails that drop alone; anything else (this side cannot write)
    /// ends the command.
    static func failsThisDropAlone(_ failure: any Error) -> Bool {
        switch failure {
        case is NothingToTake, is ClipboardError: true
        case let error as TransferSessionError: error.code != .commitFailed
        default: false
        }
    }

    /// The line printed on standard error for a drop that failed alone.
    static func failureLine(_ failure: any Error, source: String?) -> String {
        let from = source.map { "the drop from \($0)" } ?? "a drop"
        switch failure {
        case is NothingToTake:
            return "transferkit drop: \(from) offers nothing to write (only a file promise?); ignored, not counted"
        case let error as ClipboardError:
            return "transferkit drop: \(from) failed, not counted: \(Self.printable(error.message)) (\(error.code))"
        case let error as TransferSessionError:
            return "transferkit drop: \(from) failed, not counted: \(Self.printable(error.message)) (\(error.code))"
        default:
            return "transferkit drop: \(from) failed, not counted: \(Self.printable("\(failure)"))"
        }
    }

    /// The window's lines: what to do, and how many drops came.
    static func lines(received: Int, of count: Int) -> [String] {
        ["Drop anything here.", count == 1 ? "" : "\(received) of \(count) drops"]
    }

    /// Runs `body`, rethrowing the tool's own error that made a drop's commit fail (a file that cannot be written,
    /// a full disk) as itself, so the tool prints its code rather than the session's `commitFailed` around it.
    static func unwrappingCommitErrors<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as TransferSessionError where error.code == .commitFailed && error.cause != nil {
            throw error.cause ?? error
        }
    }
}
