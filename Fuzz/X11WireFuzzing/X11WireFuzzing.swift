public import Foundation
import TransferClipboard
import TransferKitPlatform

/// The checks of the X11 wire decoder's fuzzer (`X11WireFuzzer`).
///
/// An input is what a hostile X server could send: a setup reply, then a stream of replies, errors and events.
/// The first byte picks the size of the reads the stream is fed in (1–64 bytes), the second XFIXES's first event
/// code. The setup reply must parse or throw `X11WireError`. The stream is fed to `X11Frames` on a `FrameBuffer`,
/// as the connection's reader does, twice: reading the setup reply first (it must come out first, whole, or the
/// decoder throws), and after it, cutting messages that must each be whole (32 bytes, or 32 plus four times the
/// length field of a reply or generic event), never over the decoder's limit, and add up with the bytes left in the
/// buffer to exactly the bytes fed. Every reply is also read as each reply kind the backend reads, and every
/// `ClientMessage` as an XDND message (``xdndAtoms``): it must decode exactly when its type is one of XDND's six
/// messages, name its first item as its sender, and encode to items that decode to the same message. The Xauthority
/// parser and the `DISPLAY` parser get the same bytes. A broken invariant is a `fatalError`: the harness's way to
/// report a finding to libFuzzer.
public enum X11WireFuzzing {
    /// The decoder's limit in the harness: small, so that the limit itself is exercised.
    static let limit = 4096

    /// Runs every check on one input; traps on a broken invariant.
    public static func check(_ input: Data) {
        let bytes = [UInt8](input)
        _ = X11AuthorityEntry.parse(bytes)
        _ = try? X11Display(parsing: String(decoding: bytes.prefix(64), as: UTF8.self))
        guard bytes.count >= 2 else { return }
        let readSize = 1 + Int(bytes[0]) % 64
        var stream = Array(bytes.dropFirst(2))
        checkSetupMode(stream, readSize: readSize)
        if let total = try? X11SetupReply.totalLength(header: Array(stream.prefix(8))), total <= stream.count {
            do {
                if case .success(let info) = try X11SetupReply(parsing: Array(stream.prefix(total))) {
                    guard info.maximumRequestBytes >= 4096, info.resourceIDMask != 0 else {
                        fatalError("a setup reply parsed with \(info)")
                    }
                }
            } catch {}
            stream.removeFirst(total)
        }
        var decoder = X11Frames(limit: limit, expectsSetup: false)
        var buffer = FrameBuffer()
        let xfixesFirstEvent = bytes[1]
        var fed = 0
        var decoded = 0
        while fed < stream.count {
            let piece = stream[fed..<min(stream.count, fed + readSize)]
            buffer.append(piece)
            fed += piece.count
            do {
                while let frame = try decoder.nextFrame(from: &buffer) {
                    guard case .message(let bytes) = frame else { fatalError("a setup frame after the setup") }
                    let size = bytes.bytes.count
                    decoded += size
                    guard size >= 32, size <= limit, size % 4 == 0 else {
                        fatalError("a message of \(size) bytes came out of the decoder")
                    }
                    check(X11Message(decoding: bytes, xfixesFirstEvent: xfixesFirstEvent), size: size)
                }
            } catch {
                return
            }
            guard decoded + buffer.count == fed else {
                fatalError("decoded \(decoded) + pending \(buffer.count) != fed \(fed)")
            }
        }
    }

    /// Feeds the stream to a decoder that reads the setup reply first, as the connection's reader does: the setup
    /// reply comes out first, whole, or the decoder throws; the rest are messages.
    static func checkSetupMode(_ stream: [UInt8], readSize: Int) {
        var decoder = X11Frames(limit: limit)
        var buffer = FrameBuffer()
        var fed = 0
        var frames = 0
        while fed < stream.count {
            let piece = stream[fed..<min(stream.count, fed + readSize)]
            buffer.append(piece)
            fed += piece.count
            do {
                while let frame = try decoder.nextFrame(from: &buffer) {
                    if case .setup = frame, frames > 0 { fatalError("a setup frame after the first frame") }
                    if case .message = frame, frames == 0 { fatalError("a message before the setup reply") }
                    frames += 1
                }
            } catch {
                return
            }
        }
    }

    /// The atoms of XDND's messages and actions in the harness, as an X server could have interned them (the seeds'
    /// script, `Fuzz/seeds_x11.py`, uses the same numbers).
    static let xdndAtoms = XdndAtoms(interned: (0..<UInt32(XdndAtoms.names.count)).map { 0x1E0 + $0 })

    /// Reads a `ClientMessage` as the drag-and-drop code reads it: XDND's decoder is total over its six types and
    /// round-trips through its encoder.
    static func checkXdnd(type: X11.ID, data: [UInt8]) {
        let atoms = xdndAtoms
        let isXdnd = [atoms.enter, atoms.position, atoms.status, atoms.leave, atoms.drop, atoms.finished].contains(type)
        guard let message = XdndMessage.decode(type: type, data: data, atoms: atoms) else {
            guard !isXdnd || data.count != 20 else { fatalError("an XDND message of type \(type) did not decode") }
            return
        }
        guard isXdnd, data.count == 20 else { fatalError("\(message) decoded from type \(type), \(data.count) bytes") }
        let sender = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
        guard message.sender == sender else { fatalError("\(message) names \(message.sender), not \(sender)") }
        if case .enter(_, _, _, let types) = message, types.count > 3 || types.contains(X11.none) {
            fatalError("an enter with the types \(types)")
        }
        let (encodedType, items) = message.encode(atoms: atoms)
        guard encodedType == type, items.count == 5 else { fatalError("\(message) encodes as \(encodedType), \(items)") }
        let bytes = items.flatMap { item in (0..<4).map { UInt8(truncatingIfNeeded: item >> ($0 * 8)) } }
        guard XdndMessage.decode(type: encodedType, data: bytes, atoms: atoms) == message else {
            fatalError("\(message) does not decode from its own encoding \(items)")
        }
        switch message {
        case .position(_, _, _, _, let action), .status(_, _, _, _, let action), .finished(_, _, let action):
            if let named = atoms.action(for: action), atoms.atom(for: named) != action {
                fatalError("action atom \(action) named \(named)")
            }
        case .enter, .leave, .drop:
            break
        }
    }

    /// Reads a reply as each kind of reply the backend reads; a reply must hold exactly its decoded bytes.
    static func check(_ message: X11Message, size: Int) {
        if case .event(.clientMessage(_, _, let type, let data)) = message {
            checkXdnd(type: type, data: data)
        }
        guard case .reply(_, let reply) = message else { return }
        guard reply.bytes.count == size else {
            fatalError("a reply of \(reply.bytes.count) bytes from \(size) decoded")
        }
        if let property = try? X11Reply.property(reply) {
            guard property.value.count <= size - 32 else { fatalError("a property value past its reply") }
            _ = property.items32
        }
        _ = try? X11Reply.atomName(reply)
        _ = X11Reply.extensionInfo(reply)
        _ = X11Reply.atom(reply)
    }
}
