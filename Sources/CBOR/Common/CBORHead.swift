/// The head of a data item (RFC 8949 §3): major type, additional information and argument.
///
/// ``CBORReader/readHead()`` returns one; a caller streaming a large string uses
/// ``length`` to know how many payload bytes follow.
public struct CBORHead: Sendable, Hashable {
    /// The major type (top three bits of the initial byte).
    public var majorType: CBORMajorType
    /// The additional information (low five bits of the initial byte).
    public var additionalInformation: UInt8
    /// The argument: a count, length, integer value, tag number, simple value or the raw bits
    /// of a float; 0 when ``additionalInformation`` is 31.
    public var argument: UInt64

    /// Creates a head.
    /// - Parameters:
    ///   - majorType: The major type.
    ///   - additionalInformation: The low five bits of the initial byte.
    ///   - argument: The argument that the additional information announces.
    public init(majorType: CBORMajorType, additionalInformation: UInt8, argument: UInt64) {
        self.majorType = majorType
        self.additionalInformation = additionalInformation
        self.argument = argument
    }

    /// Whether this head opens an indefinite-length string, array or map (or is a break).
    public var isIndefiniteLength: Bool { additionalInformation == 31 }

    /// Whether this head is the "break" stop code 0xff.
    public var isBreak: Bool { majorType == .simpleOrFloat && additionalInformation == 31 }

    /// The length or count of a definite-length string, array or map; `nil` otherwise.
    public var length: UInt64? {
        switch majorType {
        case .byteString, .textString, .array, .map:
            return isIndefiniteLength ? nil : argument
        default:
            return nil
        }
    }
}
