/// The part of a keyed container that a state reaches without its key type: the state it reads, and whether it
/// keeps that state alive.
class CBORKeyedDecodingContainerBase {
    /// The decode the container reads, unretained: ``owner`` keeps it alive, except while parked.
    private let stateReference: Unmanaged<CBORDecodingState>
    /// The state, or `nil` while the container waits in that state as its spare between two decodes
    /// (``CBORDecodingState/recycle(_:)``): then only the state holds the container, and a container that held the
    /// state back would keep both alive forever and the state from ever being the only reference to itself. A
    /// parked container is reached only through its state, so the state outlives it.
    @exclusivity(unchecked) private var owner: CBORDecodingState?

    init(state: CBORDecodingState) {
        stateReference = Unmanaged.passUnretained(state)
        owner = state
    }

    /// The state the container reads (retained by whoever keeps the result).
    final var state: CBORDecodingState { stateReference.takeUnretainedValue() }

    /// Runs `body` with the state, without retaining it: the reads of every value go through here, and a retain
    /// and a release of the state for each of them were a tenth of decoding a small record.
    @inline(__always)
    final func withState<R>(_ body: (CBORDecodingState) throws -> R) rethrows -> R {
        try stateReference._withUnsafeGuaranteedRef(body)
    }

    /// Stops keeping the state alive; see ``owner``.
    final func park() {
        owner = nil
    }

    /// Keeps the state alive again, before the container reads for it once more.
    final func unpark() {
        if owner == nil {
            owner = stateReference.takeUnretainedValue()
        }
    }
}

