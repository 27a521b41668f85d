package import TransferKitPlatform

/// Sessions over a byte stream: a command's standard input and output (`ssh host transferkit serve --stdio`,
/// `docker exec -i box transferkit serve --stdio`) instead of a Unix socket. Schemas/transfer-session.md section 8
/// says what changes on such a stream: nothing crosses as a descriptor, and the peer is whoever the transport let in.
extension RemoteDragSession {
    /// Starts `command` and connects to the session it serves on its standard output, reading what this side sends
    /// on its standard input: a remote provider source that any program able to carry bytes reaches.
    ///
    /// ```swift
    /// let remote = try await RemoteDragSession.connect(
    ///     runningCommand: ["ssh", "build-server", "transferkit", "serve", "--stdio"])
    /// let text = try await remote.items.first?.provider.loadDataRepresentation(for: .plainText)
    /// remote.close()
    /// ```
    ///
    /// Each representation crosses only when it is loaded, in chunks (a file's bytes too: a stream passes no
    /// descriptors). The command's standard error is not shown; its last lines are added to the message of a
    /// failure (`Permission denied (publickey)`, `transferkit: command not found`). ``close()`` ends the command's
    /// input and output, and signals it (`SIGTERM`) if it is still running two seconds later.
    /// - Parameters:
    ///   - command: The program (found on `PATH` unless it has a `/`) and its arguments.
    ///   - environment: The command's environment; `nil` passes this process's own.
    ///   - origin: This process's application and process (the source applies the move rule to it, as to another
    ///     application's: see ``DragSessionPublication/serve(_:input:output:decisions:timeout:observer:)``).
    ///   - timeout: How long to wait at each step: the offer (the command's start, an ssh login, included), each
    ///     load's answers, the drop's.
    ///   - observer: Told of each step of a drop, for logs and tests.
    /// - Throws: ``TransferSessionError`` with `disconnected` when the command cannot be started or ends before its
    ///   offer, `protocolViolation` when what it writes is not a session, `notPermitted` or `sessionEnded` when the
    ///   source refuses, `timedOut` when it says nothing in time.
    public static func connect(
        runningCommand command: [String], environment: [String: String]? = nil,
        origin: TransferSessionOrigin = .current, timeout: Duration = .seconds(30),
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        try await connect(
            runningCommand: command, environment: environment, origin: origin, timeout: timeout, clock: .continuous,
            observer: observer)
    }

    /// ``connect(runningCommand:environment:origin:timeout:observer:)`` with the time limits measured on `clock`.
    package static func connect(
        runningCommand command: [String], environment: [String: String]? = nil,
        origin: TransferSessionOrigin = .current, timeout: Duration, clock: WireClock,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        let name = command.joined(separator: " ")
        let child: ChildStream
        do {
            // The command's output comes through a large pipe: ssh, writing a paste's bytes, pays less than into a
            // socket and is woken less often.
            child = try ChildStream.start(command, environment: environment, pipedOutput: true)
        } catch {
            throw TransferSessionError(
                code: .disconnected, message: "The command `\(name)` cannot run: \(error).", cause: error, source: name)
        }
        let link = SourceLink(
            socket: child.socket, input: child.takeOutput(), child: child, timeout: timeout, clock: clock)
        do {
            return try await handshake(link, source: name, origin: origin, observer: observer)
        } catch {
            link.close()
            // A command that ended said why on its standard error: ssh's "Connection refused", a shell's
            // "command not found" (status 127), the far side's own error.
            var error = error
            if let report = await child.exitReport(until: .after(.seconds(3))) { error.message += " " + report }
            throw error
        }
    }

    /// Connects to a session served at the other end of a byte stream that this process already has: `input` gives
    /// what the source sends, `output` takes what this side sends (a pipe pair, a socket, a serial line).
    ///
    /// The descriptors stay the caller's: the session reads and writes duplicates of them, and closes those when it
    /// ends. Everything else is as for ``connect(runningCommand:environment:origin:timeout:observer:)``.
    /// - Throws: ``TransferSessionError`` as that method does; `disconnected` when the descriptors cannot be used.
    public static func connect(
        input: Int32, output: Int32, origin: TransferSessionOrigin = .current, timeout: Duration = .seconds(30),
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        try await connect(
            input: input, output: output, origin: origin, timeout: timeout, clock: .continuous, observer: observer)
    }

    /// ``connect(input:output:origin:timeout:observer:)`` with the time limits measured on `clock`.
    package static func connect(
        input: Int32, output: Int32, origin: TransferSessionOrigin = .current, timeout: Duration, clock: WireClock,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        let stream = try SessionStreamDescriptors.bridge(input: input, output: output)
        return try await handshake(
            SourceLink(socket: stream, child: nil, timeout: timeout, clock: clock), source: "the stream",
            origin: origin, observer: observer)
    }
}

