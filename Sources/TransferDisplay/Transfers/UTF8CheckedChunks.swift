import TransferKit
import UniformTypes

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The chunks of a representation offered under the plain-text names because its type is text (see "Text of other
/// types" in ``ClipboardTypeMapping``), checked to be UTF-8 as they pass: a chunk that holds bytes no UTF-8 text has
/// ends the stream with ``ClipboardError`` `notText`. A character split between two chunks is checked whole, when its
/// last byte comes; the stream's end in the middle of one is not UTF-8 either.
package struct UTF8CheckedChunks: AsyncSequence, Sendable {
    package typealias Element = Data
    let base: TransferByteStream
    /// The representation's type, for the error's message.
    let type: UniformType

    package func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), type: type)
    }

    package struct Iterator: AsyncIteratorProtocol {
        var base: TransferByteStream.AsyncIterator
        let type: UniformType
        /// The first bytes of a character whose last ones are still to come (at most 3).
        var pending = Data()

        /// The next checked bytes: only whole characters pass, so a paste never receives bytes before they are known
        /// to be UTF-8; the first bytes of a character split between chunks wait for its last ones.
        package mutating func next() async throws -> Data? {
            while true {
                guard let chunk = try await base.next() else {
                    guard pending.isEmpty else { throw refusal("ends with bytes that are no whole UTF-8 character") }
                    return nil
                }
                // The usual chunk, whole characters with none before it, passes as it came: no copy.
                let bytes = pending.isEmpty ? chunk : pending + chunk
                let complete = UTF8CheckedChunks.completeLength(of: bytes)
                let checked = bytes.prefix(complete)
                guard String(validating: checked, as: UTF8.self) != nil else {
                    throw refusal("has bytes that are not UTF-8")
                }
                pending = complete == bytes.count ? Data() : Data(bytes.suffix(from: bytes.startIndex + complete))
                if complete == bytes.count { return bytes }
                if !checked.isEmpty { return Data(checked) }
            }
        }

        func refusal(_ what: String) -> ClipboardError {
            ClipboardError(
                code: .notText,
                message:
                    "The \(type.identifier) representation was offered as plain text, but it \(what); paste it as "
                    + "\(type.preferredMIMEType ?? type.identifier) instead.",
                source: type.identifier)
        }
    }

    /// The length of `bytes` without a character cut short at its end: the bytes from the last lead byte of the final
    /// three on, when that lead byte announces more bytes than follow it.
    static func completeLength(of bytes: Data) -> Int {
        let count = bytes.count
        var back = 1
        while back <= Swift.min(3, count) {
            let byte = bytes[bytes.startIndex + count - back]
            if byte & 0xC0 != 0x80 {
                // A lead byte (or ASCII): how many bytes its character has.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return length > back ? count - back : count
            }
            back += 1
        }
        return count
    }
}
