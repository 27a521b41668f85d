package import TransferKitPlatform

/// How the X11 code uses the wire layer's ``Mailbox``: the reader thread never waits for room, and every wait of a
/// task has a deadline and ends with a ``ClipboardError``.
package enum X11Wait {
    /// The most unread values a mailbox of the X11 backend keeps.
    static let capacity = 4096

    /// A mailbox for values that the reader thread posts with ``post(_:to:)``.
    package static func mailbox<Element: Sendable>(
        of _: Element.Type = Element.self
    ) -> Mailbox<Element, ClipboardError> {
        Mailbox(capacity: capacity)
    }

    /// Hands `element` to the waiting task, or queues it, without ever blocking the reader thread (a blocked reader
    /// would hold back the replies the consumer may be waiting for). A consumer that falls ``capacity`` values
    /// behind is failed with `protocolViolation`.
    package static func post<Element>(_ element: Element, to mailbox: Mailbox<Element, ClipboardError>) {
        guard mailbox.post(element, until: .after(.zero)) == .timedOut else { return }
        mailbox.close(
            ClipboardError(
                code: .protocolViolation,
                message: "The X server sent over \(mailbox.capacity) unread events for one transfer; it was abandoned.")
        )
    }

    /// The next value of `mailbox`, waiting at most until `deadline`.
    ///
    /// - Parameters:
    ///   - timeout: The limit the deadline stands for, for the message.
    ///   - what: What is awaited, for the message.
    /// - Throws: ``ClipboardError``: `timedOut` at the deadline, `cancelled` when the task is cancelled or the
    ///   mailbox finished, or the error it was closed with.
    package static func next<Element>(
        from mailbox: Mailbox<Element, ClipboardError>, until deadline: Deadline, timeout: Duration?,
        waitingFor what: @autoclosure () -> String
    ) async throws(ClipboardError) -> Element {
        do {
            return try await mailbox.receive(until: deadline)
        } catch {
            switch error {
            case .closed(let failure):
                throw failure
            case .timedOut:
                throw ClipboardError(
                    code: .timedOut,
                    message: "No answer from the X server or the other client in \(timeout.map { "\($0)" } ?? "time") "
                        + "while waiting for \(what()).")
            case .cancelled, .finished:
                throw ClipboardError(code: .cancelled, message: "Cancelled waiting for \(what()).")
            }
        }
    }

    /// The next value of `mailbox`, waiting at most `timeout` of `clock` (`nil`: without end).
    package static func next<Element>(
        from mailbox: Mailbox<Element, ClipboardError>, within timeout: Duration?, on clock: WireClock = .continuous,
        waitingFor what: @autoclosure () -> String
    ) async throws(ClipboardError) -> Element {
        try await next(from: mailbox, until: .after(timeout, on: clock), timeout: timeout, waitingFor: what())
    }
}
