import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The requestor's side of one conversion (ICCCM §2.4 and §2.7.2, INCR), as a pure state machine: the owner's
/// `SelectionNotify`, the `GetProperty` replies, `PropertyNotify`s, XFIXES's news of the selection's owner, a
/// deadline passing and cancellation in; what the backend must do out.
///
/// An owner that goes away while its answer or the next `INCR` chunk is awaited fails the read with `ownerGone` at
/// once, rather than at the deadline. While a property is being read its death changes nothing: the property is on
/// the requestor's window and outlives it (the event stays queued for the next wait, where it counts).
///
/// It reads nothing and waits for nothing itself. Each event returns the actions to run, in order; the last is
/// what to wait for next (``Action/waitForNotify``, ``Action/readProperty(offset:)``,
/// ``Action/waitForNewValue``) or the end (``Action/finish``, ``Action/fail(_:_:)``). A ``Action/deliver(_:)``
/// hands bytes to the consumer, and the wait after it starts when the consumer asks for more, so the server is
/// read only as fast as the bytes are used. An event the phase ignores returns no action: the backend goes on
/// waiting for what it waited for.
struct X11SelectionReaderMachine: ProtocolMachine {
    /// What happened.
    enum Event: Equatable {
        /// The owner answered the `ConvertSelection`, with this property (`None`: refused).
        case selectionNotify(property: X11.ID)
        /// The reply to the last ``Action/readProperty(offset:)`` (which deletes the property once read whole).
        case property(X11Reply.Property)
        /// `PropertyNotify` on the property, `deleted` or with a new value.
        case propertyNotify(deleted: Bool)
        /// XFIXES: the selection's owner went away (its window destroyed or its client closed).
        case ownerGone
        /// XFIXES: another client took the selection; a later ``ownerGone`` is about that client, not the one that
        /// answers this read (which may go on with an `INCR` transfer after losing the selection, as the ICCCM allows).
        case ownerChanged
        /// The deadline of the wait passed.
        case timedOut
        /// The consumer cancelled the read.
        case cancelled
    }

    /// What the backend does.
    enum Action: Equatable {
        /// Wait, until the deadline, for the owner's `SelectionNotify`.
        case waitForNotify
        /// Wait: `GetProperty` of the property from `offset` 4-byte units, deleting it once read whole; then
        /// ``Event/property(_:)``.
        case readProperty(offset: UInt32)
        /// Wait, until the deadline, for the owner to write the next INCR chunk (``Event/propertyNotify(deleted:)``).
        case waitForNewValue
        /// Hand these bytes to the consumer.
        case deliver(Data)
        /// The read is complete.
        case finish
        /// The read failed with this code and message.
        case fail(ClipboardError.Code, String)
    }

    /// Where the read stands.
    enum Phase: Equatable {
        /// `ConvertSelection` is sent; the owner's answer is awaited.
        case awaitingNotify
        /// The answer's property is read: a value, or the INCR announcement.
        case readingFirst
        /// A value longer than one read is read on from `offset`.
        case readingValue(offset: UInt32)
        /// INCR: the owner's next chunk is awaited.
        case awaitingChunk
        /// INCR: a chunk is read from `offset`.
        case readingChunk(offset: UInt32)
        /// Over: ``Action/finish`` or ``Action/fail(_:_:)`` was returned.
        case finished
    }

    private(set) var phase = Phase.awaitingNotify
    /// Whether another client took the selection since the read began: the owner that answers is then no longer the
    /// one XFIXES reports on, so its death is noticed only at the deadline.
    private(set) var ownerWasReplaced = false
    /// The `INCR` atom.
    let incr: X11.ID
    /// The target read, for messages.
    let target: String
    /// The selection read, for messages.
    let selection: String

    /// A read of `target` from `selection` whose `ConvertSelection` is sent.
    init(incr: X11.ID, target: String, selection: String) {
        self.incr = incr
        self.target = target
        self.selection = selection
    }

    /// The first action: wait for the owner's answer.
    var start: [Action] { [.waitForNotify] }

