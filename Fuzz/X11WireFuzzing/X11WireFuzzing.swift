public import Foundation
import TransferDesktop
import TransferDisplay
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
/// messages, name its first item as its sender, and encode to items that decode to the same message; the decoded
/// messages then drive an `XdndTargetMachine` as TransferKit's window does (``XdndTargetBooks``), with `DestroyNotify`
/// as a source's window going away and `SelectionClear` standing for the silence deadline. The Xauthority
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
        var target = XdndTargetBooks()
        defer { target.checkSettled() }
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
                    let message = X11Message(decoding: bytes, xfixesFirstEvent: xfixesFirstEvent)
                    check(message, size: size)
                    target.feed(message)
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
        guard encodedType == type, items.count == 5 else {
            fatalError("\(message) encodes as \(encodedType), \(items)")
        }
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

/// TransferKit's X11 window as an XDND target, reduced to its state machine and a driver that answers at once: every
/// source is described with its three types and copy and move, and every third decision refuses (the others accept
/// the first action offered); every other drop delivered is finished at once, with its action, and the rest only
/// when the input ends.
///
/// It checks that the machine sends only statuses and finishes, from its own window and to the current source; that a
/// drop is delivered only after an accepting status to its source with the drop's action, under a fresh identity
/// that stays unfinished until finished; that each drop message of the current source ends in exactly one delivery
/// or one unsuccessful finish; that a drop is finished exactly once, with success exactly when it performed an action;
/// and that, since the driver answers at once, the machine never waits for a description or a decision afterwards.
struct XdndTargetBooks {
    static let window: X11.ID = 0x40_0001
    static let rectangle = XdndRectangle(x: 0, y: 0, width: 240, height: 120)

    var machine = XdndTargetMachine(window: window, atoms: X11WireFuzzing.xdndAtoms)
    /// Whether the last status sent to each source accepted, and with which action atom.
    var lastStatus: [X11.ID: (accepts: Bool, action: X11.ID)] = [:]
    var decisions = 0
    /// The drops delivered and not finished, and those finished.
    var open: [UInt64: XdndTargetMachine.Drop] = [:]
    var finished: Set<UInt64> = []

    /// Feeds one message from the server: an XDND message, a destroyed window, or (a `SelectionClear`) the silence.
    mutating func feed(_ message: X11Message) {
        switch message {
        case .event(.clientMessage(_, _, let type, let data)):
            guard let xdnd = XdndMessage.decode(type: type, data: data, atoms: X11WireFuzzing.xdndAtoms) else { return }
            run(.message(xdnd))
        case .event(.destroyNotify(let window)):
            run(.destroyed(window))
        case .event(.selectionClear):
            run(.silence)
        default:
            return
        }
    }

    /// Handles `event` and everything the driver answers, then checks the books.
    mutating func run(_ first: XdndTargetMachine.Event) {
        var queue = [first]
        while !queue.isEmpty {
            let event = queue.removeFirst()
            let source = currentSource
            let actions = machine.handle(event)
            if case .message(.drop(let sender, _)) = event, sender == source {
                let endings = actions.filter { action in
                    switch action {
                    case .deliver: return true
                    case .send(.finished(_, let succeeded, _), _): return !succeeded
                    default: return false
                    }
                }
                guard endings.count == 1 else { fatalError("a drop from \(sender) ended with \(actions)") }
            }
            for action in actions {
                queue += answer(action, to: event, source: source)
            }
        }
        switch machine.phase {
        case .idle, .entered: break
        case .describing, .deciding: fatalError("the machine still waits in \(machine.phase)")
        }
        guard machine.unfinished.count == open.count, open.keys.allSatisfy({ machine.unfinished[$0] != nil }) else {
            fatalError("unfinished \(machine.unfinished) but delivered and open \(open.keys.sorted())")
        }
    }

    /// The source of the current drag.
    var currentSource: X11.ID? {
        switch machine.phase {
        case .idle: nil
        case .describing(let source, _), .entered(let source, _), .deciding(let source, _): source
        }
    }

    /// What the driver does for `action`: the events it answers with.
    mutating func answer(
        _ action: XdndTargetMachine.Action, to event: XdndTargetMachine.Event, source: X11.ID?
    ) -> [XdndTargetMachine.Event] {
        switch action {
        case .describeSource(let described, let types, _):
            return [
                .described(
                    source: described, targets: types.prefix(3).map { "type-\($0)" }, actions: [.copy, .move],
                    window: Self.rectangle)
            ]
        case .decide(_, let offered):
            decisions += 1
            return [.decided(decisions % 3 == 0 ? nil : offered.first)]
        case .send(let message, let destination):
            check(sent: message, to: destination, for: event, source: source)
            return []
        case .deliver(let drop):
            guard let status = lastStatus[drop.source], status.accepts,
                status.action == X11WireFuzzing.xdndAtoms.atom(for: drop.action)
            else {
                fatalError("\(drop) delivered after the status \(String(describing: lastStatus[drop.source]))")
            }
            guard open[drop.id] == nil, !finished.contains(drop.id), machine.unfinished[drop.id] == drop.source else {
                fatalError("\(drop) delivered twice, or not kept unfinished")
            }
            open[drop.id] = drop
            guard drop.id % 2 == 0 else { return [] }
            return [.finish(drop: drop.id, performed: drop.action)]
        case .watch, .armSilenceDeadline, .disarmSilenceDeadline:
            return []
        }
    }

    /// A message the machine sends must be a status to the current source or a finish of a drop it delivered (or of
    /// a drop it refused, to that drop's source).
    mutating func check(
        sent message: XdndMessage, to destination: X11.ID, for event: XdndTargetMachine.Event, source: X11.ID?
    ) {
        switch message {
        case .status(let target, let accepts, _, _, let action):
            guard target == Self.window, destination == source else {
                fatalError(
                    "a status from \(target) to \(destination) while the source is \(String(describing: source))")
            }
            guard accepts == (action != X11.none) else { fatalError("\(message): acceptance and action disagree") }
            lastStatus[destination] = (accepts, action)
        case .finished(let target, let succeeded, let action):
            guard target == Self.window, succeeded == (action != X11.none) else { fatalError("\(message)") }
            switch event {
            case .finish(let drop, _):
                guard let delivered = open.removeValue(forKey: drop), delivered.source == destination,
                    finished.insert(drop).inserted
                else { fatalError("\(message) for drop \(drop), which is not open") }
            case .message(.drop(let sender, _)):
                guard !succeeded, sender == destination else { fatalError("\(message) answers a drop from \(sender)") }
            default:
                fatalError("\(message) sent on \(event)")
            }
        case .enter, .position, .leave, .drop:
            fatalError("the target sent \(message)")
        }
    }

    /// Finishes the drops still open, as the window does when its consumer lets them go: each exactly once.
    mutating func checkSettled() {
        for id in open.keys.sorted() {
            run(.finish(drop: id, performed: nil))
        }
        guard open.isEmpty, machine.unfinished.isEmpty else { fatalError("drops left unfinished: \(open.keys)") }
        for id in finished.sorted().prefix(2) {
            guard machine.handle(.finish(drop: id, performed: nil)).isEmpty else {
                fatalError("drop \(id) finished twice")
            }
        }
    }
}
