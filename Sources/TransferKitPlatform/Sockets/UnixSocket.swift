#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// A Unix-domain stream socket, connected or listening: the package's one home for sockets.
///
/// The clipboard's X11 and Wayland connections and the cross-process drag sessions all speak over one. It sends and
/// receives file descriptors with `SCM_RIGHTS`, waits with a timeout (so a peer that never reads or never answers
/// cannot hang the caller), and never raises `SIGPIPE` (a write to a closed peer fails with `EPIPE`).
///
/// The descriptor is released only when the last reference to the socket goes: ``close()`` shuts both directions
/// down (the peer sees the end, a thread blocked in ``waitUntilReadable(timeout:)`` or
/// ``receive(into:descriptors:maxDescriptors:)`` wakes up) but keeps the number, so that a thread still holding the
/// socket can never send into, or shut down, another connection that the system gave the same number meanwhile.
package final class UnixSocket: Sendable {
    /// The socket's file descriptor; valid as long as the socket exists.
    package let descriptor: Int32
    private let closed = SanitizedMutex(false)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        Syscall.close(descriptor)
    }

    /// The largest number of descriptors one ``receive(into:descriptors:maxDescriptors:)`` takes (Linux's
    /// `SCM_MAX_FD` is 253; the protocols here pass at most a few per message).
    package static let maximumDescriptorsPerMessage = 32

    /// Connects to the socket at `path`.
    /// - Throws: ``SystemError`` (`ENOENT` when nothing is there, `ECONNREFUSED` when nobody listens,
    ///   `ENAMETOOLONG` when the path does not fit `sockaddr_un`).
    package static func connect(toPath path: String) throws(SystemError) -> UnixSocket {
        try connect(address: Array(path.utf8), label: path)
    }

    /// Connects to the socket at `path`, giving up when `deadline` passes while the listener's queue is full (a
    /// blocking connect would wait for a listener that never accepts).
    /// - Throws: ``SystemError``: `ETIMEDOUT` when the deadline passed, or what ``connect(toPath:)`` throws.
    package static func connect(toPath path: String, deadline: Deadline) throws(SystemError) -> UnixSocket {
        try connect(address: Array(path.utf8), label: path, deadline: deadline)
    }

    /// Connects to the socket named `name` in Linux's abstract namespace (as X servers also listen on
    /// `@/tmp/.X11-unix/X0`), giving up when `deadline` passes while the listener's queue is full.
    /// - Throws: ``SystemError``: `ETIMEDOUT` when the deadline passed, `ECONNREFUSED` when nobody listens.
    package static func connect(toAbstractName name: String, deadline: Deadline) throws(SystemError) -> UnixSocket {
        try connect(address: [0] + Array(name.utf8), label: "@" + name, deadline: deadline)
    }

    /// Connects with `attempt` (one of the `deadline` connects above, or several in turn) from an async caller
    /// within `timeout`: on the calling task first, with no time to wait, since a listener whose queue has room takes
    /// the connection at once; only a full queue (`ETIMEDOUT` then) waits for room until `timeout` from this call, on
    /// a thread of its own, not the task pool's. Starting that thread for every connect cost each short command a
    /// thread's start and two hand-offs.
    /// - Throws: What `attempt` throws: ``SystemError`` `ETIMEDOUT` when the queue stayed full.
    package static func connect(
        within timeout: Duration, _ attempt: @escaping @Sendable (Deadline) throws(SystemError) -> UnixSocket
    ) async throws(SystemError) -> UnixSocket {
        let deadline = Deadline.after(timeout)
        do throws(SystemError) {
            return try attempt(.after(.zero))
        } catch {
            guard error.errorNumber == ErrorNumber.timedOut else { throw error }
            return try await DedicatedThread.run { () throws(SystemError) in try attempt(deadline) }
        }
    }

    private static func connect(
        address path: [UInt8], label: String, deadline: Deadline
    ) throws(SystemError) -> UnixSocket {
        let socket = try makeSocket()
        try socket.setNonBlocking(true)
        try withAddress(path, label: label) { (address, length) throws(SystemError) in
            while cConnect(socket.descriptor, address, length) != 0 {
                let code = errno
                if code == EINTR { continue }
                // A Unix socket whose listener's queue is full answers EAGAIN at once; try again shortly.
                guard code == EAGAIN || code == EINPROGRESS else {
                    throw SystemError(call: "connect", errorNumber: code, path: label)
                }
                if code == EINPROGRESS {
                    guard try Syscall.waitUntilWritable(socket.descriptor, timeout: deadline.remaining) else {
                        throw SystemError(call: "connect", errorNumber: ETIMEDOUT, path: label)
                    }
                    return
                }
                guard !deadline.hasPassed else {
                    throw SystemError(call: "connect", errorNumber: ETIMEDOUT, path: label)
                }
                WireTimer.block(for: .milliseconds(2))
            }
        }
        try socket.setNonBlocking(false)
        return socket
    }

    /// Connects to the socket named `name` in Linux's abstract namespace (as X servers also listen on
    /// `@/tmp/.X11-unix/X0`).
    package static func connect(toAbstractName name: String) throws(SystemError) -> UnixSocket {
        try connect(address: [0] + Array(name.utf8), label: "@" + name)
    }

    /// Listens at `path` (which must not exist yet), with `backlog` pending connections.
    package static func listen(atPath path: String, backlog: Int32 = 16) throws(SystemError) -> UnixSocket {
        let socket = try makeSocket()
        try withAddress(Array(path.utf8), label: path) { (address, length) throws(SystemError) in
            guard bind(socket.descriptor, address, length) == 0 else {
                throw SystemError(call: "bind", errorNumber: errno, path: path)
            }
        }
        guard cListen(socket.descriptor, backlog) == 0 else {
            throw SystemError(call: "listen", errorNumber: errno, path: path)
        }
        return socket
    }

    /// A connected pair of sockets (`socketpair(2)`), such as for a child process or a test's peer.
    package static func pair() throws(SystemError) -> (UnixSocket, UnixSocket) {
        var descriptors: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0
        else { throw SystemError(call: "socketpair", errorNumber: errno) }
        return (UnixSocket(descriptor: descriptors[0]), UnixSocket(descriptor: descriptors[1]))
    }

    /// Takes a socket for a descriptor this process already has, such as one inherited from its parent; the socket
    /// closes it.
    package static func adopting(_ descriptor: Int32) -> UnixSocket {
        UnixSocket(descriptor: descriptor)
    }

    /// Accepts the next connection to a listening socket, waiting at most until `deadline` for one.
    /// - Returns: The connection, or `nil` when the deadline passed first.
    /// - Throws: ``SystemError`` from `accept(2)` itself, such as `EMFILE` when the process has no descriptor left
    ///   (the pending connection stays queued: the caller decides whether to back off and try again).
    package func accept(until deadline: Deadline) throws(SystemError) -> UnixSocket? {
        guard try waitUntilReadable(timeout: deadline.remaining) else { return nil }
        let connection = cAccept(descriptor)
        if connection >= 0 {
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            return UnixSocket(descriptor: connection)
        }
        let code = errno
        if code == EINTR || code == EAGAIN { return nil }
        throw SystemError(call: "accept", errorNumber: code)
    }

    /// Waits for and accepts the next connection to a listening socket.
    package func accept() throws(SystemError) -> UnixSocket {
        while true {
            // accept4 is a GNU extension the C module does not export, so the flag follows: a child that another
            // thread spawns in that instant could inherit the connection.
            let connection = cAccept(descriptor)
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                return UnixSocket(descriptor: connection)
            }
            let code = errno
            if code != EINTR && code != ECONNABORTED { throw SystemError(call: "accept", errorNumber: code) }
        }
    }

    /// Sends what one `sendmsg(2)` takes of `bytes`, with `descriptors` attached to its first byte.
    /// - Parameter waiting: Whether to wait for room (a blocking socket's default); `false` sends what fits now.
    /// - Returns: The number of bytes sent (the descriptors travel with the first of them).
    /// - Throws: ``SystemError``: `EPIPE` when the peer is gone, `EAGAIN` when not waiting and full.
    package func send(
        _ bytes: UnsafeRawBufferPointer, descriptors: [Int32] = [], waiting: Bool = true
    ) throws(SystemError) -> Int {
        guard bytes.count > 0 || !descriptors.isEmpty, descriptors.count <= Self.maximumDescriptorsPerMessage else {
            if bytes.isEmpty { return 0 }
            throw SystemError(call: "sendmsg", errorNumber: EINVAL)
        }
        var control = [UInt8](repeating: 0, count: descriptors.isEmpty ? 0 : Self.controlSpace(descriptors.count))
        if !descriptors.isEmpty { Self.writeRights(descriptors, into: &control) }
        while true {
            let sent = control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    if controlBytes.count > 0 {
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlBytes.count
                    }
                    return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT)))
                }
            }
            if sent >= 0 { return sent }
            let code = errno
            if code != EINTR { throw SystemError(call: "sendmsg", errorNumber: code) }
        }
    }

    /// Sends all of `bytes` (with `descriptors` on the first byte), waiting for room at most `timeout` each time the
    /// socket is full.
    /// - Throws: ``SystemError`` with `ETIMEDOUT` when the peer did not read within `timeout`, or what
    ///   ``send(_:descriptors:)`` throws.
    package func sendAll(_ bytes: [UInt8], descriptors: [Int32] = [], timeout: Duration? = nil) throws(SystemError) {
        var offset = 0
        var pending = descriptors
        while offset < bytes.count || !pending.isEmpty {
            guard try Syscall.waitUntilWritable(descriptor, timeout: timeout) else {
                throw SystemError(call: "poll", errorNumber: ETIMEDOUT)
            }
            let outcome = bytes.withUnsafeBytes { all in
                Result { () throws(SystemError) in
                    try send(UnsafeRawBufferPointer(rebasing: all[offset...]), descriptors: pending, waiting: false)
                }
            }
            do {
                offset += try outcome.get()
                pending = []
            } catch  where error.errorNumber == ErrorNumber.wouldBlock || error.errorNumber == EWOULDBLOCK {
                continue
            }
        }
    }

    /// Receives what one `recvmsg(2)` gives into `buffer`, appending the descriptors that came with it to
    /// `descriptors` (close-on-exec; the caller owns them).
    /// - Returns: The number of bytes received; 0 when the peer has closed (or after ``shutdown()``).
    /// - Throws: ``SystemError``; `EMSGSIZE` when the peer sent more descriptors than `maxDescriptors` (those that
    ///   came were closed).
    package func receive(
        into buffer: UnsafeMutableRawBufferPointer, descriptors: inout [Int32],
        maxDescriptors: Int = UnixSocket.maximumDescriptorsPerMessage
    ) throws(SystemError) -> Int {
        var control = [UInt8](repeating: 0, count: Self.controlSpace(max(1, maxDescriptors)))
        while true {
            var truncated = false
            var received: [Int32] = []
            let count = control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    let count = recvmsg(descriptor, &message, Int32(MSG_CMSG_CLOEXEC))
                    if count >= 0 {
                        truncated = message.msg_flags & Int32(MSG_CTRUNC) != 0
                        received = Self.readRights(
                            UnsafeRawBufferPointer(rebasing: controlBytes.prefix(Int(message.msg_controllen))))
                    }
                    return count
                }
            }
            if count >= 0 {
                if truncated {
                    for received in received { Syscall.close(received) }
                    throw SystemError(call: "recvmsg", errorNumber: EMSGSIZE)
                }
                descriptors.append(contentsOf: received)
                return count
            }
            let code = errno
            if code != EINTR { throw SystemError(call: "recvmsg", errorNumber: code) }
        }
    }

    /// Waits until the socket has bytes (or an end) to read.
    /// - Parameter timeout: The longest wait; `nil` waits without limit.
    /// - Returns: `false` when the time ran out.
    package func waitUntilReadable(timeout: Duration?) throws(SystemError) -> Bool {
        try Syscall.waitUntilReadable(descriptor, timeout: timeout)
    }

    /// Waits until the socket can take more bytes.
    /// - Parameter timeout: The longest wait; `nil` waits without limit.
    /// - Returns: `false` when the time ran out.
    package func waitUntilWritable(timeout: Duration?) throws(SystemError) -> Bool {
        try Syscall.waitUntilWritable(descriptor, timeout: timeout)
    }

    /// Makes reads and writes return `EAGAIN` instead of waiting (or wait again, with `false`).
    package func setNonBlocking(_ nonBlocking: Bool) throws(SystemError) {
        _ = try Syscall.setNonBlocking(descriptor, nonBlocking)
    }

    /// The peer's process, user and group ids (`SO_PEERCRED`), or `nil` if the system does not say.
    package var peerCredentials: (processID: Int32, userID: UInt32, groupID: UInt32)? {
        // `struct ucred` (pid_t, uid_t, gid_t) is hidden behind _GNU_SOURCE in the C module; same layout.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials
    }

    /// Ends both directions: the peer sees the end, and a thread waiting on this socket wakes up. The descriptor
    /// stays open until ``close()``.
    package func shutdown() {
        _ = cShutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Ends this side's sending only: the peer reads its end once it has read what was sent, and can still send.
    package func shutdownSending() {
        _ = cShutdown(descriptor, Int32(SHUT_WR))
    }

    /// Ends the connection for good: both directions are shut down and every later send fails. The descriptor
    /// itself is released when the last reference to the socket goes (see ``UnixSocket``).
    package func close() {
        closed.withLock { $0 = true }
        shutdown()
    }

    /// Whether ``close()`` was called.
    package var isClosed: Bool {
        closed.withLock { $0 }
    }

    // MARK: - Addresses and control messages

    private static func makeSocket() throws(SystemError) -> UnixSocket {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError(call: "socket", errorNumber: errno) }
        return UnixSocket(descriptor: descriptor)
    }

    private static func connect(address: [UInt8], label: String) throws(SystemError) -> UnixSocket {
        let socket = try makeSocket()
        try withAddress(address, label: label) { (address, length) throws(SystemError) in
            while cConnect(socket.descriptor, address, length) != 0 {
                let code = errno
                if code != EINTR { throw SystemError(call: "connect", errorNumber: code, path: label) }
            }
        }
        return socket
    }

    /// Calls `body` with a `sockaddr_un` holding `path` (its bytes; a leading 0 names an abstract socket).
    private static func withAddress(
        _ path: [UInt8], label: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Void
    ) throws(SystemError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs its terminating zero; an abstract name is counted by the length instead.
        let isAbstract = path.first == 0
        guard !path.isEmpty, path.count < capacity || (isAbstract && path.count <= capacity) else {
            throw SystemError(call: "connect", errorNumber: ENAMETOOLONG, path: label)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (isAbstract ? 0 : 1))
        let outcome = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Result { () throws(SystemError) in try body(address, length) }
            }
        }
        try outcome.get()
    }

    private static let headerSize = MemoryLayout<cmsghdr>.size
    private static let alignment = MemoryLayout<Int>.size

    private static func aligned(_ length: Int) -> Int {
        (length + alignment - 1) & ~(alignment - 1)
    }

    /// `CMSG_SPACE` for `count` descriptors.
    private static func controlSpace(_ count: Int) -> Int {
        aligned(headerSize) + aligned(count * MemoryLayout<Int32>.size)
    }

    /// Writes one `SCM_RIGHTS` control message carrying `descriptors` at the start of `control`.
    private static func writeRights(_ descriptors: [Int32], into control: inout [UInt8]) {
        control.withUnsafeMutableBytes { bytes in
            var header = cmsghdr()
            header.cmsg_len = aligned(headerSize) + descriptors.count * MemoryLayout<Int32>.size
            header.cmsg_level = SOL_SOCKET
            header.cmsg_type = Int32(SCM_RIGHTS)
            bytes.storeBytes(of: header, toByteOffset: 0, as: cmsghdr.self)
            for (index, descriptor) in descriptors.enumerated() {
                bytes.storeBytes(
                    of: descriptor, toByteOffset: aligned(headerSize) + index * MemoryLayout<Int32>.size, as: Int32.self
                )
            }
        }
    }

    /// The descriptors of every `SCM_RIGHTS` message in `control`.
    private static func readRights(_ control: UnsafeRawBufferPointer) -> [Int32] {
        var descriptors: [Int32] = []
        var offset = 0
        while offset + headerSize <= control.count {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= headerSize, offset + length <= control.count else { break }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                let count = (length - aligned(headerSize)) / MemoryLayout<Int32>.size
                for index in 0..<count {
                    descriptors.append(
                        control.loadUnaligned(
                            fromByteOffset: offset + aligned(headerSize) + index * MemoryLayout<Int32>.size,
                            as: Int32.self))
                }
            }
            offset += aligned(length)
        }
        return descriptors
    }
}

