#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HTML to plain text, as a reader who pastes a web page's selection into a text field expects: tags stripped,
/// character references decoded, block elements on lines of their own, white space collapsed outside `<pre>`, and
/// what a browser does not show (`<head>`, `<script>`, `<style>`, `<template>`, comments) left out.
///
/// The input is read as UTF-8 (a byte that is not is read as U+FFFD); the output is UTF-8 with `\n` line ends,
/// without leading or trailing blank lines.
enum HTMLText {
    /// Elements whose start and end put the text around them on separate lines.
    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "dd", "details", "dialog", "dir", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "li", "main", "menu", "nav",
        "ol", "option", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
        "caption", "legend",
    ]
    /// Blocks followed by an empty line.
    static let paragraphElements: Set<String> = ["p", "h1", "h2", "h3", "h4", "h5", "h6"]
    /// Elements whose content is not shown.
    static let hiddenElements: Set<String> = ["head", "script", "style", "template", "title", "noscript"]

    /// The UTF-8 bytes the converter reads: the input repaired (each invalid byte becomes U+FFFD).
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The text of `data`, read as UTF-8.
    ///
    /// It works on the UTF-8 bytes (every byte the markup gives a meaning is ASCII) and writes bytes, so it holds
    /// about three times the input at most: the input, its repaired copy and the output.
    static func plainText(fromHTML data: Data) -> Data {
        var text = String(decoding: data, as: UTF8.self)
        let output = text.withUTF8 { bytes in
            var output = TextBuilder()
            var index = 0
            var hidden: String?
            var preformatted = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") {
                    guard let tag = Tag.parse(bytes, at: index) else {
                        if hidden == nil { output.append(byte, preformatted: preformatted > 0) }
                        index += 1
                        continue
                    }
                    index = tag.end
                    if let name = hidden {
                        if tag.isEnd, tag.name == name { hidden = nil }
                        continue
                    }
                    guard let name = tag.name else { continue }  // a comment, a declaration or a processing instruction
                    if hiddenElements.contains(name), !tag.isEnd, !tag.isSelfClosing {
                        hidden = name
                    } else if name == "br" {
                        output.lineBreak()
                    } else if name == "pre" {
                        preformatted = max(0, preformatted + (tag.isEnd ? -1 : 1))
                        output.endLine()
                    } else if paragraphElements.contains(name) {
                        output.endLine()
                        if tag.isEnd { output.blankLine() }
                    } else if name == "td" || name == "th" {
                        if !tag.isEnd { output.cell() }
                    } else if blockElements.contains(name) {
                        output.endLine()
                    }
                    continue
                }
                if hidden != nil {
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "&") {
                    let (decoded, end) = CharacterReference.decode(bytes, at: index)
                    output.append(decoded, preformatted: preformatted > 0)
                    index = end
                    continue
                }
                output.append(byte, preformatted: preformatted > 0)
                index += 1
            }
            return output.finished()
        }
        return Data(output)
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a }
    static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A tag, a comment or a declaration that starts at `<`.
    struct Tag {
        /// The element's lowercased name; `nil` for a comment, `<!…>` or `<?…>`.
        var name: String?
        var isEnd = false
        var isSelfClosing = false
        /// The index after the closing `>`.
        var end: Int

        /// The tag at `start`, or nil when the `<` starts none (HTML's rule: a tag name starts with an ASCII
        /// letter; anything else is text).
        static func parse(_ bytes: Bytes, at start: Int) -> Tag? {
            var index = start + 1
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "?") {
                if bytes.count > index + 2, bytes[index] == UInt8(ascii: "!"), bytes[index + 1] == UInt8(ascii: "-"),
                    bytes[index + 2] == UInt8(ascii: "-")
                {
                    var position = index + 3
                    while position + 2 < bytes.count {
                        if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-"),
                            bytes[position + 2] == UInt8(ascii: ">")
                        {
                            return Tag(name: nil, end: position + 3)
                        }
                        position += 1
                    }
                    return Tag(name: nil, end: bytes.count)
                }
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
                    return Tag(name: nil, end: bytes.count)
                }
                return Tag(name: nil, end: close + 1)
            }
            var tag = Tag(name: nil, end: 0)
            if bytes[index] == UInt8(ascii: "/") {
                tag.isEnd = true
                index += 1
            }
            guard index < bytes.count, isASCIILetter(bytes[index]) else { return nil }
            let nameStart = index
            while index < bytes.count, isASCIILetter(bytes[index]) || isASCIIDigit(bytes[index]) { index += 1 }
            // Names are short; a long run of letters is no element this converter knows.
            let name = String(decoding: bytes[nameStart..<min(index, nameStart + 16)], as: UTF8.self).lowercased()
            // Skip the attributes, honouring quotes, to the closing >.
            var quote: UInt8?
            var previous = UInt8(ascii: " ")
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    tag.isSelfClosing = previous == UInt8(ascii: "/")
                    tag.name = name
                    tag.end = index + 1
                    return tag
                }
                previous = byte
                index += 1
            }
            tag.name = name
            tag.end = bytes.count
            return tag
        }
    }

    /// Builds UTF-8 text line by line, collapsing white space.
    struct TextBuilder {
        var bytes: [UInt8] = []
        /// Whether white space was seen since the last character written.
        var pendingSpace = false

        var isAtLineStart: Bool { bytes.isEmpty || bytes.last == 0x0A }

        /// One byte of the document's text (a non-ASCII character arrives as its bytes, in order).
        mutating func append(_ byte: UInt8, preformatted: Bool, literal: Bool = false) {
            if preformatted {
                bytes.append(byte == 0x0D ? 0x0A : byte)
                pendingSpace = false
                return
            }
            if !literal, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                pendingSpace = true
                return
            }
            if pendingSpace, !isAtLineStart, bytes.last != 0x09 {
                bytes.append(0x20)
            }
            pendingSpace = false
            bytes.append(byte)
        }

        /// A character a reference stands for, written as it is (white space included).
        mutating func append(_ scalar: Unicode.Scalar, preformatted: Bool) {
            UTF8.encode(scalar) { append($0, preformatted: preformatted, literal: true) }
        }

        mutating func lineBreak() {
            trimTrailingSpaces()
            bytes.append(0x0A)
            pendingSpace = false
        }

        mutating func endLine() {
            pendingSpace = false
            trimTrailingSpaces()
            if !isAtLineStart { bytes.append(0x0A) }
        }

        mutating func blankLine() {
            endLine()
            if !bytes.isEmpty, !(bytes.count >= 2 && bytes[bytes.count - 2] == 0x0A && bytes.last == 0x0A) {
                bytes.append(0x0A)
            }
        }

        mutating func cell() {
            pendingSpace = false
            if !isAtLineStart { bytes.append(0x09) }
        }

        mutating func trimTrailingSpaces() {
            while bytes.last == 0x20 || bytes.last == 0x09 { bytes.removeLast() }
        }

        /// The text with spaces and tabs trimmed from each line's end and blank lines from both ends, compacted in
        /// place.
        consuming func finished() -> [UInt8] {
            var written = 0
            var lineStart = 0
            while lineStart <= bytes.count {
                let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
                var trimmedEnd = lineEnd
                while trimmedEnd > lineStart, bytes[trimmedEnd - 1] == 0x20 || bytes[trimmedEnd - 1] == 0x09 {
                    trimmedEnd -= 1
                }
                for at in lineStart..<trimmedEnd {
                    bytes[written] = bytes[at]
                    written += 1
                }
                if lineEnd < bytes.count {
                    bytes[written] = 0x0A
                    written += 1
                }
                lineStart = lineEnd + 1
            }
            bytes.removeSubrange(written...)
            while bytes.last == 0x0A { bytes.removeLast() }
            let leading = bytes.prefix { $0 == 0x0A }.count
            bytes.removeSubrange(0..<leading)
            return bytes
        }
    }
}

