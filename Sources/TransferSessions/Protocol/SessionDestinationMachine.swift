import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The destination's side of one session connection, as a ``ProtocolMachine``: the source's messages and this side's
/// own steps in, what the remote session must do out.
///
/// It decides which message may come when (the offer first and once, a reservation only after this side's drop,
/// nothing after the end), which load a message belongs to, and what breaks the protocol (an oversized chunk, a
/// `file` without its descriptor, an offer twice). It holds the running loads' handles (`Load`: the remote session's
/// channel, a test's plain value), so a message and its load are matched in one step, and the connection's end fails
/// exactly the loads still running. It sends nothing and holds no lock; ``RemoteDragSession``'s connection drives it
/// through a ``MachineShell`` and carries out every action. Where a move's items go is ``MoveDecision``'s.
struct SessionDestinationMachine<Load: Sendable>: ProtocolMachine {
    /// Where the connection stands.
    enum Phase: Equatable, CaseIterable {
        /// The hello is sent; the offer has not come.
        case awaitingOffer
        /// The offer came; loads run, no drop yet.
        case open
        /// This side sent its drop; the reservation (or the end) is due.
        case awaitingReservation
        /// The reservation came; the drop runs.
        case dropping
        /// The source ended the session.
        case ended
    }

    /// What happens.
    enum Event: Sendable {
        /// A message arrived; `hasDescriptor` says whether a descriptor is waiting for it.
        case received(SourceMessage, hasDescriptor: Bool)
        /// This side starts a load of item `item`'s `type`, whose answers go to `load`.
        case startLoad(Load, item: Int, type: String)
        /// This side gave load `request` up (its reader cancelled, or stopped taking bytes).
        case cancelLoad(UInt32)
        /// The request for load `request` could not be sent: forget the load; there is nothing to tell the source.
        case loadNotSent(UInt32)
        /// This side sent its drop.
        case sentDrop
        /// The connection ended, for `reason`.
        case connectionEnded(TransferSessionError)
    }

    /// What the remote session does.
    enum Action: Sendable {
        /// Hand the message to the task waiting for the offer, the reservation or the end.
        case reply(SourceMessage)
        /// The load started; `length` bytes will come if known.
        case begin(Load, length: UInt64?)
        /// The load's next bytes.
        case chunk(Load, Data)
        /// The load's bytes are in the first descriptor that came (take it).
        case file(Load, length: UInt64)
        /// The load ended.
        case end(Load)
        /// The load failed with the source's code.
        case fail(Load, SessionWireCode, message: String)
        /// The source ended the session with this `finished`: hand it to the waiting task, and fail these loads,
        /// which were still running.
        case sessionEnded(SourceMessage, failing: [Load])
        /// The message is about a load this side gave up: nothing to do (a `file`'s descriptor is closed).
        case ignore(closingDescriptor: Bool)
        /// The source broke the protocol: end the connection.
        case violation(String)
        /// Send the source the `load` request `request` for `load` (item `item`'s `type`).
        case requestLoad(Load, request: UInt32, item: Int, type: String)
        /// The load cannot start: the connection has ended (``closedReason`` says why).
        case refuseLoad(Load)
        /// Tell the source that this side gave load `request` up (`cancel`).
        case sendCancel(UInt32)
        /// The connection has ended (``closedReason`` says why): end the waits for replies, and fail these loads,
        /// which were still running.
        case connectionEnded(failing: [Load])
    }

    private(set) var phase = Phase.awaitingOffer
    /// The loads asked for and not yet ended, failed or cancelled, by request id.
    private(set) var runningLoads: [UInt32: Load] = [:]
    /// Why the connection ended, once it has (the first reason given).
    private(set) var closedReason: TransferSessionError?
    private var lastRequest: UInt32 = 0

    /// Applies `event`.
    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .received(let message, let hasDescriptor):
            return [receive(message, hasDescriptor: hasDescriptor)]
        case .startLoad(let load, let item, let type):
            guard closedReason == nil else { return [.refuseLoad(load)] }
            // A request id for a new load: never 0, never one still running.
            repeat { lastRequest &+= 1 } while lastRequest == 0 || runningLoads[lastRequest] != nil
            runningLoads[lastRequest] = load
            return [.requestLoad(load, request: lastRequest, item: item, type: type)]
        case .cancelLoad(let request):
            // Only a load still running is cancelled at the source; a late message about it is then ignored.
            return runningLoads.removeValue(forKey: request) != nil ? [.sendCancel(request)] : []
        case .loadNotSent(let request):
            runningLoads[request] = nil
            return []
        case .sentDrop:
            if phase == .open { phase = .awaitingReservation }
            return []
        case .connectionEnded(let reason):
            if closedReason == nil { closedReason = reason }
            defer { runningLoads = [:] }
            return [.connectionEnded(failing: Array(runningLoads.values))]
        }
    }

    private mutating func receive(_ message: SourceMessage, hasDescriptor: Bool) -> Action {
        switch (phase, message) {
        case (.ended, _):
            return .violation("The source sent a message after it ended the session.")
        case (.awaitingOffer, .offer):
            phase = .open
            return .reply(message)
        case (.awaitingOffer, .finished):
            phase = .ended
            return .sessionEnded(message, failing: [])
        case (.awaitingOffer, _):
            return .violation("The source's first message must be its offer.")
        case (_, .offer):
            return .violation("The source sent its offer twice.")
        case (.awaitingReservation, .reserved):
            phase = .dropping
            return .reply(message)
        case (_, .reserved):
            return .violation("The source sent a reservation no drop asked for.")
        case (_, .finished):
            phase = .ended
            defer { runningLoads = [:] }
            return .sessionEnded(message, failing: Array(runningLoads.values))
        case (_, .begin(let request, let length)):
            guard let load = runningLoads[request] else { return .ignore(closingDescriptor: false) }
            return .begin(load, length: length)
        case (_, .chunk(let request, let bytes)):
            guard bytes.count <= SessionWire.chunkSize else {
                return .violation(
                    "The source sent a chunk of \(bytes.count) bytes; chunks are at most \(SessionWire.chunkSize).")
            }
            guard let load = runningLoads[request] else { return .ignore(closingDescriptor: false) }
            return .chunk(load, bytes)
        case (_, .file(let request, let length)):
            guard hasDescriptor else { return .violation("The source sent a file message without its descriptor.") }
            guard let load = runningLoads.removeValue(forKey: request) else { return .ignore(closingDescriptor: true) }
            return .file(load, length: length)
        case (_, .end(let request)):
            guard let load = runningLoads.removeValue(forKey: request) else { return .ignore(closingDescriptor: false) }
            return .end(load)
        case (_, .failed(let request, let code, let text)):
            guard let load = runningLoads.removeValue(forKey: request) else { return .ignore(closingDescriptor: false) }
            return .fail(load, SessionWireCode.loadFailure(code), message: text)
        }
    }
}

extension SessionDestinationMachine.Action: Equatable where Load: Equatable {}
