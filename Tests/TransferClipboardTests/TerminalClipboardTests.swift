import Foundation
import Testing
import TransferClipboard
import TransferKitPlatform
import TransferKitTestSupport

/// The bytes of `text`.
private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("OSC 52: the sequences, their limits and the terminal's answer", .timeLimit(.minutes(5)))
struct TerminalClipboardSequenceTests {
    @Test("a text becomes ESC ] 52 ; c ; base64 BEL; the primary selection is p")
    func plainSequence() throws {
        #expect(try TerminalClipboardSequence.copy(bytes("héllo")) == bytes("\u{1B}]52;c;aMOpbGxv\u{07}"))
        #expect(try TerminalClipboardSequence.copy(bytes("hi"), to: .primary) == bytes("\u{1B}]52;p;aGk=\u{07}"))
        #expect(try TerminalClipboardSequence.copy([]) == bytes("\u{1B}]52;c;\u{07}"))
    }

    @Test("under tmux the sequence is wrapped in tmux's passthrough, its escapes doubled")
    func tmuxPassthrough() throws {
        let sequence = try TerminalClipboardSequence.copy(bytes("hi"), multiplexer: .tmux)
        #expect(sequence == bytes("\u{1B}Ptmux;\u{1B}\u{1B}]52;c;aGk=\u{07}\u{1B}\\"))
    }

