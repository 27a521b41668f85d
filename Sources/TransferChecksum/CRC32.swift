internal import CTransferKitCRC32

/// CRC-32 as zlib's `crc32()` computes it (IEEE 802.3, reflected polynomial 0xEDB88320, initial and final
/// value 0xFFFFFFFF): the checksum of every archive representation.
///
/// Two implementations give the same result. On x86-64 CPUs with PCLMULQDQ and SSE4.1, inputs of 64 bytes
/// or more are folded with carry-less multiplication (Intel's "Fast CRC Computation for Generic Polynomials
/// Using PCLMULQDQ Instruction", in the C target `CTransferKitCRC32`, since Swift has no such intrinsic),
/// several times faster than a table; the CPU is asked once per process. Everywhere else, and for the
/// last 0–15 bytes, slicing-by-16 with tables built once per process. Feed chunks in order with
/// ``update(_:)``; ``value`` is the checksum so far.
///
/// ```swift
/// var crc = CRC32()
/// crc.update(UnsafeRawBufferPointer(...))
/// crc.value  // "123456789" gives 0xCBF43926
/// ```
package struct CRC32: Sendable, Hashable {
    /// The inverted running remainder.
    private var state: UInt32 = 0xffff_ffff

    /// A checksum of nothing yet (0).
    package init() {}

    /// The checksum of the bytes fed so far.
    package var value: UInt32 { ~state }

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        let done: Void? = bytes.withContiguousStorageIfAvailable { crc.update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { crc.update($0) }
        }
        return crc.value
    }

    /// Feeds the next bytes.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        updateReportingPath(bytes)
    }

    /// How ``update(_:)`` checksummed a run of bytes.
    enum Path: Sendable, Hashable {
        /// Carry-less-multiply folding (PCLMULQDQ) for all but the last 0–15 bytes.
        case carrylessMultiply
        /// Slicing-by-16 tables for every byte.
        case table
    }

    /// Whether this process uses the carry-less-multiply path for long inputs (asked once, then cached).
    static var carrylessMultiplyAvailable: Bool { tk_crc32_clmul_available() != 0 }

    /// Whether the CPU reports PCLMULQDQ and SSE4.1 (`__builtin_cpu_supports`, asked again; false off
    /// x86-64), for tests that check the fast path is taken wherever it can be.
    static var cpuSupportsCarrylessMultiply: Bool { tk_crc32_cpu_supports_clmul() != 0 }

    /// The fewest bytes the carry-less-multiply path takes; shorter runs go to the tables.
    static var carrylessMultiplyMinimumCount: Int { Int(TK_CRC32_CLMUL_MINIMUM_LENGTH) }

    /// Feeds the next bytes like ``update(_:)`` and says which path checksummed them.
    @discardableResult
    mutating func updateReportingPath(_ bytes: UnsafeRawBufferPointer) -> Path {
        guard let base = bytes.baseAddress, bytes.count >= Self.carrylessMultiplyMinimumCount else {
            updateWithTable(bytes)
            return .table
        }
        let folded = tk_crc32_clmul_update(&state, base, bytes.count)
        guard folded > 0 else {
            updateWithTable(bytes)
            return .table
        }
        updateWithTable(UnsafeRawBufferPointer(rebasing: bytes[folded...]))
        return .carrylessMultiply
    }

    /// Feeds the next bytes with the slicing-by-16 tables alone: the portable path, and the reference the
    /// fast path is tested against.
    mutating func updateWithTable(_ bytes: UnsafeRawBufferPointer) {
        guard var pointer = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        var crc = state
        Self.tables.withUnsafeBufferPointer { table in
            while remaining >= 16 {
                let word0 = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)) ^ crc
                let word1 = UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
                let word2 = UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
                let word3 = UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                var next = table[15 &* 256 &+ Int(word0 & 0xff)] ^ table[14 &* 256 &+ Int((word0 >> 8) & 0xff)]
                next ^= table[13 &* 256 &+ Int((word0 >> 16) & 0xff)] ^ table[12 &* 256 &+ Int(word0 >> 24)]
                next ^= table[11 &* 256 &+ Int(word1 & 0xff)] ^ table[10 &* 256 &+ Int((word1 >> 8) & 0xff)]
                next ^= table[9 &* 256 &+ Int((word1 >> 16) & 0xff)] ^ table[8 &* 256 &+ Int(word1 >> 24)]
                next ^= table[7 &* 256 &+ Int(word2 & 0xff)] ^ table[6 &* 256 &+ Int((word2 >> 8) & 0xff)]
                next ^= table[5 &* 256 &+ Int((word2 >> 16) & 0xff)] ^ table[4 &* 256 &+ Int(word2 >> 24)]
                next ^= table[3 &* 256 &+ Int(word3 & 0xff)] ^ table[2 &* 256 &+ Int((word3 >> 8) & 0xff)]
                next ^= table[1 &* 256 &+ Int((word3 >> 16) & 0xff)] ^ table[Int(word3 >> 24)]
                crc = next
                pointer += 16
                remaining &-= 16
            }
            while remaining > 0 {
                crc = table[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xff)] ^ (crc >> 8)
                pointer += 1
                remaining &-= 1
            }
        }
        state = crc
    }

    /// 16 tables of 256 entries: table k maps a byte to its remainder after k further zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1
            }
            tables[byte] = crc
        }
        for slice in 1..<16 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xff)]
            }
        }
        return tables
    }()
}
