import TransferKitPlatform

/// The source's side of one session connection, as a pure state machine: the destination's messages, the end of
/// its loads and the reader's silence in; what the endpoint must do out.
///
/// It decides everything that depends on the connection's history — whether a hello is acceptable and from whom,
/// whether a request id is free, whether a drop may start, whether silence ends the connection — and nothing else:
/// it sends nothing, starts no task and holds no lock (the endpoint holds one around it). Where the items of a
/// move go is ``MoveDecision``'s, not this.
struct SessionSourceMachine {
    /// What the kernel says about the peer (`SO_PEERCRED`), and the checks that need the file system.
    struct Peer: Sendable, Equatable {
        /// The peer's process id.
        var processID: Int32
        /// The peer's user id.
        var userID: UInt32
        /// Whether the peer runs this process's executable, or one beside it; `nil` when the system cannot tell.
        var runsSameExecutable: Bool?
    }

    /// Where the connection stands.
    enum Phase: Equatable {
        /// Connected; the hello has not come.
        case awaitingHello
        /// The offer is sent; loads and a drop may come.
        case open
        /// The drop runs; its verdict (commit or abort) may come.
        case dropping
        /// The connection is ending; everything is ignored.
        case ended
    }

    /// What the endpoint does.
    enum Action: Equatable {
        /// Send the offer; `destination` is the origin the move rule is applied to.
        case sendOffer(destination: TransferSessionOrigin)
        /// Send `finished` with `cancel`, this code and message, and end the connection.
        case refuse(SessionWireCode, String)
        /// Start loading and sending a representation.
        case startLoad(request: UInt32, item: Int, type: String)
        /// Cancel a running load.
        case cancelLoad(UInt32)
        /// Run the drop for the destination.
        case startDrop(DropOperation, destination: TransferSessionOrigin)
        /// Hand the destination's verdict to the running drop.
        case deliverVerdict(DropVerdict)
        /// Nothing.
        case none
    }

    /// The destination's answer to a reservation.
    enum DropVerdict: Equatable, Sendable {
        /// `commit`.
        case commit
        /// `abort`, with its message.
        case abort(String)
    }

    private(set) var phase = Phase.awaitingHello
    /// The requests whose loads run: entered before their task starts, left before their last frame is sent, so a
    /// destination may reuse an id as soon as it reads the `end`.
    private(set) var runningLoads: Set<UInt32> = []
    private(set) var destination: TransferSessionOrigin?
    /// Whether the running drop has answered the destination (its reservation or its end): until then the source
    /// owes the answer, and the destination's silence is no fault of its own.
    private(set) var dropAnswered = false
    /// The version the destination's hello named: what the source writes to it.
    private(set) var version = SessionWire.version
    let peer: Peer?
    let ownUserID: UInt32
    let sourceApplication: String
    let itemCount: Int
    let maximumLoads: Int

    /// A connection from `peer` (`nil` when the system does not say) to a session of `itemCount` items.
    init(peer: Peer?, ownUserID: UInt32, sourceApplication: String, itemCount: Int, maximumLoads: Int = 64) {
        self.peer = peer
        self.ownUserID = ownUserID
        self.sourceApplication = sourceApplication
        self.itemCount = itemCount
        self.maximumLoads = maximumLoads
    }

    /// A message arrived.
    mutating func receive(_ message: DestinationMessage) -> Action {
        switch (phase, message) {
        case (.ended, _):
            return .none
        case (.awaitingHello, .hello(let version, let application, let process)):
            return hello(version: version, application: application, process: process)
        case (.awaitingHello, _):
            return end(.protocolViolation, "The first message must be a hello.")
        case (_, .hello):
            return end(.protocolViolation, "A hello came twice.")
        case (_, .load(let request, let item, let type)):
            guard !runningLoads.contains(request) else {
                return end(
                    .protocolViolation, "Request \(request) is in use; a request id is free again after its end.")
            }
            guard runningLoads.count < maximumLoads else {
                return end(.protocolViolation, "More than \(maximumLoads) loads were asked for at once.")
            }
            guard (0..<itemCount).contains(item) else {
                return .startLoad(request: request, item: item, type: type)  // the endpoint answers `failed`
            }
            runningLoads.insert(request)
            return .startLoad(request: request, item: item, type: type)
        case (_, .cancel(let request)):
            return runningLoads.contains(request) ? .cancelLoad(request) : .none
        case (.open, .drop(let operation)):
            guard let destination else { return end(.protocolViolation, "A drop came before the hello.") }
            phase = .dropping
            return .startDrop(operation, destination: destination)
        case (.dropping, .drop):
            return end(.protocolViolation, "A drop came twice; a session drops once.")
        case (.dropping, .commit):
            return .deliverVerdict(.commit)
        case (.dropping, .abort(let message)):
            return .deliverVerdict(.abort(message))
        case (_, .commit), (_, .abort):
            return end(.protocolViolation, "A commit or abort came before any drop.")
        }
    }

    /// A load's task is about to send its last frame (`end` or `failed`): its request id is free from now on.
    mutating func loadWillEnd(_ request: UInt32) {
        runningLoads.remove(request)
    }

    /// The running drop sent its reservation (the destination owes the verdict now) or its end.
    mutating func didAnswerDrop() {
        dropAnswered = true
    }

    /// The reader heard nothing for the time limit: whether that ends the connection. Silence is normal while this
    /// side owes something: a load it is sending (the destination reads and has nothing to say), or the answer to
    /// a drop it has not sent yet.
    mutating func silenceEndsConnection() -> Bool {
        guard phase != .ended, runningLoads.isEmpty, phase != .dropping || dropAnswered else { return false }
        phase = .ended
        return true
    }

    /// The connection ended: every running load is cancelled.
    mutating func connectionEnded() -> [UInt32] {
        phase = .ended
        defer { runningLoads = [] }
        return Array(runningLoads)
    }

    private mutating func hello(version: Int, application: String, process: Int32) -> Action {
        guard SessionWire.supportedVersions.contains(version) else {
            return end(
                .protocolViolation,
                "This source speaks versions \(SessionWire.supportedVersions.lowerBound) to "
                    + "\(SessionWire.supportedVersions.upperBound) of the session protocol, not \(version).")
        }
        var origin = TransferSessionOrigin(applicationIdentifier: application, processIdentifier: process)
        if let peer {
            guard peer.userID == ownUserID else {
                return end(
                    .notPermitted, "The destination runs as user \(peer.userID); only user \(ownUserID) may join.")
            }
            // The kernel's word for the process, not the hello's.
            origin.processIdentifier = peer.processID
            // Claiming the source's own application grants a move; only an executable of the same installation may.
            if application == sourceApplication && peer.runsSameExecutable == false {
                origin.applicationIdentifier = "unverified:" + application
            }
        }
        destination = origin
        self.version = version
        phase = .open
        return .sendOffer(destination: origin)
    }

    private mutating func end(_ code: SessionWireCode, _ message: String) -> Action {
        phase = .ended
        return .refuse(code, message)
    }
}