extension Syscall {
    /// Waits until `descriptor` has bytes (or an end, or an error) to read.
    /// - Parameter timeout: The longest wait; `nil` waits without limit.
    /// - Returns: `false` when the time ran out.
    package static func waitUntilReadable(_ descriptor: Int32, timeout: Duration?) throws(SystemError) -> Bool {
        try poll(descriptor, events: Int16(POLLIN), timeout: timeout)
    }

    /// Makes reads and writes of `descriptor` return `EAGAIN` instead of waiting (or wait again, with `false`).
    ///
    /// The flag belongs to the open file description, which every duplicate of the descriptor (in this process or
    /// another) shares.
    /// - Returns: Whether the descriptor was non-blocking before, to put it back.
    @discardableResult
    package static func setNonBlocking(_ descriptor: Int32, _ nonBlocking: Bool) throws(SystemError) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { throw SystemError(call: "fcntl", errorNumber: errno) }
        let updated = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard updated == flags || fcntl(descriptor, F_SETFL, updated) == 0 else {
            throw SystemError(call: "fcntl", errorNumber: errno)
        }
        return flags & O_NONBLOCK != 0
    }

    /// Waits until `descriptor` can take more bytes (or has an error, which the next write reports).
    /// - Parameter timeout: The longest wait; `nil` waits without limit.
    /// - Returns: `false` when the time ran out.
    package static func waitUntilWritable(_ descriptor: Int32, timeout: Duration?) throws(SystemError) -> Bool {
        try poll(descriptor, events: Int16(POLLOUT), timeout: timeout)
    }

    /// Writes all of `bytes` to a pipe or socket, waiting at most `timeout` for room each time it is full.
    ///
    /// A descriptor in blocking mode is written `PIPE_BUF` bytes per wait (what `poll` promises room for), so no
    /// write blocks past the timeout; a non-blocking one takes as much as fits each time.
    ///
    /// A reader that has gone is `EPIPE`, never a `SIGPIPE` that would end the process, whatever the process does
    /// with that signal: library code (a clipboard serving a pipe) must not kill the application that hosts it.
    /// - Throws: ``SystemError`` with `ETIMEDOUT` when the reader did not read within `timeout`, `EPIPE` when it has
    ///   gone.
    package static func write(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, timeout: Duration?
    ) throws(SystemError) {
        try withBrokenPipeSignalBlocked { () throws(SystemError) in
            try writeAll(descriptor, bytes, timeout: timeout)
        }
    }

    /// Writes all of `bytes`, waiting as long as the reader takes (a thread of its own that pumps one stream into
    /// another), with a reader that has gone reported as `EPIPE`, never a `SIGPIPE`, as for
    /// ``write(_:_:timeout:)``. Unlike that call, a blocking descriptor takes the whole of `bytes` per `write(2)`.
    package static func writeWaiting(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try withBrokenPipeSignalBlocked { () throws(SystemError) in try write(descriptor, bytes) }
    }

    /// Moves up to `count` bytes of the file `input`, from `offset`, into the pipe `output` without copying them
    /// through this process's memory, as ``splice(from:offset:toPipe:count:)`` does, waiting at most `timeout` for
    /// room in the pipe (the move itself never waits for the reader: it takes what room there is).
    ///
    /// A reader that has gone is `EPIPE`, never a `SIGPIPE`, as for ``write(_:_:timeout:)``.
    /// - Returns: The number of bytes moved (0 at the end of the file), or `nil` when this system or this pair of
    ///   descriptors cannot splice (then copy the bytes instead; nothing was moved).
    /// - Throws: ``SystemError`` with `ETIMEDOUT` when the reader did not read within `timeout`, `EPIPE` when it has
    ///   gone, or another failure of the file or the pipe.
    package static func splice(
        from input: Int32, offset: inout Int64, toPipe output: Int32, count: Int, timeout: Duration?
    ) throws(SystemError) -> Int? {
        var position = offset
        defer { offset = position }
        return try withBrokenPipeSignalBlocked { () throws(SystemError) -> Int? in
            while true {
                guard try waitUntilWritable(output, timeout: timeout) else {
                    throw SystemError(call: "poll", errorNumber: ETIMEDOUT)
                }
                do throws(SystemError) {
                    return try splice(input, inputOffset: &position, output, count: count, nonBlocking: true)
                } catch {
                    // Another writer took the room that poll saw: wait again.
                    guard error.errorNumber == EAGAIN || error.errorNumber == EWOULDBLOCK else { throw error }
                }
            }
        }
    }

    /// Runs `body` with `SIGPIPE` blocked on this thread, and discards the `SIGPIPE` that a write to a closed pipe
    /// raised meanwhile (the signal goes to the writing thread, so blocking it here leaves it pending here).
    static func withBrokenPipeSignalBlocked<Result>(
        _ body: () throws(SystemError) -> Result
    ) throws(SystemError) -> Result {
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        // A SIGPIPE that was pending before (sent to the process by someone else) is not ours to discard.
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        defer {
            sigpending(&pending)
            if !wasPending && sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                while sigtimedwait(&brokenPipe, nil, &now) < 0 && errno == EINTR {}
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }

    private static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, timeout: Duration?
    ) throws(SystemError) {
        let isNonBlocking = fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0
        var offset = 0
        while offset < bytes.count {
            guard try waitUntilWritable(descriptor, timeout: timeout) else {
                throw SystemError(call: "poll", errorNumber: ETIMEDOUT)
            }
            let end = isNonBlocking ? bytes.count : min(bytes.count, offset + Int(PIPE_BUF))
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
            let written = cWrite(descriptor, rest.baseAddress, rest.count)
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            if code != EINTR && code != EAGAIN && code != EWOULDBLOCK {
                throw SystemError(call: "write", errorNumber: code)
            }
        }
    }

    /// What ``waitUntilReadable(_:orHangUpOf:timeout:)`` saw; neither being true means the time ran out.
    package struct Readiness: Sendable, Equatable {
        /// The input has bytes, its end or an error to read.
        package var isReadable: Bool
        /// The watched descriptor hung up or failed.
        package var watchedHungUp: Bool
    }

    /// Waits until `input` has bytes (or an end, or an error) to read, or `watched` hangs up: a reader of a pipe
    /// that another descriptor's shutdown must be able to wake (a socket shut down is polled as hung up).
    /// - Parameter timeout: The longest wait; `nil` waits without limit.
    package static func waitUntilReadable(
        _ input: Int32, orHangUpOf watched: Int32?, timeout: Duration?
    ) throws(SystemError) -> Readiness {
        // Linux reports a hang-up and errors whatever is asked; other systems watch only for what is asked.
        var entries = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        if let watched { entries.append(pollfd(fd: watched, events: Int16(POLLHUP), revents: 0)) }
        _ = try poll(&entries, timeout: timeout)
        return Readiness(
            isReadable: entries[0].revents != 0, watchedHungUp: entries.count > 1 && entries[1].revents != 0)
    }

    private static func poll(_ descriptor: Int32, events: Int16, timeout: Duration?) throws(SystemError) -> Bool {
        var entries = [pollfd(fd: descriptor, events: events, revents: 0)]
        return try poll(&entries, timeout: timeout)
    }

    /// `poll(2)` of `entries` until one is ready or `timeout` has passed, retrying on `EINTR`.
    /// - Returns: Whether one is ready.
    private static func poll(_ entries: inout [pollfd], timeout: Duration?) throws(SystemError) -> Bool {
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                let (seconds, attoseconds) = left.components
                let total = max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
                milliseconds = Int32(clamping: left <= .zero ? 0 : total)
            }
            for index in entries.indices { entries[index].revents = 0 }
            let ready = cPoll(&entries, nfds_t(entries.count), milliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            let code = errno
            if code != EINTR { throw SystemError(call: "poll", errorNumber: code) }
        }
    }
}

// The C library's calls under names that the methods above do not shadow.
private func cListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func cConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
private func cAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
private func cShutdown(_ descriptor: Int32, _ how: Int32) -> Int32 { shutdown(descriptor, how) }
private func cWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
private func cPoll(_ entry: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    poll(entry, count, timeout)
}