/// HTML's character references: `&name;`, `&#decimal;` and `&#xhex;`.
enum CharacterReference {
    /// The named references a text converter meets in practice (HTML's full table has over 2 000): the markup's
    /// own, Latin-1's letters and signs, and typography.
    static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ensp": "\u{2002}",
        "emsp": "\u{2003}", "thinsp": "\u{2009}", "zwnj": "\u{200C}", "zwj": "\u{200D}", "shy": "\u{AD}",
        "copy": "©", "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘",
        "rsquo": "’", "sbquo": "‚", "ldquo": "“", "rdquo": "”", "bdquo": "„", "laquo": "«", "raquo": "»",
        "lsaquo": "‹", "rsaquo": "›", "bull": "•", "middot": "·", "dagger": "†", "Dagger": "‡", "permil": "‰",
        "prime": "′", "Prime": "″", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "curren": "¤",
        "sect": "§", "para": "¶", "deg": "°", "plusmn": "±", "times": "×", "divide": "÷", "micro": "µ",
        "iexcl": "¡", "iquest": "¿", "ordf": "ª", "ordm": "º", "sup1": "¹", "sup2": "²", "sup3": "³",
        "frac14": "¼", "frac12": "½", "frac34": "¾", "not": "¬", "macr": "¯", "acute": "´", "cedil": "¸",
        "uml": "¨", "brvbar": "¦", "larr": "←", "rarr": "→", "uarr": "↑", "darr": "↓", "harr": "↔",
        "minus": "−", "le": "≤", "ge": "≥", "ne": "≠", "infin": "∞", "check": "✓",
        "Agrave": "À", "Aacute": "Á", "Acirc": "Â", "Atilde": "Ã", "Auml": "Ä", "Aring": "Å", "AElig": "Æ",
        "Ccedil": "Ç", "Egrave": "È", "Eacute": "É", "Ecirc": "Ê", "Euml": "Ë", "Igrave": "Ì", "Iacute": "Í",
        "Icirc": "Î", "Iuml": "Ï", "ETH": "Ð", "Ntilde": "Ñ", "Ograve": "Ò", "Oacute": "Ó", "Ocirc": "Ô",
        "Otilde": "Õ", "Ouml": "Ö", "Oslash": "Ø", "Ugrave": "Ù", "Uacute": "Ú", "Ucirc": "Û", "Uuml": "Ü",
        "Yacute": "Ý", "THORN": "Þ", "szlig": "ß", "agrave": "à", "aacute": "á", "acirc": "â", "atilde": "ã",
        "auml": "ä", "aring": "å", "aelig": "æ", "ccedil": "ç", "egrave": "è", "eacute": "é", "ecirc": "ê",
        "euml": "ë", "igrave": "ì", "iacute": "í", "icirc": "î", "iuml": "ï", "eth": "ð", "ntilde": "ñ",
        "ograve": "ò", "oacute": "ó", "ocirc": "ô", "otilde": "õ", "ouml": "ö", "oslash": "ø", "ugrave": "ù",
        "uacute": "ú", "ucirc": "û", "uuml": "ü", "yacute": "ý", "thorn": "þ", "yuml": "ÿ", "OElig": "Œ",
        "oelig": "œ", "Scaron": "Š", "scaron": "š", "Yuml": "Ÿ", "fnof": "ƒ", "circ": "ˆ", "tilde": "˜",
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "pi": "π", "mu": "μ", "Omega": "Ω",
        "omega": "ω", "sigma": "σ", "lambda": "λ",
    ]

    /// The character the reference at `start` (an `&`) stands for, and the index after it; an `&` that starts no
    /// known reference stands for itself.
    static func decode(_ bytes: HTMLText.Bytes, at start: Int) -> (Unicode.Scalar, Int) {
        var index = start + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
            index += 1
            var isHex = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X") {
                isHex = true
                index += 1
            }
            var value: UInt32 = 0
            let digitsStart = index
            while index < bytes.count, let digit = hexDigit(Unicode.Scalar(bytes[index])), isHex || digit < 10 {
                value = min(value &* (isHex ? 16 : 10) &+ digit, 0x11_0000)
                index += 1
            }
            guard index > digitsStart else { return ("&", start + 1) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ";") { index += 1 }
            // HTML maps NUL, surrogates and values beyond Unicode to U+FFFD, and C1 controls to Windows-1252.
            if (0x80...0x9F).contains(value), let mapped = windows1252[value] {
                return (mapped, index)
            }
            return (Unicode.Scalar(value).flatMap { $0 == "\0" ? nil : $0 } ?? "\u{FFFD}", index)
        }
        let nameStart = index
        while index < bytes.count, index - start <= 32,
            HTMLText.isASCIILetter(bytes[index]) || HTMLText.isASCIIDigit(bytes[index])
        {
            index += 1
        }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        guard let scalar = named[name], index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
            return ("&", start + 1)
        }
        return (scalar, index + 1)
    }

    static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }

    /// Windows-1252's characters at 0x80…0x9F, which HTML (and RTF's `\'hh`) give those code points.
    static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "€", 0x82: "‚", 0x83: "ƒ", 0x84: "„", 0x85: "…", 0x86: "†", 0x87: "‡", 0x88: "ˆ", 0x89: "‰",
        0x8A: "Š", 0x8B: "‹", 0x8C: "Œ", 0x8E: "Ž", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”", 0x95: "•",
        0x96: "–", 0x97: "—", 0x98: "˜", 0x99: "™", 0x9A: "š", 0x9B: "›", 0x9C: "œ", 0x9E: "ž", 0x9F: "Ÿ",
    ]
}
