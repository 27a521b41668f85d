import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferSessions

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `copy --to ssh://host`: this side of a copy onto another machine's clipboard.
extension CopyCommand {
    /// Offers `items` as a session to `transferkit serve --stdio --receive` on the host, which puts them on its
    /// clipboard and loads each type from here when an application there pastes it; serves until the far clipboard
    /// is taken (or the link ends).
    ///
    /// As a background serving copy it says `ready` once the far side owns its clipboard, so `copy` returns then.
    /// - Throws: ``UsageError`` for a bad location or options that do not apply; ``TransferSessionError`` with
    ///   `disconnected` (ssh's own words added) when the far side cannot be reached or fails before it owns its
    ///   clipboard, `timedOut` when it has not taken it within `--timeout`.
    func copyToRemote(
        _ to: String, items: CommandLineItems, arguments: ParsedArguments, isServingCopy: Bool,
        context: CommandContext
    ) async throws -> ExitCode {
        let location = try RemoteLocation(parsing: to, option: "--to")
        let timeout = try Self.remoteTimeout(arguments)
        var far = ["serve", "--stdio", "--receive"]
        for flag in ["--primary", "--concealed", "--transient", "--paste-once"] where arguments.flag(flag) {
            far.append(flag)
        }
        for option in ["--loops", "--expire"] {
            if let value = arguments.value(option) { far += [option, value] }
        }
        let command = try location.command(running: far, environment: ProcessInfo.processInfo.environment)
        let child = try location.start(command)
        defer { child.terminate() }
        let dragItems = items.providers.enumerated().map { index, provider in
            DragItem(id: TransferItemID(String(index)), provider: provider)
        }
        let session = DragSession(items: dragItems, source: nil, allowsMoveOperation: false)
        // Opened with true once the far side owns its clipboard (its drop, a copy, reserved the items), with false
        // when the session ended before that.
        let owned = Latch<Bool>()
        let serving = Task {
            // No silence limit: the far side says nothing for as long as its clipboard holds the items.
            await DragSessionPublication.serve(
                session, over: child.socket, timeout: timeout, silenceLimit: nil,
                observer: { event in
                    if event == .reserved { _ = owned.open(true) }
                })
            _ = owned.open(false)
        }
        let outcome = try? await owned.wait(until: .after(timeout))
        guard outcome == true else {
            serving.cancel()
            let why = await child.exitReport(until: .after(.seconds(3))).map { " " + $0 } ?? ""
            if outcome == nil {
                throw TransferSessionError(
                    code: .timedOut,
                    message: "The far side of \(location) did not take its clipboard within \(timeout).\(why)",
                    source: location.description)
            }
            throw TransferSessionError(
                code: .disconnected, message: "The far side of \(location) did not take its clipboard.\(why)",
                source: location.description)
        }
        if isServingCopy {
            // Tell the waiting parent, then let go of its pipe: it returns, this process serves on.
            try context.standardOutput.writeLine("ready")
            Syscall.redirectToNullDevice([1, 2])
        }
        await serving.value
        return .success
    }

    /// `--timeout` (with `--to`), or the clipboard's default.
    /// - Throws: ``UsageError`` for a duration that cannot be read.
    static func remoteTimeout(_ arguments: ParsedArguments) throws(UsageError) -> Duration {
        try arguments.value("--timeout").map { value throws(UsageError) in
            try ClipboardCommandOptions.duration(value, option: "--timeout")
        } ?? ClipboardCommandOptions.timeout
    }
}
