/// One end of a framed stream socket: one reader thread, the descriptors that came with the bytes, sends with a
/// deadline, and one end, reported once. The session protocol, X11 and Wayland each give it their
/// ``FrameDecoder``.
///
/// The reader runs on a thread of its own (never a thread of the concurrency pool), blocked in `poll` at most for
/// the silence limit. It hands each frame, with the queue of descriptors received so far, to `onFrame`; the
/// handler takes the descriptors its frame owns from the front of the queue. When the peer closes, breaks the
/// protocol, stays silent past the limit, the socket fails or ``close()`` is called, the reader closes the
/// descriptors nobody took, calls `onEnd` once with the reason, and stops.
package final class FramedConnection<Decoder: FrameDecoder>: Sendable {
    /// Why a connection ended.
    package enum End: Sendable, CustomStringConvertible {
        /// The peer closed the connection between frames.
        case peerClosed
        /// The peer closed the connection in the middle of a frame (`pendingBytes` of it had come).
        case truncated(pendingBytes: Int)
        /// The peer sent bytes that break the protocol.
        case violation(WireViolation)
        /// The socket failed.
        case failed(SystemError)
        /// The peer said nothing for the silence limit while the protocol expected it to.
        case silent(Duration)
        /// This side closed the connection.
        case closed

        /// A sentence for messages.
        package var description: String {
            switch self {
            case .peerClosed: "the peer closed the connection"
            case .truncated(let count): "the peer closed the connection in the middle of a frame (\(count) bytes)"
            case .violation(let violation): violation.message
            case .failed(let error): "the socket failed: \(error.reason)"
            case .silent(let limit): "the peer said nothing for \(limit)"
            case .closed: "the connection was closed"
            }
        }
    }

    /// The socket.
    package let socket: UnixSocket
    /// How long a send waits for the peer to make room.
    package let sendTimeout: Duration
    /// The most descriptors held for frames that have not claimed them.
    package let maximumPendingDescriptors: Int
    /// The clock the silence limit is measured on.
    package let clock: WireClock
    /// Where sends go instead of the socket, when given: the write end of a byte stream (see
    /// ``init(socket:output:sendTimeout:maximumPendingDescriptors:clock:)``); `nil` once closed. Only touched under
    /// this lock, so no send can write into a number the system gave to something else after the close.
    private let sendLock: SanitizedMutex<Int32?>
    /// Whether sends go to an output descriptor of their own rather than the socket (even once it is closed).
    private let ownsOutput: Bool
    /// Whether the output descriptor was non-blocking when given.
    private let outputWasNonBlocking: Bool
    /// Where the reader reads instead of the socket, when given (see
    /// ``init(socket:input:sendTimeout:clock:)``), until the reader takes it; closed by the reader when it stops, or
    /// by `deinit` if it never started.
    private let inputLock: SanitizedMutex<Int32?>
    private let state = SanitizedMutex(State())

    private struct State {
        var isClosing = false
        var hasEnded = false
        var end: End?
    }

    /// A connection over `socket`.
    /// - Parameter clock: What the silence limit is measured on. On a manual clock the reader looks at the clock
    ///   every few milliseconds of real time while it waits for bytes (a test's clock moves by its hand).
    package convenience init(
        socket: UnixSocket, sendTimeout: Duration, maximumPendingDescriptors: Int = 32, clock: WireClock = .continuous
    ) {
        self.init(
            socket: socket, output: nil as Int32?, sendTimeout: sendTimeout,
            maximumPendingDescriptors: maximumPendingDescriptors, clock: clock)
    }

    /// A connection that reads from `socket` and sends on `output`, the write end of a byte stream that carries no
    /// descriptors (the pipe sshd gives a command): frames go straight into it, with no socket and no thread
    /// between. The connection owns `output`: it makes it non-blocking (so a send waits for room at most
    /// ``sendTimeout``, however large), puts the flag back and closes it when the connection ends, so the peer reads
    /// the end. A send with descriptors fails with `EINVAL`.
    /// - Throws: ``SystemError`` when `output`'s flags cannot be read or set; `output` is then closed.
    package init(
        socket: UnixSocket, output: Int32, sendTimeout: Duration, maximumPendingDescriptors: Int = 32,
        clock: WireClock = .continuous
    ) throws(SystemError) {
        do {
            outputWasNonBlocking = try Syscall.setNonBlocking(output, true)
        } catch {
            Syscall.close(output)
            throw error
        }
        self.socket = socket
        self.sendLock = SanitizedMutex(output)
        self.ownsOutput = true
        self.inputLock = SanitizedMutex(nil)
        self.sendTimeout = sendTimeout
        self.maximumPendingDescriptors = maximumPendingDescriptors
        self.clock = clock
    }

    /// A connection that reads from `input`, the read end of a byte stream that carries no descriptors (a child
    /// process's standard output, as a pipe), and sends on `socket`.
    ///
    /// A child that writes into a large pipe (``Syscall/enlargePipe(_:toAtMost:)``) rather than a socket pays less
    /// per byte and is woken less often: this is how a paste from `ssh host transferkit serve --stdio` reads.
    /// The reader waits on both descriptors: ``close()`` shuts `socket` down, which wakes it; when the peer hangs
    /// `socket` up by itself, the reader goes on to `input`'s end, so no byte written before is lost. The
    /// connection owns `input`: the reader closes it when it stops (or the connection does when it goes, if it never
    /// started).
    package convenience init(
        socket: UnixSocket, input: Int32, sendTimeout: Duration, clock: WireClock = .continuous
    ) {
        self.init(
            socket: socket, output: nil as Int32?, input: input, sendTimeout: sendTimeout,
            maximumPendingDescriptors: 0, clock: clock)
    }

    private init(
        socket: UnixSocket, output: Int32?, input: Int32? = nil, sendTimeout: Duration, maximumPendingDescriptors: Int,
        clock: WireClock
    ) {
        self.socket = socket
        self.sendLock = SanitizedMutex(output)
        self.ownsOutput = output != nil
        self.outputWasNonBlocking = false
        self.inputLock = SanitizedMutex(input)
        self.sendTimeout = sendTimeout
        self.maximumPendingDescriptors = maximumPendingDescriptors
        self.clock = clock
    }

    deinit {
        closeOutput()
        if let input = takeInput() { Syscall.close(input) }
    }

    /// The input descriptor, once: the reader's (or `deinit`'s, if the reader never started).
    private func takeInput() -> Int32? {
        inputLock.withLock { $0.take() }
    }

    /// Closes the output descriptor, if there is one, once no send is writing into it, with its blocking flag as it
    /// was given.
    private func closeOutput() {
        sendLock.withLock { output in
            if let descriptor = output {
                _ = try? Syscall.setNonBlocking(descriptor, outputWasNonBlocking)
                Syscall.close(descriptor)
            }
            output = nil
        }
    }

    /// Waits until the socket (or the input) is readable or `silenceLimit` has passed on ``clock`` since `since`.
    /// - Returns: Whether it is readable.
    private func waitUntilReadable(
        _ source: inout ReadSource, silenceLimit: Duration, since: Duration
    ) throws(SystemError) -> Bool {
        guard clock.isManual else { return try source.waitUntilReadable(timeout: silenceLimit) }
        while clock.now - since < silenceLimit {
            if try source.waitUntilReadable(timeout: .milliseconds(5)) { return true }
        }
        return false
    }

    /// How often a reader of an input descriptor looks whether the connection is closing once the socket's hang-up
    /// can no longer tell it (the peer hung the socket up and left the input open).
    static var closeCheckInterval: Duration { .milliseconds(100) }

    /// What the reader reads: the socket, or an input descriptor with the socket watched for its shutdown.
    private struct ReadSource {
        let socket: UnixSocket
        let input: Int32?
        /// Whether the socket's hang-up still wakes the reader (not once the peer hung it up by itself).
        var watchesSocket = true
        /// Set when ``close()`` shut the socket down while the reader waited on the input.
        let isClosing: () -> Bool

        /// Waits for bytes to read; `nil` waits without limit.
        ///
        /// Once the peer has hung the socket up by itself, its hang-up can no longer wake the wait, so the input is
        /// then polled in slices of ``closeCheckInterval``, with a look at whether the connection is closing after
        /// each.
        /// - Returns: `false` when the time ran out; `true` when a read will not wait (bytes, an end, or the
        ///   connection closing, which the read loop then sees).
        mutating func waitUntilReadable(timeout: Duration?) throws(SystemError) -> Bool {
            guard let input else { return try socket.waitUntilReadable(timeout: timeout) }
            let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
            while true {
                var slice = deadline.map { max(.zero, ContinuousClock.now.duration(to: $0)) }
                if !watchesSocket {
                    slice = min(slice ?? FramedConnection.closeCheckInterval, FramedConnection.closeCheckInterval)
                }
                let readiness = try Syscall.waitUntilReadable(
                    input, orHangUpOf: watchesSocket ? socket.descriptor : nil, timeout: slice)
                if readiness.isReadable { return true }
                if isClosing() { return true }
                if readiness.watchedHungUp {
                    // The peer hung the socket up by itself: what it wrote into the input is still to be read.
                    watchesSocket = false
                } else if let deadline, ContinuousClock.now >= deadline {
                    return false
                }
            }
        }

        /// Reads what is there into `bytes`, with the descriptors that came (none from an input descriptor).
        func receive(
            into bytes: UnsafeMutableRawBufferPointer, descriptors: inout [Int32]
        ) throws(SystemError) -> Int {
            guard let input else { return try socket.receive(into: bytes, descriptors: &descriptors) }
            return try Syscall.read(input, into: bytes)
        }
    }

    /// Starts the reader thread.
    /// - Parameters:
    ///   - decoder: Cuts the frames.
    ///   - silenceLimit: How long the reader waits for bytes before it asks `onSilence`; `nil` waits without end.
    ///   - onSilence: Whether the silence ends the connection (`true`), or the reader waits another period.
    ///   - onFrame: Handles one frame; it takes the descriptors its frame owns from the front of the queue. A
    ///     ``WireViolation`` it throws ends the connection.
    ///   - onEnd: Called once, from the reader thread, when the connection has ended.
    package func start(
        decoder: Decoder, silenceLimit: Duration? = nil, onSilence: @escaping @Sendable () -> Bool = { true },
        onFrame: @escaping @Sendable (Decoder.Frame, inout [Int32]) throws(WireViolation) -> Void,
        onEnd: @escaping @Sendable (End) -> Void
    ) {
        DedicatedThread.start { [self] in
            let input = takeInput()
            defer { if let input { Syscall.close(input) } }
            var source = ReadSource(
                socket: socket, input: input, isClosing: { [self] in state.withLock { $0.isClosing } })
            let end = readLoop(
                from: &source, decoder: decoder, silenceLimit: silenceLimit, onSilence: onSilence, onFrame: onFrame)
            // The reason is recorded before the socket shuts down: a sender that fails because of the shutdown can
            // then report why the connection ended (``endReason``) instead of a bare broken pipe.
            state.withLock { state in
                state.hasEnded = true
                state.end = end
            }
            socket.shutdown()
            closeOutput()
            onEnd(end)
        }
    }

    /// Sends `bytes` with `descriptors` attached, whole, waiting for room at most ``sendTimeout`` at a time.
    /// - Throws: ``SystemError``: `ETIMEDOUT` when the peer did not read in time, `EPIPE` when it is gone.
    package func send(_ bytes: [UInt8], descriptors: [Int32] = []) throws(SystemError) {
        let outcome = sendLock.withLock { output in
            Result { () throws(SystemError) in
                guard let descriptor = output else {
                    if ownsOutput {
                        // The connection has ended and its output is closed.
                        throw SystemError(call: "write", errorNumber: ErrorNumber.brokenPipe)
                    }
                    return try socket.sendAll(bytes, descriptors: descriptors, timeout: sendTimeout)
                }
                guard descriptors.isEmpty else {
                    throw SystemError(call: "write", errorNumber: ErrorNumber.invalidArgument)
                }
                let written = bytes.withUnsafeBytes { all in
                    Result { () throws(SystemError) in try Syscall.write(descriptor, all, timeout: sendTimeout) }
                }
                try written.get()
            }
        }
        try outcome.get()
    }

    /// Sends what the socket takes of `bytes` at once, with `descriptors` attached to the first byte, without
    /// waiting for room or for another send to finish: the path of an ``OutboundQueue`` that has nothing queued.
    ///
    /// A connection that sends on an output descriptor of its own (see
    /// ``init(socket:output:sendTimeout:maximumPendingDescriptors:clock:)``) never sends this way: it returns 0.
    /// - Returns: The number of bytes sent: all of them, a part (the descriptors went with it), or 0 when the socket
    ///   is full or another send is under way (nothing went).
    /// - Throws: ``SystemError``: `EPIPE` when the peer is gone, or another failure of the socket.
    package func sendNow(_ bytes: [UInt8], descriptors: [Int32] = []) throws(SystemError) -> Int {
        let outcome = sendLock.withLockIfAvailable { _ in
            Result { () throws(SystemError) -> Int in
                guard !ownsOutput else { return 0 }
                let sent = bytes.withUnsafeBytes { all in
                    Result { () throws(SystemError) in try socket.send(all, descriptors: descriptors, waiting: false) }
                }
                do throws(SystemError) {
                    return try sent.get()
                } catch  where error.errorNumber == ErrorNumber.wouldBlock {
                    return 0
                }
            }
        }
        return try outcome?.get() ?? 0
    }

    /// Ends the connection: the peer sees the end, and the reader stops and reports ``End/closed``.
    package func close() {
        state.withLock { $0.isClosing = true }
        socket.shutdown()
    }

    /// Whether the reader has stopped.
    package var hasEnded: Bool {
        state.withLock { $0.hasEnded }
    }

    /// Why the reader stopped, once it has: set before the socket shuts down, so a ``send(_:descriptors:)`` that
    /// failed because the reader ended the connection (a protocol violation, say) finds the real reason here.
    package var endReason: End? {
        state.withLock { $0.end }
    }

    private func readLoop(
        from source: inout ReadSource, decoder: Decoder, silenceLimit: Duration?, onSilence: @Sendable () -> Bool,
        onFrame: (Decoder.Frame, inout [Int32]) throws(WireViolation) -> Void
    ) -> End {
        var decoder = decoder
        var buffer = FrameBuffer()
        var descriptors: [Int32] = []
        // A large pipe is read in reads as large (a quarter of its megabyte), a socket in its own buffer's size.
        var chunk = [UInt8](repeating: 0, count: source.input == nil ? 64 << 10 : 256 << 10)
        defer {
            for descriptor in descriptors { Syscall.close(descriptor) }
        }
        func closing() -> Bool { state.withLock { $0.isClosing } }
        var heard = clock.now
        while true {
            do {
                if let silenceLimit {
                    if try !waitUntilReadable(&source, silenceLimit: silenceLimit, since: heard) {
                        heard = clock.now
                        if closing() { return .closed }
                        if onSilence() { return .silent(silenceLimit) }
                        continue
                    }
                } else if source.input != nil {
                    // A pipe's read is not woken by the socket's shutdown: wait on both first.
                    _ = try source.waitUntilReadable(timeout: nil)
                }
                // The wait may have ended because ``close()`` shut the socket down; the input may have nothing.
                if source.input != nil, closing() { return .closed }
            } catch {
                return closing() ? .closed : .failed(error)
            }
            let received = chunk.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try source.receive(into: bytes, descriptors: &descriptors) }
            }
            let count: Int
            do {
                count = try received.get()
            } catch {
                if closing() { return .closed }
                if error.errorNumber == ErrorNumber.messageTooLarge {
                    return .violation(WireViolation("The peer sent more descriptors in one message than allowed."))
                }
                return .failed(error)
            }
            heard = clock.now
            guard count > 0 else {
                if closing() { return .closed }
                return buffer.isEmpty ? .peerClosed : .truncated(pendingBytes: buffer.count)
            }
            guard descriptors.count <= maximumPendingDescriptors else {
                return .violation(
                    WireViolation("The peer sent more than \(maximumPendingDescriptors) descriptors no frame claimed."))
            }
            buffer.append(chunk[0..<count])
            do {
                while let frame = try decoder.nextFrame(from: &buffer) {
                    try onFrame(frame, &descriptors)
                    if closing() { return .closed }
                }
            } catch {
                return .violation(error)
            }
        }
    }
}
