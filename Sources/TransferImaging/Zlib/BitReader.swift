/// Reads a deflate stream's bits, least significant first, from whole bytes.
///
/// The inflater's fast loop (`Inflate.fastCodes`) takes the three fields below into locals, refills 8 bytes at a
/// time while at least 8 are left, and writes them back; bits of `buffer` above `count` are zero or the stream's
/// next bits, so either refill may OR bytes in on top.
struct BitReader {
    let bytes: [UInt8]
    /// The next byte not yet in ``buffer``.
    var position: Int
    /// The bits read and not yet consumed, the next one lowest.
    var buffer: UInt64 = 0
    /// How many bits of ``buffer`` are unconsumed (0–63).
    var count = 0

    init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// The offset of the byte holding the next unread bit (for error messages and the trailer).
    var bytePosition: Int { position - count / 8 }

    private mutating func refill() {
        while count < 56, position < bytes.count {
            buffer |= UInt64(bytes[position]) << UInt64(count)
            position += 1
            count += 8
        }
    }

    /// The next `n` (0–32) bits as a number, first bit lowest.
    @inline(__always) mutating func bits(_ n: Int) throws(ImagingError) -> UInt32 {
        if n == 0 { return 0 }
        if count < n { refill() }
        guard count >= n else {
            throw ImagingError(
                code: .truncated, message: "the deflate stream ends in the middle of a block", offset: bytes.count)
        }
        let value = UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1))
        buffer >>= UInt64(n)
        count -= n
        return value
    }

    /// Up to `n` next bits without consuming them, and how many there are (fewer at the end of the input).
    @inline(__always) mutating func peek(_ n: Int) -> (value: UInt32, available: Int) {
        if count < n { refill() }
        let available = min(n, count)
        return (UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1)), available)
    }

    /// Consumes `n` bits that ``peek(_:)`` showed.
    @inline(__always) mutating func consume(_ n: Int) {
        buffer >>= UInt64(n)
        count -= n
    }

    /// Drops the rest of the current byte.
    mutating func alignToByte() {
        let drop = count % 8
        buffer >>= UInt64(drop)
        count -= drop
    }

    /// After ``alignToByte()``: gives the bytes held in the bit buffer back, and returns the offset of the next byte.
    mutating func takeAlignedBytes() -> Int {
        position -= count / 8
        buffer = 0
        count = 0
        return position
    }

    /// Skips `n` bytes after ``takeAlignedBytes()``.
    mutating func skipBytes(_ n: Int) {
        position += n
    }
}
