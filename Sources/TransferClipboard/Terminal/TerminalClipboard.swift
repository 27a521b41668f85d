import TransferDisplay
package import TransferKitPlatform

/// The terminal's clipboard through OSC 52: writes ``TerminalClipboardSequence``'s bytes to a terminal, and asks it
/// for its selection, waiting for the answer no longer than a deadline.
package struct TerminalClipboard: Sendable {
    /// The terminal written to and read from.
    package var terminal: TerminalDevice
    /// What stands between this process and the terminal emulator.
    package var multiplexer: TerminalMultiplexer
    /// The most bytes of text sent, or accepted in an answer.
    package var textLimit: Int

    /// The clipboard of `terminal`, through `multiplexer`, with at most `textLimit` bytes of text each way.
    package init(
        terminal: TerminalDevice, multiplexer: TerminalMultiplexer,
        textLimit: Int = TerminalClipboardSequence.defaultTextLimit
    ) {
        self.terminal = terminal
        self.multiplexer = multiplexer
        self.textLimit = textLimit
    }

    /// The longest the terminal is given, by default, to answer a query: a terminal over a slow SSH link answers
    /// within a second or two; one that does not answer at all should not keep a paste long.
    package static let defaultAnswerTime: Duration = .seconds(5)

    /// Puts `text` on the terminal's `selection`.
    /// - Throws: `ClipboardError` `.notText` or `.limitExceeded` (see ``TerminalClipboardSequence/copy(_:to:multiplexer:limit:)``),
    ///   `.noTerminal` when the write fails.
    package func copy(_ text: [UInt8], to selection: ClipboardSelection) throws(ClipboardError) {
        let bytes = try TerminalClipboardSequence.copy(text, to: selection, multiplexer: multiplexer, limit: textLimit)
        do throws(SystemError) {
            try terminal.write(bytes)
        } catch {
            throw ClipboardError(
                code: .noTerminal, message: "cannot write to the terminal: \(error.reason)", cause: error)
        }
    }

    /// Asks the terminal for its `selection` and reads the answer, with echo and line buffering off meanwhile.
    /// - Parameter deadline: When to give up on the answer.
    /// - Returns: The selection's bytes as the terminal sent them.
    /// - Throws: `ClipboardError.timedOut` when no answer came by `deadline` (the terminal does not answer OSC 52
    ///   queries, or does not allow them), `.protocolViolation` for an answer that cannot be read,
    ///   `.limitExceeded` for one longer than ``textLimit`` allows, `.noTerminal` when the terminal fails or hangs up.
    package func paste(from selection: ClipboardSelection, deadline: Deadline) throws(ClipboardError) -> [UInt8] {
        let mode: TerminalDevice.Mode
        do throws(SystemError) {
            mode = try terminal.enterRawMode()
        } catch {
            throw ClipboardError(
                code: .noTerminal, message: "cannot set up the terminal: \(error.reason)", cause: error)
        }
        defer { try? terminal.restore(mode) }
        do throws(SystemError) {
            try terminal.write(TerminalClipboardSequence.query(selection, multiplexer: multiplexer))
        } catch {
            throw ClipboardError(
                code: .noTerminal, message: "cannot write to the terminal: \(error.reason)", cause: error)
        }
        let answerLimit = TerminalClipboardSequence.answerLimit(forTextLimit: textLimit)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if case .text(let text) = try TerminalClipboardSequence.answer(in: received) { return text }
            guard received.count <= answerLimit else {
                throw ClipboardError(
                    code: .limitExceeded,
                    message: "the terminal's answer is over \(answerLimit) bytes, more than \(textLimit) bytes of text")
            }
            guard !deadline.hasPassed else {
                throw ClipboardError(
                    code: .timedOut,
                    message: "the terminal did not answer the OSC 52 query in time: it may not support reading the "
                        + "clipboard, or not allow it (xterm: allowWindowOps; tmux: set-clipboard on)")
            }
            // Short waits, so that a deadline on a manual clock is noticed too.
            let wait = min(deadline.remaining ?? .milliseconds(50), .milliseconds(50))
            let count: Int?
            do throws(SystemError) {
                count = try terminal.read(into: &buffer, waitingAtMost: wait)
            } catch {
                throw ClipboardError(
                    code: .noTerminal, message: "cannot read from the terminal: \(error.reason)", cause: error)
            }
            guard let count else { continue }
            if count == 0 {
                throw ClipboardError(code: .noTerminal, message: "the terminal hung up before it answered")
            }
            received += buffer[..<count]
        }
    }
}