extension DragSessionPublication {
    /// Serves `session` to the one destination at the other end of a byte stream, by default this process's
    /// standard input and output, and returns when that destination has disconnected (or the task is cancelled).
    ///
    /// This is the far side of ``RemoteDragSession/connect(runningCommand:environment:origin:timeout:observer:)``:
    /// what `transferkit serve --stdio` runs when `ssh host transferkit serve --stdio` starts it.
    ///
    /// ```swift
    /// let session = DragSession(items: [DragItem(id: "notes", provider: provider)], source: nil)
    /// try await DragSessionPublication.serve(session)  // until the destination disconnects
    /// ```
    ///
    /// The protocol is the one a socket carries (Schemas/transfer-session.md), with section 8's differences: a file
    /// representation's bytes cross in chunks, not as a descriptor; and no kernel says who the peer is, so it is
    /// taken as this user (the transport, ssh say, authenticated it) and as another application whatever its hello
    /// claims (a move then needs `allowsMoveToOtherApplications`).
    /// - Parameters:
    ///   - session: The session; it should still be active.
    ///   - input: Where the destination's messages come from. The descriptors stay the caller's: the publication
    ///     reads and writes duplicates of them.
    ///   - output: Where the source's messages go. A pipe is written directly and is non-blocking while the session
    ///     is served (the flag belongs to the open file description its duplicates share; it is put back when the
    ///     session ends, though not if the process is killed first).
    ///   - decisions: The record both processes share, for a move that survives a crash (both ends on one machine).
    ///   - timeout: The time limit of silence, as for ``init(publishing:atPath:decisions:timeout:observer:)``.
    ///   - observer: Told of each step of a drop.
    /// - Throws: ``TransferSessionError`` with `disconnected` when the descriptors cannot be used.
    public static func serve(
        _ session: DragSession, input: Int32 = 0, output: Int32 = 1, decisions: SessionDecisionRecord? = nil,
        timeout: Duration = .seconds(30), observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) {
        try await serve(
            session, input: input, output: output, decisions: decisions, timeout: timeout, clock: .continuous,
            observer: observer)
    }

    /// ``serve(_:input:output:decisions:timeout:observer:)`` with the time limit measured on `clock`.
    package static func serve(
        _ session: DragSession, input: Int32 = 0, output: Int32 = 1, decisions: SessionDecisionRecord? = nil,
        timeout: Duration, clock: WireClock, observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) {
        let connection = try SessionStreamDescriptors.connection(
            input: input, output: output, timeout: timeout, clock: clock)
        await serve(
            session, on: connection, decisions: decisions, timeout: timeout, silenceLimit: timeout, clock: clock,
            observer: observer)
    }

    /// Serves `session` to the one destination at the other end of `stream` (a ``ChildStream``'s socket, say) until
    /// it disconnects or the task is cancelled.
    /// - Parameter silenceLimit: How long the destination may say nothing; `nil` for as long as it likes (a
    ///   destination that holds a drop open while a far clipboard holds the items).
    package static func serve(
        _ session: DragSession, over stream: UnixSocket, decisions: SessionDecisionRecord? = nil, timeout: Duration,
        silenceLimit: Duration?, clock: WireClock = .continuous,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async {
        await serve(
            session, on: FramedConnection(socket: stream, sendTimeout: timeout, clock: clock), decisions: decisions,
            timeout: timeout, silenceLimit: silenceLimit, clock: clock, observer: observer)
    }

    /// ``serve(_:over:decisions:timeout:silenceLimit:clock:observer:)`` on a connection made already (one that
    /// writes into the stream's output itself).
    static func serve(
        _ session: DragSession, on connection: FramedConnection<LengthPrefixedFrames>,
        decisions: SessionDecisionRecord?, timeout: Duration, silenceLimit: Duration?, clock: WireClock,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    ) async {
        let ended = Latch<Void>()
        let publication = DragSessionPublication(
            serving: session, on: connection, decisions: decisions, timeout: timeout, silenceLimit: silenceLimit,
            clock: clock, observer: observer
        ) { _ = ended.open() }
        await withTaskCancellationHandler {
            _ = await ended.wait()
        } onCancel: {
            publication.close()
        }
    }
}

/// The connection over a caller's pair of descriptors.
private enum SessionStreamDescriptors {
    /// Duplicates `input` and `output` and bridges the copies to a socket.
    static func bridge(input: Int32, output: Int32) throws(TransferSessionError) -> UnixSocket {
        let (inputCopy, outputCopy) = try duplicates(input, output)
        do {
            return try UnixSocket.bridging(input: inputCopy, output: outputCopy)
        } catch {
            throw unusable(error)
        }
    }

    /// Duplicates `input` and `output` and makes a connection of the copies. The input is bridged to a socket (a
    /// thread pumps it). Into a pipe (what sshd gives a command) the connection writes its frames itself, with the
    /// pipe enlarged to 1 MiB; another output (a socket, a terminal) is bridged too.
    static func connection(
        input: Int32, output: Int32, timeout: Duration, clock: WireClock
    ) throws(TransferSessionError) -> FramedConnection<LengthPrefixedFrames> {
        let (inputCopy, outputCopy) = try duplicates(input, output)
        do throws(SystemError) {
            guard Syscall.enlargePipe(outputCopy, toAtMost: 1 << 20) != nil else {
                let stream = try UnixSocket.bridging(input: inputCopy, output: outputCopy)
                return FramedConnection(socket: stream, sendTimeout: timeout, clock: clock)
            }
            let stream: UnixSocket
            do {
                stream = try UnixSocket.bridging(input: inputCopy)
            } catch {
                Syscall.close(outputCopy)
                throw error
            }
            return try FramedConnection(socket: stream, output: outputCopy, sendTimeout: timeout, clock: clock)
        } catch {
            throw unusable(error)
        }
    }

    /// Duplicates of `input` and `output`, which the session then owns.
    private static func duplicates(_ input: Int32, _ output: Int32) throws(TransferSessionError) -> (Int32, Int32) {
        do throws(SystemError) {
            let inputCopy = try Syscall.duplicate(input)
            do {
                return (inputCopy, try Syscall.duplicate(output))
            } catch {
                Syscall.close(inputCopy)
                throw error
            }
        } catch {
            throw unusable(error)
        }
    }

    private static func unusable(_ error: SystemError) -> TransferSessionError {
        TransferSessionError(
            code: .disconnected, message: "The byte stream cannot be used: \(error.reason).", cause: error)
    }
}
