#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// A child process whose standard input and output are one end of a socket pair: a byte stream to a program such as
/// `ssh host transferkit serve --stdio`, read and written as a ``UnixSocket``. On request its standard output is a
/// large pipe of its own instead (``takeOutput()``), which a program that writes much (ssh) fills at less cost.
///
/// The child's standard error is read as it comes and its last ``errorTailLimit`` bytes are kept, for the message of
/// a failure (`ssh: connect to host … refused`, `transferkit: command not found`). A thread of its own reaps the
/// child when it exits. Shutting the socket down ends the child's input (and its output, unless that is the pipe): a
/// program that stops at the end of its input (ssh, and the command ssh runs) then exits; one that does not is
/// signalled with ``terminate()``.
package final class ChildStream: Sendable {
    /// This side's end of the child's standard input and output.
    package let socket: UnixSocket
    /// The child's process id.
    package let processID: Int32
    /// The program's path.
    package let executable: String
    private let exit = Latch<Int32>()
    /// The last bytes of the child's standard error.
    private let errorOutput = SanitizedMutex([UInt8]())
    /// Opens when the child's standard error has ended.
    private let errorsEnded = Latch<Void>()
    /// The read end of the child's standard output when it is a pipe, until ``takeOutput()``.
    private let output: SanitizedMutex<Int32?>

    /// The capacity asked for a piped standard output (the system may allow less).
    package static let outputPipeCapacity = 1 << 20

    /// The most bytes of the child's standard error that are kept.
    package static let errorTailLimit = 4096

    private init(socket: UnixSocket, output: Int32?, processID: Int32, executable: String) {
        self.socket = socket
        self.output = SanitizedMutex(output)
        self.processID = processID
        self.executable = executable
    }

    deinit {
        if let output = takeOutput() { Syscall.close(output) }
    }

    /// The read end of the child's standard output, when it was started with `pipedOutput`, once: the caller owns it
    /// (a ``FramedConnection`` made with ``FramedConnection/init(socket:input:sendTimeout:clock:)`` takes it).
    /// Later calls, and a child whose output is the socket, give `nil`.
    package func takeOutput() -> Int32? {
        output.withLock { $0.take() }
    }

    /// Starts `command` (its first word the program, found on `environment`'s `PATH` unless it has a `/`).
    /// - Parameters:
    ///   - environment: The child's environment; `nil` passes this process's own.
    ///   - pipedOutput: Whether the child's standard output is a pipe of ``outputPipeCapacity`` bytes (as far as the
    ///     system allows) whose read end ``takeOutput()`` gives, rather than the socket. Its standard input is the
    ///     socket either way.
    /// - Throws: ``ChildProcess/SpawnError`` when the program is not found or cannot be started (`ENOENT` for an
    ///   empty command or a program on no `PATH` directory).
    package static func start(
        _ command: [String], environment: [String: String]? = nil, pipedOutput: Bool = false
    ) throws(ChildProcess.SpawnError) -> ChildStream {
        guard let program = command.first else { throw ChildProcess.SpawnError(executable: "", errorNumber: ENOENT) }
        let searchPath = environment.map { $0["PATH"] } ?? getenv("PATH").map { String(cString: $0) }
        guard let executable = ExecutablePath.search(named: program, in: searchPath) else {
            throw ChildProcess.SpawnError(executable: program, errorNumber: ENOENT)
        }
        let near: UnixSocket
        let far: UnixSocket
        var errors: (read: Int32, write: Int32) = (-1, -1)
        var output: (read: Int32, write: Int32)?
        func closePipes() {
            for descriptor in [errors.read, errors.write, output?.read ?? -1, output?.write ?? -1] where descriptor >= 0
            {
                Syscall.close(descriptor)
            }
        }
        do {
            (near, far) = try UnixSocket.pair()
            errors = try Syscall.makePipe()
            if pipedOutput {
                let pipe = try Syscall.makePipe()
                output = pipe
                Syscall.enlargePipe(pipe.write, toAtMost: outputPipeCapacity)
            }
        } catch {
            closePipes()
            throw ChildProcess.SpawnError(executable: executable, errorNumber: error.errorNumber)
        }
        let processID: Int32
        do {
            processID = try ChildProcess.spawn(
                executable, arguments: Array(command.dropFirst()), environment: environment,
                standardInput: far.descriptor, standardOutput: output?.write ?? far.descriptor,
                standardError: errors.write)
        } catch {
            closePipes()
            throw error
        }
        // The child holds its copies; this side's go, so the child's exit ends the stream and the error output.
        // (`far` closes its descriptor when it goes, at the end of this scope: `close()` would shut the child's
        // stream down too, since both are one socket.)
        Syscall.close(errors.write)
        if let output { Syscall.close(output.write) }
        let child = ChildStream(socket: near, output: output?.read, processID: processID, executable: executable)
        let errorOutput = errors.read
        DedicatedThread.start { [child] in child.readErrors(from: errorOutput) }
        DedicatedThread.start { [child] in
            let status = (try? ChildProcess.waitForExit(processID, executable: executable)) ?? -1
            // Its last words first (a process the child left behind may hold the error output open: not for long).
            _ = child.errorsEnded.block(until: .after(.seconds(1)))
            _ = child.exit.open(status)
        }
        return child
    }

    /// The child's exit status (128 plus the signal's number when a signal ended it), once it has exited and its
    /// standard error has ended; `nil` when that did not happen before `deadline`.
    package func exitStatus(until deadline: Deadline) async -> Int32? {
        guard let status = try? await exit.wait(until: deadline) else { return nil }
        return status
    }

    /// The last ``errorTailLimit`` bytes of the child's standard error so far, as text without its trailing line
    /// breaks.
    package var errorTail: String {
        let bytes = errorOutput.withLock { $0 }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }

    /// The sentence for a failure's message once the child has exited (waiting at most until `deadline`): `` `ssh`
    /// exited with status 255: Permission denied (publickey).``, with its last words when it said any; `nil` while it
    /// runs.
    package func exitReport(until deadline: Deadline) async -> String? {
        guard let status = await exitStatus(until: deadline) else { return nil }
        let program = executable.split(separator: "/").last.map(String.init) ?? executable
        let said = errorTail
        return "`\(program)` exited with status \(status)" + (said.isEmpty ? "." : ": \(said)")
    }

    /// Ends the stream (the child reads its end of input) and, if the child is still running after `grace`, sends it
    /// `SIGTERM`.
    package func terminate(after grace: Duration = .seconds(2)) {
        socket.close()
        let exit = exit
        let processID = processID
        DedicatedThread.start {
            if exit.block(until: .after(grace)) == nil { _ = kill(processID, SIGTERM) }
        }
    }

    private func readErrors(from descriptor: Int32) {
        defer { Syscall.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try? Syscall.read(descriptor, into: &buffer), count > 0 {
            errorOutput.withLock { tail in
                tail += buffer[..<count]
                if tail.count > Self.errorTailLimit { tail.removeFirst(tail.count - Self.errorTailLimit) }
            }
        }
        _ = errorsEnded.open()
    }
}
