import CBOR
import UniformTypes

/// The binary form's fixed keys and the encoding of metadata, shared by the writer and the reader.
enum ArchiveCBOR {
    static let itemsKey = "items"
    static let nameKey = "name"
    static let metadataKey = "metadata"
    static let representationsKey = "representations"
    static let typeKey = "type"
    static let payloadKey = "payload"
    static let checksumKey = "checksum"

    /// Payloads up to this size are copied into the writer's buffer; larger ones go to the sink directly.
    static let smallPayloadSize = 64 * 1024
    /// The default chunk size for streaming payloads.
    static let defaultChunkSize = 1 << 20

    /// Appends a metadata value in the deterministic encoding: map keys sorted by their encoded bytes, which for
    /// text keys is shorter first, then bytewise.
    static func write(_ value: TransferMetadataValue, to writer: inout CBORWriter) {
        switch value {
        case .string(let string):
            writer.writeTextString(string)
        case .integer(let integer):
            writer.writeInteger(integer)
        case .double(let double):
            writer.writeFloat(double)
        case .bool(let bool):
            writer.writeBool(bool)
        case .array(let array):
            writer.writeArrayHead(count: UInt64(array.count))
            for element in array {
                write(element, to: &writer)
            }
        case .dictionary(let dictionary):
            write(dictionary, to: &writer)
        }
    }

    /// Appends a metadata map in the deterministic encoding.
    static func write(_ dictionary: [String: TransferMetadataValue], to writer: inout CBORWriter) {
        writer.writeMapHead(count: UInt64(dictionary.count))
        for (key, value) in dictionary.sorted(by: { keyPrecedes($0.key, $1.key) }) {
            writer.writeTextString(key)
            write(value, to: &writer)
        }
    }

    /// Whether text key `a` sorts before `b` in RFC 8949 §4.2.1 order: shorter UTF-8 first, then bytewise.
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        let (left, right) = (a.utf8, b.utf8)
        if left.count != right.count {
            return left.count < right.count
        }
        return left.lexicographicallyPrecedes(right)
    }
}
