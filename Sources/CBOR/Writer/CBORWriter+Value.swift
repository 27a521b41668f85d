extension CBORWriter {
    /// Appends a whole data item in the deterministic encoding: shortest heads and floats,
    /// definite lengths, map keys sorted by the bytes of their encodings.
    ///
    /// Whatever this writes, ``CBORReader/readValue()`` reads back as an equal value.
    /// - Throws: `CBORError.Code.duplicateMapKey` if a map has two equal keys;
    ///   `CBORError.Code.invalidSimpleValue` for `.simple` in 20...31.
    public mutating func write(_ value: CBORValue) throws(CBORError) {
        switch value {
        case .unsigned(let n):
            writeHead(majorType: .unsignedInteger, argument: n)
        case .negative(let n):
            writeHead(majorType: .negativeInteger, argument: n)
        case .bytes(let payload):
            writeByteString(payload)
        case .text(let text):
            writeTextString(text)
        case .array(let items):
            writeArrayHead(count: UInt64(items.count))
            for item in items {
                try write(item)
            }
        case .map(let entries):
            try writeMap(entries)
        case .tagged(let tag, let content):
            writeTag(tag)
            try write(content)
        case .simple(let simple):
            try writeSimple(simple)
        case .bool(let bool):
            writeBool(bool)
        case .null:
            writeNull()
        case .undefined:
            writeUndefined()
        case .float(let double):
            writeFloat(double)
        }
    }

    private mutating func writeMap(_ entries: CBORMap) throws(CBORError) {
        var encodedKeys: [(key: [UInt8], index: Int)] = []
        encodedKeys.reserveCapacity(entries.count)
        for index in entries.indices {
            var keyWriter = CBORWriter()
            try keyWriter.write(entries.key(at: index))
            encodedKeys.append((keyWriter.bytes, index))
        }
        encodedKeys.sort { $0.key.lexicographicallyPrecedes($1.key) }
        for (previous, next) in zip(encodedKeys, encodedKeys.dropFirst()) where previous.key == next.key {
            throw CBORError(
                code: .duplicateMapKey,
                message: "the map has the key \(entries.key(at: next.index)) twice; CBOR maps need unique keys")
        }
        writeMapHead(count: UInt64(entries.count))
        for (key, index) in encodedKeys {
            writeRawBytes(key)
            try write(entries.value(at: index))
        }
    }
}
