/// Byte-level helpers for the line-oriented files of a mime directory (`types`, `aliases`, `subclasses`,
/// `globs2`, `globs`).
///
/// Working on `[UInt8]` and making one `String` per field keeps loading the whole system database within
/// a few milliseconds; splitting with `String` APIs costs several times more.
enum MIMELineScanner {
    /// Calls `body` with the byte range of every line that is neither empty nor a `#` comment, without its
    /// line terminator (`\n` or `\r\n`).
    static func forEachLine(in bytes: [UInt8], _ body: (Range<Int>) -> Void) {
        // Over the array's storage: the checked subscript of every byte was a tenth of reading `globs2`.
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            let end = buffer.count
            while start < end {
                var lineEnd = start
                while lineEnd < end, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var contentEnd = lineEnd
                if contentEnd > start, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
                if contentEnd > start, buffer[start] != UInt8(ascii: "#") { body(start..<contentEnd) }
                start = lineEnd + 1
            }
        }
    }

    /// An upper bound of the number of lines of `bytes` (its line feeds, plus one): room to reserve for them.
    static func lineCount(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var count = 1
            for byte in buffer where byte == UInt8(ascii: "\n") { count += 1 }
            return count
        }
    }

    /// The two names of each line of an `aliases` or `subclasses` file, separated by one space, and the number of
    /// malformed lines left out.
    static func pairs(in bytes: [UInt8]) -> (pairs: [(String, String)], malformed: Int) {
        var result: [(String, String)] = []
        result.reserveCapacity(lineCount(in: bytes))
        var malformed = 0
        forEachLine(in: bytes) { line in
            let fields = fields(of: bytes, in: line, separator: UInt8(ascii: " "), maximumFields: 2)
            guard fields.count == 2, let first = mimeTypeName(in: bytes, fields[0]),
                let second = mimeTypeName(in: bytes, fields[1])
            else {
                malformed += 1
                return
            }
            result.append((first, second))
        }
        return (result, malformed)
    }

    /// The fields of one line: at most ``maximumCount``, kept inline (an array per line was an allocation per line).
    struct Fields {
        /// The most fields a line is split into; the last one keeps any further separators.
        static let maximumCount = 4

        /// How many fields the line has.
        private(set) var count = 0
        private var ranges: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)

        /// The byte range of field `index`, which is less than ``count``.
        subscript(index: Int) -> Range<Int> {
            switch index {
            case 0: ranges.0
            case 1: ranges.1
            case 2: ranges.2
            default: ranges.3
            }
        }

        fileprivate mutating func append(_ range: Range<Int>) {
            switch count {
            case 0: ranges.0 = range
            case 1: ranges.1 = range
            case 2: ranges.2 = range
            default: ranges.3 = range
            }
            count += 1
        }
    }

    /// Splits `range` at each `separator` into at most `maximumFields` fields (at most ``Fields/maximumCount``); the
    /// last field keeps any further separators.
    static func fields(of bytes: [UInt8], in range: Range<Int>, separator: UInt8, maximumFields: Int) -> Fields {
        let limit = min(maximumFields, Fields.maximumCount)
        var result = Fields()
        bytes.withUnsafeBufferPointer { buffer in
            var fieldStart = range.lowerBound
            var index = range.lowerBound
            while index < range.upperBound, result.count < limit - 1 {
                if buffer[index] == separator {
                    result.append(fieldStart..<index)
                    fieldStart = index + 1
                }
                index += 1
            }
            result.append(fieldStart..<range.upperBound)
        }
        return result
    }

    /// Whether one of the `separator`-separated items of `range` is exactly `literal` (a glob's flags, `cs` among
    /// them).
    static func list(
        _ bytes: [UInt8], _ range: Range<Int>, separator: UInt8, contains literal: StaticString
    ) -> Bool {
        var itemStart = range.lowerBound
        for index in range where bytes[index] == separator {
            if field(bytes, itemStart..<index, equals: literal) { return true }
            itemStart = index + 1
        }
        return field(bytes, itemStart..<range.upperBound, equals: literal)
    }

    /// The MIME type name in `range`, or `nil` if it is not `media/subtype` made of visible ASCII.
    ///
    /// The check also keeps type names safe to use as `<media>/<subtype>.xml` paths: exactly one `/`, no
    /// empty part, no part starting with `.`.
    static func mimeTypeName(in bytes: [UInt8], _ range: Range<Int>) -> String? {
        guard !range.isEmpty, range.count <= 255, range.upperBound <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> String? in
            let name = UnsafeBufferPointer(rebasing: buffer[range])
            var slashes = 0
            var slashIndex = 0
            for (index, byte) in name.enumerated() {
                guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                if byte == UInt8(ascii: "/") {
                    slashes += 1
                    slashIndex = index
                }
            }
            guard slashes == 1, slashIndex > 0, slashIndex < name.count - 1, name[0] != UInt8(ascii: "."),
                name[slashIndex + 1] != UInt8(ascii: ".")
            else { return nil }
            // Visible ASCII, checked above: no validation left to do.
            return String(decoding: name, as: UTF8.self)
        }
    }

    /// The text of `range` when it is UTF-8 without a NUL, else `nil`. ASCII, nearly every field, is checked in the
    /// same pass as the NUL (the generic validation was a third of reading a glob).
    static func text(in bytes: [UInt8], _ range: Range<Int>) -> String? {
        guard range.upperBound <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> String? in
            let field = UnsafeBufferPointer(rebasing: buffer[range])
            var isASCII = true
            for byte in field {
                if byte == 0 { return nil }
                if byte >= 0x80 { isASCII = false }
            }
            return isASCII ? String(decoding: field, as: UTF8.self) : String(validating: field, as: UTF8.self)
        }
    }

    /// Parses an unsigned decimal number of at most `maximumDigits` digits.
    static func decimal(in bytes: [UInt8], _ range: Range<Int>, maximumDigits: Int = 4) -> Int? {
        guard !range.isEmpty, range.count <= maximumDigits else { return nil }
        var value = 0
        for index in range {
            let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// Whether the field in `range` holds exactly `literal`.
    static func field(_ bytes: [UInt8], _ range: Range<Int>, equals literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { expected in
            var offset = 0
            for index in range {
                if bytes[index] != expected[offset] { return false }
                offset += 1
            }
            return true
        }
    }
}

extension String {
    /// The string with ASCII letters lowercased; MIME type names are ASCII and compare case-insensitively.
    var asciiLowercased: String { TextRules.asciiLowercased(self) }
}