    @Test("under screen the sequence is cut into strings that each fit screen's 768-byte buffer and join to it")
    func screenChunks() throws {
        let text = [UInt8](repeating: UInt8(ascii: "x"), count: 3000)
        let plain = try TerminalClipboardSequence.copy(text)
        let chunked = try TerminalClipboardSequence.copy(text, multiplexer: .screen)
        let pieces = try #require(Self.screenPieces(chunked), "only ESC P … ESC \\ strings")
        #expect(pieces.count >= 8)
        for piece in pieces { #expect(piece.count + 4 <= TerminalClipboardSequence.screenStringLimit) }
        #expect(Array(pieces.joined()) == plain)
    }

    /// The payloads of the `ESC P … ESC \` strings `bytes` is made of, in order; `nil` when it holds anything else.
    static func screenPieces(_ bytes: [UInt8]) -> [[UInt8]]? {
        var pieces: [[UInt8]] = []
        var index = 0
        while index + 1 < bytes.count, bytes[index] == 0x1B, bytes[index + 1] == 0x50 {
            var end = index + 2
            while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
            guard end + 1 < bytes.count else { return nil }
            pieces.append(Array(bytes[(index + 2)..<end]))
            index = end + 2
        }
        return index == bytes.count ? pieces : nil
    }

    @Test("text over the limit is refused with limitExceeded naming the limit; text at the limit is sent")
    func limit() throws {
        let atLimit = [UInt8](repeating: 0x61, count: TerminalClipboardSequence.defaultTextLimit)
        let sequence = try TerminalClipboardSequence.copy(atLimit)
        #expect(sequence.count == 100_000, "74 994 bytes of text make hterm's 100 000-byte sequence")
        let error = #expect(throws: ClipboardError.self) {
            try TerminalClipboardSequence.copy(atLimit + [0x61])
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("74994") == true, "\(error?.message ?? "")")
        let small = #expect(throws: ClipboardError.self) {
            try TerminalClipboardSequence.copy(bytes("hello"), limit: 4)
        }
        #expect(small?.code == .limitExceeded)
    }

    @Test("under tmux a sequence over tmux's 1 MiB input buffer is refused even within a raised limit")
    func tmuxBuffer() throws {
        let text = [UInt8](repeating: 0x61, count: 800_000)
        #expect(try TerminalClipboardSequence.copy(text, limit: 1 << 21).count < 1_100_000)
        let error = #expect(throws: ClipboardError.self) {
            try TerminalClipboardSequence.copy(text, multiplexer: .tmux, limit: 1 << 21)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("tmux") == true)
    }

    @Test("bytes that are not UTF-8 are refused with notText, saying where they stop being UTF-8")
    func notUTF8() {
        let error = #expect(throws: ClipboardError.self) {
            try TerminalClipboardSequence.copy(bytes("ok ✓") + [0xFF, 0x41])
        }
        #expect(error?.code == .notText)
        #expect(error?.message.contains("offset 6") == true, "\(error?.message ?? "")")
    }

    @Test("the query asks with ?; under screen it is passed through")
    func query() {
        #expect(TerminalClipboardSequence.query() == bytes("\u{1B}]52;c;?\u{07}"))
        #expect(TerminalClipboardSequence.query(.primary, multiplexer: .tmux) == bytes("\u{1B}]52;p;?\u{07}"))
        #expect(TerminalClipboardSequence.query(multiplexer: .screen) == bytes("\u{1B}P\u{1B}]52;c;?\u{07}\u{1B}\\"))
    }

    @Test(
        "an answer is found after other bytes, ended by BEL or ESC \\; a partial one asks for more",
        arguments: [
            ("noise\u{1B}]52;c;aMOpbGxv\u{07}", TerminalClipboardSequence.Answer.text(bytes("héllo"))),
            ("\u{1B}]52;c;aGk=\u{1B}\\", .text(bytes("hi"))),
            ("\u{1B}]52;;\u{07}", .text([])),
            ("\u{1B}]52;c;aGk=", .incomplete),
            ("\u{1B}]52;c;aGk=\u{1B}", .incomplete),
            ("\u{1B}]5", .incomplete),
            ("", .incomplete),
        ])
    func answers(input: String, expected: TerminalClipboardSequence.Answer) throws {
        #expect(try TerminalClipboardSequence.answer(in: bytes(input)) == expected)
    }

    @Test("an answer that is not base64, or lacks its data field, is a protocolViolation")
    func badAnswers() {
        for input in ["\u{1B}]52;c;@@@@\u{07}", "\u{1B}]52;c\u{07}", "\u{1B}]52;c;aGk=\u{1B}x"] {
            let error = #expect(throws: ClipboardError.self) { try TerminalClipboardSequence.answer(in: bytes(input)) }
            #expect(error?.code == .protocolViolation, "\(input.debugDescription)")
        }
    }

    @Test("tmux is found from TMUX, screen from STY, tmux first")
    func multiplexer() {
        #expect(TerminalMultiplexer.detect(environment: [:]) == .none)
        #expect(TerminalMultiplexer.detect(environment: ["TMUX": ""]) == .none)
        #expect(TerminalMultiplexer.detect(environment: ["TMUX": "/tmp/tmux-0/default,1,0"]) == .tmux)
        #expect(TerminalMultiplexer.detect(environment: ["STY": "1.pts-0.host"]) == .screen)
        #expect(TerminalMultiplexer.detect(environment: ["STY": "1", "TMUX": "/t,1,0"]) == .tmux)
    }

    @Test("a terminal session: SSH_TTY set, or neither display variable set")
    func terminalSession() {
        let isTerminal = ClipboardSessionReport.Terminal.isTerminalSession
        #expect(isTerminal([:]))
        #expect(isTerminal(["SSH_TTY": "/dev/pts/1", "DISPLAY": ":0"]))
        #expect(!isTerminal(["DISPLAY": ":0"]))
        #expect(!isTerminal(["WAYLAND_DISPLAY": "wayland-0"]))
    }
}

@Suite("OSC 52 on a pseudo-terminal: the query, the answer and the deadline", .timeLimit(.minutes(5)))
struct TerminalClipboardPseudoTerminalTests {
    /// Reads from the controller end until `count` bytes came (the terminal emulator's side of the pty).
    static func readFromController(_ controller: Int32, count: Int) throws -> [UInt8] {
        let device = TerminalDevice(adopting: controller)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < count {
            guard let read = try device.read(into: &buffer, waitingAtMost: .seconds(30)), read > 0 else { break }
            received += buffer[..<read]
        }
        return received
    }

    /// The 9 bytes of the query, read on a thread of its own (the paste blocks one too: the test pool has two).
    static func query(from controller: Int32) async throws -> [UInt8] {
        try await onThreadOfItsOwn { try readFromController(controller, count: 9) }
    }

