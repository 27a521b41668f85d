import Foundation
import Testing
import TransferKitPlatform

@Suite("Child processes", .timeLimit(.minutes(5)))
struct ChildProcessTests {
    @Test func feedsInputAndCollectsOutput() async throws {
        let input = [UInt8]((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let result = try await ChildProcess.run("/bin/cat", arguments: [], input: input)
        #expect(result.status == 0)
        #expect(result.standardOutput == input)
        #expect(result.standardError.isEmpty)
    }

    @Test func reportsExitStatusAndStandardError() async throws {
        let result = try await ChildProcess.run("/bin/sh", arguments: ["-c", "echo oops >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.errorText == "oops\n")
    }

    @Test func reportsSignals() async throws {
        let result = try await ChildProcess.run("/bin/sh", arguments: ["-c", "kill -TERM $$"])
        #expect(result.status == 128 + 15)
    }

    @Test func passesTheEnvironment() async throws {
        let result = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", "printf %s \"$GREETING\""], environment: ["GREETING": "hi"])
        #expect(result.outputText == "hi")
    }

    @Test func missingProgramThrows() async {
        await #expect(throws: ChildProcess.SpawnError.self) {
            try await ChildProcess.run("/nonexistent/program", arguments: [])
        }
    }
}

@Suite("A child process as a byte stream", .timeLimit(.minutes(5)))
struct ChildStreamTests {
    @Test("a piped output is a large pipe of its own, handed over once; the input stays the socket")
    func pipedOutput() async throws {
        let child = try ChildStream.start(["/bin/sh", "-c", "read line; echo \"got $line\""], pipedOutput: true)
        let output = try #require(child.takeOutput())
        defer { Syscall.close(output) }
        #expect(child.takeOutput() == nil, "handed over once")
        let wanted = min(ChildStream.outputPipeCapacity, Self.pipeMaximumSize ?? ChildStream.outputPipeCapacity)
        #expect(Syscall.pipeCapacity(output) == wanted)

        try child.socket.sendAll(Array("x\n".utf8), timeout: .seconds(30))
        var buffer = [UInt8](repeating: 0, count: 64)
        var text: [UInt8] = []
        while true {
            let count = try Syscall.read(output, into: &buffer)
            if count == 0 { break }
            text += buffer[..<count]
        }
        #expect(String(decoding: text, as: UTF8.self) == "got x\n")
        #expect(await child.exitStatus(until: .after(.seconds(30))) == 0)
    }

    @Test("a child whose output is the socket has no pipe to hand over")
    func socketOutput() async throws {
        let child = try ChildStream.start(["/bin/sh", "-c", "echo hi"])
        #expect(child.takeOutput() == nil)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { bytes in
            var descriptors: [Int32] = []
            return try child.socket.receive(into: bytes, descriptors: &descriptors)
        }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "hi\n")
        #expect(await child.exitStatus(until: .after(.seconds(30))) == 0)
    }

    /// `/proc/sys/fs/pipe-max-size`, the most an unprivileged process may make a pipe hold.
    static var pipeMaximumSize: Int? {
        (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
