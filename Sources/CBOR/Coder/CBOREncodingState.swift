#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One encode: the output buffer, the open containers, and the `Encoder` that values encode themselves into.
///
/// Containers write straight into one byte buffer. A map or array reserves one byte for its head when it opens
/// and gets its real head (and, for a map, its keys sorted) when its value's `encode(to:)` returns: Codable
/// containers are only ever written while their value is being encoded, so the open ones form a stack (`frames`).
/// Nested containers and super encoders, which a type may write to in any order, get a state of their own whose
/// bytes are spliced in when their parent closes.
final class CBOREncodingState: Encoder {
    enum Kind {
        case map, array, single
    }

    /// An open container.
    struct Frame {
        var kind: Kind
        /// Where the container's one-byte head placeholder is (for a single value: where the value starts).
        var start: Int
        /// The first of this map's entries in `marks`.
        var marksBase: Int
        /// Entries (map) or items (array) written so far; for a single value, 1 once written.
        var count = 0
        /// Tells this frame from an earlier one at the same depth, so a container that outlived its value fails.
        var generation: UInt32
        /// Whether nested containers or super encoders wait to be spliced in.
        var hasChildren = false
    }

    /// A nested container or super encoder of an open frame, spliced in when that frame closes.
    struct Child {
        var generation: UInt32
        /// The entry (map) it is the value of, or the item index (array).
        var entry: Int
        /// Where its bytes go.
        var offset: Int
        var state: CBOREncodingState
    }

    var bytes: [UInt8] = []
    var frames: [Frame] = []
    /// The offset of each open map's entries' keys.
    var marks: [Int] = []
    var children: [Child] = []
    var scratch: [UInt8] = []
    var codingPath: [any CodingKey]
    /// `frames.count` when the value being encoded began: its own container is `frames[slotBase]`.
    var slotBase = 0
    var lastGeneration: UInt32 = 0
    /// A broken rule of the `Encoder` protocol, reported when the encode ends.
    var misuse: String?
    let options: CBOREncoder
    let usesDefaultKeys: Bool

    init(options: CBOREncoder, codingPath: [any CodingKey] = []) {
        self.options = options
        self.codingPath = codingPath
        if case .useDefaultKeys = options.keyEncodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        bytes.reserveCapacity(128)
    }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    /// Closes what is still open and returns the encoding.
    func finish() throws -> [UInt8] {
        while frames.count > 0 {
            try closeTopFrame()
        }
        if let misuse {
            throw EncodingError.invalidValue(
                (), EncodingError.Context(codingPath: codingPath, debugDescription: misuse))
        }
        if bytes.isEmpty {
            bytes.append(0xa0)  // an encoder nobody asked a container of: an empty map, as JSONEncoder writes {}
        }
        return bytes
    }

    // MARK: - Values