    @Test("copy writes the sequence to the terminal, which the emulator's side reads as sent")
    func copyWrites() throws {
        let (controller, terminal) = try TerminalDevice.openPseudoTerminal()
        defer {
            Syscall.close(controller)
            Syscall.close(terminal)
        }
        let clipboard = TerminalClipboard(terminal: TerminalDevice(adopting: terminal), multiplexer: .none)
        try clipboard.copy(bytes("hi"), to: .clipboard)
        let expected = bytes("\u{1B}]52;c;aGk=\u{07}")
        #expect(try Self.readFromController(controller, count: expected.count) == expected)
    }

    /// Starts a paste on a new pseudo-terminal, with `textLimit` and `deadline`, checks that the query reaches the
    /// emulator's side (the paste then waits for the answer), and gives `body` that side and the paste. Without a
    /// `deadline` the paste has none: the test is not about one, and the suite's time limit ends a hang.
    static func paste(
        textLimit: Int = TerminalClipboardSequence.defaultTextLimit, deadline: Deadline = .never,
        _ body: (_ emulator: TerminalDevice, _ paste: BackgroundPaste) async throws -> Void
    ) async throws {
        let (controller, terminal) = try TerminalDevice.openPseudoTerminal()
        defer {
            Syscall.close(controller)
            Syscall.close(terminal)
        }
        let clipboard = TerminalClipboard(
            terminal: TerminalDevice(adopting: terminal), multiplexer: .none, textLimit: textLimit)
        let paste = BackgroundPaste(clipboard, deadline: deadline)
        #expect(try await query(from: controller) == bytes("\u{1B}]52;c;?\u{07}"))
        try await body(TerminalDevice(adopting: controller), paste)
    }

    @Test("paste sends the query and returns the answer the emulator writes back")
    func pasteReadsTheAnswer() async throws {
        try await Self.paste { emulator, paste in
            try emulator.write(bytes("\u{1B}]52;c;aMOpbGxv\u{1B}\\"))
            #expect(try await paste.value() == bytes("héllo"))
        }
    }

    @Test("a terminal that never answers fails the paste with timedOut at the deadline, on a manual clock")
    func silentTerminal() async throws {
        let clock = WireClock.manual()
        // The query arrived: the paste waits for the answer, which never comes.
        try await Self.paste(deadline: .after(.seconds(5), on: clock)) { _, paste in
            clock.advance(by: .seconds(5))
            let error = await #expect(throws: ClipboardError.self) { try await paste.value() }
            #expect(error?.code == .timedOut)
            #expect(error?.message.contains("OSC 52") == true)
        }
    }

    @Test("an answer longer than the limit allows is refused with limitExceeded")
    func oversizeAnswer() async throws {
        try await Self.paste(textLimit: 30) { emulator, paste in
            try emulator.write(bytes("\u{1B}]52;c;" + String(repeating: "QUFB", count: 40)))
            let error = await #expect(throws: ClipboardError.self) { try await paste.value() }
            #expect(error?.code == .limitExceeded)
        }
    }
}

/// A paste on a thread of its own from the moment it is made: a task could wait for the test pool's two threads,
/// which other suites' synchronous work may hold for many seconds, while the test waits for the query.
final class BackgroundPaste: Sendable {
    private let outcome = SanitizedMutex<Result<[UInt8], ClipboardError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `clipboard.paste(from: .clipboard, deadline: deadline)`.
    init(_ clipboard: TerminalClipboard, deadline: Deadline) {
        let thread = Thread { [self] in
            let result = Result { () throws(ClipboardError) in
                try clipboard.paste(from: .clipboard, deadline: deadline)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.start()
    }

    /// What the paste returned or threw, once it has ended.
    func value() async throws -> [UInt8] {
        let result = try await onThreadOfItsOwn { [self] in
            done.wait()
            done.signal()
            return outcome.withLock { $0 }
        }
        return try #require(result).get()
    }
}
