#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A head as the decoder reads it: the initial byte, the argument, and where the head ends.
struct CBORDecodedHead {
    var initial: UInt8
    var argument: UInt64
    var next: Int

    var majorType: UInt8 { initial >> 5 }
}

extension CBORDecodingState {
    // MARK: - Heads and structure

    /// Reads the head at `offset`. Every byte read is checked against the input's end first.
    @inline(__always)
    func head(at offset: Int) throws(CBORDecodingFailure) -> CBORDecodedHead {
        guard offset < input.count else {
            throw .corrupted("the input ended where a data item was expected", at: offset)
        }
        let initial = input[offset]
        let info = initial & 0x1f
        if info < 24 {
            return CBORDecodedHead(initial: initial, argument: UInt64(info), next: offset + 1)
        }
        if info > 27 {
            throw info == 31
                ? .corrupted(
                    initial == 0xff
                        ? "a \"break\" stop code (0xff) outside an indefinite-length item"
                        : "an indefinite-length item (initial byte \(hexByte(initial))); the decoder reads "
                            + "definite lengths only",
                    at: offset)
                : .corrupted(
                    "additional information \(info) (initial byte \(hexByte(initial))) is reserved by RFC 8949",
                    at: offset)
        }
        let size = 1 << Int(info - 24)
        guard size < input.count - offset else {
            throw .corrupted("the input ended inside a head", at: offset)
        }
        var argument: UInt64 = 0
        for index in (offset + 1)...(offset + size) {
            argument = argument << 8 | UInt64(input[index])
        }
        if initial == 0xf8 && argument < 32 {
            throw .corrupted("simple value \(argument) must use the one-byte form", at: offset)
        }
        return CBORDecodedHead(initial: initial, argument: argument, next: offset + 1 + size)
    }

    /// The length of a string whose head is `head`, checked against the limits and the bytes left.
    @inline(__always)
    func stringLength(_ head: CBORDecodedHead, at offset: Int) throws(CBORDecodingFailure) -> Int {
        guard head.argument <= UInt64(max(0, options.limits.maxStringLength)) else {
            throw .corrupted(
                "a string of \(head.argument) bytes is longer than the limit of \(options.limits.maxStringLength)",
                at: offset)
        }
        let length = Int(head.argument)
        guard length <= input.count - head.next else {
            throw .corrupted("the input ended inside a string of \(length) bytes", at: offset)
        }
        return length
    }

    /// The item count of an array or map whose head is `head`, checked against the limits and the bytes left
    /// (every item takes a byte at least).
    @inline(__always)
    func collectionCount(_ head: CBORDecodedHead, at offset: Int) throws(CBORDecodingFailure) -> Int {
        guard head.argument <= UInt64(max(0, options.limits.maxCollectionCount)) else {
            throw .corrupted(
                "a collection of \(head.argument) items is larger than the limit of "
                    + "\(options.limits.maxCollectionCount)",
                at: offset)
        }
        let count = Int(head.argument)
        let remaining = input.count - head.next
        // Without multiplying: a limit as large as Int.max must not overflow.
        guard count <= (head.majorType == 5 ? remaining / 2 : remaining) else {
            throw .corrupted("the input ended inside a collection of \(count) items", at: offset)
        }
        return count
    }

    /// Walks the data item at `start` without recursion and returns where it ends.
    func skip(at start: Int) throws(CBORDecodingFailure) -> Int {
        var offset = start
        var pending = 1
        while pending > 0 {
            let head = try head(at: offset)
            pending -= 1
            switch head.majorType {
            case 2, 3:
                offset = head.next + (try stringLength(head, at: offset))
            case 4:
                pending += try collectionCount(head, at: offset)
                offset = head.next
            case 5:
                pending += 2 * (try collectionCount(head, at: offset))
                offset = head.next
            case 6:
                pending += 1
                offset = head.next
            default:
                offset = head.next
            }
            guard pending <= input.count - offset else {
                throw .corrupted("the input ended inside a data item", at: offset)
            }
        }
        return offset
    }

