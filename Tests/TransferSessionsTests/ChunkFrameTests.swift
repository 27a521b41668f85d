import Foundation
import Testing
import TransferKitPlatform
import TransferSessions

/// The one-pass chunk frame and reader against the general CBOR coder, which stays the reference.
@Suite("Chunk frames written and read in one pass")
struct ChunkFrameTests {
    static let lengths = [0, 1, 23, 24, 255, 256, 65_535, 65_536]
    static let requests: [UInt32] = [0, 23, 24, 255, 256, 65_535, 65_536, .max]

    static func bytes(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    }

    @Test("every length and request: the same bytes as the encoder's frame, read back as the decoder reads them")
    func sameAsTheCoder() throws {
        for length in Self.lengths {
            for request in Self.requests {
                let message = SourceMessage.chunk(request: request, bytes: Self.bytes(length))
                let frame = SessionWire.chunkFrame(request: request, bytes: Self.bytes(length))
                #expect(frame == (try SessionWire.frame(message)), "length \(length), request \(request)")
                let body = frame[4...]
                #expect(SessionWire.decodeChunk(body) == message)
                #expect(try SessionWire.decode(SourceMessage.self, from: body) == message)
            }
        }
    }

    @Test("a slice of a larger Data is framed from its own bytes")
    func slice() throws {
        let whole = Self.bytes(1000)
        let part = whole[100..<300]
        #expect(
            SessionWire.chunkFrame(request: 7, bytes: part)
                == (try SessionWire.frame(SourceMessage.chunk(request: 7, bytes: Data(part)))))
    }

    @Test(
        "any other body is left to the decoder: another message, a longer head, keys in another order, a byte more",
        arguments: [
            // {"end": {"request": 1}}
            "a163656e64a16772657175657374" + "01",
            // {"chunk": {"bytes": h'' with a one-byte length head, "request": 1}}
            "a1656368756e6ba2656279746573" + "5800" + "6772657175657374" + "01",
            // {"chunk": {"request": 1, "bytes": h''}}
            "a1656368756e6ba2" + "677265717565737401" + "65627974657340",
            // {"chunk": {"bytes": h'', "request": 1}} and one byte more
            "a1656368756e6ba2656279746573" + "40" + "6772657175657374" + "01" + "00",
            // the request as a two-byte head of 1
            "a1656368756e6ba2656279746573" + "40" + "6772657175657374" + "190001",
            // a length past the body's end
            "a1656368756e6ba2656279746573" + "45" + "0102",
        ])
    func otherBodies(hex: String) {
        let body = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        #expect(SessionWire.decodeChunk(body[...]) == nil)
    }
}
