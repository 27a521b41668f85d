import TransferDisplay

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What stands between this process and the terminal emulator that acts on OSC 52: nothing, tmux or GNU screen.
package enum TerminalMultiplexer: String, Sendable, CaseIterable {
    /// The terminal emulator reads what the process writes.
    case none
    /// tmux (`$TMUX` is set): a sequence is wrapped in tmux's passthrough (`ESC P tmux; … ESC \`), which tmux 3.3
    /// and later forward only with `set -g allow-passthrough on`.
    case tmux
    /// GNU screen (`$STY` is set): a sequence is cut into device-control strings that fit screen's 768-byte buffer.
    case screen

    /// The multiplexer `environment` says the process runs in: tmux when `TMUX` is set (it wins when screen runs
    /// inside tmux's pane or the other way round, as the innermost one sets its variable last), else screen when
    /// `STY` is set, else none.
    package static func detect(environment: [String: String]) -> TerminalMultiplexer {
        if let tmux = environment["TMUX"], !tmux.isEmpty { return .tmux }
        if let screen = environment["STY"], !screen.isEmpty { return .screen }
        return .none
    }
}

/// OSC 52, the terminal's clipboard control: the bytes that set or ask for a terminal's selection, and the reading
/// of its answer. Pure: no terminal is touched (``TerminalClipboard`` writes and reads them).
///
/// `ESC ] 52 ; c ; <base64 of the text> BEL` sets the clipboard (`p` the primary selection); `ESC ] 52 ; c ; ? BEL`
/// asks for it, and a terminal that allows it answers `ESC ] 52 ; c ; <base64> BEL` (or `ESC \` as the end).
///
/// Limits. OSC 52 carries text, so the text must be UTF-8, and terminals bound what they accept:
/// - hterm (ChromeOS) and the editors' OSC 52 plug-ins that follow it drop a sequence over 100 000 bytes, which
///   holds 74 994 bytes of text: ``defaultTextLimit``, the default, a size every terminal with OSC 52 accepts.
/// - xterm (patch 379) sets no size limit; it acts on OSC 52 only when window operations allow it
///   (`allowWindowOps`, or `SetSelection` and `GetSelection` out of `disallowedWindowOps`).
/// - tmux keeps an escape sequence in a 1 MiB input buffer (``tmuxInputLimit``) and discards a longer one whole.
/// - GNU screen keeps a device-control string in a 768-byte buffer (``screenStringLimit``): the sequence is sent in
///   pieces of ``screenChunkSize`` bytes of base64, each its own string.
/// - kitty accepts sequences of any length (it splits long ones itself, up to 8 MB of text).
package enum TerminalClipboardSequence {
    /// The most text sent by default: 74 994 bytes, whose base64 and the OSC 52 framing make the 100 000-byte
    /// sequence that hterm (and the plug-ins that copied its rule) accept.
    package static let defaultTextLimit = 74_994
    /// tmux's input buffer: a longer sequence is discarded by tmux without a word.
    package static let tmuxInputLimit = 1 << 20
    /// GNU screen's buffer for one device-control string.
    package static let screenStringLimit = 768
    /// The bytes of base64 in each of screen's device-control strings: well inside ``screenStringLimit`` with the
    /// framing.
    package static let screenChunkSize = 512

    /// The selection parameter of OSC 52: `c` for the clipboard, `p` for the primary selection.
    package static func parameter(_ selection: ClipboardSelection) -> String {
        selection == .primary ? "p" : "c"
    }

    /// The bytes that put `text` on the terminal's `selection`, wrapped for `multiplexer`.
    /// - Parameters:
    ///   - text: The text, UTF-8.
    ///   - limit: The most bytes of text allowed (``defaultTextLimit`` by default).
    /// - Throws: `ClipboardError.notText` when `text` is not UTF-8 (OSC 52 carries text), `.limitExceeded` when it
    ///   is longer than `limit`, or when the sequence would not fit tmux's input buffer.
    package static func copy(
        _ text: [UInt8], to selection: ClipboardSelection = .clipboard, multiplexer: TerminalMultiplexer = .none,
        limit: Int = defaultTextLimit
    ) throws(ClipboardError) -> [UInt8] {
        guard String(validating: text, as: UTF8.self) != nil else {
            throw ClipboardError(
                code: .notText,
                message: "OSC 52 carries text, and these \(text.count) bytes are not UTF-8 (first bad byte at offset "
                    + "\(firstInvalidUTF8Offset(text))); nothing was sent to the terminal")
        }
        guard text.count <= limit else {
            throw ClipboardError(
                code: .limitExceeded,
                message: "the text is \(text.count) bytes, over the OSC 52 limit of \(limit) bytes; nothing was sent "
                    + "to the terminal")
        }
        let encoded = Array(Data(text).base64EncodedData())
        let body = Array("\u{1B}]52;\(parameter(selection));".utf8) + encoded + [0x07]
        switch multiplexer {
        case .none:
            return body
        case .tmux:
            let wrapped = tmuxPassthrough(body)
            guard wrapped.count <= tmuxInputLimit else {
                throw ClipboardError(
                    code: .limitExceeded,
                    message: "the OSC 52 sequence for \(text.count) bytes of text is \(wrapped.count) bytes, over "
                        + "tmux's input buffer of \(tmuxInputLimit) bytes (tmux would drop it); nothing was sent")
            }
            return wrapped
        case .screen:
            return screenChunks(body, prefixLength: body.count - encoded.count - 1)
        }
    }

    /// The bytes that ask the terminal for its `selection`. Under tmux the question goes to tmux itself (tmux
    /// answers with its newest paste buffer when `set-clipboard` is on); under screen it is passed through.
    package static func query(
        _ selection: ClipboardSelection = .clipboard, multiplexer: TerminalMultiplexer = .none
    ) -> [UInt8] {
        let body = Array("\u{1B}]52;\(parameter(selection));?".utf8) + [0x07]
        return multiplexer == .screen ? [0x1B, 0x50] + body + [0x1B, 0x5C] : body
    }

    /// What a scan of the bytes read so far found.
    package enum Answer: Equatable, Sendable {
        /// No complete answer yet: read more.
        case incomplete
        /// The answer: the selection's bytes, decoded.
        case text([UInt8])
    }

    /// Finds a terminal's OSC 52 answer in `bytes` (what was read since the query; other bytes before it, such as
    /// keys typed meanwhile, are skipped).
    /// - Throws: `ClipboardError.protocolViolation` when the answer's data is not base64.
    package static func answer(in bytes: [UInt8]) throws(ClipboardError) -> Answer {
        let introducer: [UInt8] = Array("\u{1B}]52;".utf8)
        guard let start = firstRange(of: introducer, in: bytes[...]) else { return .incomplete }
        let content = bytes[start.upperBound...]
        guard let end = content.firstIndex(where: { $0 == 0x07 || $0 == 0x1B }) else { return .incomplete }
        if bytes[end] == 0x1B {
            guard end + 1 < bytes.count else { return .incomplete }
            guard bytes[end + 1] == 0x5C else {
                throw ClipboardError(
                    code: .protocolViolation, message: "the terminal's OSC 52 answer ends with an unexpected escape")
            }
        }
        let fields = content[..<end]
        guard let separator = fields.firstIndex(of: UInt8(ascii: ";")) else {
            throw ClipboardError(
                code: .protocolViolation, message: "the terminal's OSC 52 answer has no data field")
        }
        let data = fields[(separator + 1)...]
        guard let decoded = Data(base64Encoded: Data(data)) else {
            throw ClipboardError(
                code: .protocolViolation,
                message: "the terminal's OSC 52 answer is not base64 (\(data.count) bytes of data)")
        }
        return .text(Array(decoded))
    }

    /// The most bytes an answer to a query may take for `limit` bytes of text: its base64 and the framing.
    package static func answerLimit(forTextLimit limit: Int) -> Int {
        let (groups, overflow) = ((limit / 3) + 1).multipliedReportingOverflow(by: 4)
        return overflow ? Int.max : groups + 64
    }

    /// `body` inside tmux's passthrough: `ESC P tmux;`, the body with each `ESC` doubled, `ESC \`.
    private static func tmuxPassthrough(_ body: [UInt8]) -> [UInt8] {
        var wrapped = Array("\u{1B}Ptmux;".utf8)
        wrapped.reserveCapacity(body.count + 16)
        for byte in body {
            if byte == 0x1B { wrapped.append(0x1B) }
            wrapped.append(byte)
        }
        return wrapped + [0x1B, 0x5C]
    }

    /// `body` cut into device-control strings (`ESC P … ESC \`) for screen: the first holds the introducer
    /// (`prefixLength` bytes) and the first chunk of base64, each next one ``screenChunkSize`` bytes more, the last
    /// one the end (`BEL`).
    private static func screenChunks(_ body: [UInt8], prefixLength: Int) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        var first = true
        while index < body.count {
            let length = first ? prefixLength + screenChunkSize : screenChunkSize
            let end = min(body.count, index + length)
            output += [0x1B, 0x50] + body[index..<end] + [0x1B, 0x5C]
            index = end
            first = false
        }
        return output
    }

    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index..<(index + needle.count) }
            index += 1
        }
        return nil
    }

    /// The offset of the first byte where `bytes` stops being UTF-8 (`bytes.count` when it never does).
    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput, .error: return offset
            }
        }
    }
}