    // MARK: - Primitives

    /// A failure for the item at `offset`, which is not of the type `expected` names.
    func mismatch(_ expected: String, at offset: Int) -> CBORDecodingFailure {
        let initial = offset < input.count ? input[offset] : 0
        let isNull = offset < input.count && (initial == 0xf6 || initial == 0xf7)
        return CBORDecodingFailure(
            kind: isNull ? .null : .mismatch, message: "expected \(expected) but found \(describe(initial))",
            offset: offset)
    }

    @inline(__always)
    func isNil(at offset: Int) -> Bool {
        offset < input.count && (input[offset] == 0xf6 || input[offset] == 0xf7)
    }

    func readBool(at offset: inout Int) throws(CBORDecodingFailure) -> Bool {
        guard offset < input.count else { throw .corrupted("the input ended where a Bool was expected", at: offset) }
        switch input[offset] {
        case 0xf4:
            offset += 1
            return false
        case 0xf5:
            offset += 1
            return true
        default:
            throw mismatch("a Bool", at: offset)
        }
    }

    func readString(at offset: inout Int) throws(CBORDecodingFailure) -> String {
        let head = try head(at: offset)
        guard head.majorType == 3 else { throw mismatch("a text string", at: offset) }
        let length = try stringLength(head, at: offset)
        guard length > 0, let base = input.baseAddress else {
            offset = head.next
            return ""
        }
        let utf8 = UnsafeRawBufferPointer(start: base + head.next, count: length)
        guard UTF8Validation.isValid(utf8) else {
            throw .corrupted("a text string is not valid UTF-8", at: offset)
        }
        offset = head.next + length
        return UTF8Validation.string(fromValid: utf8)
    }

    func readBytes(at offset: inout Int) throws(CBORDecodingFailure) -> Data {
        let head = try head(at: offset)
        guard head.majorType == 2 else { throw mismatch("a byte string", at: offset) }
        let length = try stringLength(head, at: offset)
        let start = head.next
        offset = start + length
        guard length > 0, let base = input.baseAddress else { return Data() }
        return Data(bytes: base + start, count: length)
    }

    func readDouble(at offset: inout Int) throws(CBORDecodingFailure) -> Double {
        let head = try head(at: offset)
        let value: Double
        switch head.initial {
        case 0xf9:
            value = FloatBits.double(fromHalf: UInt16(truncatingIfNeeded: head.argument))
        case 0xfa:
            value = Double(Float(bitPattern: UInt32(truncatingIfNeeded: head.argument)))
        case 0xfb:
            value = Double(bitPattern: head.argument)
        case 0x00...0x1b:
            guard let exact = Double(exactly: head.argument) else {
                throw .corrupted("the integer \(head.argument) has no exact Double", at: offset)
            }
            value = exact
        case 0x20...0x3b:
            guard let magnitude = Double(exactly: head.argument) else {
                throw .corrupted("the integer -1-\(head.argument) has no exact Double", at: offset)
            }
            value = -1 - magnitude
        default:
            throw mismatch("a number", at: offset)
        }
        offset = head.next
        return value
    }

    func readFloat(at offset: inout Int) throws(CBORDecodingFailure) -> Float {
        let start = offset
        let value = try readDouble(at: &offset)
        guard !value.isFinite || abs(value) <= Double(Float.greatestFiniteMagnitude) else {
            throw .corrupted("the number \(value) does not fit in a Float", at: start)
        }
        return Float(value)
    }

    func readInteger<I: FixedWidthInteger>(_ type: I.Type, at offset: inout Int) throws(CBORDecodingFailure) -> I {
        let head = try head(at: offset)
        let value: I?
        switch head.majorType {
        case 0:
            value = I(exactly: head.argument)
        case 1:
            // −1−n: representable only by signed types, and only when n ≤ Int64.max here.
            if I.isSigned, head.argument <= UInt64(Int64.max) {
                value = I(exactly: -1 - Int64(head.argument))
            } else {
                value = nil
            }
        default:
            throw mismatch("an integer", at: offset)
        }
        guard let value else {
            let number = head.majorType == 0 ? "\(head.argument)" : "-1-\(head.argument)"
            throw .corrupted("the integer \(number) does not fit in \(I.self)", at: offset)
        }
        offset = head.next
        return value
    }

