import Foundation
import Testing
import TransferKitTestSupport

@testable import TransferArchive
@testable import TransferChecksum

/// `count` random bytes from a generator seeded with `seed`.
func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(state: seed)
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        var word = generator.next()
        for _ in 0..<min(8, count - index) {
            bytes[index] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            index += 1
        }
    }
    return bytes
}

@Suite("CRC-32: the carry-less-multiply path against the tables", .timeLimit(.minutes(5)))
struct CRC32Tests {
    /// The checksum of `bytes` through ``CRC32/update(_:)`` (the fast path where the CPU has it).
    static func dispatched(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of `bytes` through the slicing-by-16 tables alone.
    static func table(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.updateWithTable(bytes)
        return crc.value
    }

    @Test("Known vectors, on both paths")
    func knownVectors() {
        let vectors: [([UInt8], UInt32)] = [
            (Array("123456789".utf8), 0xcbf4_3926),
            ([], 0),
            (Array("The quick brown fox jumps over the lazy dog".utf8), 0x414f_a339),
            // zlib.crc32(bytes(range(256)) * 3) in Python: 768 bytes, long enough for the fast path.
            (Array(repeating: (0...255).map { UInt8($0) }, count: 3).flatMap { $0 }, 0xb0c0_df2a),
            // zlib.crc32(bytes(1000)): 1 000 zero bytes, 62 blocks of 16 and a tail of 8.
            ([UInt8](repeating: 0, count: 1000), 0x060b_1780),
        ]
        for (bytes, expected) in vectors {
            #expect(CRC32.checksum(bytes) == expected, "\(bytes.count) bytes")
            bytes.withUnsafeBytes { buffer in
                #expect(Self.dispatched(buffer) == expected, "\(bytes.count) bytes")
                #expect(Self.table(buffer) == expected, "\(bytes.count) bytes")
            }
        }
    }

    @Test("Every length 0…300 at every start offset 0…15 gives the table's checksum")
    func shortLengthsAndOffsets() {
        let buffer = randomBytes(300 + 16, seed: 1)
        buffer.withUnsafeBytes { all in
            for offset in 0..<16 {
                for length in 0...300 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<offset + length])
                    #expect(Self.dispatched(slice) == Self.table(slice), "offset \(offset), length \(length)")
                }
            }
        }
    }

    @Test(
        "Long lengths at every start offset 0…15 give the table's checksum",
        arguments: [
            319, 320, 321, 511, 512, 513, 1000, 4095, 4096, 4097, 65_536 + 7, 1 << 20, (1 << 20) + 1,
            (1 << 20) + 15, (1 << 20) + 63, 3_000_017,
        ])
    func longLengthsAndOffsets(length: Int) {
        let buffer = randomBytes(length + 16, seed: UInt64(length))
        buffer.withUnsafeBytes { all in
            for offset in 0..<16 {
                let slice = UnsafeRawBufferPointer(rebasing: all[offset..<offset + length])
                #expect(Self.dispatched(slice) == Self.table(slice), "offset \(offset), length \(length)")
            }
        }
    }

    @Test("Updates in uneven pieces give the one-shot checksum", arguments: [UInt64(1), 2, 3, 4])
    func unevenPieces(seed: UInt64) {
        let bytes = randomBytes((1 << 20) + 333, seed: 100 + seed)
        var generator = SplitMix64(state: seed)
        let sizes = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 1000, 4096, 65_537]
        bytes.withUnsafeBytes { all in
            var crc = CRC32()
            var start = 0
            var pieces = 0
            while start < all.count {
                let size = min(sizes[Int(generator.next() % UInt64(sizes.count))], all.count - start)
                crc.update(UnsafeRawBufferPointer(rebasing: all[start..<start + size]))
                start += size
                pieces += 1
            }
            #expect(pieces > 100)
            #expect(crc.value == Self.dispatched(all))
            #expect(crc.value == Self.table(all))
        }
    }

    @Test("Says which path ran; the fast one wherever the CPU has PCLMULQDQ and SSE4.1")
    func pathTaken() throws {
        let bytes = randomBytes(1 << 20, seed: 7)
        var crc = CRC32()
        let path = bytes.withUnsafeBytes { crc.updateReportingPath($0) }
        print("CRC32 on this machine: \(path == .carrylessMultiply ? "carry-less multiply (PCLMULQDQ)" : "tables")")

        #expect(CRC32.carrylessMultiplyAvailable == CRC32.cpuSupportsCarrylessMultiply)
        #expect(path == (CRC32.cpuSupportsCarrylessMultiply ? .carrylessMultiply : .table))
        #expect(crc.value == bytes.withUnsafeBytes { Self.table($0) })

        // Below one 64-byte block the tables always run.
        var short = CRC32()
        let shortBytes = randomBytes(CRC32.carrylessMultiplyMinimumCount - 1, seed: 8)
        #expect(shortBytes.withUnsafeBytes { short.updateReportingPath($0) } == .table)

        // The kernel's view of the CPU, independent of __builtin_cpu_supports.
        #if arch(x86_64) && os(Linux)
            let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            let flagLine = try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
            let flags = Set(flagLine.split(separator: " ").map(String.init))
            if flags.contains("pclmulqdq") && flags.contains("sse4_1") {
                #expect(CRC32.cpuSupportsCarrylessMultiply)
                #expect(path == .carrylessMultiply)
            }
        #elseif !arch(x86_64)
            #expect(path == .table)
        #endif
    }
}
