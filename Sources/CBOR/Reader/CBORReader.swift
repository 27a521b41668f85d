/// A strict pull parser for CBOR (RFC 8949) over bytes in memory or a stream.
///
/// Read small parts whole with ``readValue()``; stream large strings with ``readHead()``
/// followed by ``readBytes(count:into:)`` or ``skip(count:)`` in chunks of your choosing:
///
/// ```swift
/// var reader = CBORReader(source: CBORFileDescriptorSource(fileDescriptor: input.fileDescriptor))
/// let head = try reader.readHead()
/// guard head.majorType == .byteString, var remaining = head.length else { throw MyError.notAPayload }
/// var chunk: [UInt8] = []
/// while remaining > 0 {
///     let count = Int(min(remaining, 1 << 20))
///     try reader.readBytes(count: count, into: &chunk)   // reuses chunk's storage
///     try output.write(contentsOf: chunk)
///     remaining -= UInt64(count)
/// }
/// ```
///
/// Every head is checked as it is read (reserved additional information, indefinite integers
/// or tags, two-byte simple values below 32, and in deterministic mode non-preferred
/// encodings). ``readValue()`` and ``skipValue()`` also check the structure: "break" placement,
/// string chunks, item counts, nesting depth, and, when building values, UTF-8, duplicate
/// keys and limits. A caller walking heads by hand owns the structure of what it walks.
///
/// The reader never allocates by a length the input declares: in-memory input is checked
/// against the bytes left, and streams are read in chunks of the reader's buffer size.
///
/// Not `Sendable`: it is a cursor over a source that may be any type; make it inside the task
/// that reads.
public struct CBORReader {
    /// The bytes already taken from the source; `start..<end` are not yet consumed.
    var buffer: [UInt8]
    var start = 0
    var end: Int
    var source: any CBORByteSource
    /// Whether the source has reported its end (or there is no source beyond `buffer`).
    var sourceAtEnd: Bool

    /// How many bytes of input have been consumed: the offset of the next byte.
    public internal(set) var offset = 0

    /// The limits that ``readValue()`` enforces.
    public var limits: Limits

    /// Whether to reject anything but the deterministic encoding of RFC 8949 §4.2.1:
    /// non-shortest heads and floats, indefinite lengths, and map keys out of order.
    public var requiresDeterministicEncoding: Bool

    /// While ``CBORValue/init(decoding:limits:requireDeterministic:)`` checks a document, what it counts to lay
    /// the document's index out; `nil` otherwise.
    var tally: CBORPackedDocument.Tally?

    /// Creates a reader over bytes in memory, without copying them.
    /// - Parameters:
    ///   - bytes: The input.
    ///   - limits: What ``readValue()`` accepts; ``Limits/default`` unless given.
    ///   - requireDeterministic: Whether to reject encodings that are not deterministic.
    public init(bytes: [UInt8], limits: Limits = .default, requireDeterministic: Bool = false) {
        buffer = bytes
        end = bytes.count
        source = CBORBufferSource([])
        sourceAtEnd = true
        self.limits = limits
        requiresDeterministicEncoding = requireDeterministic
    }

    /// Creates a reader that pulls from `source` in chunks of `bufferSize` bytes.
    /// - Parameters:
    ///   - source: Where the bytes come from.
    ///   - limits: What ``readValue()`` accepts; ``Limits/default`` unless given.
    ///   - requireDeterministic: Whether to reject encodings that are not deterministic.
    ///   - bufferSize: The size of the one buffer the reader reuses (at least 16 bytes).
    public init(
        source: some CBORByteSource,
        limits: Limits = .default,
        requireDeterministic: Bool = false,
        bufferSize: Int = 64 * 1024
    ) {
        buffer = [UInt8](repeating: 0, count: max(16, bufferSize))
        end = 0
        self.source = source
        sourceAtEnd = false
        self.limits = limits
        requiresDeterministicEncoding = requireDeterministic
    }

