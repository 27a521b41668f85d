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
package final class MachineShell<Machine: ProtocolMachine>: Sendable {
    private let machine: SanitizedMutex<Machine>

    /// A shell around `machine`.
    package init(_ machine: sending Machine) {
        self.machine = SanitizedMutex(machine)
    }

    /// A copy of the machine as it is now (its phase, for a caller that reports it).
    package var current: Machine {
        machine.withLock { $0 }
    }

    /// Feeds `event` under the lock; returns the actions, to carry out after the lock is released.
    package func handle(_ event: Machine.Event) -> [Machine.Action] {
        machine.withLock { $0.handle(event) }
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
