/// Reading a document value by value, without a ``JSONValue`` tree.
///
/// A caller that turns a large document into its own values (a declaration file of 100 000 types) would otherwise
/// build the whole tree first, then walk it, then free it: most of the parse's allocations, for nothing. Here the
/// caller pulls each value where it wants it, and the grammar and limits are those of ``parse(_:maxDepth:)``
/// (the same functions read keys, strings and numbers): a document that one rejects, the other rejects too.
///
/// ```swift
/// let names = try JSONParser.read(bytes, maxDepth: 8) { reader throws(JSONSyntaxError) in
///     var names: [String] = []
///     try reader.beginArray()
///     while try reader.nextElement() {
///         names.append(try reader.readString { String(decoding: $0, as: UTF8.self) })
///     }
///     return names
/// }
/// ```
///
/// A value of a kind the reading function did not expect is an error of that kind (`expected '{'`); a caller that
/// wants to tell the document's author what shape was expected asks ``peekKind()`` first.
extension JSONParser {
    /// What a value is, from its first byte.
    package enum ValueKind: Sendable, Equatable {
        /// An object, `{`.
        case object
        /// An array, `[`.
        case array
        /// A string, `"`.
        case string
        /// A number, `-` or a digit.
        case number
        /// `true` or `false`.
        case bool
        /// `null`.
        case null
    }

    /// The offset of the next byte to read.
    package var offset: Int { position }

    /// The number of bytes of the document.
    package var count: Int { bytes.count }

    /// An array or object that the reader is inside.
    struct Frame {
        /// Whether it is an object.
        var isObject: Bool
        /// Whether no member or element has been read yet.
        var isEmpty = true
        /// Whether a key or ``nextElement()`` has announced a value that is not read yet.
        var expectsValue = false
        /// Where its keys start in ``frameKeys``.
        var keyStart: Int
        /// Its keys in a set, once it has more than ``smallObjectMembers`` of them.
        var keySet: Set<[UInt8]>? = nil
    }

