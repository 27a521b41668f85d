import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferImaging
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

extension TestDesktop {
    /// Runs `transferkit` with `arguments` on this desktop.
    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: arguments, environment: environment)
    }

    /// What the stock tool reads of `type` (failing the test when it fails).
    func stockBytes(_ type: String) async throws -> Data {
        let file = directory.appendingPathComponent("stock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let status = try await stockRead(type, into: file)
        #expect(status == 0, "the stock tool could not read \(type)")
        return FileManager.default.contents(atPath: file) ?? Data()
    }

    /// Images through the converters on this desktop's clipboard (issue 25):
    /// - the stock tool's `image/png` pastes as `--type image/bmp`, converted in the reader;
    /// - `copy` of a PNG offers its BMP (converted by the owner when asked, offered after the derived marker), and the
    ///   stock tool reads it;
    /// - `paste --archive` of that copy keeps the PNG alone (the converted copies are the reader's to make), and a
    ///   paste of the BMP from it still works;
    /// - a PNG that does not decode is kept by `paste --archive` all the same; its BMP fails with
    ///   `conversionFailed`.
    func expectDerivedImages() async throws {
        let pixels = try RGBAImage(decoding: pngBytes, as: .png)
        let png = directory.appendingPathComponent("derived-\(UUID().uuidString).png")
        try pngBytes.write(to: png)

        // A stock tool's PNG, pasted as BMP.
        let stock = try await stockCopy(png, type: "image/png")
        try await waitUntilOffered("image/png")
        let fromStock = try await transferkit(["paste", "--type", "image/bmp", "-o", "-"])
        #expect(fromStock.status == 0, "\(fromStock.errorText)")
        #expect(try RGBAImage(decoding: Data(fromStock.standardOutput), as: .bmp) == pixels)
        stock?.stop()

        // TransferKit's copy: the owner converts for the stock tool.
        let copy = try await transferkit(["copy", png.path])
        #expect(copy.status == 0, "\(copy.errorText)")
        try await waitUntilOffered(ClipboardTypeMapping.derivedName)
        let offered = try await offeredNames()
        #expect(offered.contains("image/png") && offered.contains("image/bmp"), "\(offered)")
        // The converted copies follow the marker.
        let marker = offered.firstIndex(of: ClipboardTypeMapping.derivedName) ?? offered.endIndex
        #expect(offered[..<marker].contains("image/png") && offered[marker...].contains("image/bmp"), "\(offered)")
        #expect(try RGBAImage(decoding: try await stockBytes("image/bmp"), as: .bmp) == pixels)
        let hint = String(decoding: try await stockBytes(ClipboardTypeMapping.derivedName), as: UTF8.self)
        let derived = hint.split(separator: "\n").map(String.init)
        #expect(derived.contains("image/bmp") && derived.contains("com.microsoft.bmp"), "\(derived)")
        #expect(!derived.contains("image/png") && !derived.contains("public.png"), "\(derived)")
        // `paste --list` names the marker as such, not as a (dynamic) type.
        let list = try await transferkit(["paste", "--list"])
        #expect(list.outputText.contains("\(ClipboardTypeMapping.derivedName)\thint: derived\n"), "\(list.outputText)")

        // Its snapshot holds the PNG, not the BMP, PAM, PPM and pixels derived from it.
        let archive = directory.appendingPathComponent("derived-\(UUID().uuidString).transferkit").path
        let snapshot = try await transferkit(["paste", "--archive", "-o", archive])
        #expect(snapshot.status == 0, "\(snapshot.errorText)")
        let inspect = try await transferkit(["inspect", archive, "--json"])
        #expect(inspect.outputText.contains(#""type":"public.png""#), "\(inspect.outputText)")
        for type in ["com.microsoft.bmp", "org.transferkit.pam", "org.transferkit.ppm", "org.transferkit.rgba-pixels"] {
            #expect(!inspect.outputText.contains(type), "\(type) in \(inspect.outputText)")
        }
        let bmp = try await transferkit(["paste", "--type", "image/bmp", "-o", "-"])
        #expect(bmp.status == 0, "\(bmp.errorText)")
        #expect(try RGBAImage(decoding: Data(bmp.standardOutput), as: .bmp) == pixels)

        // A PNG signature followed by noise: offered as PNG (and BMP, lazily); the snapshot keeps the PNG.
        let broken = directory.appendingPathComponent("broken-\(UUID().uuidString).png")
        let noise = pngBytes.prefix(8) + Data((0..<300).map { UInt8($0 % 251) })
        try noise.write(to: broken)
        let copyBroken = try await transferkit(["copy", broken.path])
        #expect(copyBroken.status == 0, "\(copyBroken.errorText)")
        try await waitUntilPNG(noise)
        let brokenArchive = directory.appendingPathComponent("broken-\(UUID().uuidString).transferkit").path
        let brokenSnapshot = try await transferkit(["paste", "--archive", "-o", brokenArchive])
        #expect(brokenSnapshot.status == 0, "\(brokenSnapshot.errorText)")
        let extracted = try await transferkit(["extract", brokenArchive, "--type", "public.png", "-o", "-"])
        #expect(Data(extracted.standardOutput) == noise, "\(extracted.errorText)")
        let brokenBMP = try await transferkit(["paste", "--type", "image/bmp", "-o", "-"])
        #expect(brokenBMP.status != 0)
        #expect(brokenBMP.errorText.contains("conversionFailed"), "\(brokenBMP.errorText)")
    }

    /// Waits until the clipboard's `image/png` is `bytes` (a new copy takes it a moment after it starts).
    private func waitUntilPNG(_ bytes: Data) async throws {
        for _ in 0..<1000 {
            let file = directory.appendingPathComponent("png-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            if try await stockRead("image/png", into: file) == 0, FileManager.default.contents(atPath: file) == bytes {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the clipboard never offered the new PNG")
    }
}
