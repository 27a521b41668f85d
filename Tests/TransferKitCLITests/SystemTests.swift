import Foundation
import Testing
import TransferKit
import TransferKitCLI

@Suite("Child processes")
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

@Suite("Atomic files")
struct AtomicFileTests {
    @Test func writesTheWholeFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        try await AtomicFile.write(toPath: path) { try $0.write("hello") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions != 0o600)
    }

    @Test func failureLeavesTheOldFileAndNoTemporary() async throws {
        struct Interrupted: Error {}
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: Interrupted.self) {
            try await AtomicFile.write(toPath: path) { sink in
                try sink.write("half")
                throw Interrupted()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
    }

    @Test func unwritableDirectoryThrows() async {
        await #expect(throws: AtomicFile.WriteError.self) {
            try await AtomicFile.write(toPath: "/nonexistent-dir/out.bin") { _ in }
        }
    }
}

@Suite("The transferkit binary")
struct BinaryTests {
    @Test func helpExitsZero() async throws {
        let run = try await runBinary(["--help"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("OVERVIEW: "))
    }

    @Test func unknownCommandExitsTwo() async throws {
        let run = try await runBinary(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.error == "transferkit: unknown command 'frobnicate' (see 'transferkit --help')\n")
    }
}

@Suite("Output to a closed pipe")
struct ClosedPipeTests {
    @Test func writingAfterTheReaderLeftIsAnOutputErrorNotADeath() throws {
        // The tool ignores SIGPIPE (TransferKitTool.main); do the same here so the write returns EPIPE.
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let output = FileDescriptorOutput(fileDescriptor: ends[1])
        let error = #expect(throws: OutputError.self) { try output.write("lost") }
        #expect(error == OutputError(errorNumber: EPIPE))
        #expect(error?.description == "cannot write output: Broken pipe")
    }
}
