extension MIMEDatabase {
    /// The human-readable description of `mimeType` (`"SVG image"` for `image/svg+xml`), or `nil`.
    ///
    /// Reads `<directory>/<media>/<subtype>.xml` of the highest-precedence directory whose file has a
    /// `<comment>` without `xml:lang`; nothing is cached, so call it only for the types you show. Reading all
    /// ~850 files at load time would cost far more than loading everything else. Aliases are resolved; an
    /// unknown type gives `nil` (this also keeps arbitrary names out of file paths).
    func description(for mimeType: String) -> String? {
        guard let name = canonical(for: mimeType) else { return nil }
        // update-mime-database writes lowercased file names (`vnd.ms-excel.sheet.macroenabled.12.xml` for
        // `application/vnd.ms-excel.sheet.macroEnabled.12`); a hand-made directory may keep the spelling.
        let fileNames = name == name.asciiLowercased ? [name] : [name.asciiLowercased, name]
        for directory in directories {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            for fileName in fileNames {
                guard case .contents(let bytes) = MIMEDataFile.read(atPath: prefix + fileName + ".xml") else {
                    continue
                }
                if let comment = Self.unlocalizedComment(in: bytes) { return comment }
            }
        }
        return nil
    }

    /// The text of the first `<comment>` element (the one without `xml:lang`), entities decoded and
    /// surrounding whitespace removed.
    ///
    /// `update-mime-database` writes each element on one line as `<comment>text</comment>`, so a byte
    /// search is enough; there is no need for a full XML parser.
    static func unlocalizedComment(in bytes: [UInt8]) -> String? {
        let open = Array("<comment>".utf8)
        let close = Array("</comment>".utf8)
        guard let start = firstIndex(of: open, in: bytes, from: 0),
            let end = firstIndex(of: close, in: bytes, from: start + open.count)
        else { return nil }
        guard let raw = String(validating: bytes[(start + open.count)..<end], as: UTF8.self) else { return nil }
        let text = decodingEntities(raw).trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Replaces the five predefined XML entities and numeric character references; leaves anything else.
    private static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";"),
                let decoded = decodeEntity(rest[afterAmpersand..<semicolon])
            else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            result.unicodeScalars.append(decoded)
            rest = rest[rest.index(after: semicolon)...]
        }
        result += rest
        return result
    }

    private static func decodeEntity(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    fileprivate var trimmingWhitespace: String {
        let isWhitespace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