    /// Reads a `T`, which is the type `kind` names.
    ///
    /// Callers find `kind` with ``CBORPrimitive/of(_:)`` first: a generic function returning `T?` would make the
    /// runtime look up `Optional<T>`'s metadata on every call in unspecialized code, which costs more than the read.
    @inline(__always)
    func readPrimitive<T>(
        _ kind: CBORPrimitive, as type: T.Type, at offset: inout Int
    ) throws(CBORDecodingFailure) -> T {
        switch kind {
        case .string: return unsafeBitCast(try readString(at: &offset), to: T.self)
        case .int: return unsafeBitCast(try readInteger(Int.self, at: &offset), to: T.self)
        case .double: return unsafeBitCast(try readDouble(at: &offset), to: T.self)
        case .bool: return unsafeBitCast(try readBool(at: &offset), to: T.self)
        case .float: return unsafeBitCast(try readFloat(at: &offset), to: T.self)
        case .int64: return unsafeBitCast(try readInteger(Int64.self, at: &offset), to: T.self)
        case .uint64: return unsafeBitCast(try readInteger(UInt64.self, at: &offset), to: T.self)
        case .uint: return unsafeBitCast(try readInteger(UInt.self, at: &offset), to: T.self)
        case .int32: return unsafeBitCast(try readInteger(Int32.self, at: &offset), to: T.self)
        case .uint32: return unsafeBitCast(try readInteger(UInt32.self, at: &offset), to: T.self)
        case .int16: return unsafeBitCast(try readInteger(Int16.self, at: &offset), to: T.self)
        case .uint16: return unsafeBitCast(try readInteger(UInt16.self, at: &offset), to: T.self)
        case .int8: return unsafeBitCast(try readInteger(Int8.self, at: &offset), to: T.self)
        case .uint8: return unsafeBitCast(try readInteger(UInt8.self, at: &offset), to: T.self)
        }
    }

    /// Names the item whose initial byte is `initial`, for error messages.
    func describe(_ initial: UInt8) -> String {
        switch initial >> 5 {
        case 0: return "an unsigned integer"
        case 1: return "a negative integer"
        case 2: return "a byte string"
        case 3: return "a text string"
        case 4: return "an array"
        case 5: return "a map"
        case 6: return "a tag"
        default:
            switch initial {
            case 0xf4, 0xf5: return "a Bool"
            case 0xf6: return "null"
            case 0xf7: return "undefined"
            case 0xf9, 0xfa, 0xfb: return "a float"
            default: return "the simple value \(hexByte(initial))"
            }
        }
    }

