import Foundation
import Testing
import TransferChecksum
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// A hostile image owner (issue 35, severe 2): xclip serves a PNG whose header claims 2³¹−1 × 2³¹−1 pixels over a
/// decompression bomb. Converting it fails that paste alone, with the image limit's error, before anything is inflated;
/// the PNG itself still pastes.
@Suite(
    "A hostile PNG on the X11 clipboard", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class HostileImagePasteTests {
    let server: XvfbServer
    let folder: URL

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "hostile-image")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: arguments, environment: server.environment)
    }

    /// The PNG: a huge IHDR, then an IDAT that would inflate to 64 MiB.
    static func hostilePNG() -> Data {
        func word(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> UInt32($0) & 0xff) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return word(UInt32(data.count)) + typed + word(CRC32.checksum(typed))
        }
        let header = word(0x7fff_ffff) + word(0x7fff_ffff) + [8, 6, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header)
                + chunk("IDAT", zeroBomb(count: 64 << 20)) + chunk("IEND", []))
    }

    @Test("paste --type image/bmp of xclip's hostile PNG fails with limitExceeded; paste --type image/png still works")
    func hostilePNG() async throws {
        let png = Self.hostilePNG()
        let path = folder.appendingPathComponent("hostile.png").path
        try png.write(to: URL(fileURLWithPath: path))
        let xclip = try server.startXclipServing(["-selection", "clipboard", "-t", "image/png"], file: path)
        defer { xclip.stop() }
        var offered = false
        for _ in 0..<500 where !offered {
            let targets = try await server.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
            offered = String(decoding: targets.output, as: UTF8.self).contains("image/png")
            if !offered { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(offered, "xclip never offered image/png")
        let bmp = try await transferkit(["paste", "--type", "image/bmp", "-o", "-"])
        #expect(bmp.status == 2, "\(bmp.errorText)")
        #expect(bmp.errorText.contains("conversionFailed"), "\(bmp.errorText)")
        #expect(bmp.errorText.contains("limitExceeded"), "\(bmp.errorText)")
        #expect(bmp.standardOutput.isEmpty)
        let original = try await transferkit(["paste", "--type", "image/png", "-o", "-"])
        #expect(original.status == 0, "\(original.errorText)")
        #expect(Data(original.standardOutput) == png)
    }
}
