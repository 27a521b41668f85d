package import TransferKitPlatform
package import TransferSessions

/// The clock of the sessions in the unit tests that are not about time limits: a manual clock that no test
/// advances, so none of their limits fires however long a loaded machine keeps a task waiting (the whole run shares
/// two threads, and under the thread sanitizer a task can wait behind hundreds of others). Each suite's
/// `.timeLimit` ends a test that hangs instead.
///
/// A test of a time limit makes a manual clock of its own and advances it.
package let unhurried = WireClock.manual()

extension DragSessionPublication {
    /// Publishes `session` at `path` with its limits on ``unhurried``: for tests that are not about time limits.
    ///
    /// - Throws: ``TransferSessionError`` with `disconnected` when the socket cannot be made at `path`.
    package convenience init(
        unhurriedPublishing session: DragSession, atPath path: String, decisions: SessionDecisionRecord? = nil,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) throws(TransferSessionError) {
        try self.init(
            publishing: session, atPath: path, decisions: decisions, timeout: .seconds(30), clock: unhurried,
            observer: observer)
    }
}

extension RemoteDragSession {
    /// Connects to the session published at `path` as `origin`, its limits on ``unhurried``: for tests that are not
    /// about time limits (the connect itself waits at most 30 seconds of real time).
    ///
    /// - Throws: ``TransferSessionError`` as ``connect(toPath:origin:timeout:observer:)`` does.
    package static func connectUnhurried(
        toPath path: String, origin: TransferSessionOrigin,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        try await connect(toPath: path, origin: origin, timeout: .seconds(30), clock: unhurried, observer: observer)
    }
}
