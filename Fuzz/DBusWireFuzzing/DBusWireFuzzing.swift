public import Foundation
import TransferDisplay

/// The checks of the D-Bus wire decoder's fuzzer (`DBusWireFuzzer`).
///
/// An input is what a hostile bus or peer could send on a D-Bus connection after authentication. Its first byte says
/// how many descriptors arrived beside the stream (0–7, as `SCM_RIGHTS` would bring them); the rest is the stream.
/// The harness cuts it into messages as `DBusConnection`'s reader does (``DBusWire/messageLength(header:)`` on the
/// first 16 bytes, then the whole message) and decodes each with ``DBusWire/decode(_:descriptorCount:)``. It checks
/// that
/// - a failure is a `ClipboardError` with `protocolViolation` or `limitExceeded`, and ends the stream;
/// - a message's announced length is at least its fixed header and at most the specification's 128 MiB;
/// - a decoded message claims no more descriptors than arrived;
/// - a decoded message encodes, and its encoding decodes to a message that encodes to the same bytes (the writer
///   and the reader agree on every value the reader accepts, NaN included).
///
/// A broken invariant is a `fatalError`: the harness's way to report a finding to libFuzzer.
public enum DBusWireFuzzing {
    /// Runs every check on `input`.
    public static func check(_ input: Data) {
        let bytes = [UInt8](input)
        guard let first = bytes.first else { return }
        var descriptors = Int(first % 8)
        var stream = bytes.dropFirst()
        while stream.count >= DBusWire.fixedHeaderSize {
            let length: Int
            do {
                length = try DBusWire.messageLength(header: stream)
            } catch {
                expectWireError(error, stream)
                return
            }
            guard length >= DBusWire.fixedHeaderSize, length <= DBusWire.maximumMessageSize else {
                fatalError("messageLength gave \(length) for \(Array(stream.prefix(16)))")
            }
            guard stream.count >= length else { return }
            let message = Array(stream.prefix(length))
            stream = stream.dropFirst(length)
            let decoded: DBusMessage?
            do {
                decoded = try DBusWire.decode(message, descriptorCount: descriptors)
            } catch {
                expectWireError(error, message[...])
                return
            }
            guard let decoded else { continue }
            guard Int(decoded.unixFDCount) <= descriptors else {
                fatalError("a message claims \(decoded.unixFDCount) descriptors of \(descriptors)")
            }
            descriptors -= Int(decoded.unixFDCount)
            checkRoundTrip(decoded)
        }
    }

    private static func checkRoundTrip(_ message: DBusMessage) {
        do {
            let encoded = try DBusWire.encode(message)
            guard let again = try DBusWire.decode(encoded, descriptorCount: Int(message.unixFDCount)) else {
                fatalError("a decoded message re-encodes to one of an unknown kind")
            }
            let reencoded = try DBusWire.encode(again)
            guard reencoded == encoded else {
                fatalError("a message does not round-trip: \(message)")
            }
        } catch {
            fatalError("a decoded message does not encode or read back: \(error) \(message)")
        }
    }

    private static func expectWireError(_ error: ClipboardError, _ bytes: ArraySlice<UInt8>) {
        guard error.code == .protocolViolation || error.code == .limitExceeded else {
            fatalError("the decoder failed with \(error.code): \(error) on \(Array(bytes.prefix(64)))")
        }
    }
}
