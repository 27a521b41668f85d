package import TransferKit
package import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The clipboard over the X11 core protocol: selections, `TARGETS`, `MULTIPLE` and `INCR` as the ICCCM describes
/// them, and XFIXES for watching owner changes.
///
/// One connection and one unmapped InputOnly window serve every selection this process owns; each read uses a
/// window of its own, so its `SelectionNotify` and property events cannot mix with another read's.
package final class X11Backend: ClipboardBackend {
    /// `X11`.
    package var protocolName: String { "X11" }

    package let connection: X11Connection
    /// The window that owns selections and receives XFIXES events.
    let window: X11.ID
    /// The bytes of one property write or read: below the server's request limit, and the INCR threshold.
    let chunkSize: Int
    let state = SanitizedMutex(State())
    /// XFIXES's major opcode, when the server has it.
    package let xfixesOpcode: UInt8?
    /// The events reported on windows, handed to whoever subscribed to each (TransferKit's own drag-and-drop
    /// windows).
    package let windowEvents = X11WindowRouting()

    struct State {
        var atoms: [String: X11.ID] = [:]
        var names: [X11.ID: String] = [:]
        var owned: [X11.ID: Owned] = [:]
        var propertyWatchers: [WatchKey: Mailbox<X11Event, ClipboardError>] = [:]
        var notifyWatchers: [X11.ID: Mailbox<X11Event, ClipboardError>] = [:]
        /// The selection each read (by its requestor window) reads, so XFIXES's news of its owner reaches it.
        var readSelections: [X11.ID: X11.ID] = [:]
        var subscribers: [X11.ID: [UInt64: Mailbox<X11.ID, ClipboardError>]] = [:]
        var selectedSelections: Set<X11.ID> = []
        var nextSubscriber: UInt64 = 0
        var failure: ClipboardError?
        /// The conversions being served, by requesting client (its resource-ID base): at most
        /// ``ClipboardLimits/maximumConcurrentConversions`` each.
        var conversions: [X11.ID: Int] = [:]
    }

    struct WatchKey: Hashable {
        var window: X11.ID
        var atom: X11.ID
    }

    struct Owned {
        var time: UInt32
        var targets: [X11.ID]
        var names: [X11.ID: String]
        var serve: @Sendable (String) async throws -> TransferByteStream
        var ownership: X11Ownership
        /// A clipboard manager's handler of `SAVE_TARGETS` (on `CLIPBOARD_MANAGER` only).
        var save: (@Sendable (ClipboardSaveRequest) async -> Bool)? = nil
    }

    private init(connection: X11Connection, window: X11.ID, xfixesOpcode: UInt8?) {
        self.connection = connection
        self.window = window
        self.xfixesOpcode = xfixesOpcode
        chunkSize = min(connection.info.maximumRequestBytes - 32, 1 << 18) & ~3
    }

    /// Connects to the display `environment["DISPLAY"]` names, with the MIT-MAGIC-COOKIE-1 of `XAUTHORITY`.
    ///
    /// - Throws: ``ClipboardError``: `noDisplay` when `DISPLAY` is unset, `connectionFailed`, `timedOut`,
    ///   `protocolViolation`.
    package static func connect(environment: [String: String], timeout: Duration) async throws -> X11Backend {
        guard let name = environment["DISPLAY"] else {
            throw ClipboardError(
                code: .noDisplay, message: "DISPLAY is not set; set it to a local X display such as :0.")
        }
        let display = try X11Display(parsing: name)
        let cookie = X11AuthorityEntry.cookie(environment: environment, display: display.number)
        return try await connect(
            socketPath: display.socketPath, abstractName: display.abstractName, cookie: cookie?.data,
            timeout: timeout)
    }

    /// Connects to the X server listening at `socketPath`, or else at `abstractName` in the abstract namespace
    /// (tests use it to talk to a fake server).
    package static func connect(
        socketPath: String, abstractName: String? = nil, cookie: [UInt8]?, timeout: Duration,
        messageLimit: Int = X11.defaultMessageLimit, clock: WireClock = .continuous
    ) async throws -> X11Backend {
        let connection = try await X11Connection.connect(
            socketPath: socketPath, abstractName: abstractName, cookie: cookie, timeout: timeout,
            messageLimit: messageLimit, clock: clock)
        do {
            let window = connection.allocateResource()
            try connection.send(
                X11RequestEncoder.createWindow(
                    window, parent: connection.info.rootWindow, eventMask: X11.EventMask.propertyChange))
            let xfixes = X11Reply.extensionInfo(
                try await connection.request(X11RequestEncoder.queryExtension("XFIXES")))
            var opcode: UInt8?
            if xfixes.present {
                _ = try await connection.request(
                    X11RequestEncoder.xfixesQueryVersion(majorOpcode: xfixes.majorOpcode, major: 5, minor: 0))
                connection.setXFixesFirstEvent(xfixes.firstEvent)
                opcode = xfixes.majorOpcode
            }
            let backend = X11Backend(connection: connection, window: window, xfixesOpcode: opcode)
            connection.setEventHandler(
                { [weak backend] event in backend?.handle(event) }, onEnd: { [weak backend] in backend?.ended($0) })
            return backend
        } catch {
            connection.close()
            throw error
        }
    }

    /// Closes the connection; ownerships end and pending transfers fail.
    package func close() {
        connection.close()
    }

    // MARK: - Atoms

    /// The atoms of `names`, interned with one pipelined run of requests for those not known yet.
    package func atoms(_ names: [String]) async throws -> [X11.ID] {
        var missing: [String] = []
        var asked: Set<String> = []
        var known: [String: X11.ID] = state.withLock { state in
            var known: [String: X11.ID] = [:]
            for name in names {
                if let atom = state.atoms[name] {
                    known[name] = atom
                } else if asked.insert(name).inserted {
                    missing.append(name)
                }
            }
            return known
        }
        if !missing.isEmpty {
            let replies = try await connection.requests(missing.map { X11RequestEncoder.internAtom($0) })
            state.withLock { state in
                for (name, reply) in zip(missing, replies) {
                    let atom = X11Reply.atom(reply)
                    known[name] = atom
                    state.atoms[name] = atom
                    state.names[atom] = name
                }
            }
        }
        return names.map { known[$0] ?? X11.none }
    }

    package func atom(_ name: String) async throws -> X11.ID {
        try await atoms([name])[0]
    }

    /// The names of `atoms` (each asked of the server once per connection: atoms never change while it lasts),
    /// the unknown ones with one pipelined run of `GetAtomName` requests.
    ///
    /// - Returns: The name of each distinct atom of `atoms`.
    /// - Throws: ``ClipboardError``: `protocolViolation` for a malformed reply, `transferFailed` when the server
    ///   does not know an atom, or why the requests failed.
    package func names(of atoms: [X11.ID]) async throws -> [X11.ID: String] {
        var missing: [X11.ID] = []
        var asked: Set<X11.ID> = []
        var names: [X11.ID: String] = state.withLock { state in
            var names: [X11.ID: String] = [:]
            for atom in atoms {
                if let name = state.names[atom] {
                    names[atom] = name
                } else if asked.insert(atom).inserted {
                    missing.append(atom)
                }
            }
            return names
        }
        guard !missing.isEmpty else { return names }
        let replies = try await connection.requests(missing.map { X11RequestEncoder.getAtomName($0) })
        var fetched: [(X11.ID, String)] = []
        fetched.reserveCapacity(missing.count)
        for (atom, reply) in zip(missing, replies) {
            do {
                fetched.append((atom, try X11Reply.atomName(reply)))
            } catch {
                throw ClipboardError(
                    code: .protocolViolation, message: "Malformed GetAtomName reply: \(error.reason).")
            }
        }
        state.withLock { state in
            for (atom, name) in fetched {
                names[atom] = name
                state.names[atom] = name
                state.atoms[name] = atom
            }
        }
        return names
    }

    func selectionAtom(_ selection: ClipboardSelection) async throws -> X11.ID {
        switch selection {
        case .primary: X11.Atom.primary
        case .clipboard: try await atom("CLIPBOARD")
        }
    }

    // MARK: - Events

    func handle(_ event: X11Event) {
        switch event {
        case .propertyNotify(let window, let atom, _, _):
            let watcher = state.withLock { $0.propertyWatchers[WatchKey(window: window, atom: atom)] }
            if let watcher { X11Wait.post(event, to: watcher) }
        case .selectionNotify(_, let requestor, _, _, _):
            let watcher = state.withLock { $0.notifyWatchers[requestor] }
            if let watcher { X11Wait.post(event, to: watcher) }
        case .selectionRequest(let time, _, let requestor, let selection, let target, let property):
            // The client asking is the one whose resource IDs the requestor window's ID is in, however many
            // windows it asks from.
            let client = requestor & ~connection.info.resourceIDMask
            let limit = ClipboardLimits.maximumConcurrentConversions
            let admitted = state.withLock { state in
                let running = state.conversions[client, default: 0]
                guard running < limit else { return false }
                state.conversions[client] = running + 1
                return true
            }
            guard admitted else {
                // Refused at once (ICCCM's refusal, `None`): the client asks again when one of its conversions ended.
                let refusal = X11RequestEncoder.sendSelectionNotify(
                    requestor: requestor, selection: selection, target: target, property: X11.none, time: time)
                Task { _ = try? self.connection.send(refusal) }
                return
            }
            Task {
                await self.answer(
                    time: time, requestor: requestor, selection: selection, target: target, property: property)
                self.state.withLock { state in
                    let running = state.conversions[client, default: 1] - 1
                    state.conversions[client] = running > 0 ? running : nil
                }
            }
        case .selectionClear(let time, _, let selection):
            let ownership: X11Ownership? = state.withLock { state in
                guard let owned = state.owned[selection], time == X11.currentTime || time >= owned.time else {
                    return nil
                }
                state.owned[selection] = nil
                return owned.ownership
            }
            ownership?.finish()
        case .destroyNotify(let window):
            let watchers = state.withLock { state in state.propertyWatchers.filter { $0.key.window == window }.values }
            for watcher in watchers { X11Wait.post(event, to: watcher) }
            windowEvents.route(event)
        case .clientMessage, .expose, .pointer, .keyPress:
            windowEvents.route(event)
        case .selectionOwnerChanged(_, let owner, let selection, _):
            ownerNews(event, owner: owner, selection: selection)
        case .selectionOwnerGone(_, let selection, _):
            ownerNews(event, owner: X11.none, selection: selection)
        case .other:
            break
        }
    }

    /// Hands XFIXES's news of `selection`'s owner to its watchers (the new owner, `None` when it went away) and
    /// to the reads of it in progress.
    private func ownerNews(_ event: X11Event, owner: X11.ID, selection: X11.ID) {
        let (subscribers, reads) = state.withLock { state in
            (
                state.subscribers[selection].map { Array($0.values) } ?? [],
                state.readSelections.compactMap { $0.value == selection ? state.notifyWatchers[$0.key] : nil }
            )
        }
        for subscriber in subscribers { X11Wait.post(owner, to: subscriber) }
        for read in reads { X11Wait.post(event, to: read) }
    }

    /// Asks XFIXES for the events of `selection`'s owner (set, window destroyed, client closed), once per
    /// connection; without XFIXES, nothing.
    /// - Returns: Whether the events are selected.
    @discardableResult
    func selectOwnerEvents(of selection: X11.ID) async throws -> Bool {
        guard let opcode = xfixesOpcode else { return false }
        guard state.withLock({ $0.selectedSelections.insert(selection).inserted }) else { return true }
        do {
            try await connection.checked(
                X11RequestEncoder.xfixesSelectSelectionInput(
                    majorOpcode: opcode, window: window, selection: selection, eventMask: 7))
        } catch {
            state.withLock { _ = $0.selectedSelections.remove(selection) }
            throw error
        }
        return true
    }

    func ended(_ error: ClipboardError) {
        let (ownerships, mailboxes, subscribers) = state.withLock { state in
            state.failure = error
            defer {
                state.owned = [:]
                state.propertyWatchers = [:]
                state.notifyWatchers = [:]
                state.readSelections = [:]
                state.subscribers = [:]
            }
            // Closures, not key paths: a key path into these generic types is made at run time from mangled names,
            // whose key types' conformances the runtime then looks for record by record (a tenth of a paste).
            return (
                state.owned.values.map { $0.ownership },
                Array(state.propertyWatchers.values) + Array(state.notifyWatchers.values),
                state.subscribers.values.flatMap { $0.values }
            )
        }
        for ownership in ownerships { ownership.finish() }
        for mailbox in mailboxes { mailbox.close(error) }
        for subscriber in subscribers { subscriber.close(error) }
        windowEvents.ended(error)
    }

    /// Routes the `PropertyNotify` (and `DestroyNotify`) events of `atom` on `window` to a new mailbox, or to
    /// `mailbox`.
    func watchProperty(
        window: X11.ID, atom: X11.ID, into mailbox: Mailbox<X11Event, ClipboardError> = X11Wait.mailbox()
    ) throws(ClipboardError) -> Mailbox<X11Event, ClipboardError> {
        let failure = state.withLock { state in
            if state.failure == nil { state.propertyWatchers[WatchKey(window: window, atom: atom)] = mailbox }
            return state.failure
        }
        if let failure { throw failure }
        return mailbox
    }

    func unwatchProperty(window: X11.ID, atom: X11.ID) {
        state.withLock { _ = $0.propertyWatchers.removeValue(forKey: WatchKey(window: window, atom: atom)) }
    }

    /// The time of the server now: from the `PropertyNotify` of an empty append to the backend's own window.
    func serverTime() async throws -> UInt32 {
        let property = try await atom("_TRANSFERKIT_TIMESTAMP")
        let mailbox = try watchProperty(window: window, atom: property)
        defer { unwatchProperty(window: window, atom: property) }
        try connection.send(
            X11RequestEncoder.changeProperty(
                window, property: property, type: X11.Atom.integer, format: 8, mode: .append, data: [UInt8]()))
        while true {
            if case .propertyNotify(_, _, let time, _) = try await X11Wait.next(
                from: mailbox, within: connection.timeout, on: connection.clock, waitingFor: "a server timestamp")
            {
                return time
            }
        }
    }

    // MARK: - Owning

    package func own(
        _ selection: ClipboardSelection, targets: [String],
        serve: @escaping @Sendable (String) async throws -> TransferByteStream
    ) async throws -> any ClipboardOwnership {
        try await own(try await selectionAtom(selection), named: selection.rawValue, targets: targets, serve: serve)
    }

    /// Owns `selectionAtom` (called `name` in messages), offering `targets`, each served lazily by `serve` (the
    /// clipboard's selections, and XDND's `XdndSelection` during a drag).
    package func own(
        _ selectionAtom: X11.ID, named name: String, targets: [String],
        serve: @escaping @Sendable (String) async throws -> TransferByteStream
    ) async throws -> X11Ownership {
        let targetAtoms = try await atoms(targets)
        return try await take(
            selectionAtom, named: name,
            owned: { time, ownership in
                Owned(
                    time: time, targets: targetAtoms,
                    names: Dictionary(zip(targetAtoms, targets)) { first, _ in first }, serve: serve,
                    ownership: ownership)
            })
    }

    /// Takes `selectionAtom` with a server timestamp and checks the server gave it, recording what `owned` makes
    /// of the time and the new ownership.
    func take(
        _ selectionAtom: X11.ID, named name: String, owned: (UInt32, X11Ownership) -> Owned
    ) async throws -> X11Ownership {
        _ = try await atoms(["TARGETS", "TIMESTAMP", "MULTIPLE", "INCR", "ATOM_PAIR", "SAVE_TARGETS"])
        let time = try await serverTime()
        let ownership = X11Ownership(backend: self, selection: selectionAtom, time: time)
        let previous = state.withLock { state in
            let previous = state.owned[selectionAtom]?.ownership
            state.owned[selectionAtom] = owned(time, ownership)
            return previous
        }
        previous?.finish()
        try connection.send(X11RequestEncoder.setSelectionOwner(window, selection: selectionAtom, time: time))
        let owner = X11Reply.owner(try await connection.request(X11RequestEncoder.getSelectionOwner(selectionAtom)))
        guard owner == window else {
            state.withLock { state in
                if state.owned[selectionAtom]?.ownership === ownership { state.owned[selectionAtom] = nil }
            }
            ownership.finish()
            throw ClipboardError(
                code: .transferFailed,
                message: "The X server did not give this client the \(name) selection (another client took it "
                    + "at the same moment); try again.")
        }
        return ownership
    }

    /// Gives up `selection` if `ownership` still holds it.
    package func release(_ ownership: X11Ownership) async {
        let stillOwned = state.withLock { state in
            guard state.owned[ownership.selection]?.ownership === ownership else { return false }
            state.owned[ownership.selection] = nil
            return true
        }
        if stillOwned {
            _ = try? connection.send(
                X11RequestEncoder.setSelectionOwner(X11.none, selection: ownership.selection, time: ownership.time))
            _ = try? await connection.request(X11RequestEncoder.getInputFocus())
        }
        ownership.finish()
    }

    /// Answers one `SelectionRequest`; never throws (a failed conversion is refused, or the transfer abandoned).
    func answer(
        time: UInt32, requestor: X11.ID, selection: X11.ID, target: X11.ID, property requested: X11.ID
    ) async {
        // ICCCM: `None` as the property comes from obsolete clients, which mean the target's name.
        let property = requested == X11.none ? target : requested
        await convert(
            X11SelectionOwnerMachine.Request(
                time: time, requestor: requestor, selection: selection, target: target, property: property),
            isNested: false)
    }

    /// Runs one conversion: ``X11SelectionOwnerMachine`` decides, this executes its actions and feeds it what
    /// comes back.
    /// - Returns: Whether the requestor got the data (`MULTIPLE` asks, for each of its pairs).
    @discardableResult
    func convert(_ request: X11SelectionOwnerMachine.Request, isNested: Bool) async -> Bool {
        let (owned, atoms) = state.withLock { state in
            (
                state.owned[request.selection],
                X11SelectionOwnerMachine.Atoms(
                    targets: state.atoms["TARGETS"] ?? 0, timestamp: state.atoms["TIMESTAMP"] ?? 0,
                    multiple: state.atoms["MULTIPLE"] ?? 0, incr: state.atoms["INCR"] ?? 0,
                    atomPair: state.atoms["ATOM_PAIR"] ?? 0, saveTargets: state.atoms["SAVE_TARGETS"] ?? 0)
            )
        }
        let machine = MachineShell(
            X11SelectionOwnerMachine(
                ownership: owned.map {
                    X11SelectionOwnerMachine.Ownership(
                        time: $0.time, targets: $0.targets, names: $0.names, savesTargets: $0.save != nil)
                },
                atoms: atoms, chunkSize: chunkSize, isNested: isNested))
        var transfer = X11OwnerTransfer(backend: self, request: request, serve: owned?.serve, save: owned?.save)
        defer { transfer.stop() }
        var actions = machine.handle(.selectionRequest(request))
        var wait: X11SelectionOwnerMachine.Action?
        while true {
            for action in actions {
                switch action {
                case .finish(let outcome):
                    return outcome == .completed
                case .load, .readData, .waitForDeletion, .readPairs, .convertPairs, .readSaveList, .save:
                    wait = action
                default:
                    do {
                        try transfer.execute(action)
                    } catch {
                        // The connection ended: nothing more can reach the requestor.
                        return false
                    }
                }
            }
            // No action: the event was one the phase ignores, so the same wait goes on.
            guard let next = wait else { return false }
            actions = machine.handle(await transfer.perform(next))
        }
    }

    // MARK: - Reading

    package func offer(of selection: ClipboardSelection) async throws -> ClipboardBackendOffer {
        let selectionAtom = try await selectionAtom(selection)
        if let owned = state.withLock({ $0.owned[selectionAtom] }) {
            return ClipboardBackendOffer(capping: owned.targets.compactMap { owned.names[$0] })
        }
        let owner = X11Reply.owner(try await connection.request(X11RequestEncoder.getSelectionOwner(selectionAtom)))
        guard owner != X11.none else { return ClipboardBackendOffer(targets: []) }
        let data: Data
        do {
            data = try await collect(receive("TARGETS", from: selection), limit: 1 << 20)
        } catch let error as ClipboardError where error.code == .typeUnavailable {
            return ClipboardBackendOffer(targets: [])
        }
        let reader = X11Bytes(Array(data))
        // Each atom has one name; an owner may list an atom twice. Only the names of the first atoms up to the cap
        // are asked of the server (and the meta targets among them, which are no types): an owner listing 262 144
        // atoms costs no more round trips than one listing the cap.
        let limit = ClipboardLimits.maximumOfferedTypes
        var seen: Set<X11.ID> = []
        var atoms: [X11.ID] = []
        var omitted = 0
        for index in 0..<(data.count / 4) {
            let atom = reader.u32(index * 4)
            guard atom != X11.none, seen.insert(atom).inserted else { continue }
            if atoms.count < limit + Self.metaTargets.count { atoms.append(atom) } else { omitted += 1 }
        }
        let names = try await names(of: atoms)
        let typed = atoms.compactMap { atom in names[atom].flatMap { Self.metaTargets.contains($0) ? nil : $0 } }
        return ClipboardBackendOffer(
            targets: Array(typed.prefix(limit)), omittedCount: omitted + max(0, typed.count - limit))
    }

    /// The targets that ask about a selection rather than name a type of its data.
    static let metaTargets: Set = ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "DELETE", "INCR"]

    func collect(_ stream: TransferByteStream, limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in stream {
            data.append(chunk)
            guard data.count <= limit else {
                throw ClipboardError(
                    code: .protocolViolation, message: "The selection owner sent over \(limit) bytes of TARGETS.")
            }
        }
        return data
    }

    package func receive(_ target: String, from selection: ClipboardSelection) async throws -> TransferByteStream {
        try await receive(
            target, from: try await selectionAtom(selection), named: selection.rawValue, time: X11.currentTime)
    }

    /// Converts `selectionAtom` (called `name` in messages) to `target` as of `time`, streaming the bytes (INCR
    /// included); the owner's death (XFIXES) fails the stream with `ownerGone`.
    package func receive(
        _ target: String, from selectionAtom: X11.ID, named name: String, time: UInt32
    ) async throws -> TransferByteStream {
        let atoms = try await atoms([target, "_TRANSFERKIT_SELECTION", "INCR"])
        let (targetAtom, property, incr) = (atoms[0], atoms[1], atoms[2])
        // XFIXES tells of the owner's death, so a read need not wait for the deadline (selected before the
        // ConvertSelection, so no death after it goes unseen).
        try await selectOwnerEvents(of: selectionAtom)
        let requestor = connection.allocateResource()
        try connection.send(
            X11RequestEncoder.createWindow(
                requestor, parent: connection.info.rootWindow, eventMask: X11.EventMask.propertyChange))
        // One mailbox gets the owner's SelectionNotify and the property's events, in the order they came.
        let events = X11Wait.mailbox(of: X11Event.self)
        state.withLock { state in
            state.notifyWatchers[requestor] = events
            state.readSelections[requestor] = selectionAtom
        }
        let transfer = X11IncomingTransfer(
            backend: self, requestor: requestor, property: property, events: events,
            machine: X11SelectionReaderMachine(incr: incr, target: target, selection: name))
        do {
            _ = try watchProperty(window: requestor, atom: property, into: events)
            try connection.send(
                X11RequestEncoder.convertSelection(
                    requestor: requestor, selection: selectionAtom, target: targetAtom, property: property,
                    time: time))
            // The answer and the first property are read here, so a refusal is this call's error.
            try await transfer.begin()
        } catch {
            transfer.finish()
            throw error
        }
        return TransferByteStream(length: nil, X11IncomingChunks(transfer: transfer))
    }

    // MARK: - Watching

    package func changes(of selection: ClipboardSelection) -> AsyncThrowingStream<[String], any Error> {
        mapStream(ownedChanges(of: selection)) { $0.targets }
    }

    /// The changes with the new owner's window (XFIXES names it), as `0x…`.
    package func ownedChanges(
        of selection: ClipboardSelection
    ) -> AsyncThrowingStream<ClipboardBackendChange, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    guard xfixesOpcode != nil else {
                        throw ClipboardError(
                            code: .protocolUnavailable,
                            message: "This X server lacks the XFIXES extension, which watching the clipboard needs; "
                                + "read the clipboard when needed instead.")
                    }
                    let selectionAtom = try await selectionAtom(selection)
                    let mailbox = X11Wait.mailbox(of: X11.ID.self)
                    let id = state.withLock { state in
                        state.nextSubscriber += 1
                        state.subscribers[selectionAtom, default: [:]][state.nextSubscriber] = mailbox
                        return state.nextSubscriber
                    }
                    defer { state.withLock { _ = $0.subscribers[selectionAtom]?.removeValue(forKey: id) } }
                    try await selectOwnerEvents(of: selectionAtom)
                    while true {
                        let owner = try await X11Wait.next(
                            from: mailbox, within: nil, waitingFor: "a selection change")
                        let offer: ClipboardBackendOffer
                        if owner == X11.none {
                            offer = ClipboardBackendOffer(targets: [])
                        } else {
                            offer = (try? await self.offer(of: selection)) ?? ClipboardBackendOffer(targets: [])
                        }
                        continuation.yield(
                            ClipboardBackendChange(
                                targets: offer.targets,
                                owner: owner == X11.none ? nil : "0x" + String(owner, radix: 16),
                                omittedCount: offer.omittedCount))
                    }
                } catch let error as ClipboardError where error.code == .cancelled {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A selection this process owns on X11.
package final class X11Ownership: ClipboardOwnership {
    weak let backend: X11Backend?
    let selection: X11.ID
    /// The server time at which the selection was taken: the owner refuses requests that name an earlier one.
    package let time: UInt32
    /// Opens when the ownership ends.
    private let end = Latch<Void>()

    init(backend: X11Backend, selection: X11.ID, time: UInt32) {
        self.backend = backend
        self.selection = selection
        self.time = time
    }

    func finish() {
        end.open()
    }

    /// Waits until the ownership ended, or the task is cancelled.
    package func ended() async {
        await end.wait()
    }

    package func release() async {
        if let backend { await backend.release(self) } else { finish() }
    }
}
