import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The freedesktop clipboard-manager protocol on X11, both ways: a manager owns `CLIPBOARD_MANAGER` and answers
/// `SAVE_TARGETS` after reading `CLIPBOARD`'s owner; an owner converts `CLIPBOARD_MANAGER` to `SAVE_TARGETS` and
/// serves the manager's reads until it answers.
extension X11Backend {
    /// Takes `CLIPBOARD_MANAGER` and announces it (ICCCM 2.8), unless another client holds it.
    ///
    /// Each `SAVE_TARGETS` request is answered by ``X11SelectionOwnerMachine`` through `save`, on a task of its own.
    ///
    /// - Throws: ``ClipboardError``: `clipboardManagerRunning` when another client owns `CLIPBOARD_MANAGER`,
    ///   `transferFailed` when the server gave it to another client at the same moment, or why a request failed.
    package func becomeClipboardManager(
        save: @escaping @Sendable (ClipboardSaveRequest) async -> Bool
    ) async throws -> any ClipboardOwnership {
        let atoms = try await atoms(["CLIPBOARD_MANAGER", "MANAGER"])
        let (managerSelection, managerMessage) = (atoms[0], atoms[1])
        let current = X11Reply.owner(
            try await connection.request(X11RequestEncoder.getSelectionOwner(managerSelection)))
        guard current == X11.none || current == window else {
            throw ClipboardError(
                code: .clipboardManagerRunning,
                message: "Another clipboard manager owns CLIPBOARD_MANAGER (window 0x\(String(current, radix: 16))); "
                    + "stop it first, or let it keep the clipboard.")
        }
        let ownership = try await take(
            managerSelection, named: "CLIPBOARD_MANAGER",
            owned: { time, ownership in
                Owned(
                    time: time, targets: [], names: [:],
                    serve: { name in
                        throw ClipboardError(
                            code: .typeUnavailable, message: "CLIPBOARD_MANAGER has no data.", source: name)
                    }, ownership: ownership, save: save)
            })
        // Clients waiting for a manager hear of it: timestamp, selection and owner, to the root window.
        try connection.send(
            X11RequestEncoder.sendRootClientMessage(
                root: connection.info.rootWindow, window: connection.info.rootWindow, type: managerMessage,
                data: [ownership.time, managerSelection, window]))
        return ownership
    }

    /// Asks the clipboard manager to save `CLIPBOARD`, which `ownership` holds, and waits for its answer, serving
    /// its reads meanwhile (they are ordinary requests, answered as they come).
    ///
    /// The targets to save are written as a list (every data target offered), so the manager need not ask for
    /// `TARGETS` first.
    ///
    /// - Throws: ``ClipboardError``: `protocolUnavailable` for the primary selection, `timedOut` when the manager
    ///   does not answer within `timeout`, `transferFailed` when it goes away first, or why a request failed.
    package func saveToClipboardManager(
        _ ownership: any ClipboardOwnership, timeout: Duration
    ) async throws -> ClipboardManagerSaveOutcome {
        let clipboard = try await selectionAtom(.clipboard)
        guard let ownership = ownership as? X11Ownership, ownership.selection == clipboard else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "Only the clipboard can be handed to a clipboard manager, not the primary selection.")
        }
        let atoms = try await atoms(["CLIPBOARD_MANAGER", "SAVE_TARGETS", "_TRANSFERKIT_SAVE_TARGETS"])
        let (targets, isOwner) = state.withLock { state in
            (state.owned[clipboard]?.targets ?? [], state.owned[clipboard]?.ownership === ownership)
        }
        let machine = MachineShell(
            X11ManagerSaveMachine(
                managerSelection: atoms[0], saveTargets: atoms[1], property: atoms[2], isOwner: isOwner))
        let requestor = connection.allocateResource()
        let events = X11Wait.mailbox(of: X11Event.self)
        var watched: X11.ID?
        defer {
            state.withLock { state in
                _ = state.notifyWatchers.removeValue(forKey: requestor)
                if let watched {
                    _ = state.propertyWatchers.removeValue(forKey: WatchKey(window: watched, atom: atoms[1]))
                }
            }
            events.close(nil)
            if let watched { _ = try? connection.send(X11RequestEncoder.changeEventMask(watched, eventMask: 0)) }
            _ = try? connection.send(X11RequestEncoder.destroyWindow(requestor))
            connection.freeResource(requestor)
        }
        try connection.send(
            X11RequestEncoder.createWindow(requestor, parent: connection.info.rootWindow, eventMask: 0))
        state.withLock { $0.notifyWatchers[requestor] = events }
        let deadline = Deadline.after(timeout, on: connection.clock)
        var actions = machine.current.start
        while true {
            var event: X11ManagerSaveMachine.Event?
            for action in actions {
                switch action {
                case .findManager:
                    event = .managerFound(
                        X11Reply.owner(try await connection.request(X11RequestEncoder.getSelectionOwner(atoms[0]))))
                case .watchManager(let manager):
                    // This client's own window is watched already, and its mask must stay as it is.
                    guard manager != window else { continue }
                    _ = try watchProperty(window: manager, atom: atoms[1], into: events)
                    watched = manager
                    try connection.send(
                        X11RequestEncoder.changeEventMask(manager, eventMask: X11.EventMask.structureNotify))
                case .writeTargets:
                    try connection.send(
                        X11RequestEncoder.changeProperty(
                            requestor, property: atoms[2], type: X11.Atom.atom, values: targets))
                case .convert:
                    try connection.send(
                        X11RequestEncoder.convertSelection(
                            requestor: requestor, selection: atoms[0], target: atoms[1], property: atoms[2],
                            time: X11.currentTime))
                case .awaitAnswer:
                    event = try await nextAnswer(from: events, until: deadline, timeout: timeout, manager: watched)
                case .finish(.saved): return .saved
                case .finish(.noManager): return .noManager
                case .finish(.refused): return .refused
                case .finish(.notOwner): return .selectionLost
                case .finish(.failed(let code, let message)):
                    throw ClipboardError(code: code, message: message)
                }
            }
            guard let event else { return .refused }
            actions = machine.handle(event)
            // An event the machine ignores (another conversion's answer) leaves the wait as it was.
            if actions.isEmpty { actions = [.awaitAnswer] }
        }
    }

    /// The next event for a save request: the manager's `SelectionNotify`, its window's end, or the deadline.
    private func nextAnswer(
        from events: Mailbox<X11Event, ClipboardError>, until deadline: Deadline, timeout: Duration,
        manager: X11.ID?
    ) async throws -> X11ManagerSaveMachine.Event {
        while true {
            let event: X11Event
            do {
                event = try await X11Wait.next(
                    from: events, until: deadline, timeout: timeout, waitingFor: "the clipboard manager to save")
            } catch {
                guard error.code == .timedOut else { throw error }
                return .timedOut
            }
            switch event {
            case .selectionNotify(_, _, let selection, let target, let property):
                return .selectionNotify(selection: selection, target: target, property: property)
            case .destroyNotify(let window) where window == manager:
                return .managerDestroyed
            default:
                continue
            }
        }
    }
}
