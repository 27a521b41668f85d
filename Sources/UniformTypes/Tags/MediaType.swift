/// A parsed MIME type (RFC 9110 §8.3.1): `type/subtype` followed by `;`-separated parameters
/// whose values are tokens or quoted strings.
///
/// Type, subtype and parameter names are lowercased; values are unquoted and unescaped, and
/// lowercased only for `charset`, whose values are case-insensitive.
struct MediaType: Equatable, Sendable {
    /// The longest type or subtype name (RFC 6838 §4.2).
    static let maximumNameLength = 127

    var type: String
    var subtype: String
    /// Parameter names mapped to values. A name that appears twice keeps its first value.
    var parameters: [String: String]

    /// `type/subtype`, lowercased: what selects a uniform type.
    var essence: String { type + "/" + subtype }

    /// Whether this is `*/*` or `type/*`.
    var isWildcard: Bool { subtype == "*" }

    /// The structured-syntax suffix (RFC 6839), e.g. `json` for `application/vnd.api+json`.
    var suffix: Substring? {
        guard let plus = subtype.lastIndex(of: "+") else {
            return nil
        }
        let suffix = subtype[subtype.index(after: plus)...]
        return suffix.isEmpty ? nil : suffix
    }

    /// Parses `text`, or returns `nil` when it is not a well-formed MIME type. `*/*` and
    /// `type/*` are accepted here; callers that need a concrete type check ``isWildcard``.
    init?(parsing text: String) {
        var scanner = Scanner(text.utf8)
        scanner.skipWhitespace()
        guard let type = scanner.token(), scanner.consume(UInt8(ascii: "/")), let subtype = scanner.token(),
            type.count <= Self.maximumNameLength, subtype.count <= Self.maximumNameLength,
            type != "*" || subtype == "*"
        else {
            return nil
        }
        self.type = type
        self.subtype = subtype
        parameters = [:]
        scanner.skipWhitespace()
        while !scanner.isAtEnd {
            guard scanner.consume(UInt8(ascii: ";")) else {
                return nil
            }
            scanner.skipWhitespace()
            if scanner.isAtEnd || scanner.peek == UInt8(ascii: ";") {
                continue
            }
            guard let name = scanner.token(), scanner.consume(UInt8(ascii: "=")),
                let value = scanner.peek == UInt8(ascii: "\"") ? scanner.quotedString() : scanner.token(keepCase: true)
            else {
                return nil
            }
            if parameters[name] == nil {
                parameters[name] = name == "charset" ? TextRules.asciiLowercased(value) : value
            }
            scanner.skipWhitespace()
        }
    }

    /// Whether every parameter of `required` is present in this type with the same value.
    func satisfies(_ required: [String: String]) -> Bool {
        required.allSatisfy { parameters[$0.key] == $0.value }
    }
}

/// A cursor over UTF-8 bytes with the few productions of RFC 9110 that MIME types need.
private struct Scanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ utf8: String.UTF8View) {
        bytes = Array(utf8)
    }

    var isAtEnd: Bool { position == bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[position] }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else {
            return false
        }
        position += 1
        return true
    }

    mutating func skipWhitespace() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
            position += 1
        }
    }

    /// One or more `tchar`s, lowercased unless `keepCase`.
    mutating func token(keepCase: Bool = false) -> String? {
        let start = position
        while let byte = peek, Self.isTokenCharacter(byte) {
            position += 1
        }
        guard position > start else {
            return nil
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        return keepCase ? text : TextRules.asciiLowercased(text)
    }

    /// A quoted string, without its quotes and with `\x` pairs resolved.
    mutating func quotedString() -> String? {
        guard consume(UInt8(ascii: "\"")) else {
            return nil
        }
        var value: [UInt8] = []
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek, Self.isQuotedTextCharacter(escaped) || escaped == UInt8(ascii: "\"")
                else {
                    return nil
                }
                position += 1
                value.append(escaped)
            case _ where Self.isQuotedTextCharacter(byte):
                value.append(byte)
            default:
                return nil
            }
        }
        return nil
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `qdtext` of RFC 9110 plus the backslash, which `quotedString()` handles first.
    private static func isQuotedTextCharacter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "\""))
    }
}
