import Foundation

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

    static func plainText(fromHTML data: Data) -> Data {
        let scalars = Array(String(decoding: data, as: UTF8.self).unicodeScalars)
        var output = TextBuilder()
        var index = 0
        var hidden: String?
        var preformatted = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                guard let tag = Tag.parse(scalars, at: index) else {
                    if hidden == nil { output.append(scalar, preformatted: preformatted > 0) }
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
            if scalar == "&" {
                let (decoded, end) = CharacterReference.decode(scalars, at: index)
                for character in decoded { output.append(character, preformatted: preformatted > 0, literal: true) }
                index = end
                continue
            }
            output.append(scalar, preformatted: preformatted > 0)
            index += 1
        }
        return Data(output.finished().utf8)
    }

    /// A tag, a comment or a declaration that starts at `<`.
    struct Tag {
        /// The element's lowercased name; `nil` for a comment, `<!…>` or `<?…>`.
        var name: String?
        var isEnd = false
        var isSelfClosing = false
        /// The index after the closing `>`.
        var end: Int

        static func parse(_ scalars: [Unicode.Scalar], at start: Int) -> Tag? {
            var index = start + 1
            guard index < scalars.count else { return nil }
            if scalars[index] == "!" || scalars[index] == "?" {
                if scalars.count > index + 2, scalars[index] == "!", scalars[index + 1] == "-",
                    scalars[index + 2] == "-"
                {
                    var position = index + 3
                    while position + 2 < scalars.count {
                        if scalars[position] == "-", scalars[position + 1] == "-", scalars[position + 2] == ">" {
                            return Tag(name: nil, end: position + 3)
                        }
                        position += 1
                    }
                    return Tag(name: nil, end: scalars.count)
                }
                guard let close = scalars[index...].firstIndex(of: ">") else {
                    return Tag(name: nil, end: scalars.count)
                }
                return Tag(name: nil, end: close + 1)
            }
            var tag = Tag(name: nil, end: 0)
            if scalars[index] == "/" {
                tag.isEnd = true
                index += 1
            }
            guard index < scalars.count, scalars[index].properties.isAlphabetic else { return nil }
            var name = ""
            while index < scalars.count, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index])
            {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            // Skip the attributes, honouring quotes, to the closing >.
            var quote: Unicode.Scalar?
            var previous: Unicode.Scalar = " "
            while index < scalars.count {
                let scalar = scalars[index]
                if let open = quote {
                    if scalar == open { quote = nil }
                } else if scalar == "\"" || scalar == "'" {
                    quote = scalar
                } else if scalar == ">" {
                    tag.isSelfClosing = previous == "/"
                    tag.name = name.lowercased()
                    tag.end = index + 1
                    return tag
                }
                previous = scalar
                index += 1
            }
            tag.name = name.lowercased()
            tag.end = scalars.count
            return tag
        }
    }

    /// Builds text line by line, collapsing white space.
    struct TextBuilder {
        var text = ""
        /// Whether white space was seen since the last character written.
        var pendingSpace = false

        var isAtLineStart: Bool { text.isEmpty || text.hasSuffix("\n") }

        mutating func append(_ scalar: Unicode.Scalar, preformatted: Bool, literal: Bool = false) {
            if preformatted {
                text.unicodeScalars.append(scalar == "\r" ? "\n" : scalar)
                pendingSpace = false
                return
            }
            if !literal, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}" {
                pendingSpace = true
                return
            }
            if pendingSpace, !isAtLineStart, !text.hasSuffix("\t") {
                text += " "
            }
            pendingSpace = false
            text.unicodeScalars.append(scalar)
        }

        mutating func lineBreak() {
            trimTrailingSpaces()
            text += "\n"
            pendingSpace = false
        }

        mutating func endLine() {
            pendingSpace = false
            trimTrailingSpaces()
            if !isAtLineStart { text += "\n" }
        }

        mutating func blankLine() {
            endLine()
            if !text.isEmpty, !text.hasSuffix("\n\n") { text += "\n" }
        }

        mutating func cell() {
            pendingSpace = false
            if !isAtLineStart { text += "\t" }
        }

        mutating func trimTrailingSpaces() {
            while text.hasSuffix(" ") || text.hasSuffix("\t") { text.removeLast() }
        }

        func finished() -> String {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                var line = Substring(line)
                while line.last == " " || line.last == "\t" { line = line.dropLast() }
                return line
            }
            var start = 0
            var end = lines.count
            while start < end, lines[start].isEmpty { start += 1 }
            while end > start, lines[end - 1].isEmpty { end -= 1 }
            return lines[start..<end].joined(separator: "\n")
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

    /// The characters the reference at `start` (an `&`) stands for, and the index after it; an `&` that starts no
    /// known reference stands for itself.
    static func decode(_ scalars: [Unicode.Scalar], at start: Int) -> ([Unicode.Scalar], Int) {
        var index = start + 1
        if index < scalars.count, scalars[index] == "#" {
            index += 1
            var isHex = false
            if index < scalars.count, scalars[index] == "x" || scalars[index] == "X" {
                isHex = true
                index += 1
            }
            var value: UInt32 = 0
            let digitsStart = index
            while index < scalars.count, let digit = hexDigit(scalars[index]), isHex || digit < 10 {
                value = min(value &* (isHex ? 16 : 10) &+ digit, 0x11_0000)
                index += 1
            }
            guard index > digitsStart else { return (["&"], start + 1) }
            if index < scalars.count, scalars[index] == ";" { index += 1 }
            // HTML maps NUL, surrogates and values beyond Unicode to U+FFFD, and C1 controls to Windows-1252.
            if (0x80...0x9F).contains(value), let mapped = windows1252[value] {
                return ([mapped], index)
            }
            return ([Unicode.Scalar(value).flatMap { $0 == "\0" ? nil : $0 } ?? "\u{FFFD}"], index)
        }
        var name = ""
        while index < scalars.count, index - start <= 32,
            scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index])
        {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard let scalar = named[name], index < scalars.count, scalars[index] == ";" else {
            return (["&"], start + 1)
        }
        return ([scalar], index + 1)
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
