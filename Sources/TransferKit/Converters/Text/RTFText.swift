import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// RTF to plain text, for the subset that word processors and browsers put on the clipboard: groups, control words
/// and symbols, paragraphs, line breaks and tabs, `\'hh` characters (Windows-1252, RTF's default `\ansi` code page),
/// `\uN` Unicode characters with their `\ucN` fallbacks skipped, the typographic words (`\emdash`, `\lquote`, …), and
/// destinations that hold no body text (font, colour and style tables, `\info`, pictures, fields' instructions,
/// every `{\*\…}` group) left out.
///
/// Not read: other code pages (`\ansicpg` other than 1252, `\mac`, `\pc`), tables as tables (a cell ends as a tab, a
/// row as a line), footnotes and headers (left out), and objects. The output is UTF-8 with `\n` line ends.
enum RTFText {
    /// Destinations whose content is not body text.
    static let skippedDestinations: Set<String> = [
        "fonttbl", "colortbl", "stylesheet", "info", "pict", "header", "headerl", "headerr", "headerf", "footer",
        "footerl", "footerr", "footerf", "footnote", "fldinst", "object", "themedata", "colorschememapping",
        "listtable", "listoverridetable", "rsidtbl", "generator", "xmlnstbl", "datastore", "latentstyles",
        "mmathPr", "filetbl", "revtbl", "pgdsctbl", "bkmkstart", "bkmkend", "nonshppict", "shpinst", "private",
    ]

    static let words: [String: String] = [
        "par": "\n", "line": "\n", "sect": "\n", "page": "\n", "tab": "\t", "cell": "\t", "row": "\n",
        "emdash": "—", "endash": "–", "emspace": "\u{2003}", "enspace": "\u{2002}", "qmspace": "\u{2005}",
        "bullet": "•", "lquote": "‘", "rquote": "’", "ldblquote": "“", "rdblquote": "”", "zwj": "\u{200D}",
        "zwnj": "\u{200C}",
    ]

    struct Group {
        var isSkipped = false
        var unicodeSkip = 1
    }

    static func plainText(fromRTF data: Data) throws -> Data {
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("{\\rtf".utf8)) else {
            throw TextConversionError(reason: "The RTF document does not start with {\\rtf", offset: 0)
        }
        var output = ""
        var groups = [Group()]
        var index = 0
        var skipFallback = 0  // characters of a \uN fallback still to skip
        func emit(_ text: String) {
            guard groups.last?.isSkipped != true else { return }
            if skipFallback > 0 {
                skipFallback -= 1
                return
            }
            output += text
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                guard groups.count < 1_000 else {
                    throw TextConversionError(reason: "The RTF groups nest deeper than 1000", offset: index)
                }
                groups.append(groups.last ?? Group())
                skipFallback = 0
                index += 1
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "*") {
                    groups[groups.count - 1].isSkipped = true
                }
            case UInt8(ascii: "}"):
                if groups.count > 1 { groups.removeLast() }
                skipFallback = 0
                index += 1
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                index += 1
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let next = bytes[index]
                if isLetter(next) {
                    let start = index
                    while index < bytes.count, isLetter(bytes[index]) { index += 1 }
                    let word = String(decoding: bytes[start..<index], as: UTF8.self)
                    var parameter: Int?
                    var negative = false
                    if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                        negative = true
                        index += 1
                    }
                    var digits = 0
                    var value = 0
                    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                        if digits < 10 { value = value * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                        digits += 1
                        index += 1
                    }
                    if digits > 0 { parameter = negative ? -value : value }
                    if index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
                    if skippedDestinations.contains(word) {
                        groups[groups.count - 1].isSkipped = true
                    } else if word == "bin", let parameter, parameter >= 0 {
                        // \binN: N bytes of binary data follow, which may hold any byte, braces and backslashes
                        // included; they are never text.
                        index += min(parameter, bytes.count - index)
                    } else if word == "u", let parameter {
                        let value = parameter < 0 ? parameter + 65_536 : parameter
                        let scalar = Unicode.Scalar(UInt32(clamping: value)) ?? "\u{FFFD}"
                        // A NUL is no text (\u0 in a hostile document); its fallback is still skipped.
                        emit(scalar == "\0" ? "" : String(scalar))
                        skipFallback = groups.last?.unicodeSkip ?? 1
                    } else if word == "uc", let parameter {
                        groups[groups.count - 1].unicodeSkip = max(0, parameter)
                    } else if let text = words[word] {
                        emit(text)
                    }
                } else if next == UInt8(ascii: "'") {
                    if index + 2 < bytes.count,
                        let high = CharacterReference.hexDigit(Unicode.Scalar(bytes[index + 1])),
                        let low = CharacterReference.hexDigit(Unicode.Scalar(bytes[index + 2]))
                    {
                        let code = high << 4 | low
                        let scalar = CharacterReference.windows1252[code] ?? Unicode.Scalar(UInt8(code))
                        emit(code == 0 ? "" : String(scalar))
                        index += 3
                    } else {
                        index += 1
                    }
                } else {
                    index += 1
                    switch next {
                    case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"): emit(String(Unicode.Scalar(next)))
                    case UInt8(ascii: "~"): emit("\u{A0}")
                    case UInt8(ascii: "_"): emit("\u{2011}")
                    case UInt8(ascii: "\n"), UInt8(ascii: "\r"): emit("\n")
                    case UInt8(ascii: "*"): groups[groups.count - 1].isSkipped = true
                    default: break  // \- (an optional hyphen), \: (an index subentry), \| (a formula)
                    }
                }
            case UInt8(ascii: "\t"):
                emit("\t")
                index += 1
            default:
                // Plain text: a run of bytes up to the next special one, read as Windows-1252 above ASCII.
                let start = index
                while index < bytes.count, !isSpecial(bytes[index]) { index += 1 }
                if groups.last?.isSkipped == true { continue }
                for byte in bytes[start..<index] where byte != 0 {
                    emit(
                        byte < 0x80
                            ? String(Unicode.Scalar(byte))
                            : String(CharacterReference.windows1252[UInt32(byte)] ?? Unicode.Scalar(byte)))
                }
            }
        }
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            while line.last == " " { line = line.dropLast() }
            return line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return Data(lines.joined(separator: "\n").utf8)
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "\\")
            || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
    }
}

