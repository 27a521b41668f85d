import Foundation
import Testing
import TransferImaging
import TransferKit
import TransferKitCLI
import TransferKitTestSupport
import UniformTypes

@Suite("convert-type and extract of a derived type", .timeLimit(.minutes(5)))
struct ConvertTypeCommandTests {
    @Test("extract --type public.plain-text of an HTML-only item gives its text")
    func extractDerivedText() async throws {
        let space = try Workspace()
        let item = TransferArchive.Item(
            suggestedName: "page.html",
            representations: [.init(type: .html, data: Data("<p>Fish &amp; chips</p><p>two</p>".utf8))])
        let path = try space.writeArchive("page.transferkit", TransferArchive(items: [item]))
        let run = await runInProcess(tool, ["extract", path, "--type", "public.plain-text"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "Fish & chips\n\ntwo")
        // Through one chain, to UTF-16 with a mark, and from standard input.
        let utf16 = try await runBinary(
            ["extract", "-", "--type", "public.utf16-external-plain-text", "-o", "-"],
            input: [UInt8](try space.read("page.transferkit")))
        #expect(utf16.status == 0, "\(utf16.error)")
        #expect(Array(utf16.outputBytes.prefix(4)) == [0xFF, 0xFE, 0x46, 0x00])
        // --exact never converts.
        let exact = await runInProcess(tool, ["extract", path, "--type", "public.utf8-plain-text", "--exact"])
        #expect(exact.status == 1)
        #expect(exact.error.hasSuffix(" (typeNotOffered)\n"))
    }

    @Test("convert-type converts a file, rewrites line endings, and says when no converter leads to the type")
    func convertFile() async throws {
        let space = try Workspace()
        let notes = try space.write("notes.txt", Array("é\nline\n".utf8))
        let run = await runInProcess(
            tool, ["convert-type", notes, "--to", "public.utf16-external-plain-text", "-o", space.path("u16.txt")])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            [UInt8](try space.read("u16.txt")) == [
                0xFF, 0xFE, 0xE9, 0, 0x0A, 0, 0x6C, 0, 0x69, 0, 0x6E, 0, 0x65, 0, 0x0A, 0,
            ])
        let back = await runInProcess(
            tool,
            [
                "convert-type", space.path("u16.txt"), "--from", "public.utf16-external-plain-text", "--to",
                "public.utf8-plain-text", "--line-endings", "crlf",
            ])
        #expect(back.status == 0, "\(back.error)")
        #expect(back.output == "é\r\nline\r\n")

        let html = try space.write("page.html", Array("<ul><li>a</li><li>b &lt; c</li></ul>".utf8))
        let text = await runInProcess(tool, ["convert-type", html, "--to", "public.plain-text"])
        #expect(text.output == "a\nb < c")

        let none = await runInProcess(tool, ["convert-type", notes, "--to", "public.png"])
        #expect(none.status == 1)
        #expect(none.error.hasSuffix(" (typeNotOffered)\n"))

        let invalid = try space.write("bad.txt", [0x41, 0xC0, 0x80])
        let failed = await runInProcess(
            tool,
            ["convert-type", invalid, "--from", "public.utf8-plain-text", "--to", "public.utf16-plain-text", "-o", "-"])
        #expect(failed.status == 2)
        #expect(failed.error.hasSuffix(" (conversionFailed)\n"))

        let list = await runInProcess(tool, ["convert-type", "--list"])
        #expect(list.output.contains("public.html -> public.utf8-plain-text\n"))
    }

    @Test("convert-type converts a PNG to BMP, and a file that is not a PNG fails with conversionFailed")
    func convertImage() async throws {
        let space = try Workspace()
        let image = try RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 64])
        let png = try space.write("x.png", [UInt8](image.encoded(as: .png)))
        let run = await runInProcess(
            tool, ["convert-type", png, "--to", "com.microsoft.bmp", "-o", space.path("x.bmp")])
        #expect(run.status == 0, "\(run.error)")
        #expect(try RGBAImage(decoding: space.read("x.bmp"), as: .bmp) == image)

        let fake = try space.write("fake.png", Array("not a png".utf8))
        let failed = await runInProcess(tool, ["convert-type", fake, "--to", "com.microsoft.bmp", "-o", "-"])
        #expect(failed.status == 2)
        #expect(failed.error.hasSuffix(" (conversionFailed)\n"))
    }
}