    func hexByte(_ byte: UInt8) -> String {
        "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }

    // MARK: - Maps

    /// Walks the map at `start`: records its entries in `entries`, followed by a new mark, and returns the first
    /// entry's index, the count, the map's end and the mark. Rejects keys that are not UTF-8 text strings and
    /// duplicate keys.
    ///
    /// The mark tells a container whether the entries from its base are still its own (``holdsEntries(base:count:
    /// mark:)``): a later map walked at the same base, such as the next record of an array, writes another.
    func scanMap(at start: Int) throws(CBORDecodingFailure) -> (base: Int, count: Int, end: Int, mark: Int) {
        let head = try head(at: start)
        guard head.majorType == 5 else { throw mismatch("a map", at: start) }
        let count = try collectionCount(head, at: start)
        let base = entryCount
        if entries.count < base + 3 * count + 1 {
            entries.append(contentsOf: repeatElement(0, count: base + 3 * count + 1 - entries.count))
        }
        var position = head.next
        var sorted = true
        // Below zero, so that no offset or length equals it; wrapping would take 2⁶³ maps.
        lastMark &-= 1
        let mark = lastMark
        // The entries are written through the array's buffer (a subscript on the class's array checks uniqueness
        // and bounds for every store); nothing in the loop reads `entries`, which is empty while the buffer is out.
        try entries.withUnsafeMutableBufferPointer { (table) throws(CBORDecodingFailure) in
            var previousStart = 0
            var previousLength = -1
            for index in 0..<count {
                let keyStart: Int
                let keyLength: Int
                guard position < input.count else {
                    throw .corrupted("the input ended where a map key was expected", at: position)
                }
                let initial = input[position]
                if initial >= 0x60 && initial < 0x78 {
                    // A text key shorter than 24 bytes, as coding keys are: its head is one byte.
                    keyStart = position + 1
                    keyLength = Int(initial & 0x1f)
                    guard keyLength <= input.count - keyStart else {
                        throw .corrupted("the input ended inside a string of \(keyLength) bytes", at: position)
                    }
                } else {
                    let keyHead = try self.head(at: position)
                    guard keyHead.majorType == 3 else {
                        throw .corrupted(
                            "a map key is \(describe(keyHead.initial)); keys must be text strings", at: position)
                    }
                    keyLength = try stringLength(keyHead, at: position)
                    keyStart = keyHead.next
                }
                if let bytes = input.baseAddress,
                    !UTF8Validation.isValid(UnsafeRawBufferPointer(start: bytes + keyStart, count: keyLength))
                {
                    throw .corrupted("a map key is not valid UTF-8", at: position)
                }
                let valueStart = keyStart + keyLength
                // Scalars and strings inline; containers and tags through the walk.
                let valueHead = try self.head(at: valueStart)
                switch valueHead.majorType {
                case 0, 1, 7: position = valueHead.next
                case 2, 3: position = valueHead.next + (try stringLength(valueHead, at: valueStart))
                default: position = try skip(at: valueStart)
                }
                let entry = base + 3 * index
                table[entry] = keyStart
                table[entry + 1] = keyLength
                table[entry + 2] = valueStart
                // While the keys come in (length, bytes) order none repeats; the previous key is the one to compare.
                if sorted && index > 0 {
                    if keyLength != previousLength {
                        sorted = keyLength > previousLength
                    } else {
                        sorted = compareKeyBytes(previousStart, keyStart, length: keyLength) < 0
                    }
                }
                previousStart = keyStart
                previousLength = keyLength
            }
            table[base + 3 * count] = mark  // sorting below moves the entries only
        }
        if !sorted {
            try sortAndCheckKeys(base: base, count: count)
        }
        entryCount = base + 3 * count + 1
        if start == offset {
            valueEnd = position
        }
        return (base, count, position, mark)
    }

    /// Whether the decode is still under way: the input is emptied when it returns.
    var holdsInput: Bool { input.baseAddress != nil }

    /// Whether the `count` entries from `base` are still those of the map walked with `mark`: `false` once the
    /// decode has returned, once the value the map belongs to is done, or once another map was walked in its
    /// place.
    @inline(__always)
    func holdsEntries(base: Int, count: Int, mark: Int) -> Bool {
        let end = base + 3 * count
        return holdsInput && base >= 0 && count >= 0 && end < entryCount && end < entries.count && entries[end] == mark
    }

    /// Orders two recorded keys by length, then bytes (the order of their deterministic encodings).
    @inline(__always)
    func compareKeys(_ a: Int, _ b: Int) -> Int {
        let lengthA = entries[a + 1]
        let lengthB = entries[b + 1]
        if lengthA != lengthB {
            return lengthA < lengthB ? -1 : 1
        }
        return compareKeyBytes(entries[a], entries[b], length: lengthA)
    }

    /// Orders the `length` bytes at `startA` against those at `startB`.
    @inline(__always)
    func compareKeyBytes(_ startA: Int, _ startB: Int, length: Int) -> Int {
        for index in 0..<length {
            let left = input[startA + index]
            let right = input[startB + index]
            if left != right {
                return left < right ? -1 : 1
            }
        }
        return 0
    }

    /// Sorts the entries of an unsorted map by key (so large maps can be searched) and rejects a repeated key.
    private func sortAndCheckKeys(base: Int, count: Int) throws(CBORDecodingFailure) {
        var order = Array(0..<count)
        order.sort { compareKeys(base + 3 * $0, base + 3 * $1) < 0 }
        var reordered: [Int] = []
        reordered.reserveCapacity(3 * count)
        for (position, index) in order.enumerated() {
            let entry = base + 3 * index
            if position > 0 && compareKeys(base + 3 * order[position - 1], entry) == 0 {
                let text = String(
                    decoding: input[entries[entry]..<(entries[entry] + entries[entry + 1])], as: UTF8.self)
                throw .corrupted(
                    "the map has the key \"\(text)\" twice; each key may appear once", at: entries[entry])
            }
            reordered.append(contentsOf: entries[entry..<(entry + 3)])
        }
        entries.replaceSubrange(base..<(base + 3 * count), with: reordered)
    }

    /// The offset of the value of `key` among the `count` entries from `base`, sorted by ``compareKeys(_:_:)``, or
    /// `nil` if the key is not there or the entries are no longer those of the map walked with `mark`.
    func valueOffset(of key: String, base: Int, count: Int, mark: Int) -> Int? {
        guard holdsEntries(base: base, count: count, mark: mark) else {
            return nil  // a container kept past its value or past the decode: it finds nothing
        }
        var key = key
        return key.withUTF8 { utf8 -> Int? in
            let length = utf8.count
            if count <= 8 {
                // Through the buffer: the guard above keeps the entries in bounds, which the array would check again.
                return entries.withUnsafeBufferPointer { table -> Int? in
                    var entry = base
                    let end = base + 3 * count
                    while entry < end {
                        if table[entry + 1] == length && equals(utf8, at: table[entry]) {
                            return table[entry + 2]
                        }
                        entry += 3
                    }
                    return nil
                }
            }
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                let entry = base + 3 * middle
                let order = compare(utf8, toEntry: entry)
                if order == 0 {
                    return entries[entry + 2]
                }
                if order < 0 {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            return nil
        }
    }

    /// Whether the key bytes at `start` equal `utf8` (whose length the caller has compared), eight bytes at a time.
    @inline(__always)
    private func equals(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard let left = utf8.baseAddress, let input = input.baseAddress else { return utf8.isEmpty }
        let right = input + start
        let count = utf8.count
        let leftBytes = UnsafeRawPointer(left)
        // Whole words, then a last word that may overlap the one before; coding keys are mostly 4 to 8 bytes, which
        // take two overlapping 4-byte loads instead of a loop over bytes.
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                if leftBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    != right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                {
                    return false
                }
                index += 8
            }
            return index == count
                || leftBytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return leftBytes.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
                && leftBytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for index in 0..<count where left[index] != right.load(fromByteOffset: index, as: UInt8.self) {
            return false
        }
        return true
    }

    /// Orders `utf8` against the key of `entry` as ``compareKeys(_:_:)`` does.
    private func compare(_ utf8: UnsafeBufferPointer<UInt8>, toEntry entry: Int) -> Int {
        let length = entries[entry + 1]
        if utf8.count != length {
            return utf8.count < length ? -1 : 1
        }
        let start = entries[entry]
        for index in 0..<length {
            let left = utf8[index]
            let right = input[start + index]
            if left != right {
                return left < right ? -1 : 1
            }
        }
        return 0
    }

    /// The key of `entry` as a `String`, checked as UTF-8.
    func keyString(ofEntry entry: Int) throws(CBORDecodingFailure) -> String {
        let start = entries[entry]
        let length = entries[entry + 1]
        guard length > 0, let base = input.baseAddress, start + length <= input.count else { return "" }
        let utf8 = UnsafeRawBufferPointer(start: base + start, count: length)
        guard UTF8Validation.isValid(utf8) else {
            throw .corrupted("a map key is not valid UTF-8", at: start)
        }
        return UTF8Validation.string(fromValid: utf8)
    }
}
