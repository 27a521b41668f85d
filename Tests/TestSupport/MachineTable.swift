package import TransferKitPlatform

/// One cell of a machine's table walk: the machine before and after `event`, and the actions it returned.
package struct MachineTableCell<Machine: ProtocolMachine> {
    /// The phase's name and the event, for messages.
    package let label: String
    /// The machine in the phase, before the event.
    package let before: Machine
    /// The machine after the event.
    package let after: Machine
    /// The event.
    package let event: Machine.Event
    /// What the machine returned.
    package let actions: [Machine.Action]
}

/// Walks every phase × event of a ``ProtocolMachine``: each phase is reached from `start` by its events, then each
/// of `events` is applied to a copy of it and `check` sees the cell. The one loop of the table tests.
package func walkEveryPhaseAndEvent<Machine: ProtocolMachine>(
    from start: Machine, phases: [(String, [Machine.Event])], events: [Machine.Event],
    _ check: (MachineTableCell<Machine>) -> Void
) {
    for (name, path) in phases {
        var phase = start
        for event in path { _ = phase.handle(event) }
        for event in events {
            var after = phase
            let actions = after.handle(event)
            check(
                MachineTableCell(
                    label: "\(name) × \(event)", before: phase, after: after, event: event, actions: actions))
        }
    }
}