/// The keyed container of ``CBORDecodingState``: a map, walked once when the container is made.
///
/// A class, not a struct: `KeyedDecodingContainer`'s box copies and destroys the container on every `decode` call,
/// through the generic type's value witnesses. A reference is one retain and release there, where a struct's three
/// references were three (4–6 % of decoding the benchmark's records).
final class CBORKeyedDecodingContainer<Key: CodingKey>: CBORKeyedDecodingContainerBase,
    KeyedDecodingContainerProtocol
{
    /// The container's coding path, kept lazily (``codingPath`` makes the keys).
    @exclusivity(unchecked) private(set) var path: CBORCodingPath
    /// The number of keys in `path`, kept apart: reading `path` itself to count it copies and retains it, once for
    /// every nested value (``decodeValue(_:at:key:)``).
    @exclusivity(unchecked) private(set) var pathCount: Int
    /// The map's first entry in `state.entries`, its entry count, and the mark its walk wrote after them: a
    /// container kept while another map is walked in the place of its own finds nothing, not that map's values.
    @exclusivity(unchecked) private(set) var base: Int
    @exclusivity(unchecked) private(set) var count: Int
    @exclusivity(unchecked) private(set) var mark: Int
    /// The map keys converted by a key strategy, with each one's value offset; `nil` for the default keys.
    let convertedKeys: [String: Int]?

    init(state: CBORDecodingState, path: CBORCodingPath, at start: Int) throws {
        self.path = path.unshared
        pathCount = path.count
        (base, count, mark) = try Self.scan(state: state, path: path, at: start)
        if state.usesDefaultKeys {
            convertedKeys = nil
        } else {
            convertedKeys = try Self.convertKeys(state: state, codingPath: path.keys, base: base, count: count)
        }
        super.init(state: state)
    }

    /// Points the container at another map: the next record's, in an array of records, or the next top-level
    /// value's (``CBORDecodingState/container(keyedBy:)``). Only with the default keys, for which a container
    /// converts none.
    func reopen(path: CBORCodingPath, at start: Int) throws {
        self.path = path.unshared
        pathCount = path.count
        (base, count, mark) = try Self.scan(state: state, path: path, at: start)
        unpark()  // after the walk: one that throws leaves the container parked
    }

    /// Walks the map at `start` into `state.entries`: its first entry, its entry count and its mark.
    private static func scan(
        state: CBORDecodingState, path: CBORCodingPath, at start: Int
    ) throws -> (Int, Int, Int) {
        do {
            let (base, count, _, mark) = try state.scanMap(at: start)
            return (base, count, mark)
        } catch {
            throw state.error(error, [String: Any].self, path: path.keys)
        }
    }

    var codingPath: [any CodingKey] { path.keys }

    private static func convertKeys(
        state: CBORDecodingState, codingPath: [any CodingKey], base: Int, count: Int
    ) throws -> [String: Int] {
        var converted: [String: Int] = [:]
        for index in 0..<count {
            let entry = base + 3 * index
            let raw: String
            do {
                raw = try state.keyString(ofEntry: entry)
            } catch {
                throw state.error(error, String.self, path: codingPath)
            }
            let key: String
            switch state.options.keyDecodingStrategy {
            case .useDefaultKeys: key = raw
            case .convertFromSnakeCase: key = SnakeCase.toCamelCase(raw)
            case .custom(let convert): key = convert(codingPath + [CBORCodingKey(stringValue: raw)]).stringValue
            }
            guard converted.updateValue(state.entries[entry + 2], forKey: key) == nil else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "two keys of the map convert to \"\(key)\" (at byte offset "
                            + "\(state.entries[entry])); each key may appear once"))
            }
        }
        return converted
    }

    var allKeys: [Key] {
        if let convertedKeys {
            return state.holdsInput ? convertedKeys.keys.compactMap { Key(stringValue: $0) } : []
        }
        guard state.holdsEntries(base: base, count: count, mark: mark) else { return [] }
        return (0..<count).compactMap { index in
            (try? state.keyString(ofEntry: base + 3 * index)).flatMap { Key(stringValue: $0) }
        }
    }

    @inline(__always)
    private func valueOffset(_ key: Key) -> Int? {
        if let convertedKeys {
            // Past the decode the input is gone: nothing to read, as for a container of the default keys.
            return state.holdsInput ? convertedKeys[key.stringValue] : nil
        }
        return withState { state in state.valueOffset(of: key.stringValue, base: base, count: count, mark: mark) }
    }

    @inline(__always)
    private func requireValue(_ key: Key) throws -> Int {
        guard let offset = valueOffset(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "the map has no key \"\(key.stringValue)\""))
        }
        return offset
    }

    func contains(_ key: Key) -> Bool {
        valueOffset(key) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        state.isNil(at: try requireValue(key))
    }

    @inline(__always)
    private func read<T>(
        _ type: T.Type, _ key: Key, _ body: (CBORDecodingState, inout Int) throws(CBORDecodingFailure) -> T
    ) throws -> T {
        var offset = try requireValue(key)
        return try withState { state in
            do throws(CBORDecodingFailure) {
                return try body(state, &offset)
            } catch {
                throw state.error(error, type, path: codingPath + [key])
            }
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readBool(at: &offset) }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readString(at: &offset) }
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readDouble(at: &offset) }
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readFloat(at: &offset) }
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try read(type, key) { state, offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeValue(type, at: try requireValue(key), key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let offset = valueOffset(key), !withState({ state in state.isNil(at: offset) }) else { return nil }
        return try decodeValue(type, at: offset, key: key)
    }

    private func decodeValue<T: Decodable>(_ type: T.Type, at offset: Int, key: Key) throws -> T {
        try withState { state in
            if let kind = CBORPrimitive.of(type) {
                var position = offset
                do throws(CBORDecodingFailure) {
                    return try state.readPrimitive(kind, as: type, at: &position)
                } catch {
                    throw state.error(error, type, path: codingPath + [key])
                }
            }
            // A record's own container has the decoder's path (the same length): passing none spares a copy of it.
            return try state.decodeNested(
                type, at: offset, step: .key(key), in: pathCount == state.path.count ? nil : path, end: nil)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(
            try CBORKeyedDecodingContainer<NestedKey>(
                state: state, path: path.pushing(.key(key)), at: try requireValue(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try CBORUnkeyedDecodingContainer(state: state, path: path.pushing(.key(key)), at: try requireValue(key))
    }

    func superDecoder() throws -> any Decoder {
        let key = CBORCodingKey.super
        return state.makeSuperDecoder(
            at: state.valueOffset(of: key.stringValue, base: base, count: count, mark: mark), path: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        state.makeSuperDecoder(at: valueOffset(key), path: codingPath + [key])
    }
}

/// The unkeyed container of ``CBORDecodingState``: an array, read item by item.
struct CBORUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let state: CBORDecodingState
    /// The container's coding path, kept lazily (``codingPath`` makes the keys).
    let path: CBORCodingPath
    let start: Int
    let itemCount: Int
    var currentIndex = 0
    /// Where the next item starts.
    var position: Int

    init(state: CBORDecodingState, path: CBORCodingPath, at start: Int) throws {
        self.state = state
        self.path = path
        self.start = start
        do throws(CBORDecodingFailure) {
            let head = try state.head(at: start)
            guard head.majorType == 4 else { throw state.mismatch("an array", at: start) }
            itemCount = try state.collectionCount(head, at: start)
            position = head.next
        } catch {
            throw state.error(error, [Any].self, path: path.keys)
        }
        if itemCount == 0 {
            reachedEnd()
        }
    }

    var codingPath: [any CodingKey] { path.keys }

    var count: Int? { itemCount }
    var isAtEnd: Bool { currentIndex >= itemCount }

    private func reachedEnd() {
        if start == state.offset {
            state.valueEnd = position
        }
    }

    private func requireItem(_ type: Any.Type) throws {
        guard currentIndex < itemCount else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [CBORCodingKey(intValue: currentIndex)],
                    debugDescription: "the array has no item \(currentIndex): it holds \(itemCount)"))
        }
    }

    private mutating func advance(to end: Int) {
        position = end
        currentIndex += 1
        if currentIndex == itemCount {
            reachedEnd()
        }
    }

    mutating func decodeNil() throws -> Bool {
        try requireItem(Never?.self)
        if state.isNil(at: position) {
            advance(to: position + 1)
            return true
        }
        return false
    }

    @inline(__always)
    private mutating func read<T>(_ type: T.Type, _ body: (inout Int) throws(CBORDecodingFailure) -> T) throws -> T {
        try requireItem(type)
        var offset = position
        let value: T
        do {
            value = try body(&offset)
        } catch {
            throw state.error(error, type, path: codingPath + [CBORCodingKey(intValue: currentIndex)])
        }
        advance(to: offset)
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readBool(at: &offset) }
    }

    mutating func decode(_ type: String.Type) throws -> String {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readString(at: &offset) }
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readDouble(at: &offset) }
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readFloat(at: &offset) }
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try requireItem(type)
        var offset = position
        if let kind = CBORPrimitive.of(type) {
            do {
                let value = try state.readPrimitive(kind, as: type, at: &offset)
                advance(to: offset)
                return value
            } catch {
                throw state.error(error, type, path: codingPath + [CBORCodingKey(intValue: currentIndex)])
            }
        }
        let value = try state.decodeNested(type, at: position, step: .index(currentIndex), in: path, end: &offset)
        advance(to: offset)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try requireItem(type)
        let path = self.path.pushing(.index(currentIndex))
        let container = try CBORKeyedDecodingContainer<NestedKey>(state: state, path: path, at: position)
        advance(to: try end(ofItemAt: position, path: path.keys))
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try requireItem([Any].self)
        let path = self.path.pushing(.index(currentIndex))
        let container = try CBORUnkeyedDecodingContainer(state: state, path: path, at: position)
        advance(to: try end(ofItemAt: position, path: path.keys))
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        try requireItem(Any.self)
        let path = codingPath + [CBORCodingKey(intValue: currentIndex)]
        let decoder = state.makeSuperDecoder(at: position, path: path)
        advance(to: try end(ofItemAt: position, path: path))
        return decoder
    }

    private func end(ofItemAt offset: Int, path: [any CodingKey]) throws -> Int {
        do {
            return try state.skip(at: offset)
        } catch {
            throw state.error(error, Any.self, path: path)
        }
    }
}

