public import Foundation
import TransferKitPlatform
import TransferSessions

/// The checks of the session protocol's fuzzer (`SessionFrameFuzzer`): the bytes a peer sends on a session socket.
///
/// The input is fed to the frame reader in pieces whose sizes come from the input itself, as a socket would
/// deliver it. Every whole frame is decoded as a source message and as a destination message; whatever decodes
/// must encode to a frame that decodes to the same message. The reader must never hold more than one frame's
/// bytes, and a broken frame must end the stream with a protocol violation, as the connection closes then. A
/// broken invariant is a `fatalError`: the harness's way to report a finding to libFuzzer.
public enum SessionFuzzing {
    /// Runs every check on one input; traps on a broken invariant.
    public static func check(_ input: Data) {
        let bytes = [UInt8](input)
        var reader = SessionWire.frames
        var buffer = FrameBuffer()
        var offset = 0
        var step = 1
        while offset < bytes.count {
            // Piece sizes from the bytes themselves: 1 to 256, so frames arrive split anywhere.
            let size = min(bytes.count - offset, Int(bytes[offset]) + 1)
            buffer.append(bytes[offset..<offset + size])
            offset += size
            step += 1
            do {
                while let body = try reader.nextFrame(from: &buffer) {
                    roundTrip(SourceMessage.self, body)
                    roundTrip(DestinationMessage.self, body)
                }
            } catch {
                // A broken header: the connection closes (the only error the reader throws is a WireViolation).
                return
            }
            guard buffer.count <= SessionWire.maximumFrameLength + SessionWire.headerLength + 256 else {
                fatalError("the frame reader holds \(buffer.count) bytes")
            }
        }
    }

    private static func roundTrip<Message: Codable & Equatable>(_ type: Message.Type, _ body: [UInt8]) {
        guard let message = try? SessionWire.decode(type, from: body[...]) else { return }
        guard let frame = try? SessionWire.frame(message) else {
            fatalError("\(message) decoded but does not encode")
        }
        var again = SessionWire.frames
        var buffer = FrameBuffer()
        buffer.append(frame)
        guard let body = try? again.nextFrame(from: &buffer),
            let decoded = try? SessionWire.decode(type, from: body[...])
        else {
            fatalError("\(message) does not decode from its own frame")
        }
        guard decoded == message else {
            fatalError("\(message) came back as \(decoded)")
        }
    }
}
