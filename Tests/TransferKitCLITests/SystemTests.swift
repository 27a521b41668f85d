import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitPlatform

@Suite("The transferkit binary", .timeLimit(.minutes(5)))
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

@Suite("Output to a closed pipe", .timeLimit(.minutes(5)))
struct ClosedPipeTests {
    @Test func writingAfterTheReaderLeftIsAWriteFailureNotADeath() throws {
        // The tool ignores SIGPIPE (TransferKitTool.main); do the same here so the write returns EPIPE.
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let output = FileDescriptorOutput(fileDescriptor: ends[1])
        let error = #expect(throws: ToolIOError.self) { try output.write("lost") }
        #expect(error?.code == .writeFailed)
        #expect((error?.cause as? SystemError)?.errorNumber == EPIPE)
        #expect(error?.message == "cannot write output: Broken pipe")
    }
}
