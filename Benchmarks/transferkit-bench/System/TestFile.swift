import TransferKitPlatform

/// A file of pseudo-random bytes, written once per run: one random 1 MiB block, varied per block so that no two
/// blocks are equal, in 1 MiB writes (~1 s for 2 GiB, and it stays in the page cache).
enum TestFile {
    static func create(path: String, byteCount: Int) throws {
        let descriptor = try Spawn.openFile(path, writing: true)
        defer { Syscall.close(descriptor) }
        let wordsPerBlock = 1 << 17
        var generator = SplitMix(seed: 0xB10C)
        let base = (0..<wordsPerBlock).map { _ in generator.next() }
        var block = base
        var written = 0
        var blockIndex: UInt64 = 0
        while written < byteCount {
            let salt = (blockIndex &+ 1) &* 0x9E37_79B9_7F4A_7C15
            for index in 0..<wordsPerBlock {
                block[index] = base[index] ^ salt
            }
            let count = min(byteCount - written, wordsPerBlock * 8)
            do {
                try block.withUnsafeBytes { bytes in
                    try Syscall.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<count]))
                }
            } catch {
                throw BenchmarkError("cannot write \(path): \(error)")
            }
            written += count
            blockIndex += 1
        }
    }
}
