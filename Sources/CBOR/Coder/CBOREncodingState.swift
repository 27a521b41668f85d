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

    @exclusivity(unchecked) var output = CBOROutputBuffer(capacity: 128)
    /// Whether `output`'s memory went to a `Data` (or was freed): then `deinit` leaves it alone.
    @exclusivity(unchecked) private var outputTaken = false
    @exclusivity(unchecked) var frames: [Frame] = []
    /// The offset of each open map's entries' keys.
    @exclusivity(unchecked) var marks: [Int] = []
    @exclusivity(unchecked) var children: [Child] = []
    /// Scratch for sorting a map: each entry's key range, and the entries in key order (kept with the state).
    @exclusivity(unchecked) var sortKeys: [Range<Int>] = []
    @exclusivity(unchecked) var sortOrder: [Int] = []
    @exclusivity(unchecked) var codingPath: [any CodingKey]
    /// `frames.count` when the value being encoded began: its own container is `frames[slotBase]`.
    @exclusivity(unchecked) var slotBase = 0
    @exclusivity(unchecked) var lastGeneration: UInt32 = 0
    /// A broken rule of the `Encoder` protocol, reported when the encode ends.
    @exclusivity(unchecked) var misuse: String?
    @exclusivity(unchecked) private(set) var options: CBOREncoder
    @exclusivity(unchecked) private(set) var usesDefaultKeys: Bool

    init(options: CBOREncoder, codingPath: [any CodingKey] = []) {
        self.options = options
        self.codingPath = codingPath
        usesDefaultKeys = options.keyEncodingStrategy.isDefault
    }

    deinit {
        if !outputTaken {
            output.deallocate()
        }
    }

    /// The largest encoding whose size the next encode's buffer is made from (``make(options:)``).
    private static let smallEncoding = 2048

    /// A state for a new top-level encode: the spare one, reset, or a new one.
    static func make(options: CBOREncoder) -> CBOREncodingState {
        guard let state = encodingStateCache.take() else {
            return CBOREncodingState(options: options)
        }
        // Copying the options retains every closure and dictionary in them; between two default-option encodes
        // (the common case) there is nothing to copy.
        if !(options.hasDefaultOptions && state.options.hasDefaultOptions) {
            state.options = options
            state.usesDefaultKeys = options.keyEncodingStrategy.isDefault
        }
        if state.outputTaken || state.output.capacity > 1 << 16 {
            if !state.outputTaken {
                state.output.deallocate()  // a large encoding's buffer is not worth keeping
            }
            // Room for twice the last encoding (its bytes and the room its keys are sorted in), when it was small
            // and succeeded: values of one type take turns, and a `Book` of the benchmark grew its buffer twice
            // (128 → 256 → 512 bytes). Sized from the count, not the capacity, so that neither a failed encode
            // (count 0) nor one large encode makes later small ones start large.
            let last = state.outputTaken ? state.output.count : 0
            let capacity = last > 64 && last <= smallEncoding ? 2 * last : 128
            state.output = CBOROutputBuffer(capacity: capacity)
            state.outputTaken = false
        } else {
            state.output.truncate(to: 0)
        }
        // After an encode that succeeded these are empty already; after a failure they may not be.
        if !state.frames.isEmpty || !state.marks.isEmpty || !state.children.isEmpty || !state.codingPath.isEmpty {
            state.frames.removeAll(keepingCapacity: true)
            state.marks.removeAll(keepingCapacity: true)
            state.children.removeAll()
            state.codingPath.removeAll(keepingCapacity: true)
        }
        state.slotBase = 0
        state.misuse = nil
        return state
    }

    /// Hands a finished top-level state back for the next encode.
    static func recycle(_ state: inout CBOREncodingState) {
        encodingStateCache.giveBack(&state)
    }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    /// Closes what is still open and checks the encoder was used by the rules.
    func finish() throws {
        while frames.count > 0 {
            try closeTopFrame()
        }
        if let misuse {
            throw EncodingError.invalidValue(
                (), EncodingError.Context(codingPath: codingPath, debugDescription: misuse))
        }
        if output.count == 0 {
            output.append(0xa0)  // an encoder nobody asked a container of: an empty map, as JSONEncoder writes {}
        }
    }

    /// The encoding, after ``finish()``, as `Data` that takes over the buffer.
    func takeData() -> Data {
        outputTaken = true
        return output.takeData()
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
        if writePrimitiveArray(value) {
            return
        }
        try encodeNested(key: key) { try value.encode(to: self) }
    }

    /// Runs `body`, which encodes one value into `self`, and closes the containers it opened.
    func encodeNested(key: (any CodingKey)?, _ body: () throws -> Void) throws {
        let savedBase = slotBase
        let start = output.count
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
            output.truncate(to: start)
            throw error
        }
        if output.count == start {
            output.append(0xa0)  // nothing was encoded: an empty map, as JSONEncoder writes {}
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
            output.append(unsafeBitCast(value, to: Bool.self) ? 0xf5 : 0xf4)
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
            data.withUnsafeBytes { output.append($0) }
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
            output.append(major | UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xff {
            output.append(major | 24)
            output.append(UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xffff {
            output.append(major | 25)
            output.appendBigEndian(UInt16(truncatingIfNeeded: argument))
        } else if argument <= 0xffff_ffff {
            output.append(major | 26)
            output.appendBigEndian(UInt32(truncatingIfNeeded: argument))
        } else {
            output.append(major | 27)
            output.appendBigEndian(argument)
        }
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
            output.append(UnsafeRawBufferPointer(utf8))
        }
    }

    /// A float in the shortest of half, single and double precision that holds it exactly (RFC 8949 §4.2.1).
    func writeDouble(_ value: Double) {
        if value.isNaN {
            output.append(0xf9)
            output.appendBigEndian(UInt16(0x7e00))
        } else if let single = FloatBits.float(exactly: value) {
            if let half = FloatBits.half(exactly: single) {
                output.append(0xf9)
                output.appendBigEndian(half)
            } else {
                output.append(0xfa)
                output.appendBigEndian(single.bitPattern)
            }
        } else {
            output.append(0xfb)
            output.appendBigEndian(value.bitPattern)
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
        let start = output.count
        if kind != .single {
            output.append(0)  // the head placeholder
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
        marks.append(output.count)
        writeKey(key)
        frames[frame].count += 1
    }

    /// Undoes ``beginEntry(_:_:_:)`` after its value failed.
    func dropEntry(_ frame: Int, keyStart: Int) {
        guard frame == frames.count - 1, marks.last == keyStart else { return }
        marks.removeLast()
        frames[frame].count -= 1
        output.truncate(to: keyStart)
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
            Child(generation: frames[frame].generation, entry: entry, offset: output.count, state: child))
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
            try child.state.finish()
            let encoded = child.state.output.bytes(in: 0..<child.state.output.count)
            output.insert(encoded, at: child.offset)
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
            output[start] = major | UInt8(truncatingIfNeeded: count)
        } else if count <= 0xff {
            output[start] = major | 24
            withUnsafeBytes(of: UInt8(truncatingIfNeeded: count)) { output.insert($0, at: start + 1) }
        } else if count <= 0xffff {
            output[start] = major | 25
            withUnsafeBytes(of: UInt16(truncatingIfNeeded: count).bigEndian) { output.insert($0, at: start + 1) }
        } else if count <= 0xffff_ffff {
            output[start] = major | 26
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).bigEndian) { output.insert($0, at: start + 1) }
        } else {
            output[start] = major | 27
            withUnsafeBytes(of: UInt64(count).bigEndian) { output.insert($0, at: start + 1) }
        }
    }

    /// The length of the head of the text-string key at `offset` (written by this encoder, so well formed).
    @inline(__always)
    private func keyHeadLength(at offset: Int) -> Int {
        switch output[offset] & 0x1f {
        case 24: return 2
        case 25: return 3
        case 26: return 5
        case 27: return 9
        default: return 1
        }
    }

    /// The end of the text-string key at `offset`.
    @inline(__always)
    private func keyEnd(at offset: Int) -> Int {
        let headLength = keyHeadLength(at: offset)
        var length = headLength == 1 ? Int(output[offset] & 0x1f) : 0
        if headLength > 1 {
            for index in 1..<headLength {
                length = length << 8 | Int(output[offset + index])
            }
        }
        return offset + headLength + length
    }

    /// Orders the encoded keys in `a` and `b` as their bytes do. Every key has the shortest head, so a shorter
    /// encoding sorts first and encodings of one length have the same head: only their payloads need comparing.
    @inline(__always)
    private func compareKeys(_ a: Range<Int>, _ b: Range<Int>) -> Int {
        if a.count != b.count {
            return a.count < b.count ? -1 : 1
        }
        var index = 0
        let count = a.count
        let base = UnsafeRawPointer(output.base)
        while index + 8 <= count {
            let left = base.loadUnaligned(fromByteOffset: a.lowerBound + index, as: UInt64.self).bigEndian
            let right = base.loadUnaligned(fromByteOffset: b.lowerBound + index, as: UInt64.self).bigEndian
            if left != right {
                return left < right ? -1 : 1
            }
            index += 8
        }
        while index < count {
            let left = output[a.lowerBound + index]
            let right = output[b.lowerBound + index]
            if left != right {
                return left < right ? -1 : 1
            }
            index += 1
        }
        return 0
    }

    /// Puts the `count` entries whose keys start at `marks[base...]` in the order of their keys' bytes.
    ///
    /// The entries are appended again in key order after the map, then moved down over it: the output buffer is
    /// its own scratch space.
    private func sortEntries(base: Int, count: Int) throws {
        let end = output.count
        var previous = marks[base]..<keyEnd(at: marks[base])
        var sorted = true
        for index in 1..<count {
            let start = marks[base + index]
            let next = start..<keyEnd(at: start)
            let order = compareKeys(previous, next)
            if order == 0 {
                throw duplicateKey(next)
            }
            if order > 0 {
                sorted = false
                break
            }
            previous = next
        }
        if sorted {
            return
        }
        if sortKeys.count < count {
            sortKeys.append(contentsOf: repeatElement(0..<0, count: count - sortKeys.count))
            sortOrder.append(contentsOf: repeatElement(0, count: count - sortOrder.count))
        }
        let duplicate = sortKeys.withUnsafeMutableBufferPointer { keys in
            sortOrder.withUnsafeMutableBufferPointer { order -> Range<Int>? in
                for index in 0..<count {
                    let start = marks[base + index]
                    keys[index] = start..<keyEnd(at: start)
                    order[index] = index
                }
                if count <= 16 {
                    for index in 1..<count {
                        let entry = order[index]
                        var position = index
                        while position > 0 && compareKeys(keys[order[position - 1]], keys[entry]) > 0 {
                            order[position] = order[position - 1]
                            position -= 1
                        }
                        order[position] = entry
                    }
                } else {
                    var entries = UnsafeMutableBufferPointer(rebasing: order[..<count])
                    entries.sort { compareKeys(keys[$0], keys[$1]) < 0 }
                }
                for index in 1..<count where compareKeys(keys[order[index - 1]], keys[order[index]]) == 0 {
                    return keys[order[index]]
                }
                let regionStart = marks[base]
                output.reserve(end - regionStart)
                for index in 0..<count {
                    let entry = order[index]
                    let from = marks[base + entry]
                    let to = entry + 1 < count ? marks[base + entry + 1] : end
                    output.append(output.bytes(in: from..<to))
                }
                output.moveTail(from: end, to: regionStart)
                return nil
            }
        }
        if let duplicate {
            throw duplicateKey(duplicate)
        }
    }

    private func duplicateKey(_ key: Range<Int>) -> EncodingError {
        let payload = output.bytes(in: (key.lowerBound + keyHeadLength(at: key.lowerBound))..<key.upperBound)
        let text = String(decoding: payload, as: UTF8.self)
        return EncodingError.invalidValue(
            text,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "the map has the key \"\(text)\" twice; a CBOR map holds each key once"))
    }
}

extension CBOREncoder {
    /// Whether every strategy is the default one and `userInfo` is empty.
    var hasDefaultOptions: Bool {
        guard case .deferredToDate = dateEncodingStrategy, case .byteString = dataEncodingStrategy,
            case .useDefaultKeys = keyEncodingStrategy
        else { return false }
        return userInfo.isEmpty
    }
}

extension CBOREncoder.KeyEncodingStrategy {
    var isDefault: Bool {
        if case .useDefaultKeys = self {
            return true
        }
        return false
    }
}
