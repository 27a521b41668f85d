/// Received bytes waiting to be cut into frames: the one frame buffer of every wire protocol in the package.
///
/// Frames are taken from the front by moving a cursor, never by shifting the bytes behind them; the consumed prefix
/// is dropped only when it is at least half the storage (and 64 KiB), so compaction costs amortized constant time
/// per byte however many small frames arrive in one read.
package struct FrameBuffer: Sendable {
    private var storage: [UInt8] = []
    private var start = 0

    /// An empty buffer.
    package init() {}

    /// The number of unconsumed bytes.
    package var count: Int { storage.count - start }

    /// Whether every byte was consumed.
    package var isEmpty: Bool { count == 0 }

    /// Adds received bytes after those held.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        compactIfWorthwhile()
        storage.append(contentsOf: bytes)
    }

    /// The unconsumed byte at `offset` from the front; the caller checks `offset < count`.
    package subscript(offset: Int) -> UInt8 {
        storage[start + offset]
    }

    /// The unconsumed bytes from `offset` on, `length` of them; the caller checks the range.
    package func bytes(at offset: Int, length: Int) -> ArraySlice<UInt8> {
        storage[(start + offset)..<(start + offset + length)]
    }

    /// The big-endian unsigned integer of `width` bytes (at most 8) at `offset`.
    package func bigEndianInteger(at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<width { value = value << 8 | UInt64(storage[start + offset + index]) }
        return value
    }

    /// The little-endian unsigned integer of `width` bytes (at most 8) at `offset`.
    package func littleEndianInteger(at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(storage[start + offset + index]) }
        return value
    }

    /// Takes the first `length` bytes (the caller checks `length <= count`).
    package mutating func take(_ length: Int) -> [UInt8] {
        let taken = Array(storage[start..<(start + length)])
        start += length
        return taken
    }

    /// Drops the first `length` bytes (the caller checks `length <= count`).
    package mutating func skip(_ length: Int) {
        start += length
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        }
    }

    private mutating func compactIfWorthwhile() {
        guard start >= 64 << 10, start * 2 >= storage.count else { return }
        storage.removeFirst(start)
        start = 0
    }
}

/// Cuts frames out of a ``FrameBuffer``: one per wire protocol (the session's length prefix, X11's replies and
/// events, Wayland's messages).
package protocol FrameDecoder: Sendable {
    /// A decoded frame.
    associatedtype Frame: Sendable

    /// Takes the next whole frame from the front of `buffer`, or returns `nil` (taking nothing) until more bytes
    /// arrive.
    /// - Throws: ``WireViolation`` when the bytes cannot be a frame of the protocol (the connection then ends).
    mutating func nextFrame(from buffer: inout FrameBuffer) throws(WireViolation) -> Frame?
}

/// Bytes from a peer that break its protocol: the reason, for the protocol's own error.
package struct WireViolation: Error, Sendable, CustomStringConvertible {
    /// What was wrong, in a sentence.
    package var message: String
    /// The underlying error, such as a decoder's.
    package var cause: (any Error)?

    /// A violation.
    package init(_ message: String, cause: (any Error)? = nil) {
        self.message = message
        self.cause = cause
    }

    /// The message.
    package var description: String { message }
}

/// Frames that are a 4-byte big-endian length and then that many bytes (the drag session protocol's).
package struct LengthPrefixedFrames: FrameDecoder {
    /// The longest body accepted.
    package let maximumLength: Int

    /// A decoder that refuses bodies longer than `maximumLength` (and empty ones) before buffering them.
    package init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The header's size.
    package static let headerLength = 4

    /// The next body.
    package mutating func nextFrame(from buffer: inout FrameBuffer) throws(WireViolation) -> [UInt8]? {
        guard buffer.count >= Self.headerLength else { return nil }
        let length = Int(buffer.bigEndianInteger(at: 0, width: Self.headerLength))
        guard length > 0, length <= maximumLength else {
            throw WireViolation(
                "The peer announced a frame of \(length) bytes; frames are 1 to \(maximumLength) bytes.")
        }
        guard buffer.count >= Self.headerLength + length else { return nil }
        buffer.skip(Self.headerLength)
        return buffer.take(length)
    }

    /// `body` with its header in front.
    package static func frame(_ body: [UInt8]) -> [UInt8] {
        let length = UInt32(truncatingIfNeeded: body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }
}
