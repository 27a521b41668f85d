/// A protocol's decisions as a value: it takes an event and returns what to do, and calls nothing out, so every
/// phase × event pair is a unit test.
///
/// `handle(_:)` is not `@discardableResult`: a caller that drops the actions gets a warning, and the package builds
/// without warnings, so no action is silently lost.
package protocol ProtocolMachine: Sendable {
    /// What can happen.
    associatedtype Event: Sendable
    /// What the shell must do.
    associatedtype Action: Sendable

    /// Applies `event` and returns the actions to carry out, in order.
    mutating func handle(_ event: Event) -> [Action]
}

/// The one shell of a shared ``ProtocolMachine``: lock, `handle(event)`, unlock, then carry out the actions outside
/// the lock (so an action may block, await or feed the machine again without a deadlock).
///
/// ```swift
/// for action in shell.handle(.transferEnded) {
///     switch action { … }  // exhaustive: every action is carried out
/// }
/// ```
///
/// ``run(_:perform:)`` does the same in a loop for actions that answer with an event (a decision's outcome, a
/// send that failed), until none follows.
///
/// Two things serve a connection whose requests answer at once and whose messages the peer must see in the
/// machine's order (Wayland's: a new object's id is taken by one request, and the compositor expects ids in order):
/// ``perform(_:)`` runs a request that answers (an id, or an error) in the same critical section as an event, and
/// an `inOrder` handler given at creation carries out, still under the lock, the actions whose order is the
/// machine's (queueing a message, which must not block), so two callers' messages cannot cross on the way out.
package final class MachineShell<Machine: ProtocolMachine>: Sendable {
    private let machine: SanitizedMutex<Machine>
    private let inOrder: (@Sendable (Machine.Action) -> Machine.Action?)?

    /// A shell around `machine`.
    package init(_ machine: sending Machine) {
        self.machine = SanitizedMutex(machine)
        inOrder = nil
    }

    /// A shell around `machine` that hands every action to `inOrder` under the lock, in the machine's order.
    ///
    /// - Parameter inOrder: Carries out the actions whose order matters (it must not block or feed this shell) and
    ///   returns nil for them; returns what remains to carry out after the lock is released for the others (the
    ///   action itself, or what its failure asks).
    package init(_ machine: sending Machine, inOrder: @escaping @Sendable (Machine.Action) -> Machine.Action?) {
        self.machine = SanitizedMutex(machine)
        self.inOrder = inOrder
    }

    /// A copy of the machine as it is now (its phase, for a caller that reports it).
    package var current: Machine {
        machine.withLock { $0 }
    }

    /// What `body` reads of the machine now, without copying the rest.
    package func read<Value: Sendable, Failure: Error>(
        _ body: (borrowing Machine) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try machine.withLock { machine throws(Failure) in try body(machine) }
    }

    /// Feeds `event` under the lock; returns the actions, to carry out after the lock is released.
    package func handle(_ event: Machine.Event) -> [Machine.Action] {
        machine.withLock { machine in ordered(machine.handle(event)) }
    }

    /// Runs a request that answers at once under the lock (the machine allocates an id, or refuses): returns its
    /// answer and the actions, to carry out after the lock is released. A request that throws changes what it
    /// changed before throwing, and asks for nothing.
    package func perform<Answer: Sendable, Failure: Error>(
        _ request: (inout Machine) throws(Failure) -> (Answer, [Machine.Action])
    ) throws(Failure) -> (answer: Answer, actions: [Machine.Action]) {
        try machine.withLock { machine throws(Failure) in
            let (answer, actions) = try request(&machine)
            return (answer, ordered(actions))
        }
    }

    /// `actions` with those that `inOrder` carried out under the lock taken out.
    private func ordered(_ actions: [Machine.Action]) -> [Machine.Action] {
        guard let inOrder else { return actions }
        return actions.compactMap(inOrder)
    }

    /// ``run(_:perform:)`` for a caller that must not suspend, such as a connection's reader thread.
    package func runSynchronously<Failure: Error>(
        _ event: Machine.Event, perform: (Machine.Action) throws(Failure) -> Machine.Event?
    ) throws(Failure) {
        var events = [event]
        while !events.isEmpty {
            for action in handle(events.removeFirst()) {
                if let answer = try perform(action) { events.append(answer) }
            }
        }
    }

    /// Feeds `event`, carries out each action with `perform` outside the lock, and feeds back what an action
    /// answers, until no event follows.
    package func run<Failure: Error>(
        _ event: Machine.Event, perform: (Machine.Action) async throws(Failure) -> Machine.Event?
    ) async throws(Failure) {
        var events = [event]
        while !events.isEmpty {
            for action in handle(events.removeFirst()) {
                if let answer = try await perform(action) { events.append(answer) }
            }
        }
    }
}
