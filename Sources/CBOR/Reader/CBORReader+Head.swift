extension CBORReader {
    /// Reads the head of the next data item: its major type, additional information and
    /// argument (for floats, the raw bits).
    ///
    /// After a string head, the payload follows: read it with ``readBytes(count:into:)`` or
    /// ``skip(count:)``. After an array, map or tag head, the items follow.
    ///
    /// - Throws: `CBORError.Code.truncated`, `CBORError.Code.reservedAdditionalInfo`,
    ///   `CBORError.Code.invalidIndefiniteLength`, `CBORError.Code.invalidSimpleValue`, and
    ///   in deterministic mode `CBORError.Code.notDeterministic`.
    public mutating func readHead() throws(CBORError) -> CBORHead {
        let headOffset = offset
        guard try fill(atLeast: 1) else {
            throw truncated("a data item was expected")
        }
        let initial = buffer[start]
        let majorType = Self.majorType(of: initial)
        let info = initial & 0x1f
        let argument: UInt64
        switch info {
        case 0..<24:
            argument = UInt64(info)
            consume(1)
        case 24...27:
            let size = 1 << Int(info - 24)
            guard try fill(atLeast: 1 + size) else {
                throw CBORError(code: .truncated, message: "the input ended inside a head", offset: headOffset)
            }
            argument = buffer[(start + 1)..<(start + 1 + size)].reduce(0) { $0 << 8 | UInt64($1) }
            consume(1 + size)
        case 28...30:
            throw CBORError(
                code: .reservedAdditionalInfo,
                message: "additional information \(info) (initial byte 0x\(hex(initial))) is reserved by RFC 8949",
                offset: headOffset)
        default:
            argument = 0
            if [.unsignedInteger, .negativeInteger, .tag].contains(majorType) {
                throw CBORError(
                    code: .invalidIndefiniteLength,
                    message: "initial byte 0x\(hex(initial)): \(majorType) has no indefinite-length form",
                    offset: headOffset)
            }
            if requiresDeterministicEncoding && majorType != .simpleOrFloat {
                throw CBORError(
                    code: .notDeterministic, message: "indefinite lengths are not allowed in deterministic encoding",
                    offset: headOffset)
            }
            consume(1)
        }
        let head = CBORHead(majorType: majorType, additionalInformation: info, argument: argument)
        if majorType == .simpleOrFloat {
            try checkSimpleOrFloat(head, at: headOffset)
        } else if requiresDeterministicEncoding && info >= 24 && info <= 27 {
            let shortest: UInt8 =
                switch argument {
                case 0..<24: 0
                case 24...0xff: 24
                case 0x100...0xffff: 25
                case 0x1_0000...0xffff_ffff: 26
                default: 27
                }
            if shortest != info {
                throw CBORError(
                    code: .notDeterministic, message: "the argument \(argument) is not in its shortest form",
                    offset: headOffset)
            }
        }
        return head
    }

    private func checkSimpleOrFloat(_ head: CBORHead, at headOffset: Int) throws(CBORError) {
        switch head.additionalInformation {
        case 24 where head.argument < 32:
            throw CBORError(
                code: .invalidSimpleValue,
                message:
                    "simple value \(head.argument) must use the one-byte form; two-byte forms below 32 are invalid",
                offset: headOffset)
        case 25 where requiresDeterministicEncoding:
            if head.argument & 0x7c00 == 0x7c00 && head.argument & 0x3ff != 0 && head.argument != 0x7e00 {
                throw CBORError(
                    code: .notDeterministic, message: "a NaN must be written as 0xf97e00", offset: headOffset)
            }
        case 26 where requiresDeterministicEncoding:
            let single = Float(bitPattern: UInt32(truncatingIfNeeded: head.argument))
            if single.isNaN || FloatBits.half(exactly: single) != nil {
                throw CBORError(
                    code: .notDeterministic, message: "the single-precision float \(single) has a shorter form",
                    offset: headOffset)
            }
        case 27 where requiresDeterministicEncoding:
            let double = Double(bitPattern: head.argument)
            if double.isNaN || FloatBits.float(exactly: double) != nil {
                throw CBORError(
                    code: .notDeterministic, message: "the double-precision float \(double) has a shorter form",
                    offset: headOffset)
            }
        default:
            break
        }
    }

    static func majorType(of initial: UInt8) -> CBORMajorType {
        switch initial >> 5 {
        case 0: .unsignedInteger
        case 1: .negativeInteger
        case 2: .byteString
        case 3: .textString
        case 4: .array
        case 5: .map
        case 6: .tag
        default: .simpleOrFloat
        }
    }
}

/// Two lowercase hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return byte < 16 ? "0" + digits : digits
}
