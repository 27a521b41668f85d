#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

extension UnixSocket {
    /// A socket that stands for the byte stream of two plain descriptors, such as this process's standard input and
    /// output when it runs as `ssh host transferkit serve --stdio`: code written for a socket (a
    /// ``FramedConnection``) then serves a pipe, a terminal or a socket alike.
    ///
    /// Two threads of their own pump the bytes: what `input` gives is received on the returned socket, and what is
    /// sent on it is written to `output`. The bridge takes both descriptors and closes each when its direction ends:
    /// - `input` at its end of file, a read error, or once the returned socket is shut down; the socket then reads
    ///   its end (the peer closed);
    /// - `output` once the returned socket is shut down or closed (so the peer reads its end), or when writing to it
    ///   fails (so the socket's next send fails with `EPIPE`).
    ///
    /// A stream carries no descriptors: any sent on the returned socket are closed unread.
    /// - Throws: ``SystemError`` when the socket pair cannot be made; then both descriptors are closed.
    package static func bridging(input: Int32, output: Int32) throws(SystemError) -> UnixSocket {
        let (near, far) = try pair(closingOnFailure: input == output ? [input] : [input, output])
        DedicatedThread.start { pumpIn(from: input, to: far) }
        DedicatedThread.start { pumpOut(from: far, to: output) }
        return near
    }

    /// A socket on which what `input` gives is received, for a reader that writes its answers to the stream's output
    /// itself (a ``FramedConnection`` with an output descriptor): one thread pumps `input`, none the other way.
    ///
    /// The bridge takes `input` and closes it at its end of file, a read error, or once the returned socket is shut
    /// down. Nothing sent on the returned socket goes anywhere.
    /// - Throws: ``SystemError`` when the socket pair cannot be made; then `input` is closed.
    package static func bridging(input: Int32) throws(SystemError) -> UnixSocket {
        let (near, far) = try pair(closingOnFailure: [input])
        DedicatedThread.start { pumpIn(from: input, to: far) }
        return near
    }

    /// A connected pair, or, when it cannot be made, `descriptors` closed and the error thrown.
    private static func pair(closingOnFailure descriptors: [Int32]) throws(SystemError) -> (UnixSocket, UnixSocket) {
        do {
            return try pair()
        } catch {
            for descriptor in descriptors { Syscall.close(descriptor) }
            throw error
        }
    }

    /// The bytes read from `input`, sent to the bridge's socket `far` until either ends.
    private static func pumpIn(from input: Int32, to far: UnixSocket) {
        defer {
            Syscall.close(input)
            far.shutdownSending()
        }
        var buffer = [UInt8](repeating: 0, count: bridgeChunk)
        while true {
            // `far` is polled for its hang-up alone (no events asked): the socket's user shut it down.
            var polled = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: far.descriptor, events: 0, revents: 0),
            ]
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            if polled[1].revents != 0 { return }
            guard polled[0].revents != 0 else { continue }
            let count: Int
            do {
                count = try Syscall.read(input, into: &buffer)
            } catch {
                if error.errorNumber == EAGAIN || error.errorNumber == EWOULDBLOCK { continue }
                return
            }
            guard count > 0 else { return }
            let sent = buffer.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in
                    var offset = 0
                    while offset < count {
                        offset += try far.send(
                            UnsafeRawBufferPointer(rebasing: bytes[offset..<count]), descriptors: [], waiting: true)
                    }
                }
            }
            guard case .success = sent else { return }
        }
    }

    /// The bytes received on the bridge's socket `far`, written to `output` until either ends.
    ///
    /// When `output` is a pipe (as sshd gives a command), the bytes are spliced from the socket into it, never
    /// copied through this process; otherwise, or where the system cannot splice, they are received and written.
    private static func pumpOut(from far: UnixSocket, to output: Int32) {
        defer {
            Syscall.close(output)
            far.shutdown()
        }
        if Syscall.enlargePipe(output, toAtMost: bridgeChunk * 4) != nil {
            // A pipe: splice until the socket ends (0), the pipe's reader goes (an error), or splicing turns out not
            // to work here (nil, nothing moved: copy instead). Each splice waits for nothing: a splice that waits for
            // the socket holds the pipe's lock meanwhile, and the pipe's reader (ssh) would wait for it too.
            splicing: while true {
                var readable = pollfd(fd: far.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&readable, 1, -1) >= 0 || errno == EINTR else { return }
                // (A reader that has gone is EPIPE, never a SIGPIPE.)
                let spliced = Result { () throws(SystemError) in
                    try Syscall.withBrokenPipeSignalBlocked { () throws(SystemError) in
                        try Syscall.splice(
                            far.descriptor, inputOffset: nil, output, count: bridgeChunk, nonBlocking: true)
                    }
                }
                switch spliced {
                case .success(let moved?): if moved == 0 { return }
                case .success(nil): break splicing
                case .failure(let error) where error.errorNumber == EAGAIN || error.errorNumber == EWOULDBLOCK:
                    // The pipe is full (or the socket had nothing after all): wait until the pipe takes bytes.
                    var writable = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    guard poll(&writable, 1, -1) >= 0 || errno == EINTR else { return }
                case .failure: return
                }
            }
        }
        var buffer = [UInt8](repeating: 0, count: bridgeChunk)
        while true {
            var descriptors: [Int32] = []
            let received = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try far.receive(into: bytes, descriptors: &descriptors) }
            }
            for descriptor in descriptors { Syscall.close(descriptor) }
            guard case .success(let count) = received, count > 0 else { return }
            let written = buffer.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in
                    try Syscall.writeWaiting(output, UnsafeRawBufferPointer(rebasing: bytes[..<count]))
                }
            }
            guard case .success = written else { return }
        }
    }

    /// The most bytes a pump moves at once.
    private static let bridgeChunk = 256 << 10
}