    /// Whether the input has no more bytes. May read from the source to find out.
    public mutating func isAtEnd() throws(CBORError) -> Bool {
        try !fill(atLeast: 1)
    }

    /// Reads exactly `count` bytes of payload, replacing the contents of `destination` but
    /// keeping its capacity, so one array serves every chunk of a large string.
    ///
    /// - Parameters:
    ///   - count: How many bytes to read; choose a chunk size, not a declared length, for
    ///     payloads that may be large.
    ///   - destination: Receives the bytes.
    /// - Throws: `CBORError.Code.truncated` if the input ends first.
    public mutating func readBytes(count: Int, into destination: inout [UInt8]) throws(CBORError) {
        destination.removeAll(keepingCapacity: true)
        try appendBytes(count: count, to: &destination)
    }

    /// Consumes `count` bytes without keeping them, e.g. an unwanted string payload.
    /// - Throws: `CBORError.Code.truncated` if the input ends first.
    public mutating func skip(count: Int) throws(CBORError) {
        try checkAvailable(count)
        var remaining = count
        while remaining > 0 {
            guard try fill(atLeast: 1) else {
                throw truncated("input ends after \(count - remaining) of the \(count) bytes requested")
            }
            let step = min(remaining, end - start)
            consume(step)
            remaining -= step
        }
    }

    /// Appends exactly `count` bytes to `destination`, growing it only as bytes arrive.
    mutating func appendBytes(count: Int, to destination: inout [UInt8]) throws(CBORError) {
        try checkAvailable(count)
        var remaining = count
        while remaining > 0 {
            guard try fill(atLeast: 1) else {
                throw truncated("input ends after \(count - remaining) of the \(count) bytes requested")
            }
            let step = min(remaining, end - start)
            destination.append(contentsOf: buffer[start..<(start + step)])
            consume(step)
            remaining -= step
        }
    }

    /// The bytes left in the input, if the source knows.
    var knownRemainingByteCount: Int? {
        guard !sourceAtEnd else { return end - start }
        return source.remainingByteCount.map { $0 + (end - start) }
    }

    /// Fails early, before any allocation, when in-memory input cannot hold `count` bytes.
    private func checkAvailable(_ count: Int) throws(CBORError) {
        guard count >= 0 else {
            throw CBORError(code: .limitExceeded, message: "a byte count of \(count) is negative", offset: offset)
        }
        if let known = knownRemainingByteCount, count > known {
            throw truncated("\(count) bytes are needed but only \(known) are left")
        }
    }

    mutating func consume(_ count: Int) {
        start += count
        offset += count
    }

    func truncated(_ message: String) -> CBORError {
        CBORError(code: .truncated, message: "the input ended too early: \(message)", offset: offset)
    }

    /// Makes at least `count` (≤ 16) unconsumed bytes available in the buffer if the input has
    /// them. Returns `false` if the input ends first.
    mutating func fill(atLeast count: Int) throws(CBORError) -> Bool {
        if end - start >= count {
            return true
        }
        if sourceAtEnd {
            return false
        }
        if start > 0 {
            // Only a few bytes are left over (less than `count`), so moving them is cheap.
            for index in 0..<(end - start) {
                buffer[index] = buffer[start + index]
            }
            end -= start
            start = 0
        }
        while end - start < count {
            let received = try readFromSource()
            if received == 0 {
                sourceAtEnd = true
                return false
            }
            end += received
        }
        return true
    }

    private mutating func readFromSource() throws(CBORError) -> Int {
        var storage: [UInt8] = []
        swap(&storage, &buffer)
        defer { swap(&storage, &buffer) }
        let outcome = storage.withUnsafeMutableBytes { [end] raw in
            Result { () throws(CBORError) in try pull(into: UnsafeMutableRawBufferPointer(rebasing: raw[end...])) }
        }
        return try outcome.get()
    }
}
