/// Where a ``CBORReader`` gets its bytes: memory, a file descriptor, or anything else that
/// can fill a buffer.
///
/// A source is pulled in chunks of the reader's buffer size, so reading a multi-GiB input
/// takes constant memory.
///
/// ```swift
/// struct PipeSource: CBORByteSource {
///     var handle: FileHandle
///     mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
///         let data = try handle.read(upToCount: buffer.count) ?? Data()
///         return data.copyBytes(to: buffer)
///     }
/// }
/// ```
public protocol CBORByteSource {
    /// Copies up to `buffer.count` bytes into the start of `buffer`.
    /// - Returns: How many bytes were copied; 0 only at the end of the input.
    /// - Throws: Any error; the reader wraps it in `CBORError.Code.readFailed`.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// How many bytes are left, if the source knows (in-memory sources do).
    ///
    /// The reader compares declared lengths and counts with it and reports
    /// `CBORError.Code.truncated` before allocating anything for them.
    var remainingByteCount: Int? { get }
}

extension CBORByteSource {
    /// Unknown: streams do not know how many bytes are left.
    public var remainingByteCount: Int? { nil }
}

/// A byte source over bytes in memory.
public struct CBORBufferSource: CBORByteSource, Sendable {
    private let bytes: [UInt8]
    private var position = 0

    /// Creates a source that reads `bytes` from the start.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Copies the next bytes into `buffer`.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[position..<(position + count)]))
        }
        position += count
        return count
    }

    /// The bytes not yet handed out.
    public var remainingByteCount: Int? { bytes.count - position }
}