/// The single-value container of ``CBORDecodingState``: the value at the decoder's offset.
///
/// It holds its coding path as keys (three words in all, so that `any SingleValueDecodingContainer` needs no box of
/// its own); a single value is decoded at its own key, which is a key already, not a pending index.
struct CBORSingleValueDecodingContainer: SingleValueDecodingContainer {
    let state: CBORDecodingState
    let codingPath: [any CodingKey]
    let offset: Int

    func decodeNil() -> Bool {
        state.isNil(at: offset)
    }

    @inline(__always)
    private func read<T>(_ type: T.Type, _ body: (inout Int) throws(CBORDecodingFailure) -> T) throws -> T {
        var position = offset
        let value: T
        do {
            value = try body(&position)
        } catch {
            throw state.error(error, type, path: codingPath)
        }
        if offset == state.offset {
            state.valueEnd = position
        }
        return value
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readBool(at: &offset) }
    }

    func decode(_ type: String.Type) throws -> String {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readString(at: &offset) }
    }

    func decode(_ type: Double.Type) throws -> Double {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readDouble(at: &offset) }
    }

    func decode(_ type: Float.Type) throws -> Float {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readFloat(at: &offset) }
    }

    func decode(_ type: Int.Type) throws -> Int {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try read(type) { [state] offset throws(CBORDecodingFailure) in try state.readInteger(type, at: &offset) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        var position = offset
        if let kind = CBORPrimitive.of(type) {
            do {
                let value = try state.readPrimitive(kind, as: type, at: &position)
                if offset == state.offset {
                    state.valueEnd = position
                }
                return value
            } catch {
                throw state.error(error, type, path: codingPath)
            }
        }
        guard offset == state.offset else {
            return try state.decodeNested(type, at: offset, step: .none, in: CBORCodingPath(codingPath), end: nil)
        }
        let value = try state.decodeNested(
            type, at: offset, step: .none, in: CBORCodingPath(codingPath), end: &position)
        state.valueEnd = position
        return value
    }
}

