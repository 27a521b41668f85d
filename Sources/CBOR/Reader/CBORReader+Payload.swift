extension CBORReader {
    /// Reads the next `destination.count` bytes of input (a string's payload) into `destination`: first those
    /// already buffered, then, for all but short reads, straight from the source into `destination`.
    ///
    /// Large payloads thus skip the reader's own buffer and are copied once, from the source to the caller's memory,
    /// rather than twice. Short reads still fill the buffer, so that the heads after a small payload cost no extra
    /// calls to the source.
    /// - Parameter destination: Where the bytes go.
    /// - Returns: How many bytes were read: `destination.count`, or fewer only when the input ends first.
    /// - Throws: `CBORError.Code.readFailed` when the source fails.
    package mutating func readBytes(into destination: UnsafeMutableRawBufferPointer) throws(CBORError) -> Int {
        var total = 0
        while total < destination.count {
            let buffered = end - start
            if buffered > 0 {
                let step = min(buffered, destination.count - total)
                buffer.withUnsafeBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: destination[total..<(total + step)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + step)]))
                }
                consume(step)
                total += step
            } else if destination.count - total >= Self.directReadMinimum, !sourceAtEnd {
                let received = try pull(into: UnsafeMutableRawBufferPointer(rebasing: destination[total...]))
                if received == 0 {
                    sourceAtEnd = true
                    break
                }
                offset += received
                total += received
            } else if try !fill(atLeast: 1) {
                break
            }
        }
        return total
    }

    /// Reads of at least this many bytes go straight from the source to the caller.
    private static var directReadMinimum: Int { 64 * 1024 }

    /// One read from the source into `destination` (the reader's buffer, or the caller's memory), with the source's
    /// failures as `CBORError.Code.readFailed` at the current offset.
    mutating func pull(into destination: UnsafeMutableRawBufferPointer) throws(CBORError) -> Int {
        // Moved out, not copied, so that the source is not shared while it reads.
        var pulled: any CBORByteSource = CBORBufferSource([])
        swap(&pulled, &source)
        defer { swap(&pulled, &source) }
        let received: Int
        do {
            received = try pulled.read(into: destination)
        } catch let error as CBORError {
            var located = error
            located.offset = located.offset ?? offset
            throw located
        } catch {
            throw CBORError(
                code: .readFailed, message: "the byte source failed: \(error)", cause: error, offset: offset)
        }
        guard (0...destination.count).contains(received) else {
            throw CBORError(
                code: .readFailed,
                message: "the byte source reported \(received) bytes for a \(destination.count)-byte buffer",
                offset: offset)
        }
        return received
    }
}
