import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDisplay

@Suite("X11 authority files as xauth writes them", .timeLimit(.minutes(5)))
struct XauthorityAgreementTests {
    @Test(
        "An entry is written byte for byte as `xauth add` writes it (the test servers' authority files)",
        .enabled(if: SystemTool.exists("xauth"), "needs xauth (Debian: xauth)"))
    func authorityAsXauthWritesIt() async throws {
        let directory = try makeTemporaryDirectory(prefix: "transferkit-xauth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Xauthority").path
        let cookie: [UInt8] = (0..<16).map { UInt8($0 * 17) }
        let added = try await runTool(
            [
                SystemTool.path("xauth"), "-f", file, "add", ":517", ".",
                cookie.map { String(format: "%02x", $0) }.joined(),
            ],
            environment: ProcessInfo.processInfo.environment)
        #expect(added.status == 0, "\(added.error)")
        let written = try #require(FileManager.default.contents(atPath: file))
        let entry = XvfbServer.authorityEntry(display: 517, cookie: cookie)
        #expect(Array(written) == entry.encoded)
    }
}
