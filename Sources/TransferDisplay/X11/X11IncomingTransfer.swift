import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One read of a selection in progress: a window of its own, the property the owner writes, and the events about
/// them and about the selection's owner (XFIXES), executing what ``X11SelectionReaderMachine`` decides as fast as the consumer pulls.
final class X11IncomingTransfer: Sendable {
    let backend: X11Backend
    let requestor: X11.ID
    let property: X11.ID
    /// The owner's `SelectionNotify` and the property's events.
    let events: Mailbox<X11Event, ClipboardError>
    /// The read's protocol: what each answer of the owner means, and what to wait for next.
    private let machine: MachineShell<X11SelectionReaderMachine>
    private let state: SanitizedMutex<State>

    /// Where the consumer's pulls stand.
    private struct State {
        /// What to wait for when the consumer asks for more; `nil` once over.
        var wait: X11SelectionReaderMachine.Action?
        /// Bytes read by ``begin()`` and not handed out yet.
        var buffered: Data?
        var isFinished = false
    }

    init(
        backend: X11Backend, requestor: X11.ID, property: X11.ID, events: Mailbox<X11Event, ClipboardError>,
        machine: X11SelectionReaderMachine
    ) {
        self.backend = backend
        self.requestor = requestor
        self.property = property
        self.events = events
        self.machine = MachineShell(machine)
        state = SanitizedMutex(State(wait: machine.start.last))
    }

    deinit { finish() }

    /// Runs until the owner's answer and its first property are read.
    /// - Throws: ``ClipboardError``: `typeUnavailable` when the owner refused, `timedOut`, or why a read failed.
    func begin() async throws(ClipboardError) {
        let data = try await advance(untilDelivery: false)
        state.withLock { $0.buffered = data }
    }

    /// The next chunk, or `nil` at the end.
    func next() async throws(ClipboardError) -> Data? {
        if let buffered = state.withLock({ state in
            defer { state.buffered = nil }; return state.buffered
        }) {
            return buffered
        }
        return try await advance(untilDelivery: true)
    }

    /// Performs waits and feeds the machine until it delivers bytes, ends, or (unless `untilDelivery`) has read
    /// the first property.
    private func advance(untilDelivery: Bool) async throws(ClipboardError) -> Data? {
        while let wait = state.withLock({ $0.wait }) {
            let event: X11SelectionReaderMachine.Event
            do {
                event = Task.isCancelled ? .cancelled : try await perform(wait)
            } catch {
                finish()
                throw error
            }
            // One consumer pulls at a time, so the phase read after the event is the one it left.
            let actions = machine.handle(event)
            let phase = machine.current.phase
            var delivered: Data?
            for action in actions {
                switch action {
                case .deliver(let bytes):
                    delivered = bytes
                case .finish:
                    finish()
                    return delivered
                case .fail(let code, let message):
                    finish()
                    throw ClipboardError(code: code, message: message, source: machine.current.target)
                case .waitForNotify, .readProperty, .waitForNewValue:
                    state.withLock { $0.wait = action }
                }
            }
            if delivered != nil { return delivered }
            if !untilDelivery, phase != .awaitingNotify, phase != .readingFirst { return nil }
        }
        return nil
    }

    /// Runs one wait of the machine.
    private func perform(
        _ wait: X11SelectionReaderMachine.Action
    ) async throws(ClipboardError) -> X11SelectionReaderMachine.Event {
        switch wait {
        case .readProperty(let offset):
            let units = UInt32(backend.chunkSize / 4)
            let reply: X11Bytes
            do {
                reply = try await backend.connection.request(
                    X11RequestEncoder.getProperty(
                        requestor, property: property, delete: true, offset: offset, length: units))
            } catch {
                throw error as? ClipboardError
                    ?? ClipboardError(code: .transferFailed, message: "\(error)", cause: error)
            }
            do {
                return .property(try X11Reply.property(reply))
            } catch {
                throw ClipboardError(code: .protocolViolation, message: "Malformed GetProperty reply: \(error.reason).")
            }
        default:
            let what = wait == .waitForNotify ? "the selection owner to convert" : "the next chunk of an INCR transfer"
            do {
                switch try await X11Wait.next(
                    from: events, within: backend.connection.timeout, on: backend.connection.clock, waitingFor: what)
                {
                case .selectionNotify(_, _, _, _, let property): return .selectionNotify(property: property)
                case .propertyNotify(_, _, _, let deleted): return .propertyNotify(deleted: deleted)
                case .selectionOwnerGone: return .ownerGone
                case .selectionOwnerChanged: return .ownerChanged
                default: return .propertyNotify(deleted: true)
                }
            } catch {
                switch error.code {
                case .timedOut: return .timedOut
                case .cancelled: return .cancelled
                default: throw error
                }
            }
        }
    }

    /// Ends the transfer: the window goes, and with it the owner's INCR (it sees the window destroyed).
    func finish() {
        let wasFinished = state.withLock { state in
            defer {
                state.isFinished = true
                state.wait = nil
                state.buffered = nil
            }
            return state.isFinished
        }
        guard !wasFinished else { return }
        backend.state.withLock { state in
            _ = state.notifyWatchers.removeValue(forKey: requestor)
            _ = state.readSelections.removeValue(forKey: requestor)
            _ = state.propertyWatchers.removeValue(forKey: X11Backend.WatchKey(window: requestor, atom: property))
        }
        events.close(nil)
        _ = try? backend.connection.send(X11RequestEncoder.destroyWindow(requestor))
        backend.connection.freeResource(requestor)
    }
}

/// The chunks of an incoming transfer, pulled from the server only as fast as they are consumed.
struct X11IncomingChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let transfer: X11IncomingTransfer

    func makeAsyncIterator() -> Iterator { Iterator(transfer: transfer) }

    struct Iterator: AsyncIteratorProtocol {
        let transfer: X11IncomingTransfer
        mutating func next() async throws -> Data? { try await transfer.next() }
    }
}
