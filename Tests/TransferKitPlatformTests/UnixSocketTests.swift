import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

/// Receives up to `count` bytes and the descriptors that came with them.
private func receive(_ socket: UnixSocket, count: Int = 64) throws -> ([UInt8], [Int32]) {
    var buffer = [UInt8](repeating: 0, count: count)
    var descriptors: [Int32] = []
    let received = try buffer.withUnsafeMutableBytes { bytes in
        try socket.receive(into: bytes, descriptors: &descriptors)
    }
    return (Array(buffer.prefix(received)), descriptors)
}

@Suite("Unix sockets", .timeLimit(.minutes(5)))
struct UnixSocketTests {
    @Test func listensAcceptsAndCarriesBytesBothWays() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s").path
        let listener = try UnixSocket.listen(atPath: path)
        let client = try UnixSocket.connect(toPath: path)
        let server = try listener.accept()
        try client.sendAll(Array("ping".utf8))
        #expect(try receive(server).0 == Array("ping".utf8))
        try server.sendAll(Array("pong".utf8))
        #expect(try receive(client).0 == Array("pong".utf8))
        #expect(server.peerCredentials?.processID == getpid())
    }

    @Test func passesFileDescriptorsThatReadTheSameFile() throws {
        let (left, right) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        try left.sendAll([7], descriptors: [pipe.write])
        Syscall.close(pipe.write)
        let (bytes, descriptors) = try receive(right)
        #expect(bytes == [7])
        let passed = try #require(descriptors.first)
        #expect(descriptors.count == 1)
        try Array("through the passed end".utf8).withUnsafeBytes { try Syscall.write(passed, $0) }
        Syscall.close(passed)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try Syscall.read(pipe.read, into: &buffer)
        #expect(String(decoding: buffer.prefix(count), as: UTF8.self) == "through the passed end")
    }

    @Test func tooManyDescriptorsAreClosedAndReportedAsEMSGSIZE() throws {
        let (left, right) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        defer {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
        }
        try left.sendAll([1], descriptors: [pipe.read, pipe.write, pipe.read])
        var buffer = [UInt8](repeating: 0, count: 8)
        var descriptors: [Int32] = []
        #expect(throws: SystemError(call: "recvmsg", errorNumber: EMSGSIZE)) {
            try buffer.withUnsafeMutableBytes {
                try right.receive(into: $0, descriptors: &descriptors, maxDescriptors: 1)
            }
        }
        #expect(descriptors.isEmpty)
    }

    @Test func aPeerThatNeverReadsTimesOut() throws {
        let (writer, _reader) = try UnixSocket.pair()
        _ = _reader
        let chunk = [UInt8](repeating: 0, count: 16 << 20)
        #expect(throws: SystemError(call: "poll", errorNumber: ETIMEDOUT)) {
            try writer.sendAll(chunk, timeout: .milliseconds(100))
        }
    }

    @Test func waitingForAnAnswerThatNeverComesReturnsFalse() throws {
        let (left, _right) = try UnixSocket.pair()
        _ = _right
        #expect(try left.waitUntilReadable(timeout: .milliseconds(50)) == false)
    }

    @Test func shutdownWakesAReaderWithTheEnd() throws {
        let (left, right) = try UnixSocket.pair()
        left.shutdown()
        #expect(try right.waitUntilReadable(timeout: .seconds(5)))
        #expect(try receive(right).0.isEmpty)
        #expect(try receive(left).0.isEmpty)
    }

    @Test func connectingToNothingNamesThePath() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("absent").path
        #expect(throws: SystemError(call: "connect", errorNumber: ENOENT, path: path)) {
            _ = try UnixSocket.connect(toPath: path)
        }
        let long = "/" + String(repeating: "x", count: 200)
        #expect(throws: SystemError(call: "connect", errorNumber: ENAMETOOLONG, path: long)) {
            _ = try UnixSocket.connect(toPath: long)
        }
    }

    @Test func abstractNamesConnect() throws {
        let name = "transferkit-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        _ = name
        // Listening in the abstract namespace is not offered (nothing here serves there); connecting to an
        // absent abstract name is refused rather than not found.
        #expect(throws: SystemError(call: "connect", errorNumber: ECONNREFUSED, path: "@" + name)) {
            _ = try UnixSocket.connect(toAbstractName: name)
        }
    }
}

@Suite("Writes with a time limit", .timeLimit(.minutes(5)))
struct TimedWriteTests {
    @Test func aPipeNobodyReadsTimesOutInsteadOfBlocking() throws {
        let pipe = try Syscall.makePipe()
        defer {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
        }
        let bytes = [UInt8](repeating: 1, count: 1 << 20)
        #expect(throws: SystemError(call: "poll", errorNumber: ETIMEDOUT)) {
            try bytes.withUnsafeBytes { try Syscall.write(pipe.write, $0, timeout: .milliseconds(100)) }
        }
    }

    /// The test process does not ignore `SIGPIPE` (the `transferkit` tool does): without the write's own guard
    /// this would end the whole test run.
    @Test func aReaderThatHasGoneIsBrokenPipeNotASignal() throws {
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.write) }
        Syscall.close(pipe.read)
        let bytes = [UInt8](repeating: 1, count: 4096)
        #expect(throws: SystemError(call: "write", errorNumber: EPIPE)) {
            try bytes.withUnsafeBytes { try Syscall.write(pipe.write, $0, timeout: .seconds(30)) }
        }
        // The signal the write raised was discarded, not left pending for the next thread that unblocks it.
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
    }

    @Test func aReaderGetsEveryByte() async throws {
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // The reader thread hands over what it read once the pipe ends.
        let received = Latch<[UInt8]>()
        DedicatedThread.start {
            var all: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while let count = try? Syscall.read(pipe.read, into: &buffer), count > 0 {
                all += buffer.prefix(count)
            }
            received.open(all)
        }
        try bytes.withUnsafeBytes { try Syscall.write(pipe.write, $0, timeout: .seconds(30)) }
        Syscall.close(pipe.write)
        #expect(await received.wait() == bytes)
    }
}
