/// Byte-level helpers for the line-oriented files of a mime directory (`types`, `aliases`, `subclasses`,
/// `globs2`, `globs`).
///
/// Working on `[UInt8]` and making one `String` per field keeps loading the whole system database within
/// a few milliseconds; splitting with `String` APIs costs several times more.
enum MIMELineScanner {
    /// Calls `body` with the byte range of every line that is neither empty nor a `#` comment, without its
    /// line terminator (`\n` or `\r\n`).
    static func forEachLine(in bytes: [UInt8], _ body: (Range<Int>) -> Void) {
        var start = 0
        let end = bytes.count
        while start < end {
            var lineEnd = start
            while lineEnd < end, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var contentEnd = lineEnd
            if contentEnd > start, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            if contentEnd > start, bytes[start] != UInt8(ascii: "#") { body(start..<contentEnd) }
            start = lineEnd + 1
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

    /// Splits `range` at each `separator` into at most `maximumFields` fields; the last field keeps any
    /// further separators.
    static func fields(
        of bytes: [UInt8], in range: Range<Int>, separator: UInt8, maximumFields: Int
    ) -> [Range<Int>] {
        var result: [Range<Int>] = []
        // Room for the usual fields at once: grown one append at a time, the array was reallocated twice a line.
        result.reserveCapacity(min(maximumFields, 4))
        var fieldStart = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound, result.count < maximumFields - 1 {
            if bytes[index] == separator {
                result.append(fieldStart..<index)
                fieldStart = index + 1
            }
            index += 1
        }
        result.append(fieldStart..<range.upperBound)
        return result
    }

    /// The MIME type name in `range`, or `nil` if it is not `media/subtype` made of visible ASCII.
    ///
    /// The check also keeps type names safe to use as `<media>/<subtype>.xml` paths: exactly one `/`, no
    /// empty part, no part starting with `.`.
    static func mimeTypeName(in bytes: [UInt8], _ range: Range<Int>) -> String? {
        guard !range.isEmpty, range.count <= 255 else { return nil }
        var slashes = 0
        var slashIndex = range.lowerBound
        for index in range {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            if byte == UInt8(ascii: "/") {
                slashes += 1
                slashIndex = index
            }
        }
        guard slashes == 1, slashIndex > range.lowerBound, slashIndex < range.upperBound - 1,
            bytes[range.lowerBound] != UInt8(ascii: "."), bytes[slashIndex + 1] != UInt8(ascii: ".")
        else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
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
