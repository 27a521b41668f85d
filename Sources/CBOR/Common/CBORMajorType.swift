/// The eight major types of RFC 8949 §3.1, the top three bits of every head.
public enum CBORMajorType: UInt8, Sendable, Hashable, CaseIterable {
    /// Major type 0: an unsigned integer in 0...2⁶⁴−1.
    case unsignedInteger = 0
    /// Major type 1: a negative integer −1−n for n in 0...2⁶⁴−1.
    case negativeInteger = 1
    /// Major type 2: a byte string.
    case byteString = 2
    /// Major type 3: a UTF-8 text string.
    case textString = 3
    /// Major type 4: an array of data items.
    case array = 4
    /// Major type 5: a map of key/value pairs.
    case map = 5
    /// Major type 6: a tag number followed by one data item.
    case tag = 6
    /// Major type 7: floats, simple values (false, true, null, …) and the "break" stop code.
    case simpleOrFloat = 7
}
