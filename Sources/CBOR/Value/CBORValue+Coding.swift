extension CBORValue {
    /// Reads exactly one data item from `bytes` with ``CBORReader/readValue()``.
    ///
    /// ```swift
    /// let value = try CBORValue(decoding: [0x82, 0x01, 0x61, 0x61])  // [1, "a"]
    /// ```
    /// - Parameters:
    ///   - bytes: One encoded data item, nothing before or after it.
    ///   - limits: What the reader accepts; ``CBORReader/Limits/default`` unless given.
    ///   - requireDeterministic: Whether to reject encodings that are not deterministic.
    /// - Throws: ``CBORError``; `CBORError.Code.trailingBytes` if bytes follow the item.
    public init(
        decoding bytes: [UInt8], limits: CBORReader.Limits = .default, requireDeterministic: Bool = false
    ) throws(CBORError) {
        var reader = CBORReader(bytes: bytes, limits: limits, requireDeterministic: requireDeterministic)
        self = try reader.readValue()
        guard try reader.isAtEnd() else {
            throw CBORError(
                code: .trailingBytes, message: "\(bytes.count - reader.offset) bytes follow the data item",
                offset: reader.offset)
        }
    }

    /// This item in the deterministic encoding (see ``CBORWriter/write(_:)``).
    /// - Throws: `CBORError.Code.duplicateMapKey` or `CBORError.Code.invalidSimpleValue`.
    public func encoded() throws(CBORError) -> [UInt8] {
        var writer = CBORWriter()
        try writer.write(self)
        return writer.takeBytes()
    }
}
