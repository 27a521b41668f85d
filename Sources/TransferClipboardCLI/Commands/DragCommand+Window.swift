import TransferClipboard
import TransferDesktop
import TransferKitCLI
import TransferKitPlatform
import TransferSessions

extension DragCommand {
    /// Opens the window and drags `entries` from it until a drop with `andExit`, until every file has moved with
    /// `move`, or until the window closes; prints a line after each drag.
    /// - Parameter filePromise: A file each drag promises (XDS on X11), written where a target that asks wants it.
    /// - Returns: 0 after a drop (with `andExit`: the one drop), 1 when no drag was dropped, 2 when a moved file
    ///   could not be removed (each such file is named on standard error as it happens).
    func drag(
        _ entries: [DraggedEntry], move: Bool, andExit: Bool, choice: ClipboardBackendChoice, context: CommandContext,
        filePromise: DesktopFilePromise? = nil
    ) async throws -> ExitCode {
        let window = try await DesktopCommandOptions.openWindow(
            title: "transferkit drag", lines: Self.lines(entries, move: move), choice: choice, catalog: catalog)
        defer { window.close() }
        var remaining = entries
        var dropped = false
        var removalFailed = false
        var lastReport: String?
        while !remaining.isEmpty {
            let source = move ? MovedFiles(remaining) : nil
            let session = DragSession(
                items: remaining.map { DragItem(id: $0.id, provider: $0.provider) }, source: source,
                allowsMoveOperation: move, allowsMoveToOtherApplications: move)
            let result: DesktopDragResult
            do {
                result = try await window.drag(session, filePromise: filePromise)
            } catch let error as ClipboardError where error.code == .cancelled && !andExit {
                // The window was closed before this drag could begin (between two drags, or before the first was
                // ready): the drags are over, said as a drag that the closing ended says it, once.
                if lastReport != Self.windowClosedReport {
                    try context.standardOutput.writeLine(Self.windowClosedReport)
                }
                break
            }
            let report = Self.report(result)
            lastReport = report
            try context.standardOutput.writeLine(report)
            if move, result.operation == .copy, let reason = result.reason {
                // A target that answered `move` without reading the files: they stay.
                try context.standardError.writeLine("transferkit drag: \(reason)")
            }
            dropped = dropped || result.operation.transfersItems
            for failure in source?.takeFailures() ?? [] {
                removalFailed = true
                try context.standardError.writeLine(Self.removalFailureLine(failure))
            }
            if andExit { break }
            if let source, !source.removed.isEmpty {
                let removed = Set(source.removed)
                remaining.removeAll { removed.contains($0.id) }
                try await window.show(lines: Self.lines(remaining, move: move))
            }
        }
        if removalFailed { return .usageError }  // 2, as the tool exits for any other failed I/O
        return dropped ? .success : .failure
    }

    /// The line printed on standard error for a file the target moved that could not be removed.
    static func removalFailureLine(_ failure: SystemError) -> String {
        "transferkit drag: cannot remove \(failure.path ?? "the file") after the target moved it, it is still there: "
            + "\(failure.reason) (errno \(failure.errorNumber)) (ioFailed)"
    }

    /// The window's lines: what to do, then one line per item.
    static func lines(_ entries: [DraggedEntry], move: Bool) -> [String] {
        let what = entries.count == 1 ? "this item" : "these \(entries.count) items"
        return ["Drag \(what) onto another window" + (move ? " (a move removes the files)" : "") + ":"]
            + entries.map { "  " + $0.label }
    }

    /// The line of a drag that ended because the window closed (the reason both backends give).
    static let windowClosedReport = "not dropped: the window was closed"

    /// The line printed after a drag: `dropped ACTION TARGET` (`-` when the protocol names no target window), or
    /// `not dropped: REASON` (refused, cancelled, or the target failed).
    static func report(_ result: DesktopDragResult) -> String {
        guard result.operation.transfersItems else { return "not dropped: \(result.reason ?? "cancelled")" }
        return "dropped \(result.operation) \(result.target ?? "-")"
    }
}
