import TransferKitPlatform

/// The clipboard owner's side of the freedesktop clipboard-manager protocol, as a pure state machine: asking the
/// manager (the owner of `CLIPBOARD_MANAGER`) to save `CLIPBOARD` by converting its selection to `SAVE_TARGETS`,
/// and waiting for its answer.
///
/// While it waits, the backend goes on answering the manager's requests for the data: they are ordinary
/// `SelectionRequest`s. The machine sends nothing and waits for nothing itself; each event returns the actions to
/// run, the last of which is ``Action/findManager``, ``Action/awaitAnswer`` or ``Action/finish(_:)``.
struct X11ManagerSaveMachine: ProtocolMachine {
    /// How the request ended.
    enum Outcome: Equatable {
        /// The manager answered with the property: it has the data.
        case saved
        /// Nobody owns `CLIPBOARD_MANAGER`.
        case noManager
        /// The manager answered `None`.
        case refused
        /// This client no longer owns the selection, so there is nothing to save.
        case notOwner
        /// The manager did not answer: it went away, or the deadline passed.
        case failed(ClipboardError.Code, String)
    }

    /// What happened.
    enum Event: Equatable {
        /// The owner of `CLIPBOARD_MANAGER` (`None`: no manager runs).
        case managerFound(X11.ID)
        /// A `SelectionNotify` reached the requestor window.
        case selectionNotify(selection: X11.ID, target: X11.ID, property: X11.ID)
        /// The manager's window was destroyed.
        case managerDestroyed
        /// The deadline passed.
        case timedOut
    }

    /// What the backend does.
    enum Action: Equatable {
        /// Wait: ask the server who owns `CLIPBOARD_MANAGER`; then ``Event/managerFound(_:)``.
        case findManager
        /// Select `StructureNotify` on the manager's window, to hear of its end.
        case watchManager(X11.ID)
        /// Write the targets to save, as atoms, into the requestor's property.
        case writeTargets
        /// `ConvertSelection` of `CLIPBOARD_MANAGER` to `SAVE_TARGETS` into that property.
        case convert
        /// Wait, until the deadline, for the manager's `SelectionNotify` or its window's end; then
        /// ``Event/selectionNotify(selection:target:property:)``, ``Event/managerDestroyed`` or ``Event/timedOut``.
        case awaitAnswer
        /// The request is over.
        case finish(Outcome)
    }

    /// Where the request stands.
    enum Phase: Equatable {
        /// The manager is looked for.
        case finding
        /// The manager was asked; its answer is awaited.
        case awaiting
        /// Over.
        case finished(Outcome)
    }

    private(set) var phase = Phase.finding
    /// `CLIPBOARD_MANAGER`.
    let managerSelection: X11.ID
    /// `SAVE_TARGETS`.
    let saveTargets: X11.ID
    /// The property the manager answers with.
    let property: X11.ID
    /// The actions that start the request.
    let start: [Action]

    /// A request to save a selection this client owns (`isOwner`), answered in `property`.
    init(managerSelection: X11.ID, saveTargets: X11.ID, property: X11.ID, isOwner: Bool) {
        self.managerSelection = managerSelection
        self.saveTargets = saveTargets
        self.property = property
        if isOwner {
            start = [.findManager]
        } else {
            phase = .finished(.notOwner)
            start = [.finish(.notOwner)]
        }
    }

    /// An event; the actions to run, in order.
    mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.finding, .managerFound(let manager)):
            guard manager != X11.none else { return finish(.noManager) }
            phase = .awaiting
            return [.watchManager(manager), .writeTargets, .convert, .awaitAnswer]
        case (.awaiting, .selectionNotify(let selection, let target, let answer)):
            // Another conversion's answer, sent to this window by mistake, is not the manager's.
            guard selection == managerSelection, target == saveTargets else { return [] }
            return finish(answer == X11.none ? .refused : .saved)
        case (.awaiting, .managerDestroyed):
            return finish(
                .failed(.transferFailed, "The clipboard manager went away before it said whether it saved the data."))
        case (.awaiting, .timedOut):
            return finish(
                .failed(.timedOut, "The clipboard manager did not say whether it saved the data within the time limit.")
            )
        case (.finding, _), (.awaiting, _), (.finished, _):
            return []
        }
    }

    private mutating func finish(_ outcome: Outcome) -> [Action] {
        phase = .finished(outcome)
        return [.finish(outcome)]
    }
}
