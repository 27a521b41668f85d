/// The keyed container of ``CBOREncodingState``: a map.
struct CBORKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: CBOREncodingState
    let frame: Int
    let generation: UInt32
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.output.append(0xf6)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.output.append(value ? 0xf5 : 0xf4)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeText(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeDouble(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeDouble(Double(value))
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeInteger(value)
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try state.beginEntry(frame, generation, key)
        state.writeHead(0x00, value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let keyStart = state.output.count
        try state.beginEntry(frame, generation, key)
        do {
            try state.encodeValue(value, key: key)
        } catch {
            state.dropEntry(frame, keyStart: keyStart)
            throw error
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        child(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        child(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        child(forKey: CBORCodingKey.super)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        child(forKey: key)
    }

    /// The state of a value whose container the caller may write in any order with this one.
    private func child(forKey key: some CodingKey) -> CBOREncodingState {
        do {
            try state.beginEntry(frame, generation, key)
        } catch {
            // Non-throwing by protocol: the misuse is recorded and fails the encode; the child goes nowhere.
            return CBOREncodingState(options: state.options, codingPath: codingPath + [key])
        }
        return state.makeChild(of: frame, entry: state.frames[frame].count - 1, key: key)
    }
}

/// The unkeyed container of ``CBOREncodingState``: an array.
struct CBORUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let state: CBOREncodingState
    let frame: Int
    let generation: UInt32
    let codingPath: [any CodingKey]

    var count: Int {
        frame >= 0 && frame < state.frames.count && state.frames[frame].generation == generation
            ? state.frames[frame].count : 0
    }

    mutating func encodeNil() throws {
        try state.beginItem(frame, generation)
        state.output.append(0xf6)
    }

    mutating func encode(_ value: Bool) throws {
        try state.beginItem(frame, generation)
        state.output.append(value ? 0xf5 : 0xf4)
    }

    mutating func encode(_ value: String) throws {
        try state.beginItem(frame, generation)
        state.writeText(value)
    }

    mutating func encode(_ value: Double) throws {
        try state.beginItem(frame, generation)
        state.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try state.beginItem(frame, generation)
        state.writeDouble(Double(value))
    }

    mutating func encode(_ value: Int) throws {
        try state.beginItem(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int8) throws {
        try state.beginItem(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int16) throws {
        try state.beginItem(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int32) throws {
        try state.beginItem(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int64) throws {
        try state.beginItem(frame, generation)
        state.writeInteger(value)
    }

    mutating func encode(_ value: UInt) throws {
        try state.beginItem(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt8) throws {
        try state.beginItem(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt16) throws {
        try state.beginItem(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt32) throws {
        try state.beginItem(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt64) throws {
        try state.beginItem(frame, generation)
        state.writeHead(0x00, value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        let start = state.output.count
        try state.beginItem(frame, generation)
        do {
            try state.encodeValue(value, key: CBORCodingKey(intValue: index))
        } catch {
            if frame == state.frames.count - 1 {
                state.frames[frame].count -= 1
                state.output.truncate(to: start)
            }
            throw error
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        child().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        child().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        child()
    }

    private func child() -> CBOREncodingState {
        let key = CBORCodingKey(intValue: count)
        do {
            try state.beginItem(frame, generation)
        } catch {
            return CBOREncodingState(options: state.options, codingPath: codingPath + [key])
        }
        return state.makeChild(of: frame, entry: state.frames[frame].count - 1, key: key)
    }
}

/// The single-value container of ``CBOREncodingState``.
struct CBORSingleValueEncodingContainer: SingleValueEncodingContainer {
    let state: CBOREncodingState
    let frame: Int
    let generation: UInt32
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        try state.beginSingle(frame, generation)
        state.output.append(0xf6)
    }

    mutating func encode(_ value: Bool) throws {
        try state.beginSingle(frame, generation)
        state.output.append(value ? 0xf5 : 0xf4)
    }

    mutating func encode(_ value: String) throws {
        try state.beginSingle(frame, generation)
        state.writeText(value)
    }

    mutating func encode(_ value: Double) throws {
        try state.beginSingle(frame, generation)
        state.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try state.beginSingle(frame, generation)
        state.writeDouble(Double(value))
    }

    mutating func encode(_ value: Int) throws {
        try state.beginSingle(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int8) throws {
        try state.beginSingle(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int16) throws {
        try state.beginSingle(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int32) throws {
        try state.beginSingle(frame, generation)
        state.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int64) throws {
        try state.beginSingle(frame, generation)
        state.writeInteger(value)
    }

    mutating func encode(_ value: UInt) throws {
        try state.beginSingle(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt8) throws {
        try state.beginSingle(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt16) throws {
        try state.beginSingle(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt32) throws {
        try state.beginSingle(frame, generation)
        state.writeHead(0x00, UInt64(value))
    }

    mutating func encode(_ value: UInt64) throws {
        try state.beginSingle(frame, generation)
        state.writeHead(0x00, value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try state.beginSingle(frame, generation)
        do {
            try state.encodeValue(value, key: nil)
        } catch {
            if frame == state.frames.count - 1 {
                state.frames[frame].count = 0
            }
            throw error
        }
    }
}

extension CBOREncodingState {
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let (frame, generation) = openFrame(.map)
        return KeyedEncodingContainer(
            CBORKeyedEncodingContainer<Key>(
                state: self, frame: frame, generation: generation, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let (frame, generation) = openFrame(.array)
        return CBORUnkeyedEncodingContainer(
            state: self, frame: frame, generation: generation, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        let (frame, generation) = openFrame(.single)
        return CBORSingleValueEncodingContainer(
            state: self, frame: frame, generation: generation, codingPath: codingPath)
    }
}