    /// Reads one document with `body`, which must read exactly one value, the top-level one; white space may
    /// surround it.
    /// - Parameters:
    ///   - input: The document.
    ///   - maxDepth: The deepest nesting of arrays and objects accepted; the top level is depth 1.
    ///   - body: Reads the value with ``beginObject()``, ``beginArray()``, ``readString(_:)`` and ``readValue()``.
    /// - Returns: What `body` returns.
    /// - Throws: ``JSONSyntaxError`` with the offset of the first problem: the input is not UTF-8, a value is not
    ///   JSON or not of the kind `body` reads, or bytes follow the value.
    package static func read<Result>(
        _ input: [UInt8], maxDepth: Int, _ body: (inout JSONParser) throws(JSONSyntaxError) -> Result
    ) throws(JSONSyntaxError) -> Result {
        if let offset = firstInvalidUTF8(in: input) {
            throw JSONSyntaxError(kind: .invalidUTF8, detail: "the text is not valid UTF-8", offset: offset)
        }
        let result: Swift.Result<Result, JSONSyntaxError> = input.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            return Swift.Result { () throws(JSONSyntaxError) in
                let value = try body(&parser)
                parser.skipWhitespace()
                guard parser.frames.isEmpty, parser.position == buffer.count else {
                    throw parser.error(.malformed, "bytes follow the JSON document")
                }
                return value
            }
        }
        return try result.get()
    }

    /// The kind of the next value, which is not read.
    /// - Throws: ``JSONSyntaxError`` when the input ends or no value starts here.
    package mutating func peekKind() throws(JSONSyntaxError) -> ValueKind {
        skipWhitespace()
        switch try peek() {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default:
            throw error(.malformed, "unexpected character \(String(reflecting: UnicodeScalar(bytes[position])))")
        }
    }

    /// Reads the `{` of an object; its members follow, each key from ``nextKey()`` and then its value.
    /// - Throws: ``JSONSyntaxError`` when the next value is not an object, or nests too deep.
    package mutating func beginObject() throws(JSONSyntaxError) {
        try begin(UInt8(ascii: "{"), isObject: true)
    }

    /// Reads the `[` of an array; ``nextElement()`` then tells whether an element follows.
    /// - Throws: ``JSONSyntaxError`` when the next value is not an array, or nests too deep.
    package mutating func beginArray() throws(JSONSyntaxError) {
        try begin(UInt8(ascii: "["), isObject: false)
    }

    private mutating func begin(_ opening: UInt8, isObject: Bool) throws(JSONSyntaxError) {
        try startValue()
        guard try peek() == opening else {
            throw error(.malformed, "expected '\(String(UnicodeScalar(opening)))'")
        }
        try checkDepth(frames.count + 1)
        position += 1
        frames.append(Frame(isObject: isObject, keyStart: frameKeys.count))
    }

    /// The key of the next member of the object that ``beginObject()`` began, with the `:` after it read; the
    /// caller reads the member's value next. `nil` when the object ends (its `}` is read then).
    /// - Throws: ``JSONSyntaxError`` on a missing separator, a key that is not a string, a key the object already
    ///   has, or when the innermost value being read is not an object.
    package mutating func nextKey() throws(JSONSyntaxError) -> [UInt8]? {
        guard let frame = frames.last, frame.isObject else {
            throw error(.malformed, "expected an array element, not an object's key")
        }
        guard try hasNext(closing: UInt8(ascii: "}"), isEmpty: frame.isEmpty) else {
            frameKeys.removeSubrange(frame.keyStart...)
            frames.removeLast()
            return nil
        }
        skipWhitespace()
        guard try peek() == UInt8(ascii: "\"") else { throw error(.malformed, "expected a key string") }
        let keyOffset = position
        let key = try parseKey()
        let last = frames.count - 1
        let count = frameKeys.count - frame.keyStart
        if count == Self.smallObjectMembers {
            frames[last].keySet = Set(frameKeys[frame.keyStart...])
        }
        let repeated =
            count < Self.smallObjectMembers
            ? frameKeys[frame.keyStart...].contains(key) : frames[last].keySet?.insert(key).inserted == false
        guard !repeated else {
            throw Self.repeatedKey(key, offset: keyOffset)
        }
        frameKeys.append(key)
        frames[last].isEmpty = false
        frames[last].expectsValue = true
        skipWhitespace()
        guard try peek() == UInt8(ascii: ":") else { throw error(.malformed, "expected ':'") }
        position += 1
        return key
    }

    /// Whether another element of the array that ``beginArray()`` began follows; the caller reads it next. `false`
    /// when the array ends (its `]` is read then).
    /// - Throws: ``JSONSyntaxError`` on a missing separator, or when the innermost value being read is not an array.
    package mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        guard let frame = frames.last, !frame.isObject else {
            throw error(.malformed, "expected an object's key, not an array element")
        }
        guard try hasNext(closing: UInt8(ascii: "]"), isEmpty: frame.isEmpty) else {
            frames.removeLast()
            return false
        }
        frames[frames.count - 1].isEmpty = false
        frames[frames.count - 1].expectsValue = true
        return true
    }

    /// Skips white space, checks that a value may be read here (the top level's one value, or one that a key or
    /// ``nextElement()`` announced) and counts it as read.
    private mutating func startValue() throws(JSONSyntaxError) {
        skipWhitespace()
        guard let last = frames.indices.last else {
            guard !hasReadTopLevel else {
                throw error(.malformed, "bytes follow the JSON document")
            }
            hasReadTopLevel = true
            return
        }
        guard frames[last].expectsValue else {
            throw error(
                .malformed,
                frames[last].isObject
                    ? "expected an object's key, not a value" : "expected an array element after nextElement()")
        }
        frames[last].expectsValue = false
    }

    /// Reads the `,` before another member or element and answers `true`, or reads `closing` and answers `false`.
    private mutating func hasNext(closing: UInt8, isEmpty: Bool) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        let next = try peek()
        if next == closing {
            position += 1
            return false
        }
        guard !isEmpty else {
            return true
        }
        guard next == UInt8(ascii: ",") else {
            throw error(.malformed, "expected ',' or '\(String(UnicodeScalar(closing)))'")
        }
        position += 1
        return true
    }

    /// Reads a string and gives its exact UTF-8 bytes to `body`: the input's own bytes when the string has no
    /// escapes, so that making a `String` of them is the only copy.
    /// - Throws: ``JSONSyntaxError`` when the next value is not a string, or is not a valid one.
    package mutating func readString<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(JSONSyntaxError) -> Result {
        try startValue()
        guard try peek() == UInt8(ascii: "\"") else { throw error(.malformed, "expected '\"'") }
        var end = position + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let span = UnsafeBufferPointer(rebasing: bytes[(position + 1)..<end])
            position = end + 1
            return body(span)
        }
        // Escapes, or an error that the general reading reports.
        return try parseString().withUnsafeBufferPointer(body)
    }

    /// Reads the next value whole, as ``parse(_:maxDepth:)`` reads a document: for a number, `true`, `false` or
    /// `null`, or an array or object that the caller wants as a tree.
    /// - Throws: ``JSONSyntaxError`` when the value is not valid, or nests too deep.
    package mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
        try startValue()
        return try parseValue(depth: frames.count + 1)
    }
}
