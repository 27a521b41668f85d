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
