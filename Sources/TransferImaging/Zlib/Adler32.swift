/// Adler-32 (RFC 1950 8.2), the zlib stream's checksum.
enum Adler32 {
    /// The checksum of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var running = Running()
        running.update(bytes[...])
        return running.value
    }

    /// A checksum fed piece by piece, as an inflater that keeps only its window hands bytes on.
    struct Running {
        private var a: UInt32 = 1
        private var b: UInt32 = 0

        /// The checksum of everything fed so far.
        var value: UInt32 { b << 16 | a }

        /// Adds `bytes` to the checksum.
        mutating func update(_ bytes: ArraySlice<UInt8>) {
            var a = self.a
            var b = self.b
            bytes.withUnsafeBufferPointer { buffer in
                var index = 0
                while index < buffer.count {
                    // 5552 bytes is the most that cannot overflow 32 bits before the reduction (zlib's NMAX).
                    let end = min(index + 5552, buffer.count)
                    while index + 4 <= end {
                        a &+= UInt32(buffer[index])
                        b &+= a
                        a &+= UInt32(buffer[index + 1])
                        b &+= a
                        a &+= UInt32(buffer[index + 2])
                        b &+= a
                        a &+= UInt32(buffer[index + 3])
                        b &+= a
                        index += 4
                    }
                    while index < end {
                        a &+= UInt32(buffer[index])
                        b &+= a
                        index += 1
                    }
                    a %= 65521
                    b %= 65521
                }
            }
            self.a = a
            self.b = b
        }
    }
}
