package import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A connection to a message bus (D-Bus Specification, "Message Bus Specification"): authenticated with
/// ``DBusAuthenticationMachine``, registered with `Hello`, then method calls with replies matched by serial, each
/// with a deadline, and signals for subscribers.
///
/// It runs on the wire layer's pieces, as the X11 and Wayland connections do: a `FramedConnection`'s reader thread
/// cuts whole messages (``DBusFrames``) and ``DBusWire`` decodes them; an `OutboundQueue` sends a message at once
/// when the socket takes it and nothing waits before it, and its writer thread writes the rest, so a send returns once
/// its message is sent or queued (the reader's own answers never wait). The
/// reader keeps the connection alive until ``close()`` or the bus ends it, so close a connection when done with it.
///
/// ```swift
/// let bus = try await DBusConnection.connect(to: try DBusConnection.sessionBusAddress(), timeout: .seconds(5))
/// let reply = try await bus.call(
///     .call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
///           interface: "org.freedesktop.DBus", member: "GetId"), timeout: .seconds(5))
/// ```
package final class DBusConnection: Sendable {
    /// A reply: the message (a method return, or an error) and the descriptors it carried, which the caller owns.
    package struct Reply: Sendable {
        /// The method return or error.
        package var message: DBusMessage
        /// The descriptors that came with it, which the caller owns and closes.
        package var descriptors: [Int32]

        /// The message when it is a method return; an error reply as ``ClipboardError`` with code `transferFailed`
        /// (`protocolUnavailable` when no service has the name, or the service lacks the method), naming the D-Bus
        /// error in its `source`.
        package func returned() throws(ClipboardError) -> DBusMessage {
            guard message.kind == .error else { return message }
            let name = message.errorName ?? "?"
            let missing = [
                "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.UnknownMethod",
                "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
                "org.freedesktop.DBus.Error.NameHasNoOwner",
            ].contains(name)
            throw ClipboardError(
                code: missing ? .protocolUnavailable : .transferFailed,
                message: "The D-Bus call failed with \(name): \(message.errorMessage ?? "no message").", source: name)
        }
    }

    private struct State {
        var nextSerial: UInt32 = 1
        var pending: [UInt32: Latch<Reply?>] = [:]
        var subscribers: [UInt64: AsyncStream<DBusMessage>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var ended: ClipboardError?
        var uniqueName = ""
    }

    /// The name the bus gave this connection, e.g. `:1.42`.
    package var uniqueName: String { state.withLock { $0.uniqueName } }
    /// Whether descriptors may travel beside messages (the server agreed to `NEGOTIATE_UNIX_FD`).
    package let canPassDescriptors: Bool
    private let connection: FramedConnection<DBusFrames>
    /// The messages on their way to the bus, and the thread that writes them.
    private let outbox: OutboundQueue
    private let clock: WireClock
    private let state = SanitizedMutex(State())
    /// Whether this connection answers method calls addressed to it (with `UnknownMethod`); a test's silent peer
    /// does not.
    private let answersCalls: Bool

    /// The most bytes of messages queued for the bus before a sender waits (until its deadline).
    static let outboxCapacity = 4 << 20
    /// How long ``close()`` waits for the queued messages to be written.
    static let closeFlushLimit = Duration.seconds(2)

    private init(socket: UnixSocket, canPassDescriptors: Bool, clock: WireClock, answersCalls: Bool) {
        // A message may carry up to 253 descriptors (Linux's SCM_MAX_FD), as the specification's limit allows.
        let connection = FramedConnection<DBusFrames>(
            socket: socket, sendTimeout: .seconds(30), maximumPendingDescriptors: 253, clock: clock)
        self.connection = connection
        self.outbox = OutboundQueue(capacity: Self.outboxCapacity, connection: connection)
        self.canPassDescriptors = canPassDescriptors
        self.clock = clock
        self.answersCalls = answersCalls
    }

    deinit {
        _ = outbox.close(flushingUntil: .after(.zero))
        connection.close()
    }

    // MARK: Addresses

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else `unix:path=$XDG_RUNTIME_DIR/bus` when that socket
    /// exists.
    /// - Throws: ``ClipboardError`` with `protocolUnavailable` when neither names a bus.
    package static func sessionBusAddress(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClipboardError) -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            return address
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            FileManager.default.fileExists(atPath: runtime + "/bus")
        {
            return "unix:path=" + runtime + "/bus"
        }
        throw ClipboardError(
            code: .protocolUnavailable,
            message: "No D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not "
                + "exist. Start a session bus (dbus-daemon --session), or run inside a desktop session.")
    }

    /// The Unix sockets an address names, in order: `unix:path=…` and `unix:abstract=…` entries separated by `;`
    /// (values percent-decoded); other transports are left out.
    package static func socketNames(in address: String) -> [(path: String, abstract: Bool)] {
        address.split(separator: ";").compactMap { entry in
            guard entry.hasPrefix("unix:") else { return nil }
            var keys: [String: String] = [:]
            for pair in entry.dropFirst(5).split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                keys[String(pair[..<equals])] = percentDecoded(pair[pair.index(after: equals)...])
            }
            if let path = keys["path"] { return (path, false) }
            if let name = keys["abstract"] { return (name, true) }
            return nil
        }
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Connecting

    /// Connects to the bus at `address`, authenticates and registers (`Hello`), all within `timeout`.
    /// - Parameters:
    ///   - address: A D-Bus address, e.g. from ``sessionBusAddress(environment:)``.
    ///   - timeout: How long connecting, authenticating and `Hello` may take together.
    ///   - clock: The clock of every deadline of the connection (tests pass a manual one).
    /// - Throws: ``ClipboardError`` with `connectionFailed` when no socket of the address accepts or the server
    ///   refuses authentication, `timedOut`, or `protocolViolation` for a server that breaks the protocol.
    package static func connect(
        to address: String, timeout: Duration, clock: WireClock = .continuous
    ) async throws(ClipboardError) -> DBusConnection {
        try await connect(to: address, timeout: timeout, clock: clock, answersCalls: true)
    }

    /// ``connect(to:timeout:clock:)`` for tests: `answersCalls: false` makes a peer that never answers calls.
    package static func connect(
        to address: String, timeout: Duration, clock: WireClock, answersCalls: Bool
    ) async throws(ClipboardError) -> DBusConnection {
        let deadline = Deadline.after(timeout, on: clock)
        let opened = try await DedicatedThread.run { () throws(ClipboardError) -> (UnixSocket, Bool) in
            let socket = try open(address, deadline: deadline)
            do throws(ClipboardError) {
                return (socket, try authenticate(socket, deadline: deadline).unixFDs)
            } catch {
                socket.close()
                throw error
            }
        }
        let connection = DBusConnection(
            socket: opened.0, canPassDescriptors: opened.1, clock: clock, answersCalls: answersCalls)
        connection.startReading()
        let hello = DBusMessage.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "Hello")
        do throws(ClipboardError) {
            let reply = try await connection.call(hello, until: deadline).returned()
            guard case .string(let name)? = reply.body.first else {
                throw DBusWire.violation("the bus answered Hello without a name")
            }
            connection.state.withLock { $0.uniqueName = name }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private static func open(_ address: String, deadline: Deadline) throws(ClipboardError) -> UnixSocket {
        let names = socketNames(in: address)
        guard !names.isEmpty else {
            throw ClipboardError(
                code: .connectionFailed,
                message: "The D-Bus address \(String(reflecting: address)) names no Unix socket (unix:path= or "
                    + "unix:abstract=).")
        }
        var last: SystemError?
        for name in names {
            do {
                return name.abstract
                    ? try UnixSocket.connect(toAbstractName: name.path, deadline: deadline)
                    : try UnixSocket.connect(toPath: name.path, deadline: deadline)
            } catch {
                last = error
            }
        }
        throw ClipboardError(
            code: .connectionFailed, message: "No socket of the D-Bus address \(String(reflecting: address)) accepts.",
            cause: last)
    }

    /// Runs the authentication machine over `socket` until it succeeds or fails.
    private static func authenticate(
        _ socket: UnixSocket, deadline: Deadline
    ) throws(ClipboardError) -> (guid: String, unixFDs: Bool) {
        let machine = MachineShell(DBusAuthenticationMachine(userID: Syscall.userID))
        var events: [DBusAuthenticationMachine.Event] = [.begin]
        var received: [UInt8] = []
        while true {
            while !events.isEmpty {
                for action in machine.handle(events.removeFirst()) {
                    switch action {
                    case .send(let bytes):
                        do {
                            try socket.sendAll(bytes, timeout: deadline.remaining)
                        } catch {
                            events.append(.ended(.connectionFailed))
                        }
                    case .authenticated(let guid, let unixFDs):
                        return (guid, unixFDs)
                    case .fail(let error):
                        throw error
                    }
                }
            }
            // One line: read a byte at a time, so no message byte after BEGIN's answer is taken from the stream.
            if let end = received.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(received[..<end])
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                received.removeSubrange(...end)
                events.append(.line(String(decoding: line, as: UTF8.self)))
                continue
            }
            guard received.count <= DBusAuthenticationMachine.maximumLineLength else {
                events.append(.ended(.protocolViolation))
                continue
            }
            do {
                guard try socket.waitUntilReadable(timeout: deadline.remaining) else {
                    events.append(.ended(.timedOut))
                    continue
                }
                var byte: [UInt8] = [0]
                var descriptors: [Int32] = []
                let count = try byte.withUnsafeMutableBytes { try socket.receive(into: $0, descriptors: &descriptors) }
                for descriptor in descriptors { Syscall.close(descriptor) }
                if count == 0 {
                    events.append(.ended(.connectionFailed))
                } else {
                    received.append(byte[0])
                }
            } catch {
                events.append(.ended(.connectionFailed))
            }
        }
    }

    // MARK: Calls and signals

    /// Sends `message` as a method call and waits for its reply until `timeout` passes.
    /// - Parameters:
    ///   - message: The call; its serial is chosen here.
    ///   - descriptors: Descriptors to pass beside it (the caller keeps and closes its own).
    ///   - timeout: The longest wait for the reply.
    /// - Returns: The reply: a method return or an error (see ``Reply/returned()``).
    /// - Throws: ``ClipboardError`` with `timedOut` when no reply came in time, `connectionFailed` when the bus
    ///   connection ended first, `protocolUnavailable` when descriptors were given and the bus does not pass them.
    package func call(
        _ message: DBusMessage, descriptors: [Int32] = [], timeout: Duration
    ) async throws(ClipboardError) -> Reply {
        try await call(message, descriptors: descriptors, until: Deadline.after(timeout, on: clock))
    }

    private func call(
        _ message: DBusMessage, descriptors: [Int32] = [], until deadline: Deadline
    ) async throws(ClipboardError) -> Reply {
        let latch = Latch<Reply?>()
        let serial: UInt32 = try state.withLock { state throws(ClipboardError) in
            if let ended = state.ended { throw ended }
            let serial = state.nextSerial
            state.nextSerial = serial == UInt32.max ? 1 : serial + 1
            state.pending[serial] = latch
            return serial
        }
        do {
            try send(message, serial: serial, descriptors: descriptors, until: deadline)
        } catch {
            _ = state.withLock { $0.pending.removeValue(forKey: serial) }
            throw error
        }
        let outcome: Reply??
        do {
            outcome = try await latch.wait(until: deadline)
        } catch {
            outcome = nil
        }
        _ = state.withLock { $0.pending.removeValue(forKey: serial) }
        switch outcome {
        case .some(.some(let reply)):
            return reply
        case .some(.none):
            throw state.withLock { $0.ended }
                ?? ClipboardError(code: .connectionFailed, message: "The D-Bus connection ended before the reply.")
        case .none:
            throw ClipboardError(
                code: .timedOut,
                message: "No reply to the D-Bus call \(message.interface.map { $0 + "." } ?? "")"
                    + "\(message.member ?? "?") came in time.")
        }
    }

    /// Queues a message that expects no reply (a signal, or a call with ``DBusMessage/Flags/noReplyExpected``)
    /// behind those queued before; the connection's outbound queue writes it.
    /// - Parameters:
    ///   - descriptors: Descriptors to pass beside it (the caller keeps and closes its own; copies travel).
    ///   - deadline: The longest wait for room when the bus has left ``outboxCapacity`` bytes unread.
    /// - Throws: ``ClipboardError``: `protocolUnavailable` when descriptors were given and the bus does not pass
    ///   them, `timedOut` when the queue stayed full, `connectionFailed` when the connection has ended (or a write
    ///   failed, which ended it).
    package func send(
        _ message: DBusMessage, descriptors: [Int32] = [], until deadline: Deadline? = nil
    ) throws(ClipboardError) {
        let serial: UInt32 = state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial = serial == UInt32.max ? 1 : serial + 1
            return serial
        }
        try send(
            message, serial: serial, descriptors: descriptors, until: deadline ?? .after(.seconds(30), on: clock))
    }

    private func send(
        _ message: DBusMessage, serial: UInt32, descriptors: [Int32], until deadline: Deadline
    ) throws(ClipboardError) {
        guard descriptors.isEmpty || canPassDescriptors else {
            throw ClipboardError(
                code: .protocolUnavailable, message: "The D-Bus connection cannot pass file descriptors.")
        }
        var message = message
        message.serial = serial
        message.unixFDCount = UInt32(descriptors.count)
        let bytes = try DBusWire.encode(message)
        // The queue closes what it sends; the caller's descriptors stay the caller's.
        var copies: [Int32] = []
        for descriptor in descriptors {
            do {
                copies.append(try Syscall.duplicate(descriptor))
            } catch {
                for copy in copies { Syscall.close(copy) }
                throw ClipboardError(
                    code: .transferFailed, message: "Cannot pass descriptor \(descriptor): \(error.reason).",
                    cause: error)
            }
        }
        switch outbox.enqueue(bytes, descriptors: copies, until: deadline) {
        case .queued:
            return
        case .full:
            throw ClipboardError(
                code: .timedOut,
                message: "The D-Bus bus left \(Self.outboxCapacity >> 20) MiB of this connection's messages unread.")
        case .closed:
            throw state.withLock { $0.ended }
                ?? ClipboardError(code: .connectionFailed, message: "The D-Bus connection was closed.")
        case .failed(let error):
            throw ClipboardError(
                code: .connectionFailed, message: "Writing to the D-Bus connection failed.", cause: error)
        }
    }

    /// Every signal that reaches this connection, until it ends. Ask the bus for the signals you want with
    /// `AddMatch` (``addMatch(_:timeout:)``).
    package func signals() -> AsyncStream<DBusMessage> {
        let (stream, continuation) = AsyncStream<DBusMessage>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let key: UInt64? = state.withLock { state in
            guard state.ended == nil else { return nil }
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = continuation
            return key
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Asks the bus to route the signals `rule` matches here (e.g. `type='signal',interface='org.example.I'`).
    package func addMatch(_ rule: String, timeout: Duration) async throws(ClipboardError) {
        _ = try await call(
            .call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "AddMatch", body: [.string(rule)]), timeout: timeout
        ).returned()
    }

    /// Ends the connection: what was queued is written first (waiting at most ``closeFlushLimit`` of real time, so a
    /// bus that reads nothing cannot hold the caller), then pending calls fail with `connectionFailed` and signal
    /// streams finish.
    package func close() {
        _ = outbox.close(flushingUntil: .after(Self.closeFlushLimit))
        end(ClipboardError(code: .connectionFailed, message: "The D-Bus connection was closed."))
        connection.close()
    }

    private func end(_ error: ClipboardError) {
        let (pending, subscribers) = state.withLock { state in
            if state.ended == nil { state.ended = error }
            defer {
                state.pending = [:]
                state.subscribers = [:]
            }
            return (Array(state.pending.values), Array(state.subscribers.values))
        }
        for latch in pending { _ = latch.open(nil) }
        for subscriber in subscribers { subscriber.finish() }
        // No new message is taken; the writer thread ends once what is queued is written or dropped.
        _ = outbox.close(flushingUntil: .after(.zero))
    }

    // MARK: Reading

    /// Starts the reader and the writer. Both hold the connection until it ends (``close()``, or the bus ends it).
    private func startReading() {
        connection.start(
            decoder: DBusFrames(),
            onFrame: { [self] frame, descriptors throws(WireViolation) in
                do throws(ClipboardError) {
                    try dispatch(frame, descriptors: &descriptors)
                } catch {
                    throw WireViolation(error.message, cause: error)
                }
            },
            onEnd: { [self] end in self.end(Self.failure(end)) })
        outbox.start { [self] error in
            end(
                ClipboardError(
                    code: .connectionFailed, message: "Writing to the D-Bus connection failed.", cause: error))
            connection.close()
        }
    }

    /// Whether the connection has ended (closed here, or by the bus); every later call fails.
    package var isEnded: Bool { state.withLock { $0.ended != nil } }

    /// The error of the connection's end: a decoder's own error for a message that broke the protocol.
    private static func failure(_ end: FramedConnection<DBusFrames>.End) -> ClipboardError {
        switch end {
        case .violation(let violation):
            (violation.cause as? ClipboardError)
                ?? ClipboardError(code: .protocolViolation, message: violation.message, cause: violation.cause)
        case .peerClosed, .truncated:
            ClipboardError(code: .connectionFailed, message: "The D-Bus bus closed the connection.")
        case .failed(let error):
            ClipboardError(code: .connectionFailed, message: "Reading the D-Bus connection failed.", cause: error)
        case .closed, .silent:
            ClipboardError(code: .connectionFailed, message: "The D-Bus connection was closed.")
        }
    }

    private func dispatch(_ bytes: [UInt8], descriptors: inout [Int32]) throws(ClipboardError) {
        guard let message = try DBusWire.decode(bytes, descriptorCount: descriptors.count) else { return }
        let count = Int(message.unixFDCount)
        let own = Array(descriptors.prefix(count))
        descriptors.removeFirst(count)
        switch message.kind {
        case .methodReturn, .error:
            let latch = message.replySerial.flatMap { serial in state.withLock { $0.pending[serial] } }
            if let latch, latch.open(Reply(message: message, descriptors: own)) { return }
            for descriptor in own { Syscall.close(descriptor) }
        case .signal:
            for descriptor in own { Syscall.close(descriptor) }
            for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.yield(message) }
        case .methodCall:
            for descriptor in own { Syscall.close(descriptor) }
            guard answersCalls, !message.flags.contains(.noReplyExpected), let sender = message.sender else { return }
            var error = DBusMessage(kind: .error)
            error.errorName = "org.freedesktop.DBus.Error.UnknownMethod"
            error.replySerial = message.serial
            error.destination = sender
            error.body = [.string("This connection offers no methods.")]
            // The reader never waits for room: a bus that leaves the queue full gets no answer.
            try? send(error, until: .after(.zero))
        }
    }
}

/// The frames of a message bus connection: whole messages, cut at the length their fixed header announces (at most
/// the specification's 128 MiB).
struct DBusFrames: FrameDecoder {
    /// The next whole message, or `nil` (taking nothing) until more bytes arrive.
    /// - Throws: ``WireViolation`` whose cause is the ``ClipboardError`` of a header that breaks the protocol
    ///   (`protocolViolation`) or announces too much (`limitExceeded`).
    mutating func nextFrame(from buffer: inout FrameBuffer) throws(WireViolation) -> [UInt8]? {
        guard buffer.count >= DBusWire.fixedHeaderSize else { return nil }
        let length: Int
        do throws(ClipboardError) {
            length = try DBusWire.messageLength(header: buffer.bytes(at: 0, length: DBusWire.fixedHeaderSize))
        } catch {
            throw WireViolation(error.message, cause: error)
        }
        guard buffer.count >= length else { return nil }
        return buffer.take(length)
    }
}