extension CBORDecodingState {
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // An item of an array of records (`decodeRecords`, default keys) reuses the container of the item before,
        // once that item's `init(from:)` has returned without keeping it; the first keyed container of a decode
        // (the top-level value's, or that of the value a wrapper decodes through its single-value container) reuses
        // the last decode's, which the spare state keeps (`make(input:options:)`, `recycle(_:)`). A new
        // `KeyedDecodingContainer` is two objects (the container and the standard library's box around it) and
        // look-ups of their generic metadata and witness tables, a tenth of decoding a small record and a fifth of
        // a small top-level value. The box is held as `KeyedDecodingContainer` holds it: that struct is, in the
        // standard library, one stored reference to its box; where its size says otherwise, nothing is reused.
        if recordDepth == CBORDecodingState.unclaimedDepth {
            recordDepth = depth
        }
        guard depth == recordDepth, MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size
        else {
            return KeyedDecodingContainer(try CBORKeyedDecodingContainer<Key>(state: self, path: path, at: offset))
        }
        if let container = recordContainer, recordKeyType == ObjectIdentifier(type),
            isKnownUniquelyReferenced(&recordBox)
        {
            try unsafeDowncast(container, to: CBORKeyedDecodingContainer<Key>.self).reopen(path: path, at: offset)
            return unsafeBitCast(recordBox, to: KeyedDecodingContainer<Key>.self)
        }
        let container = try CBORKeyedDecodingContainer<Key>(state: self, path: path, at: offset)
        let result = KeyedDecodingContainer(container)
        recordContainer = container
        recordKeyType = ObjectIdentifier(type)
        recordBox = unsafeBitCast(result, to: AnyObject.self)
        return result
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try CBORUnkeyedDecodingContainer(state: self, path: path, at: offset)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CBORSingleValueDecodingContainer(state: self, codingPath: path.keys, offset: offset)
    }
}