    /// Whether the read is over.
    var isFinished: Bool { phase == .finished }

    /// An event; the actions to run, in order.
    mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.finished, _):
            return []
        case (_, .cancelled):
            return fail(.cancelled, "The read of \(target) was cancelled.")
        case (_, .ownerChanged):
            ownerWasReplaced = true
            return []
        case (.awaitingNotify, .ownerGone) where !ownerWasReplaced:
            return fail(
                .ownerGone,
                "The owner of the \(selection) selection went away (its window was destroyed or it exited) before it "
                    + "answered the request for \(target); copy again and paste.")
        case (.awaitingChunk, .ownerGone) where !ownerWasReplaced:
            return fail(
                .ownerGone,
                "The owner of the \(selection) selection went away (its window was destroyed or it exited) in the "
                    + "middle of an INCR transfer of \(target): what was read is incomplete. Copy again and paste.")

        case (.awaitingNotify, .selectionNotify(let property)):
            guard property != X11.none else {
                return fail(
                    .typeUnavailable,
                    "The \(selection) selection does not offer \(target) (its owner refused, or nobody owns it). Ask "
                        + "for one of the offered types.")
            }
            phase = .readingFirst
            return [.readProperty(offset: 0)]
        case (.awaitingNotify, .timedOut):
            return fail(.timedOut, "The owner of the \(selection) selection did not convert \(target) in time.")
        case (.awaitingNotify, _):
            return []

        case (.readingFirst, .property(let property)):
            if property.type == incr {
                // Reading deleted the announcement: the owner writes the first chunk.
                phase = .awaitingChunk
                return [.waitForNewValue]
            }
            return value(property, offset: 0, then: .finish)
        case (.readingValue(let offset), .property(let property)):
            return value(property, offset: offset, then: .finish)

        case (.awaitingChunk, .propertyNotify(deleted: false)):
            phase = .readingChunk(offset: 0)
            return [.readProperty(offset: 0)]
        case (.awaitingChunk, .timedOut):
            return fail(.timedOut, "The owner did not send the next chunk of an INCR transfer of \(target) in time.")
        case (.awaitingChunk, _):
            return []

        case (.readingChunk(let offset), .property(let property)):
            // A notification of a value already read (the INCR announcement itself) finds nothing: wait on.
            if property.type == X11.none {
                phase = .awaitingChunk
                return [.waitForNewValue]
            }
            // The 0-length chunk ends the transfer.
            if offset == 0 && property.value.isEmpty && property.bytesAfter == 0 {
                phase = .finished
                return [.finish]
            }
            return value(property, offset: offset, then: .waitForNewValue)

        case (.readingFirst, .timedOut), (.readingValue, .timedOut), (.readingChunk, .timedOut):
            return fail(.timedOut, "The X server did not answer a GetProperty for \(target) in time.")
        case (.readingFirst, _), (.readingValue, _), (.readingChunk, _):
            return []
        }
    }

    /// Hands out `property`'s bytes; a value longer than one read is read on at a growing offset, else `next`.
    private mutating func value(_ property: X11Reply.Property, offset: UInt32, then next: Action) -> [Action] {
        let deliver: [Action] = property.value.isEmpty ? [] : [.deliver(property.value)]
        if property.bytesAfter > 0 {
            let (advanced, overflow) = offset.addingReportingOverflow(UInt32(property.value.count / 4))
            guard !overflow, property.value.count >= 4 else {
                return fail(.protocolViolation, "The X server sent a property of \(target) that never ends.")
            }
            phase = isIncremental ? .readingChunk(offset: advanced) : .readingValue(offset: advanced)
            return deliver + [.readProperty(offset: advanced)]
        }
        switch next {
        case .waitForNewValue:
            phase = .awaitingChunk
        default:
            phase = .finished
        }
        return deliver + [next]
    }

    private var isIncremental: Bool {
        switch phase {
        case .awaitingChunk, .readingChunk: true
        default: false
        }
    }

    private mutating func fail(_ code: ClipboardError.Code, _ message: String) -> [Action] {
        phase = .finished
        return [.fail(code, message)]
    }
}
