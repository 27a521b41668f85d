/// UTF-8 validation over raw bytes, fast for ASCII.
///
/// `String(validating:as:)` is generic and unspecialized in the standard library (≈ 1 000 instructions for a short
/// key); `String(decoding:as:)` on a buffer pointer is fast but repairs instead of rejecting. So the decoder checks
/// here first and then builds the string with the fast repairing initializer, which has nothing left to repair.
enum UTF8Validation {
    /// The longest string the standard library stores inline (15 bytes on 64-bit platforms).
    private static let inlineCapacity = MemoryLayout<String>.size - 1

    /// A string of `bytes`, which ``isValid(_:)`` accepted.
    ///
    /// A short string is made in place: for an inline ASCII string the standard library checks no more than the
    /// ASCII bit, where `String(decoding:as:)` scans the bytes for ASCII and then copies them through its general
    /// path (≈ 175 instructions for a short string, a twentieth of decoding a record of short strings). Longer or
    /// other strings take `String(decoding:as:)`, which has nothing left to repair.
    @inline(__always)
    static func string(fromValid bytes: UnsafeRawBufferPointer) -> String {
        let count = bytes.count
        guard count <= inlineCapacity else {
            return String(decoding: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: count) { buffer in
            guard let target = buffer.baseAddress, let source = bytes.baseAddress else { return 0 }
            UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: count)
            return count
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        // Eight bytes at a time while they are ASCII.
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                break
            }
            index += 8
        }
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xbf
            switch lead {
            case 0xc2...0xdf: length = 2
            case 0xe0:
                length = 3
                lower = 0xa0
            case 0xe1...0xec, 0xee...0xef: length = 3
            case 0xed:
                length = 3
                upper = 0x9f
            case 0xf0:
                length = 4
                lower = 0x90
            case 0xf1...0xf3: length = 4
            case 0xf4:
                length = 4
                upper = 0x8f
            default: return false
            }
            guard length <= count - index else { return false }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xc0 != 0x80 {
                return false
            }
            index += length
        }
        return true
    }
}
