import Foundation
import Testing
import TransferChecksum
import TransferImaging
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// The converters' memory, measured on `convert-type` runs of the memory probe (issue 35): a PNG whose image data
/// is 8 bytes a pixel (16-bit RGBA), a large HTML page and a long URL list. Each run's peak is compared with the
/// probe's baseline for a trivial command; no wall-clock figure is checked.
@Suite("Converter memory (convert-type, measured by the memory probe)", .timeLimit(.minutes(5)))
struct ConverterMemoryTests {
    private let probe = TransferKitExecutable.product(named: "transferkit-memory-probe")

    /// The peak above the probe's baseline, in MiB, and the run.
    private func peakAboveBaseline(_ arguments: [String]) async throws -> (MiB: Double, run: ChildProcess.Result) {
        let baseline = try await ChildProcess.run(probe, arguments: ["types", "public.png"])
        let run = try await ChildProcess.run(probe, arguments: arguments)
        return (Double(try reportedPeak(run) - reportedPeak(baseline)) / 1024, run)
    }

    /// Expects a peak below `bound`, except under the thread sanitizer, whose allocator and shadow memory measure
    /// the probe rather than the converter (a peak 1.6–2.8× the plain build's): there the figure is printed, and the
    /// README's `swift test`, which CI runs first, holds the bound.
    private func expectPeak(
        _ peak: Double, below bound: Double, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard !threadSanitizerIsActive else {
            print("converter memory under the thread sanitizer: peak \(peak) MiB \(what) (bound \(bound) unchecked)")
            return
        }
        #expect(peak < bound, "peak \(peak) MiB above the baseline \(what)", sourceLocation: sourceLocation)
    }

    private func reportedPeak(_ run: ChildProcess.Result) throws -> Int {
        let line = try #require(run.errorText.split(separator: "\n").last { $0.hasPrefix("transferkit: peak memory ") })
        return try #require(Int(line.split(separator: " ").dropLast().last ?? ""))
    }

    /// A 16-bit RGBA PNG of `side × side` transparent black pixels whose IDAT is a small stream of back-references
    /// (about 13 bits per 258 bytes inflated).
    static func zeroPNG(side: Int) -> [UInt8] {
        func word(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> UInt32($0) & 0xff) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return word(UInt32(data.count)) + typed + word(CRC32.checksum(typed))
        }
        let header = word(UInt32(side)) + word(UInt32(side)) + [16, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header)
            + chunk("IDAT", zeroBomb(count: (side * 8 + 1) * side)) + chunk("IEND", [])
    }

    @Test("a 16-bit PNG to BMP holds the pixels and the file, not the 8-byte-a-pixel image data as well")
    func pngToBMP() async throws {
        let space = try Workspace()
        let side = 2048
        let input = try space.write("zeros.png", Self.zeroPNG(side: side))
        let measured = try await peakAboveBaseline([
            "convert-type", input, "--from", "public.png", "--to", "com.microsoft.bmp", "-o", space.path("out.bmp"),
        ])
        #expect(measured.run.status == 0, "\(measured.run.errorText)")
        #expect(try space.read("out.bmp").count == 122 + side * side * 4)
        // 16 MiB of RGBA and a 16 MiB file: about 32 MiB. Holding the 32 MiB of inflated data as well made it 48,
        // and the BMP's growing buffer more.
        let rgba = Double(side * side * 4) / 1_048_576
        expectPeak(measured.MiB, below: 2.5 * rgba)
    }

    @Test("a 1-bit BMP to PNG holds the pixels, not also the filtered rows it deflates")
    func bmpToPNG() async throws {
        let space = try Workspace()
        let side = 1536
        let rowBytes = (side + 31) / 32 * 4
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(value >> ($0 * 8) & 0xff) } }
        let header =
            [0x42, 0x4d] + le(62 + rowBytes * side, 4) + le(0, 4) + le(62, 4) + le(40, 4) + le(side, 4) + le(side, 4)
            + le(1, 2) + le(1, 2) + le(0, 4) + le(rowBytes * side, 4) + le(2835, 4) + le(2835, 4) + le(2, 4)
            + le(0, 4) + [0, 0, 0, 0, 255, 255, 255, 0]
        let rows = (0..<side).flatMap { row in [UInt8](repeating: row % 3 == 0 ? 0xaa : 0x0f, count: rowBytes) }
        let input = try space.write("stripes.bmp", header + rows)
        let measured = try await peakAboveBaseline([
            "convert-type", input, "--from", "com.microsoft.bmp", "--to", "public.png", "-o", space.path("out.png"),
        ])
        #expect(measured.run.status == 0, "\(measured.run.errorText)")
        #expect(ImageFormat(sniffing: try space.read("out.png")) == .png)
        // 9 MiB of RGBA; the filtered rows held whole for the deflater added 6.75 MiB (3 bytes a pixel).
        let rgba = Double(side * side * 4) / 1_048_576
        expectPeak(measured.MiB, below: 1.4 * rgba)
    }

    @Test("HTML to text holds a few times the page, not its characters as 4-byte scalars")
    func htmlToText() async throws {
        let space = try Workspace()
        let paragraph = "<p class=\"x\">Fish &amp; chips, caf&eacute; na\u{EF}ve &#x263A;</p>\n"
        let count = (8 << 20) / paragraph.utf8.count
        let input = try space.write("page.html", Array(String(repeating: paragraph, count: count).utf8))
        let size = Double(count * paragraph.utf8.count) / 1_048_576
        let measured = try await peakAboveBaseline([
            "convert-type", input, "--from", "public.html", "--to", "public.utf8-plain-text", "-o",
            space.path("out.txt"),
        ])
        #expect(measured.run.status == 0, "\(measured.run.errorText)")
        let text = try space.read("out.txt")
        #expect(text.starts(with: Data("Fish & chips, café naïve ☺\n\nFish".utf8)))
        // The input, its repaired copy, the text and its Data: under 5×; the scalar array alone was 4×.
        expectPeak(measured.MiB, below: 5 * size, "for \(size) MiB of HTML")
    }

    @Test("a 200 000-line text/uri-list converts as it streams, in less memory than the list itself")
    func uriListStreams() async throws {
        let space = try Workspace()
        var list = ""
        for index in 0..<200_000 { list += "file:///home/user/Documents/report-\(index).pdf\r\n" }
        let input = try space.write("files.uri", Array(list.utf8))
        let size = Double(list.utf8.count) / 1_048_576
        let measured = try await peakAboveBaseline([
            "convert-type", input, "--from", "org.transferkit.uri-list", "--to", "public.utf8-plain-text", "-o",
            space.path("out.txt"),
        ])
        #expect(measured.run.status == 0, "\(measured.run.errorText)")
        let lines = String(decoding: try space.read("out.txt"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 200_000)
        #expect(lines.last == "/home/user/Documents/report-199999.pdf")
        // A URL object per line took about 480 bytes a line (96 MB here).
        expectPeak(measured.MiB, below: size, "for \(size) MiB of list")
    }

    @Test("convert-type takes MIME names for --from and --to, as the clipboard commands' --type does")
    func mimeNames() async throws {
        let space = try Workspace()
        let input = try space.write(
            "files", Array("# a comment\r\nfile:///tmp/a%20b.txt\r\nhttps://example.com/\r\n".utf8))
        let run = await runInProcess(tool, ["convert-type", input, "--from", "text/uri-list", "--to", "text/plain"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "/tmp/a b.txt\nhttps://example.com/")
        let bad = await runInProcess(tool, ["convert-type", input, "--from", "text/", "--to", "text/plain"])
        #expect(bad.status != 0)
    }
}
