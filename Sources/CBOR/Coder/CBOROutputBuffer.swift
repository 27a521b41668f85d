#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The encoder's one output buffer: raw memory it grows by doubling and hands to `Data` without a copy.
///
/// An `Array` checks uniqueness and capacity through the standard library on every append; the encoder appends a
/// few bytes at a time, so a plain pointer it owns is markedly cheaper. Every write goes through `reserve(_:)`.
struct CBOROutputBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Frees the memory; the buffer must not be used afterwards.
    func deallocate() {
        base.deallocate()
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if extra > capacity - count {
            grow(to: count + extra)
        }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed {
            newCapacity *= 2
        }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends `value` in big-endian byte order.
    @inline(__always)
    mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        reserve(MemoryLayout<I>.size)
        UnsafeMutableRawPointer(base + count).storeBytes(of: value.bigEndian, as: I.self)
        count += MemoryLayout<I>.size
    }

    subscript(offset: Int) -> UInt8 {
        get { base[offset] }
        set { base[offset] = newValue }
    }

    /// The bytes in `range`, valid until the next write.
    func bytes(in range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Inserts `bytes` at `offset`, moving what follows.
    mutating func insert(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + offset + bytes.count).update(from: base + offset, count: count - offset)
        UnsafeMutableRawPointer(base + offset).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Moves the bytes from `source` to the end down to `destination` (before `source`), dropping what was
    /// between.
    mutating func moveTail(from source: Int, to destination: Int) {
        (base + destination).update(from: base + source, count: count - source)
        count -= source - destination
    }

    /// Drops everything from `offset` on.
    mutating func truncate(to offset: Int) {
        count = min(count, max(0, offset))
    }

    /// The bytes as `Data` that takes over the memory; the buffer must not be used or freed afterwards.
    func takeData() -> Data {
        Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// A copy of the bytes.
    func array() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }
}
