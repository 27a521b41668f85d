/// One complete D-Bus type, as a signature spells it (D-Bus Specification, "Type System").
///
/// Package-internal: the wire of the document portal and later portals (issue 40), written from the specification.
package indirect enum DBusType: Sendable, Hashable, CustomStringConvertible {
    /// `y`: an unsigned 8-bit integer.
    case byte
    /// `b`: a Boolean, 0 or 1 in a 32-bit word.
    case boolean
    /// `n`.
    case int16
    /// `q`.
    case uint16
    /// `i`.
    case int32
    /// `u`.
    case uint32
    /// `x`.
    case int64
    /// `t`.
    case uint64
    /// `d`: an IEEE 754 double.
    case double
    /// `s`: UTF-8 text without NUL.
    case string
    /// `o`: an object path such as `/org/freedesktop/portal/documents`.
    case objectPath
    /// `g`: a signature.
    case signature
    /// `h`: an index into the descriptors that travel beside the message.
    case unixFD
    /// `a…`: elements of one type.
    case array(DBusType)
    /// `{…}`: a key of a basic type and a value, only as an array's element (a dictionary).
    case dictEntry(key: DBusType, value: DBusType)
    /// `(…)`: fields of any types, at least one.
    case structure([DBusType])
    /// `v`: a value that carries its own signature.
    case variant

    /// The type's signature, e.g. `a{sv}`.
    package var description: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element): "a" + element.description
        case .dictEntry(let key, let value): "{" + key.description + value.description + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined() + ")"
        case .variant: "v"
        }
    }

    /// The boundary a value of this type starts on, relative to the start of the message.
    package var alignment: Int {
        switch self {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array: 4
        case .int64, .uint64, .double, .dictEntry, .structure: 8
        }
    }

    /// Whether the type is basic: a dictionary key must be.
    package var isBasic: Bool {
        switch self {
        case .array, .dictEntry, .structure, .variant: false
        default: true
        }
    }

    /// The longest signature (in bytes).
    package static let maximumSignatureLength = 255
    /// How deeply arrays, and separately structures, may nest within one signature.
    package static let maximumNesting = 32

    /// The complete types of `signature`, in order (a message body's signature may hold several; a variant's holds
    /// exactly one).
    /// - Throws: ``ClipboardError`` with `protocolViolation` for a signature the specification forbids: longer than
    ///   255 bytes, an unknown code, an incomplete container, a dictionary entry outside an array or with a key that
    ///   is not basic, an empty structure, or arrays or structures nested more than 32 deep.
    package static func types(of signature: String) throws(ClipboardError) -> [DBusType] {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maximumSignatureLength else {
            throw invalid(signature, "it is longer than \(maximumSignatureLength) bytes")
        }
        var parser = SignatureParser(bytes: bytes, text: signature)
        var types: [DBusType] = []
        while parser.position < bytes.count {
            types.append(try parser.completeType(arrays: 0, structures: 0, inArray: false))
        }
        return types
    }

    /// The one complete type of `signature` (a variant's).
    /// - Throws: ``ClipboardError`` with `protocolViolation` unless the signature is exactly one valid type.
    package static func single(_ signature: String) throws(ClipboardError) -> DBusType {
        let types = try types(of: signature)
        guard types.count == 1 else { throw invalid(signature, "a variant holds exactly one complete type") }
        return types[0]
    }

    static func invalid(_ signature: String, _ why: String) -> ClipboardError {
        ClipboardError(
            code: .protocolViolation,
            message: "The D-Bus signature \(String(reflecting: String(signature.prefix(64)))) is invalid: \(why).")
    }
}

/// Reads complete types from a signature, front to back.
private struct SignatureParser {
    let bytes: [UInt8]
    let text: String
    var position = 0

    mutating func completeType(arrays: Int, structures: Int, inArray: Bool) throws(ClipboardError) -> DBusType {
        guard position < bytes.count else { throw DBusType.invalid(text, "a container ends before its element type") }
        let code = bytes[position]
        position += 1
        switch code {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            guard arrays < DBusType.maximumNesting else {
                throw DBusType.invalid(text, "arrays nest more than \(DBusType.maximumNesting) deep")
            }
            return .array(try completeType(arrays: arrays + 1, structures: structures, inArray: true))
        case UInt8(ascii: "("):
            guard structures < DBusType.maximumNesting else {
                throw DBusType.invalid(text, "structures nest more than \(DBusType.maximumNesting) deep")
            }
            var fields: [DBusType] = []
            while position < bytes.count, bytes[position] != UInt8(ascii: ")") {
                fields.append(try completeType(arrays: arrays, structures: structures + 1, inArray: false))
            }
            guard position < bytes.count else { throw DBusType.invalid(text, "a structure is not closed") }
            position += 1
            guard !fields.isEmpty else { throw DBusType.invalid(text, "a structure has no fields") }
            return .structure(fields)
        case UInt8(ascii: "{"):
            guard inArray else { throw DBusType.invalid(text, "a dictionary entry is not an array's element") }
            // A dictionary entry counts as a structure for nesting.
            guard structures < DBusType.maximumNesting else {
                throw DBusType.invalid(text, "structures nest more than \(DBusType.maximumNesting) deep")
            }
            let key = try completeType(arrays: arrays, structures: structures + 1, inArray: false)
            guard key.isBasic else { throw DBusType.invalid(text, "a dictionary key is not a basic type") }
            let value = try completeType(arrays: arrays, structures: structures + 1, inArray: false)
            guard position < bytes.count, bytes[position] == UInt8(ascii: "}") else {
                throw DBusType.invalid(text, "a dictionary entry holds other than one key and one value")
            }
            position += 1
            return .dictEntry(key: key, value: value)
        default:
            throw DBusType.invalid(text, "it holds the code \(String(reflecting: String(UnicodeScalar(code))))")
        }
    }
}
