#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The destination's side of one session connection, as a pure state machine: the source's messages in, what the
/// remote session must do out.
///
/// It decides which message may come when (the offer first and once, a reservation only after this side's drop,
/// nothing after the end), which load a message belongs to, and what breaks the protocol (an oversized chunk, a
/// `file` without its descriptor, an offer twice). It sends nothing and holds no lock; ``RemoteDragSession``'s
/// connection holds one around it and carries out the actions. Where a move's items go is ``MoveDecision``'s.
struct SessionDestinationMachine {
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

    /// What the remote session does.
    enum Action: Equatable {
        /// Hand the message to the task waiting for the offer, the reservation or the end.
        case reply(SourceMessage)
        /// Load `request` started; `length` bytes will come if known.
        case begin(UInt32, length: UInt64?)
        /// The next bytes of load `request`.
        case chunk(UInt32, Data)
        /// Load `request`'s bytes are in the first descriptor that came (take it).
        case file(UInt32, length: UInt64)
        /// Load `request` ended.
        case end(UInt32)
        /// Load `request` failed with the source's code.
        case fail(UInt32, SessionWireCode, message: String)
        /// The source ended the session with this `finished`: hand it to the waiting task, and fail every load
        /// still running.
        case sessionEnded(SourceMessage)
        /// The message is about a load this side gave up: nothing to do (a `file`'s descriptor is closed).
        case ignore(closingDescriptor: Bool)
        /// The source broke the protocol: end the connection.
        case violation(String)
    }

    private(set) var phase = Phase.awaitingOffer
    /// The loads asked for and not yet ended, failed or cancelled.
    private(set) var runningLoads: Set<UInt32> = []
    private var lastRequest: UInt32 = 0

    /// A request id for a new load: never 0, never one still running.
    mutating func startLoad() -> UInt32 {
        repeat { lastRequest &+= 1 } while lastRequest == 0 || runningLoads.contains(lastRequest)
        runningLoads.insert(lastRequest)
        return lastRequest
    }

    /// This side gave load `request` up (it sends `cancel`); late messages about it are ignored.
    /// - Returns: Whether the load was still running (only then is a `cancel` sent).
    mutating func cancelLoad(_ request: UInt32) -> Bool {
        runningLoads.remove(request) != nil
    }

    /// This side sent its drop.
    mutating func didSendDrop() {
        if phase == .open { phase = .awaitingReservation }
    }

    /// A message arrived; `hasDescriptor` says whether a descriptor is waiting for it.
    mutating func receive(_ message: SourceMessage, hasDescriptor: Bool) -> Action {
        switch (phase, message) {
        case (.ended, _):
            return .violation("The source sent a message after it ended the session.")
        case (.awaitingOffer, .offer):
            phase = .open
            return .reply(message)
        case (.awaitingOffer, .finished):
            phase = .ended
            return .sessionEnded(message)
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
            runningLoads = []
            return .sessionEnded(message)
        case (_, .begin(let request, let length)):
            return runningLoads.contains(request) ? .begin(request, length: length) : .ignore(closingDescriptor: false)
        case (_, .chunk(let request, let bytes)):
            guard bytes.count <= SessionWire.chunkSize else {
                return .violation(
                    "The source sent a chunk of \(bytes.count) bytes; chunks are at most \(SessionWire.chunkSize).")
            }
            return runningLoads.contains(request) ? .chunk(request, bytes) : .ignore(closingDescriptor: false)
        case (_, .file(let request, let length)):
            guard hasDescriptor else { return .violation("The source sent a file message without its descriptor.") }
            return runningLoads.remove(request) != nil
                ? .file(request, length: length) : .ignore(closingDescriptor: true)
        case (_, .end(let request)):
            return runningLoads.remove(request) != nil ? .end(request) : .ignore(closingDescriptor: false)
        case (_, .failed(let request, let code, let text)):
            return runningLoads.remove(request) != nil
                ? .fail(request, SessionWireCode.loadFailure(code), message: text) : .ignore(closingDescriptor: false)
        }
    }
}
