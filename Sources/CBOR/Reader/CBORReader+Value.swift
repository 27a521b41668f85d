extension CBORReader {
    /// What a walk over one item does with what it reads.
    enum ItemMode {
        /// Builds the item and checks everything ``readValue()`` promises.
        case build
        /// Checks everything ``readValue()`` checks, but builds only map keys (to find duplicates); the walk that
        /// ``CBORValue/init(decoding:limits:requireDeterministic:)`` makes before it lays out its index.
        case check
        /// Checks the structure only (``skipValue()``).
        case skip

        var builds: Bool { self == .build }
        var checks: Bool { self != .skip }
    }

    /// Reads the next data item whole, checking it fully.
    ///
    /// Besides the head checks of ``readHead()``, this rejects a "break" outside an
    /// indefinite-length item, bad string chunks, invalid UTF-8, duplicate map keys, maps that
    /// end after a key, nesting and sizes beyond ``limits``, and in deterministic mode map keys
    /// that are not in ascending order of their encoded bytes.
    ///
    /// - Returns: The item; indefinite-length strings come back joined.
    /// - Throws: ``CBORError`` with the code of the first problem and its byte offset.
    public mutating func readValue() throws(CBORError) -> CBORValue {
        try readItem(depth: 0, mode: .build)
    }

    /// Reads past the next data item without building it, with the same structural checks as
    /// ``readValue()`` but no collection or string limits.
    ///
    /// In deterministic mode it also checks what ``readValue()`` checks on the values it builds, so that a skipped
    /// item is held to the same rules as a read one: text strings are valid UTF-8 (checked as they stream past, in
    /// constant memory), and map keys are unique and in ascending order of their encoded bytes (each key is built,
    /// within ``limits``, to compare it with the one before). Otherwise those checks are left out, since nothing is
    /// built to check them on.
    public mutating func skipValue() throws(CBORError) {
        _ = try readItem(depth: 0, mode: .skip)
    }

    /// Reads one item that must not be a "break", checking and building it as `mode` says; `.null` when the mode
    /// does not build.
    mutating func readItem(depth: Int, mode: ItemMode) throws(CBORError) -> CBORValue {
        let itemOffset = offset
        let head = try readHead()
        if head.isBreak {
            throw CBORError(
                code: .unexpectedBreak, message: "a break (0xff) stands where a data item was expected",
                offset: itemOffset)
        }
        return try readItem(after: head, at: itemOffset, depth: depth, mode: mode)
    }

    private mutating func readItem(
        after head: CBORHead, at itemOffset: Int, depth: Int, mode: ItemMode
    ) throws(CBORError) -> CBORValue {
        tally?.count(head)
        switch head.majorType {
        case .unsignedInteger:
            return .unsigned(head.argument)
        case .negativeInteger:
            return .negative(head.argument)
        case .byteString:
            if mode == .check, let length = head.length {
                try checkString(length: length, of: head.majorType, at: itemOffset)
                return .null
            }
            let payload = try readString(after: head, at: itemOffset, building: mode.checks)
            return mode.builds ? .bytes(payload) : .null
        case .textString:
            if mode == .skip && requiresDeterministicEncoding, let length = head.length {
                try skipText(length: length, at: itemOffset)
                return .null
            }
            if mode == .check, let length = head.length {
                try checkString(length: length, of: head.majorType, at: itemOffset)
                return .null
            }
            let payload = try readString(after: head, at: itemOffset, building: mode.checks)
            return mode.builds ? .text(String(decoding: payload, as: UTF8.self)) : .null
        case .array:
            try checkDepth(depth + 1, at: itemOffset)
            return try readArray(after: head, at: itemOffset, depth: depth + 1, mode: mode)
        case .map:
            try checkDepth(depth + 1, at: itemOffset)
            return try readMap(after: head, at: itemOffset, depth: depth + 1, mode: mode)
        case .tag:
            try checkDepth(depth + 1, at: itemOffset)
            let content = try readItem(depth: depth + 1, mode: mode)
            return mode.builds ? .tagged(head.argument, content) : .null
        case .simpleOrFloat:
            return Self.simpleOrFloat(head)
        }
    }

    static func simpleOrFloat(_ head: CBORHead) -> CBORValue {
        switch head.additionalInformation {
        case 20: .bool(false)
        case 21: .bool(true)
        case 22: .null
        case 23: .undefined
        case 25: .float(FloatBits.double(fromHalf: UInt16(truncatingIfNeeded: head.argument)))
        case 26: .float(Double(Float(bitPattern: UInt32(truncatingIfNeeded: head.argument))))
        case 27: .float(Double(bitPattern: head.argument))
        default: .simple(UInt8(truncatingIfNeeded: head.argument))
        }
    }

    private func checkDepth(_ depth: Int, at itemOffset: Int) throws(CBORError) {
        if depth > limits.maxNestingDepth {
            throw CBORError(
                code: .nestingTooDeep,
                message: "arrays, maps and tags nest deeper than the limit of \(limits.maxNestingDepth)",
                offset: itemOffset)
        }
    }

    /// The declared count of a definite array or map, within the limits when `checking`.
    ///
    /// Nothing is allocated by it: entries are appended as they are read, each taking at least
    /// one byte of input, so a count larger than the input ends in `.truncated`.
    private func checkedCount(_ head: CBORHead, at itemOffset: Int, checking: Bool) throws(CBORError) -> UInt64 {
        if checking && head.argument > UInt64(max(0, limits.maxCollectionCount)) {
            throw collectionTooLarge(at: itemOffset)
        }
        return head.argument
    }

    private func collectionTooLarge(at itemOffset: Int) -> CBORError {
        CBORError(
            code: .limitExceeded,
            message: "a collection has more than \(limits.maxCollectionCount) entries (Limits.maxCollectionCount)",
            offset: itemOffset)
    }

    /// How many items to reserve room for in a collection that declares `count`: all of them, unless the input
    /// that is left could not hold them (at `bytesPerItem` bytes each at least), so that a forged count cannot
    /// make a large allocation; 64 when the input's length is not known.
    private func reservation(for count: UInt64, bytesPerItem: Int) -> Int {
        let bound = knownRemainingByteCount.map { $0 / bytesPerItem } ?? 64
        return Int(min(count, UInt64(max(0, bound))))
    }

    private mutating func readArray(
        after head: CBORHead, at itemOffset: Int, depth: Int, mode: ItemMode
    ) throws(CBORError) -> CBORValue {
        var items: [CBORValue] = []
        if !head.isIndefiniteLength {
            let count = try checkedCount(head, at: itemOffset, checking: mode.checks)
            if mode.builds {
                items.reserveCapacity(reservation(for: count, bytesPerItem: 1))
            }
            for _ in 0..<count {
                let item = try readItem(depth: depth, mode: mode)
                if mode.builds { items.append(item) }
            }
        } else {
            let opened = tally?.open()
            var count = 0
            while true {
                let childOffset = offset
                let child = try readHead()
                if child.isBreak { break }
                count += 1
                if mode.checks && count > limits.maxCollectionCount { throw collectionTooLarge(at: itemOffset) }
                let item = try readItem(after: child, at: childOffset, depth: depth, mode: mode)
                if mode.builds { items.append(item) }
            }
            tally?.close(opened, childSlots: count)
        }
        return mode.builds ? .array(CBORArray(items)) : .null
    }

    private mutating func readMap(
        after head: CBORHead, at itemOffset: Int, depth: Int, mode: ItemMode
    ) throws(CBORError) -> CBORValue {
        var entries: [CBORValue.MapEntry] = []
        var keyOffsets: [Int] = []
        // A checked map's keys are built to find duplicates, and a skipped map's in deterministic mode to check
        // their order; values are built only when the map is.
        let buildingKeys = mode.checks || requiresDeterministicEncoding
        var count: UInt64 = 0
        let opened = head.isIndefiniteLength ? tally?.open() : nil
        var declared: UInt64?
        if !head.isIndefiniteLength {
            let count = try checkedCount(head, at: itemOffset, checking: mode.checks)
            declared = count
            if buildingKeys {
                let reserved = reservation(for: count, bytesPerItem: 2)
                entries.reserveCapacity(reserved)
                keyOffsets.reserveCapacity(reserved)
            }
        }
        while count < declared ?? .max {
            let keyOffset = offset
            let keyHead = try readHead()
            if keyHead.isBreak {
                if declared != nil {
                    throw CBORError(
                        code: .unexpectedBreak, message: "a break (0xff) stands where a map key was expected",
                        offset: keyOffset)
                }
                break
            }
            count += 1
            if mode.checks && count > UInt64(max(0, limits.maxCollectionCount)) {
                throw collectionTooLarge(at: itemOffset)
            }
            let key = try readItem(after: keyHead, at: keyOffset, depth: depth, mode: buildingKeys ? .build : .skip)
            let valueOffset = offset
            let valueHead = try readHead()
            if valueHead.isBreak && declared != nil {
                throw CBORError(
                    code: .unexpectedBreak, message: "a break (0xff) stands where a map value was expected",
                    offset: valueOffset)
            }
            if valueHead.isBreak {
                throw CBORError(
                    code: .oddMapItemCount, message: "the map ends after a key, without its value", offset: valueOffset)
            }
            let value = try readItem(after: valueHead, at: valueOffset, depth: depth, mode: mode)
            if buildingKeys {
                keyOffsets.append(keyOffset)
                entries.append(CBORValue.MapEntry(key: key, value: value))
            }
        }
        tally?.close(opened, childSlots: Int(2 * count))
        // Keys are checked once the map is well-formed, so a truncated map reports `.truncated`.
        var keys = MapKeyChecker(deterministic: requiresDeterministicEncoding)
        for index in entries.indices {
            try keys.check(entries[index].key, at: keyOffsets[index], after: entries[..<index])
        }
        return mode.builds ? .map(CBORMap(entries)) : .null
    }

    /// Consumes a definite-length text string, checking that it is valid UTF-8 as it streams past: a sequence cut by
    /// a chunk boundary is carried into the next chunk (at most 3 bytes), so memory stays constant.
    private mutating func skipText(length: UInt64, at itemOffset: Int) throws(CBORError) {
        if let known = knownRemainingByteCount, length > UInt64(known) {
            throw CBORError(
                code: .truncated, message: "a text string declares \(length) bytes but only \(known) are left",
                offset: itemOffset)
        }
        var remaining = length
        var carried: [UInt8] = []
        while remaining > 0 {
            guard try fill(atLeast: 1) else {
                throw truncated("input ends inside a text string of \(length) bytes")
            }
            let step = Int(min(remaining, UInt64(end - start)))
            var piece = carried
            piece.append(contentsOf: buffer[start..<(start + step)])
            let cut = Self.completeUTF8Prefix(piece)
            let valid = piece.withUnsafeBytes { UTF8Validation.isValid(UnsafeRawBufferPointer(rebasing: $0[..<cut])) }
            guard valid else {
                throw CBORError(code: .invalidUTF8, message: "a text string is not valid UTF-8", offset: itemOffset)
            }
            carried = Array(piece[cut...])
            consume(step)
            remaining -= UInt64(step)
        }
        guard carried.isEmpty else {
            throw CBORError(
                code: .invalidUTF8, message: "a text string ends inside a UTF-8 sequence", offset: itemOffset)
        }
    }

    /// The length of `bytes` without a final UTF-8 sequence that its last bytes start but do not finish.
    private static func completeUTF8Prefix(_ bytes: [UInt8]) -> Int {
        guard !bytes.isEmpty else { return 0 }
        for back in 1...min(3, bytes.count) {
            let lead = bytes[bytes.count - back]
            guard lead & 0xc0 == 0x80 else {
                let length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
                return length > back ? bytes.count - back : bytes.count
            }
        }
        return bytes.count
    }

    /// Reads a whole string payload, joining indefinite-length chunks.
    private mutating func readString(
        after head: CBORHead, at itemOffset: Int, building: Bool
    ) throws(CBORError) -> [UInt8] {
        var payload: [UInt8] = []
        guard head.isIndefiniteLength else {
            try readChunk(length: head.argument, of: head.majorType, into: &payload, at: itemOffset, building: building)
            return payload
        }
        while true {
            let chunkOffset = offset
            let chunk = try readHead()
            if chunk.isBreak { break }
            guard chunk.majorType == head.majorType, !chunk.isIndefiniteLength else {
                throw CBORError(
                    code: .invalidChunk,
                    message:
                        "a chunk of an indefinite-length \(head.majorType) must be a definite-length \(head.majorType), "
                        + "not \(chunk.isIndefiniteLength ? "indefinite " : "")\(chunk.majorType)", offset: chunkOffset)
            }
            try readChunk(
                length: chunk.argument, of: head.majorType, into: &payload, at: chunkOffset, building: building)
        }
        return payload
    }

    /// Checks a definite-length string as ``readValue()`` would read it (length within the input and the limits,
    /// text valid UTF-8) without keeping it: in place when its bytes are in the buffer, as in-memory input's are.
    private mutating func checkString(length: UInt64, of majorType: CBORMajorType, at itemOffset: Int) throws(CBORError)
    {
        let count = try checkedChunkLength(length, of: majorType, after: 0, at: itemOffset)
        guard end - start >= count else {
            var payload: [UInt8] = []
            try readChunk(length: length, of: majorType, into: &payload, at: itemOffset, building: true)
            return
        }
        if majorType == .textString {
            let valid = buffer.withUnsafeBytes { [start] in
                UTF8Validation.isValid(UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)]))
            }
            guard valid else {
                throw CBORError(code: .invalidUTF8, message: "a text string is not valid UTF-8", offset: itemOffset)
            }
        }
        consume(count)
    }

    /// The length of a chunk that `alreadyRead` bytes of its string precede, if the input holds it and the string
    /// stays within ``Limits/maxStringLength``.
    private func checkedChunkLength(
        _ length: UInt64, of majorType: CBORMajorType, after alreadyRead: Int, at chunkOffset: Int
    ) throws(CBORError) -> Int {
        if let known = knownRemainingByteCount, length > UInt64(known) {
            throw CBORError(
                code: .truncated, message: "a \(majorType) declares \(length) bytes but only \(known) are left",
                offset: chunkOffset)
        }
        guard let count = Int(exactly: length), count <= limits.maxStringLength - alreadyRead else {
            throw CBORError(
                code: .limitExceeded,
                message: "a \(majorType) is longer than \(limits.maxStringLength) bytes (Limits.maxStringLength); "
                    + "stream it with readHead() and readBytes(count:into:)", offset: chunkOffset)
        }
        return count
    }

    /// Reads one definite-length payload, appending it when `building`; text chunks must be
    /// valid UTF-8 on their own (RFC 8949 §3.2.3).
    private mutating func readChunk(
        length: UInt64, of majorType: CBORMajorType, into payload: inout [UInt8], at chunkOffset: Int, building: Bool
    ) throws(CBORError) {
        guard building else {
            if let known = knownRemainingByteCount, length > UInt64(known) {
                throw CBORError(
                    code: .truncated, message: "a \(majorType) declares \(length) bytes but only \(known) are left",
                    offset: chunkOffset)
            }
            guard let count = Int(exactly: length) else {
                throw CBORError(
                    code: .limitExceeded, message: "a \(majorType) of \(length) bytes is too long", offset: chunkOffset)
            }
            try skip(count: count)
            return
        }
        let count = try checkedChunkLength(length, of: majorType, after: payload.count, at: chunkOffset)
        let chunkStart = payload.count
        try appendBytes(count: count, to: &payload)
        if majorType == .textString {
            let valid = payload.withUnsafeBytes {
                UTF8Validation.isValid(UnsafeRawBufferPointer(rebasing: $0[chunkStart...]))
            }
            guard valid else {
                throw CBORError(code: .invalidUTF8, message: "a text string is not valid UTF-8", offset: chunkOffset)
            }
        }
    }
}

