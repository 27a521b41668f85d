extension CBORValue {
    /// Reads exactly one data item from `bytes`, checked as ``CBORReader/readValue()`` checks it, into a packed
    /// tree (see ``CBORValue``): arrays and maps read their items from `bytes` when asked, and the index beside
    /// `bytes` takes 4 bytes per item and 8 more per array, map or tag. A document of 2 GiB or more, or one whose
    /// index would need 2³¹ slots or more, is built item by item instead, as ``CBORReader/readValue()`` builds it.
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
        reader.tally = CBORPackedDocument.Tally()
        _ = try reader.readItem(depth: 0, mode: .check)
        guard try reader.isAtEnd() else {
            throw CBORError(
                code: .trailingBytes, message: "\(bytes.count - reader.offset) bytes follow the data item",
                offset: reader.offset)
        }
        if let tally = reader.tally, let document = CBORPackedDocument(bytes: bytes, tally: tally) {
            self = document.root
        } else {
            // Too large for the index's 31-bit offsets (2 GiB of bytes or 2^31 slots): built item by item.
            var builder = CBORReader(bytes: bytes, limits: limits, requireDeterministic: requireDeterministic)
            self = try builder.readValue()
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
