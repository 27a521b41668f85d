import TransferKitPlatform

/// A JSON document as the package's one strict parser reads it: strings as their exact UTF-8 bytes, numbers as
/// their text, objects with their keys in document order, and where each value is in the input.
///
/// The archive's text form, type declaration files and the tool's JSON reader all read JSON through
/// ``JSONParser``, into this value or value by value (``JSONParser/read(_:maxDepth:_:)``, which a large declaration
/// file takes), so they accept and reject exactly the same documents (RFC 8259: UTF-8 only, no duplicate keys, no
/// trailing commas, bounded nesting) and report problems with a byte offset.
///
/// Not `indirect`: the arrays of objects and arrays already hold their elements out of line, so a box per value
/// was one more allocation (and release) per value for nothing.
package enum JSONValue: Sendable {
    case object([(key: [UInt8], value: JSONValue)], span: Range<Int>)
    case array([JSONValue], span: Range<Int>)
    case string([UInt8], offset: Int)
    case number([UInt8], offset: Int)
    case bool(Bool)
    case null

    /// The value of `key` in an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key.elementsEqual(key.utf8) }?.value
    }
}

/// A strict JSON parser (RFC 8259) with limits: UTF-8 only, no duplicate keys, bounded nesting.
package struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    private let maxDepth: Int
    /// Recently read keys, by a hash of their bytes (see ``parseKey()``); the count is a power of two.
    private var keyCache = [[UInt8]](repeating: [], count: 64)
    /// The arrays and objects that ``read(_:maxDepth:_:)``'s caller is inside, innermost last.
    var frames: [Frame] = []
    /// The keys read so far of each object in ``frames``, outermost first, to find a repeated one.
    var frameKeys: [[UInt8]] = []
    /// Whether ``read(_:maxDepth:_:)``'s caller has begun reading the top-level value.
    var hasReadTopLevel = false

    /// Parses one JSON document, allowing white space around it.
    /// - Parameter maxDepth: The deepest nesting of arrays and objects accepted; the top level is depth 1.
    /// - Throws: ``JSONSyntaxError`` with the offset of the first problem.
    package static func parse(_ input: [UInt8], maxDepth: Int) throws(JSONSyntaxError) -> JSONValue {
        if let offset = firstInvalidUTF8(in: input) {
            throw JSONSyntaxError(kind: .invalidUTF8, detail: "the text is not valid UTF-8", offset: offset)
        }
        let result: Result<JSONValue, JSONSyntaxError> = input.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            return Result { () throws(JSONSyntaxError) in
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 1)
                parser.skipWhitespace()
                guard parser.position == buffer.count else {
                    throw parser.error(.malformed, "bytes follow the JSON document")
                }
                return value
            }
        }
        return try result.get()
    }

    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence, or `nil`.
    static func firstInvalidUTF8(in input: [UInt8]) -> Int? {
        // ASCII, most of any JSON document, is valid as it is: skip it eight bytes at a time.
        var offset = input.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count,
                raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                offset += 8
            }
            return offset
        }
        while offset < input.count, input[offset] < 0x80 {
            offset += 1
        }
        guard offset < input.count else {
            return nil
        }
        // A sequence starts at `offset` (the byte before it is ASCII); decode the rest the general way.
        var decoder = UTF8()
        var iterator = input[offset...].makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ kind: JSONSyntaxError.Kind, _ what: String) -> JSONSyntaxError {
        JSONSyntaxError(kind: kind, detail: what, offset: position)
    }

    private func truncated() -> JSONSyntaxError {
        JSONSyntaxError(kind: .truncated, detail: "the text ends inside a value", offset: position)
    }

    mutating func skipWhitespace() {
        // A switch rather than `contains` on an array literal, which this loop ran for every byte between tokens.
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0a, 0x0d: position += 1
            default: return
            }
        }
    }

    func peek() throws(JSONSyntaxError) -> UInt8 {
        guard position < bytes.count else { throw truncated() }
        return bytes[position]
    }

    private mutating func expect(_ literal: String) throws(JSONSyntaxError) {
        for byte in literal.utf8 {
            guard try peek() == byte else { throw error(.malformed, "expected \(literal)") }
            position += 1
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth)
        case UInt8(ascii: "\""):
            let offset = position
            return .string(try parseString(), offset: offset)
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw error(.malformed, "unexpected character \(String(reflecting: UnicodeScalar(bytes[position])))")
        }
    }

    func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        guard depth <= maxDepth else {
            throw JSONSyntaxError(
                kind: .tooDeep, detail: "arrays and objects nest deeper than \(maxDepth) levels", offset: position)
        }
    }

    /// Up to how many members an object's keys are compared one by one rather than kept in a set.
    static let smallObjectMembers = 16

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        try checkDepth(depth)
        let start = position
        position += 1
        var members: [(key: [UInt8], value: JSONValue)] = []
        // Repeated keys are found by comparing with each earlier key while an object is small (most are): cheaper
        // than hashing every key into a set.
        var keys: Set<[UInt8]> = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return .object(members, span: start..<position)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw error(.malformed, "expected a key string") }
            let keyOffset = position
            let key = try parseKey()
            if members.count == Self.smallObjectMembers {
                keys = Set(members.lazy.map(\.key))
            }
            let repeated =
                members.count < Self.smallObjectMembers
                ? members.contains { $0.key == key } : !keys.insert(key).inserted
            guard !repeated else {
                throw Self.repeatedKey(key, offset: keyOffset)
            }
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw error(.malformed, "expected ':'") }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "}") {
                return .object(members, span: start..<position)
            }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw error(.malformed, "expected ',' or '}'")
            }
        }
    }

    static func repeatedKey(_ key: [UInt8], offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(
            kind: .malformed,
            detail: "an object has the key \(String(reflecting: String(decoding: key, as: UTF8.self))) twice",
            offset: offset)
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        try checkDepth(depth)
        let start = position
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements, span: start..<position)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "]") {
                return .array(elements, span: start..<position)
            }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw error(.malformed, "expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard try digits.contains(peek()) else { throw error(.malformed, "a number has no digits") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, digits.contains(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard try digits.contains(peek()) else { throw error(.malformed, "a number has no digits after '.'") }
            while position < bytes.count, digits.contains(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            let sign = try peek()
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard try digits.contains(peek()) else { throw error(.malformed, "a number has no exponent digits") }
            while position < bytes.count, digits.contains(bytes[position]) { position += 1 }
        }
        return .number(Array(bytes[start..<position]), offset: start)
    }

    /// Parses an object's key, as ``parseString()`` does; a key without escapes that was read recently is returned
    /// as the same array. Documents repeat the same few keys in every object (a declaration file's
    /// `identifier`, `conformsTo`, `tags`): one array per key, not per member.
    mutating func parseKey() throws(JSONSyntaxError) -> [UInt8] {
        let start = position + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            return try parseString()
        }
        let span = UnsafeBufferPointer(rebasing: bytes[start..<end])
        var hash = span.count
        for byte in span.prefix(4) {
            hash = hash &* 31 &+ Int(byte)
        }
        hash = hash &* 31 &+ Int(span.last ?? 0)
        let slot = hash & (keyCache.count - 1)
        position = end + 1
        let cached = keyCache[slot].withUnsafeBytes { cached in cached.hasSameBytes(as: UnsafeRawBufferPointer(span)) }
        if cached {
            return keyCache[slot]
        }
        let key = Array(span)
        keyCache[slot] = key
        return key
    }

    /// Parses a string (the input is already known to be valid UTF-8) into its exact UTF-8 bytes.
    mutating func parseString() throws(JSONSyntaxError) -> [UInt8] {
        position += 1
        var result: [UInt8] = []
        while true {
            let runStart = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                position += 1
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            let byte = try peek()
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return result
            case UInt8(ascii: "\\"):
                try parseEscape(into: &result)
            default:
                position -= 1
                throw error(.malformed, "a string holds a raw control character; escape it")
            }
        }
    }

    private mutating func parseEscape(into result: inout [UInt8]) throws(JSONSyntaxError) {
        let escaped = try peek()
        position += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escaped)
        case UInt8(ascii: "b"): result.append(0x08)
        case UInt8(ascii: "f"): result.append(0x0c)
        case UInt8(ascii: "n"): result.append(0x0a)
        case UInt8(ascii: "r"): result.append(0x0d)
        case UInt8(ascii: "t"): result.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xd800..<0xdc00).contains(scalar) {
                // A high surrogate needs `\u` and a low one next; a text that ends before them could still go on.
                for expected in [UInt8(ascii: "\\"), UInt8(ascii: "u")] {
                    guard try peek() == expected else {
                        throw error(.invalidUTF8, "a \\u escape holds an unpaired surrogate")
                    }
                    position += 1
                }
                let low = try parseHex4()
                guard (0xdc00..<0xe000).contains(low) else {
                    throw error(.invalidUTF8, "a \\u escape holds an unpaired surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
            } else if (0xdc00..<0xe000).contains(scalar) {
                throw error(.invalidUTF8, "a \\u escape holds an unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw error(.invalidUTF8, "a \\u escape is not a Unicode scalar")
            }
            result.append(contentsOf: String(Character(unicode)).utf8)
        default:
            position -= 1
            throw error(.malformed, "unknown escape \\\(String(UnicodeScalar(escaped)))")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try peek()
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.malformed, "a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}

/// Writes JSON compactly, with the package's escaping rules (those of the archive's canonical text form).
package struct JSONOutput {
    /// The text written so far.
    package var bytes: [UInt8] = []

    /// An empty output.
    package init() {}

    /// Appends `text` as it is.
    package mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A string: `"` and `\` escaped, control characters as `\b \f \n \r \t` or `\u00xx`, all else as UTF-8.
    package mutating func string(_ utf8: some Collection<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x08: raw("\\b")
            case 0x0c: raw("\\f")
            case 0x0a: raw("\\n")
            case 0x0d: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                raw("\\u00" + (hex.count == 1 ? "0" + hex : hex))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
