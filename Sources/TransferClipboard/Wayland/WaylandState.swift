import TransferKit
import TransferKitPlatform

/// What one Wayland connection knows, guarded by the backend's lock: objects, globals, offers, sources, waiters.
///
/// ``apply(_:live:backend:)`` turns an event into state changes and returns the actions (resuming continuations,
/// starting transfers) to run once the lock is released.
struct WaylandState {
    struct Global {
        var name: UInt32
        var interface: String
        var version: UInt32
    }

    struct Source {
        var serve: @Sendable (String) async throws -> TransferByteStream
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    typealias Action = @Sendable () -> Void

    var objects = WaylandObjectTable()
    /// Why the connection ended, once it has.
    var failure: ClipboardError?
    var callbacks: [UInt32: CheckedContinuation<Void, any Error>] = [:]
    var globals: [Global] = []
    var registry: UInt32 = 0
    var manager: UInt32 = 0
    var managerVersion: UInt32 = 0
    var device: UInt32 = 0
    /// The MIME types of each offer the compositor announced and not yet replaced.
    var offers: [UInt32: [String]] = [:]
    /// The offer each selection shows now.
    var current: [ClipboardSelection: UInt32] = [:]
    var sources: [UInt32: Source] = [:]
    var watchers: [UInt64: (ClipboardSelection, AsyncThrowingStream<[String], any Error>.Continuation)] = [:]
    var nextWatcherID: UInt64 = 0
    /// The most offers kept at once: the two selections and a few announced ahead of their selection event.
    static let maximumOffers = 16
    /// The most MIME types one offer may list.
    static let maximumTypesPerOffer = 1024

    func checkOpen() throws(ClipboardError) {
        if let failure { throw failure }
    }

    mutating func apply(_ event: WaylandEvent, live: Bool, backend: WaylandBackend) throws(ClipboardError) -> [Action] {
        guard live else {
            // An event still in flight to an object this client destroyed: drop it, closing what it carried.
            if case .send(_, _, let fd) = event { return [{ Syscall.close(fd) }] }
            if case .deleteID(let id) = event { objects.delete(id) }
            return []
        }
        switch event {
        case .error(let objectID, let code, let message):
            let interface = objects.object(objectID).map { "\($0.interface)" } ?? "unknown"
            throw ClipboardError(
                code: .protocolViolation,
                message: "The Wayland compositor ended the connection with error \(code) on object \(objectID) "
                    + "(\(interface)): \(message)")
        case .deleteID(let id):
            objects.delete(id)
            return []
        case .global(let name, let interface, let version):
            guard globals.count < 4096 else { throw WaylandWire.violation("announces more than 4096 globals") }
            globals.append(Global(name: name, interface: interface, version: version))
            return []
        case .globalRemove(let name):
            globals.removeAll { $0.name == name }
            return []
        case .done(let callback):
            objects.destroy(callback)  // the compositor deletes a callback itself, with delete_id
            guard let continuation = callbacks.removeValue(forKey: callback) else { return [] }
            return [{ continuation.resume() }]
        case .ignored:
            return []
        case .dataOffer(_, let offer):
            guard offers.count < Self.maximumOffers else {
                throw WaylandWire.violation("announces more than \(Self.maximumOffers) offers without selecting them")
            }
            offers[offer] = []
            return []
        case .offerType(let offer, let mimeType):
            guard offers[offer, default: []].count < Self.maximumTypesPerOffer else {
                throw WaylandWire.violation("lists more than \(Self.maximumTypesPerOffer) types in one offer")
            }
            offers[offer, default: []].append(mimeType)
            return []
        case .selection(_, let offer, let primary):
            let selection: ClipboardSelection = primary ? .primary : .clipboard
            current[selection] = offer == 0 ? nil : offer
            // An offer is announced just before the selection event that shows it: any other that is not shown
            // now is finished with.
            for stale in offers.keys where !current.values.contains(stale) {
                destroyOffer(stale, backend: backend)
            }
            let types = offer == 0 ? [] : offers[offer] ?? []
            var actions: [Action] = []
            for (_, (watched, continuation)) in watchers where watched == selection {
                actions.append { continuation.yield(types) }
            }
            return actions
        case .finished:
            throw ClipboardError(
                code: .connectionFailed,
                message: "The Wayland compositor withdrew this client's data device (its seat went away).")
        case .send(let source, let mimeType, let fd):
            guard let entry = sources[source] else { return [{ Syscall.close(fd) }] }
            let timeout = backend.timeout
            let serve = entry.serve
            return [
                {
                    Task {
                        await WaylandBackend.serveTransfer(mimeType: mimeType, fd: fd, timeout: timeout, serve: serve)
                    }
                }
            ]
        case .cancelled(let source):
            let waiters = sources.removeValue(forKey: source)?.waiters ?? []
            try? backend.queue([WaylandMessage(objectID: source, opcode: 1)])  // destroy
            objects.destroy(source)
            return waiters.map { waiter in { waiter.resume() } }
        }
    }

    private mutating func destroyOffer(_ offer: UInt32, backend: WaylandBackend) {
        offers[offer] = nil
        try? backend.queue([WaylandMessage(objectID: offer, opcode: 1)])  // destroy
        objects.destroy(offer)
    }

    /// Takes every waiter out of the state, as actions that fail or end them with ``failure``.
    mutating func drain() -> [Action] {
        let error = failure ?? ClipboardError(code: .connectionFailed, message: "The Wayland connection ended.")
        var actions: [Action] = []
        for (_, continuation) in callbacks {
            actions.append { continuation.resume(throwing: error) }
        }
        callbacks = [:]
        for (_, source) in sources {
            for waiter in source.waiters { actions.append { waiter.resume() } }
        }
        sources = [:]
        let userClosed = error.code == .cancelled
        for (_, (_, continuation)) in watchers {
            actions.append {
                if userClosed { continuation.finish() } else { continuation.finish(throwing: error) }
            }
        }
        watchers = [:]
        return actions
    }
}