/// Finds duplicate keys, and in deterministic mode keys out of order, as a map is read.
private struct MapKeyChecker {
    /// Up to this many keys, a key that is no array, map or tag is compared with each one before it: cheaper than
    /// hashing them all. A collection key could make each comparison as costly as the key is large (a map's
    /// equality ignores order), so one turns the check to hashing, as a larger map does.
    static let pairwiseLimit = 16

    let deterministic: Bool
    /// The keys so far, once the check hashes them.
    var seen: Set<CBORValue>?
    var previousEncoding: [UInt8]?

    init(deterministic: Bool) {
        self.deterministic = deterministic
    }

    /// Checks the key of the pair after `earlier`, the pairs already checked.
    mutating func check(
        _ key: CBORValue, at keyOffset: Int, after earlier: ArraySlice<CBORValue.MapEntry>
    ) throws(CBORError) {
        if seen == nil && (earlier.count == Self.pairwiseLimit || Self.isCollection(key)) {
            seen = Set(earlier.lazy.map(\.key))
        }
        let repeated: Bool
        if seen != nil {
            repeated = !(seen?.insert(key).inserted ?? true)
        } else {
            repeated = earlier.contains { $0.key == key }
        }
        guard !repeated else {
            throw CBORError(code: .duplicateMapKey, message: "the map has the key \(key) twice", offset: keyOffset)
        }
        guard deterministic else { return }
        // In deterministic mode the key was read in its deterministic encoding, so encoding it
        // again gives back the input bytes.
        let encoding = try key.encoded()
        if let previousEncoding, !previousEncoding.lexicographicallyPrecedes(encoding) {
            throw CBORError(
                code: .notDeterministic, message: "map keys must be in ascending order of their encoded bytes",
                offset: keyOffset)
        }
        previousEncoding = encoding
    }

    private static func isCollection(_ key: CBORValue) -> Bool {
        switch key {
        case .array, .map, .tagged: true
        default: false
        }
    }
}
