import Foundation
import Testing
import TransferImaging
import TransferKitPlatform
import TransferKitTestSupport

/// The deflater's streams read by another zlib: Python's (a child process).
@Suite("zlib: the deflater's streams inflate in Python", .timeLimit(.minutes(5)))
struct ZlibInteropTests {
    @Test(
        "Python's zlib inflates the deflater's streams",
        .enabled(if: SystemTool.exists("python3"), "needs /usr/bin/python3"))
    func pythonInflates() async throws {
        let script = "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))"
        for sample in deflaterSamples() {
            let result = try await ChildProcess.run(
                SystemTool.path("python3"), arguments: ["-c", script], input: Deflate.zlib(sample))
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.standardOutput == sample)
        }
    }
}
