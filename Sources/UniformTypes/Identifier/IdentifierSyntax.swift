/// The spelling rules of type identifiers, and the small text helpers the library shares.
///
/// Apple allows the ASCII characters `A–Z a–z 0–9 - .` and every character above U+007F. This
/// library narrows the second part to Unicode letters and digits, so that an identifier can never
/// hide whitespace, control or bidirectional-formatting characters. Only ASCII letters are
/// case-folded for equality, as on Apple platforms.
enum IdentifierSyntax {
    /// The longest identifier, in UTF-8 bytes.
    static let maximumLength = 255

    /// Why `identifier` is not a valid type identifier, or `nil` when it is valid.
    static func problem(with identifier: String) -> String? {
        let bytes = identifier.utf8
        if isPlainASCII(bytes) {
            return nil
        }
        if bytes.isEmpty {
            return "an identifier must not be empty"
        }
        if bytes.count > maximumLength {
            return "an identifier must be at most \(maximumLength) UTF-8 bytes long, this one has \(bytes.count)"
        }
        if bytes.first == UInt8(ascii: ".") || bytes.last == UInt8(ascii: ".") {
            return "an identifier must not start or end with '.'"
        }
        var previousWasDot = false
        for scalar in identifier.unicodeScalars {
            let isDot = scalar == "."
            if isDot && previousWasDot {
                return "an identifier must not contain an empty component ('..')"
            }
            previousWasDot = isDot
            if !isAllowed(scalar) {
                return "the character \(describe(scalar)) is not allowed; use A-Z, a-z, 0-9, '-', '.' "
                    + "or letters and digits above U+007F"
            }
        }
        return nil
    }

    /// Whether `bytes` are a valid identifier of ASCII characters alone, which most are: checked byte by byte,
    /// without the Unicode scalar view. `false` also when the general rules must decide (and name the problem).
    private static func isPlainASCII(_ bytes: String.UTF8View) -> Bool {
        // Over the string's own storage when it has one (every native string): iterating the view itself costs
        // tens of instructions a byte, which was a twentieth of loading a large declaration file.
        bytes.withContiguousStorageIfAvailable(isPlainASCII) ?? isPlainASCII(bytes)
    }

    private static func isPlainASCII(_ bytes: some Collection<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumLength else {
            return false
        }
        var previous = UInt8(ascii: ".")
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"):
                break
            case UInt8(ascii: ".") where previous != UInt8(ascii: "."):
                break
            default:
                return false
            }
            previous = byte
        }
        return previous != UInt8(ascii: ".")
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E:
            return true
        case 0...0x7F:
            return false
        default:
            let properties = scalar.properties
            return properties.isAlphabetic || properties.numericType != nil
        }
    }

    /// A readable name for a character in error messages, e.g. `' ' (U+0020)`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
            return code
        }
        return "'\(Character(scalar))' (\(code))"
    }
}

/// ASCII case folding and the reversible escaping used by dynamic identifiers.
enum TextRules {
    /// `text.lowercased()`, without the Unicode case mapping when `text` is ASCII (nearly every glob pattern and file
    /// name), where it changes only `A`–`Z`. Reading the MIME database's globs lowercased each pattern twice through
    /// the Unicode mapping.
    static func lowercased(_ text: String) -> String {
        let bytes = text.utf8
        let isASCII =
            bytes.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? bytes.allSatisfy { $0 < 0x80 }
        return isASCII ? asciiLowercased(text) : text.lowercased()
    }

    /// `text` with ASCII letters lowercased; other characters are unchanged. Returns the same
    /// string (without copying) when there is nothing to lowercase.
    static func asciiLowercased(_ text: String) -> String {
        let bytes = text.utf8
        // Over the string's own storage when it has one: the view's iterator was most of making a type.
        func isUppercase(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        let hasUppercase =
            bytes.withContiguousStorageIfAvailable { $0.contains(where: isUppercase) }
            ?? bytes.contains(where: isUppercase)
        guard hasUppercase else {
            return text
        }
        let lowered = bytes.map { byte -> UInt8 in
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
        return String(decoding: lowered, as: UTF8.self)
    }

    /// Escapes every byte outside `[a-z0-9]` as `-` followed by two lowercase hex digits.
    ///
    /// The result contains only `[a-z0-9-]`, so it is one valid identifier component.
    static func escape(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        let digits = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            if isPlain(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "-"))
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Reverses ``escape(_:)``; `nil` when `component` is not a well-formed escaped string
    /// (a stray character, a short or non-hex escape, an escape of a plain byte, or bytes that
    /// are not UTF-8). Accepts upper-case hex digits, since identifiers are case-insensitive.
    static func unescape(_ component: Substring) -> String? {
        var output: [UInt8] = []
        var iterator = component.utf8.makeIterator()
        while let byte = iterator.next() {
            if isPlain(byte) {
                output.append(byte)
                continue
            }
            guard byte == UInt8(ascii: "-"),
                let high = iterator.next().flatMap(hexValue),
                let low = iterator.next().flatMap(hexValue)
            else {
                return nil
            }
            let decoded = high << 4 | low
            if isPlain(decoded) {
                return nil
            }
            output.append(decoded)
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A 64-bit FNV-1a hash of the UTF-8 bytes: stable across processes and platforms.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