/// `text/uri-list` to a newline list (a path per line for a file URL, the URL for others), streaming: only the
/// line a chunk ends inside is kept between chunks, never the list's URLs.
struct URIListToNewlineList: TransferChunkConversion {
    /// The bytes after the last line end seen.
    var pending: [UInt8] = []
    var wroteLine = false

    mutating func convert(_ chunk: Data) throws -> Data {
        guard let lastEnd = chunk.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
            pending.append(contentsOf: chunk)
            return Data()
        }
        var lines = pending
        pending = Array(chunk[(lastEnd + 1)...])
        lines.append(contentsOf: chunk[..<lastEnd])
        return try Data(newlineList(lines))
    }

    mutating func finish() throws -> Data {
        defer { pending = [] }
        return try Data(newlineList(pending))
    }

    /// The entries of whole lines (a line end never falls inside a UTF-8 character), as `URL.list(fromURIList:)`
    /// reads them: trimmed, `#` comments and empty lines left out, each an absolute URL.
    private mutating func newlineList(_ lines: [UInt8]) throws -> [UInt8] {
        let text = try String(transferData: Data(lines), type: .uriList, charset: "utf-8")
        var output: [UInt8] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let entry = line.trimming(.whitespaces)
            guard !entry.isEmpty, !entry.hasPrefix("#") else { continue }
            guard let url = URL(string: entry), url.scheme != nil else {
                throw TransferError(
                    code: .decodingFailed, message: "'\(entry.prefix(256))' in a text/uri-list is not an absolute URL.",
                    source: UniformType.uriList.identifier)
            }
            if wroteLine { output.append(0x0A) }
            output.append(contentsOf: (url.isFileURL ? url.path : url.absoluteString).utf8)
            wroteLine = true
        }
        return output
    }
}

/// A newline list back to a `text/uri-list`.
enum FileListText {
    static func uriList(fromNewlineList data: Data) throws -> Data {
        let text = String(decoding: data, as: UTF8.self)
        var urls: [URL] = []
        var offset = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            defer { offset += line.utf8.count + 1 }
            let entry = line.hasSuffix("\r") ? line.dropLast() : line
            guard !entry.isEmpty else { continue }
            if entry.hasPrefix("/") {
                urls.append(URL(fileURLWithPath: String(entry)))
            } else if let url = URL(string: String(entry)), url.scheme != nil {
                urls.append(url)
            } else {
                throw TextConversionError(
                    reason: "'\(entry)' is neither an absolute path nor an absolute URL", offset: offset)
            }
        }
        return URL.uriList(urls)
    }
}