    /// Encodes one value at the current position: primitives directly, everything else through `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T, key: (any CodingKey)?) throws {
        if writePrimitive(value) {
            return
        }
        if T.self == Data.self, let data = value as? Data {
            return try encodeData(data, key: key)
        }
        if T.self == Date.self, let date = value as? Date {
            return try encodeDate(date, key: key)
        }
        if T.self == URL.self, let url = value as? URL {
            return writeText(url.absoluteString)
        }
        try encodeNested(key: key) { try value.encode(to: self) }
    }

    /// Runs `body`, which encodes one value into `self`, and closes the containers it opened.
    func encodeNested(key: (any CodingKey)?, _ body: () throws -> Void) throws {
        let savedBase = slotBase
        let start = bytes.count
        let marksCount = marks.count
        let childrenCount = children.count
        slotBase = frames.count
        if let key {
            codingPath.append(key)
        }
        defer {
            if key != nil {
                codingPath.removeLast()
            }
            slotBase = savedBase
        }
        do {
            try body()
            while frames.count > slotBase {
                try closeTopFrame()
            }
        } catch {
            // A caller may catch the error and go on: leave no trace of the failed value.
            frames.removeSubrange(slotBase...)
            marks.removeSubrange(marksCount...)
            children.removeSubrange(childrenCount...)
            bytes.removeSubrange(start...)
            throw error
        }
        if bytes.count == start {
            bytes.append(0xa0)  // nothing was encoded: an empty map, as JSONEncoder writes {}
        }
    }

    /// Writes `value` if it is one of the types CBOR has an item for; returns whether it did.
    @inline(__always)
    func writePrimitive<T>(_ value: T) -> Bool {
        if T.self == String.self {
            writeText(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Double.self {
            writeDouble(unsafeBitCast(value, to: Double.self))
        } else if T.self == Bool.self {
            bytes.append(unsafeBitCast(value, to: Bool.self) ? 0xf5 : 0xf4)
        } else if T.self == Float.self {
            writeDouble(Double(unsafeBitCast(value, to: Float.self)))
        } else if T.self == Int64.self {
            writeInteger(unsafeBitCast(value, to: Int64.self))
        } else if T.self == UInt64.self {
            writeHead(0x00, unsafeBitCast(value, to: UInt64.self))
        } else if T.self == UInt.self {
            writeHead(0x00, UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if T.self == Int32.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if T.self == UInt32.self {
            writeHead(0x00, UInt64(unsafeBitCast(value, to: UInt32.self)))
        } else if T.self == Int16.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int16.self)))
        } else if T.self == UInt16.self {
            writeHead(0x00, UInt64(unsafeBitCast(value, to: UInt16.self)))
        } else if T.self == Int8.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int8.self)))
        } else if T.self == UInt8.self {
            writeHead(0x00, UInt64(unsafeBitCast(value, to: UInt8.self)))
        } else {
            return false
        }
        return true
    }

    private func encodeData(_ data: Data, key: (any CodingKey)?) throws {
        switch options.dataEncodingStrategy {
        case .byteString:
            writeHead(0x40, UInt64(data.count))
            bytes.append(contentsOf: data)
        case .base64:
            writeText(data.base64EncodedString())
        case .deferredToData:
            try encodeNested(key: key) { try data.encode(to: self) }
        case .custom(let closure):
            try encodeNested(key: key) { try closure(data, self) }
        }
    }

    private func encodeDate(_ date: Date, key: (any CodingKey)?) throws {
        switch options.dateEncodingStrategy {
        case .deferredToDate:
            try encodeNested(key: key) { try date.encode(to: self) }
        case .secondsSince1970:
            writeNumber(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            writeNumber(date.timeIntervalSince1970 * 1000)
        case .iso8601:
            writeText(date.formatted(.iso8601))
        case .taggedEpochSeconds:
            writeHead(0xc0, 1)
            writeNumber(date.timeIntervalSince1970)
        case .custom(let closure):
            try encodeNested(key: key) { try closure(date, self) }
        }
    }

    // MARK: - Items

    @inline(__always)
    func writeHead(_ major: UInt8, _ argument: UInt64) {
        if argument < 24 {
            bytes.append(major | UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xff {
            bytes.append(major | 24)
            bytes.append(UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xffff {
            bytes.append(major | 25)
            bytes.append(UInt8(truncatingIfNeeded: argument >> 8))
            bytes.append(UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xffff_ffff {
            bytes.append(major | 26)
            appendBigEndian(UInt32(truncatingIfNeeded: argument))
        } else {
            bytes.append(major | 27)
            appendBigEndian(argument)
        }
    }

    @inline(__always)
    private func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    func writeInteger(_ value: Int64) {
        if value >= 0 {
            writeHead(0x00, UInt64(value))
        } else {
            writeHead(0x20, UInt64(~value))
        }
    }

    @inline(__always)
    func writeText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            writeHead(0x60, UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A float in the shortest of half, single and double precision that holds it exactly (RFC 8949 §4.2.1).
    func writeDouble(_ value: Double) {
        if value.isNaN {
            bytes.append(0xf9)
            bytes.append(0x7e)
            bytes.append(0x00)
        } else if let single = FloatBits.float(exactly: value) {
            if let half = FloatBits.half(exactly: single) {
                bytes.append(0xf9)
                appendBigEndian(half)
            } else {
                bytes.append(0xfa)
                appendBigEndian(single.bitPattern)
            }
        } else {
            bytes.append(0xfb)
            appendBigEndian(value.bitPattern)
        }
    }

    /// A number of a date strategy: an integer when it is whole and fits, a float otherwise.
    func writeNumber(_ value: Double) {
        if value.rounded(.towardZero) == value, let integer = Int64(exactly: value) {
            writeInteger(integer)
        } else {
            writeDouble(value)
        }
    }

    /// Writes a map key, converted as the key strategy says.
    @inline(__always)
    func writeKey(_ key: some CodingKey) {
        if usesDefaultKeys {
            writeText(key.stringValue)
            return
        }
        switch options.keyEncodingStrategy {
        case .useDefaultKeys:
            writeText(key.stringValue)
        case .convertToSnakeCase:
            writeText(SnakeCase.fromCamelCase(key.stringValue))
        case .custom(let convert):
            writeText(convert(codingPath + [key]).stringValue)
        }
    }

    // MARK: - Containers

    /// Opens the current value's container of `kind`, or returns the one it already has (a subclass and its
    /// superclass share one); `nil` after recording a misuse.
    func openFrame(_ kind: Kind) -> (index: Int, generation: UInt32) {
        if frames.count > slotBase {
            let index = frames.count - 1
            if index == slotBase && frames[index].kind == kind {
                return (index, frames[index].generation)
            }
            misuse =
                index == slotBase
                ? "a value asked its encoder for two different kinds of container"
                : "a container was requested from an encoder whose value was already finished"
            return (-1, 0)
        }
        lastGeneration &+= 1
        let start = bytes.count
        if kind != .single {
            bytes.append(0)  // the head placeholder
        }
        frames.append(Frame(kind: kind, start: start, marksBase: marks.count, generation: lastGeneration))
        return (frames.count - 1, lastGeneration)
    }

    /// Throws unless the container of `frame` may be written now.
    @inline(__always)
    func checkOpen(_ frame: Int, _ generation: UInt32) throws {
        guard frame == frames.count - 1, frame >= 0, frames[frame].generation == generation else {
            throw misuseError(
                "a container was written to after its value was finished, or while another one "
                    + "of its values was being encoded")
        }
    }

    func misuseError(_ message: String) -> EncodingError {
        misuse = misuse ?? message
        return EncodingError.invalidValue((), EncodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    /// Starts an entry of the map `frame`: checks it is open, writes the key.
    @inline(__always)
    func beginEntry(_ frame: Int, _ generation: UInt32, _ key: some CodingKey) throws {
        try checkOpen(frame, generation)
        marks.append(bytes.count)
        writeKey(key)
        frames[frame].count += 1
    }

    /// Undoes ``beginEntry(_:_:_:)`` after its value failed.
    func dropEntry(_ frame: Int, keyStart: Int) {
        guard frame == frames.count - 1, marks.last == keyStart else { return }
        marks.removeLast()
        frames[frame].count -= 1
        bytes.removeSubrange(keyStart...)
    }

    /// Starts an item of the array `frame`.
    @inline(__always)
    func beginItem(_ frame: Int, _ generation: UInt32) throws {
        try checkOpen(frame, generation)
        frames[frame].count += 1
    }

    /// Starts the single value of `frame`.
    @inline(__always)
    func beginSingle(_ frame: Int, _ generation: UInt32) throws {
        try checkOpen(frame, generation)
        guard frames[frame].count == 0 else {
            throw misuseError("a single-value container was asked to encode a second value")
        }
        frames[frame].count = 1
    }

    /// A state for a nested container or super encoder, spliced in as the value at the current position.
    func makeChild(of frame: Int, entry: Int, key: any CodingKey) -> CBOREncodingState {
        let child = CBOREncodingState(options: options, codingPath: codingPath + [key])
        children.append(
            Child(generation: frames[frame].generation, entry: entry, offset: bytes.count, state: child))
        frames[frame].hasChildren = true
        return child
    }

    /// Gives the top container its head (and a map its sorted keys) and pops it.
    func closeTopFrame() throws {
        guard let frame = frames.popLast() else { return }
        if frame.hasChildren {
            try spliceChildren(of: frame)
        }
        switch frame.kind {
        case .single:
            guard frame.count == 1 else {
                throw EncodingError.invalidValue(
                    (),
                    EncodingError.Context(
                        codingPath: codingPath, debugDescription: "a single-value container encoded no value"))
            }
        case .array:
            setHead(0x80, count: frame.count, at: frame.start)
        case .map:
            if frame.count > 1 {
                try sortEntries(base: frame.marksBase, count: frame.count)
            }
            marks.removeSubrange(frame.marksBase...)
            setHead(0xa0, count: frame.count, at: frame.start)
        }
    }

    private func spliceChildren(of frame: Frame) throws {
        var index = children.count
        while index > 0, children[index - 1].generation == frame.generation {
            index -= 1
        }
        let mine = children[index...]
        children.removeSubrange(index...)
        // The last first, so that earlier offsets stay right.
        for child in mine.reversed() {
            let encoded = try child.state.finish()
            bytes.insert(contentsOf: encoded, at: child.offset)
            if frame.kind == .map {
                let first = frame.marksBase + child.entry + 1
                if first < marks.count {
                    for mark in first..<marks.count {
                        marks[mark] += encoded.count
                    }
                }
            }
        }
    }

    /// Replaces the placeholder at `start` with the head of a container of `count` items.
    private func setHead(_ major: UInt8, count: Int, at start: Int) {
        if count < 24 {
            bytes[start] = major | UInt8(truncatingIfNeeded: count)
            return
        }
        let end = bytes.count
        writeHead(major, UInt64(count))
        let head = Array(bytes[end...])
        bytes.removeSubrange(end...)
        bytes[start] = head[0]
        bytes.insert(contentsOf: head[1...], at: start + 1)
    }

    /// The end of the text-string key that starts at `offset` (written by this encoder, so well formed).
    @inline(__always)
    private func keyEnd(at offset: Int) -> Int {
        let initial = bytes[offset]
        switch initial & 0x1f {
        case 24: return offset + 2 + Int(bytes[offset + 1])
        case 25: return offset + 3 + (Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]))
        case 26:
            return offset + 5 + (bytes[(offset + 1)..<(offset + 5)].reduce(0) { $0 << 8 | Int($1) })
        case 27:
            return offset + 9 + (bytes[(offset + 1)..<(offset + 9)].reduce(0) { $0 << 8 | Int($1) })
        default: return offset + 1 + Int(initial & 0x1f)
        }
    }

    /// Compares the encoded keys at `a` and `b` byte by byte.
    private func compareKeys(_ a: Range<Int>, _ b: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            let common = min(a.count, b.count)
            var index = 0
            while index < common {
                let left = buffer[a.lowerBound + index]
                let right = buffer[b.lowerBound + index]
                if left != right {
                    return left < right ? -1 : 1
                }
                index += 1
            }
            return a.count - b.count
        }
    }

    /// Puts the `count` entries whose keys start at `marks[base...]` in the order of their keys' bytes.
    private func sortEntries(base: Int, count: Int) throws {
        let end = bytes.count
        var keys: [Range<Int>] = []
        keys.reserveCapacity(count)
        for index in 0..<count {
            let start = marks[base + index]
            keys.append(start..<keyEnd(at: start))
        }
        var sorted = true
        for index in 1..<count {
            let order = compareKeys(keys[index - 1], keys[index])
            if order == 0 {
                throw duplicateKey(keys[index])
            }
            if order > 0 {
                sorted = false
            }
        }
        if sorted {
            return
        }
        var order = Array(0..<count)
        order.sort { compareKeys(keys[$0], keys[$1]) < 0 }
        for index in 1..<count where compareKeys(keys[order[index - 1]], keys[order[index]]) == 0 {
            throw duplicateKey(keys[order[index]])
        }
        let regionStart = marks[base]
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[regionStart..<end])
        var write = regionStart
        bytes.withUnsafeMutableBufferPointer { output in
            scratch.withUnsafeBufferPointer { input in
                for entry in order {
                    let from = marks[base + entry]
                    let to = entry + 1 < count ? marks[base + entry + 1] : end
                    for offset in from..<to {
                        output[write] = input[offset - regionStart]
                        write += 1
                    }
                }
            }
        }
    }

    private func duplicateKey(_ key: Range<Int>) -> EncodingError {
        let headLength: Int
        switch bytes[key.lowerBound] & 0x1f {
        case 24: headLength = 2
        case 25: headLength = 3
        case 26: headLength = 5
        case 27: headLength = 9
        default: headLength = 1
        }
        let text = String(decoding: bytes[(key.lowerBound + headLength)..<key.upperBound], as: UTF8.self)
        return EncodingError.invalidValue(
            text,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "the map has the key \"\(text)\" twice; a CBOR map holds each key once"))
    }
}
