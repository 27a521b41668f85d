/// One D-Bus value of any type.
package indirect enum DBusValue: Sendable, Hashable {
    /// `y`.
    case byte(UInt8)
    /// `b`.
    case boolean(Bool)
    /// `n`.
    case int16(Int16)
    /// `q`.
    case uint16(UInt16)
    /// `i`.
    case int32(Int32)
    /// `u`.
    case uint32(UInt32)
    /// `x`.
    case int64(Int64)
    /// `t`.
    case uint64(UInt64)
    /// `d`.
    case double(Double)
    /// `s`.
    case string(String)
    /// `o`.
    case objectPath(String)
    /// `g`.
    case signature(String)
    /// `h`: the index of a descriptor among those the message carries.
    case unixFD(UInt32)
    /// `a…`: elements of `element`'s type (the type is needed for an empty array).
    case array(element: DBusType, [DBusValue])
    /// `{…}`: one entry of a dictionary (an array of them).
    case dictEntry(DBusValue, DBusValue)
    /// `(…)`.
    case structure([DBusValue])
    /// `v`.
    case variant(DBusValue)

    /// The value's type.
    package var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .array(let element, _): .array(element)
        case .dictEntry(let key, let value): .dictEntry(key: key.type, value: value.type)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    /// A dictionary `a{sv}` (a portal's options), its entries in the given order.
    package static func options(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(
            element: .dictEntry(key: .string, value: .variant),
            entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// The text of a string, object path or signature; `nil` for other values.
    package var text: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }
}
