import Foundation
import Testing
import TransferKitTestSupport

@testable import UniformTypes

/// One `>`-line of a magic file: `[indent]>offset=<len><value>[&mask][~word][+range]\n`.
func magicLine(
    indent: Int = 0, offset: Int, value: [UInt8], mask: [UInt8]? = nil, wordSize: Int? = nil, range: Int? = nil,
    trailing: String = ""
) -> [UInt8] {
    var line = Array((indent > 0 ? "\(indent)" : "").utf8) + Array(">\(offset)=".utf8)
    line += [UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
    if let mask { line += Array("&".utf8) + mask }
    if let wordSize { line += Array("~\(wordSize)".utf8) }
    if let range { line += Array("+\(range)".utf8) }
    return line + Array((trailing + "\n").utf8)
}

/// A magic file with the header and one section per entry.
func magicFile(_ sections: [(priority: Int, mimeType: String, lines: [[UInt8]])]) -> [UInt8] {
    var bytes = MIMEMagicParser.header
    for section in sections {
        bytes += Array("[\(section.priority):\(section.mimeType)]\n".utf8)
        for line in section.lines { bytes += line }
    }
    return bytes
}

private func parse(_ bytes: [UInt8]) throws(UniformTypeError) -> MIMEMagic {
    try MIMEMagic(files: [("fixture/magic", bytes)])
}

@Suite("The shared-mime-info magic parser and matcher", .timeLimit(.minutes(5)))
struct MIMEMagicTests {
    @Test("the highest priority that matches wins; equal priorities keep file order")
    func priorities() throws {
        let magic = try parse(
            magicFile([
                (50, "application/x-low", [magicLine(offset: 0, value: Array("AB".utf8))]),
                (80, "application/x-high", [magicLine(offset: 0, value: Array("A".utf8))]),
                (50, "application/x-later", [magicLine(offset: 0, value: Array("A".utf8))]),
            ]))
        #expect(magic.match(Array("ABC".utf8))?.mimeType == "application/x-high")
        #expect(magic.match(Array("ABC".utf8))?.priority == 80)
        #expect(magic.match(Array("XYZ".utf8)) == nil)
        let tie = try parse(
            magicFile([
                (50, "application/x-first", [magicLine(offset: 0, value: Array("A".utf8))]),
                (50, "application/x-second", [magicLine(offset: 0, value: Array("A".utf8))]),
            ]))
        #expect(tie.match(Array("A".utf8))?.mimeType == "application/x-first")
    }

    @Test("a nested line must match below its parent; siblings are alternatives")
    func nesting() throws {
        let magic = try parse(
            magicFile([
                (
                    50, "application/x-nested",
                    [
                        magicLine(offset: 0, value: Array("PK".utf8)),
                        magicLine(indent: 1, offset: 4, value: Array("one".utf8)),
                        magicLine(indent: 1, offset: 4, value: Array("two".utf8)),
                        magicLine(indent: 2, offset: 7, value: Array("!".utf8)),
                        magicLine(offset: 0, value: Array("ZZ".utf8)),
                    ]
                )
            ]))
        #expect(magic.match(Array("PK..one".utf8))?.mimeType == "application/x-nested")
        #expect(magic.match(Array("PK..two!".utf8))?.mimeType == "application/x-nested")
        #expect(magic.match(Array("PK..two?".utf8)) == nil)
        #expect(magic.match(Array("PK..six".utf8)) == nil)
        // A top-level line without children matches alone.
        #expect(magic.match(Array("ZZ".utf8))?.mimeType == "application/x-nested")
    }

    @Test("masks, ranges and the data's end")
    func masksAndRanges() throws {
        let magic = try parse(
            magicFile([
                (60, "application/x-masked", [magicLine(offset: 1, value: [0x40, 0x01], mask: [0xF0, 0xFF])]),
                (50, "application/x-ranged", [magicLine(offset: 2, value: Array("key".utf8), range: 4)]),
            ]))
        #expect(magic.match([0x00, 0x4F, 0x01])?.mimeType == "application/x-masked")
        #expect(magic.match([0x00, 0x3F, 0x01]) == nil)
        // The value may start anywhere in offset ..< offset + range.
        #expect(magic.match(Array("..key".utf8))?.mimeType == "application/x-ranged")
        #expect(magic.match(Array(".....key".utf8))?.mimeType == "application/x-ranged")
        #expect(magic.match(Array("......key".utf8)) == nil)
        // A value cut off by the end of the data does not match.
        #expect(magic.match(Array("..ke".utf8)) == nil)
        #expect(magic.maximumExtent == 2 + 4 - 1 + 3)
    }

    @Test("word sizes 2 and 4 compare in the host's byte order, as xdgmime does")
    func wordSizes() throws {
        let magic = try parse(
            magicFile([
                (50, "application/x-host16", [magicLine(offset: 0, value: [0x12, 0x34], wordSize: 2)]),
                (40, "application/x-host32", [magicLine(offset: 0, value: [0xCA, 0xFE, 0xBA, 0xBE], wordSize: 4)]),
            ]))
        let littleEndian = UInt16(1).littleEndian == 1
        #expect(magic.match(littleEndian ? [0x34, 0x12] : [0x12, 0x34])?.mimeType == "application/x-host16")
        #expect(
            magic.match(littleEndian ? [0xBE, 0xBA, 0xFE, 0xCA] : [0xCA, 0xFE, 0xBA, 0xBE])?.mimeType
                == "application/x-host32")
        #expect(magic.match(littleEndian ? [0xCA, 0xFE, 0xBA, 0xBE] : [0xBE, 0xBA, 0xFE, 0xCA]) == nil)
    }

    @Test("a line with a field of a later format version is skipped, the rest of the section counts")
    func unknownTrailingField() throws {
        let magic = try parse(
            magicFile([
                (
                    50, "application/x-future",
                    [
                        magicLine(offset: 0, value: Array("new".utf8), trailing: "^future"),
                        magicLine(offset: 0, value: Array("old".utf8)),
                    ]
                )
            ]))
        #expect(magic.match(Array("new".utf8)) == nil)
        #expect(magic.match(Array("old".utf8))?.mimeType == "application/x-future")
    }

    @Test("the system's magic file parses")
    func systemMagic() throws {
        let path = "/usr/share/mime/magic"
        let bytes = try #require(FileManager.default.contents(atPath: path), "needs shared-mime-info")
        let magic = try MIMEMagic(files: [(path, Array(bytes))])
        #expect(magic.rules.count > 300)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        #expect(magic.match(png)?.mimeType == "image/png")
        #expect(magic.match(Array("%PDF-1.7\n".utf8))?.mimeType == "application/pdf")
        #expect(magic.maximumExtent > 0 && magic.maximumExtent <= MIMEMagic.maximumPrefix)
    }

    /// Malformed files and the byte each error names.
    static let malformed: [(String, [UInt8], Int)] = [
        ("no header", Array("[50:a/b]\n>0=".utf8), 0),
        ("section without '['", MIMEMagicParser.header + Array("50:a/b]\n".utf8), 12),
        ("priority too large", MIMEMagicParser.header + Array("[1000:a/b]\n".utf8), 13),
        (
            "not a MIME type",
            MIMEMagicParser.header + Array("[50:nonsense]\n".utf8) + magicLine(offset: 0, value: [1]), 16
        ),
        ("section with no line", MIMEMagicParser.header + Array("[50:a/b]\n[50:a/c]\n".utf8), 12),
        ("offset too large", MIMEMagicParser.header + Array("[50:a/b]\n>99999999999=".utf8), 22),
        ("value cut off", MIMEMagicParser.header + Array("[50:a/b]\n>0=".utf8) + [0, 5, 65, 66], 26),
        ("length cut off", MIMEMagicParser.header + Array("[50:a/b]\n>0=".utf8) + [0], 24),
        ("empty value", MIMEMagicParser.header + Array("[50:a/b]\n>0=".utf8) + [0, 0, 10], 24),
        ("mask cut off", MIMEMagicParser.header + Array("[50:a/b]\n>0=".utf8) + [0, 2, 65, 66, 38, 1], 29),
        (
            "word size 3",
            MIMEMagicParser.header + Array("[50:a/b]\n".utf8) + magicLine(offset: 0, value: [1, 2, 3], wordSize: 3), 30
        ),
        (
            "odd value for word size 2",
            MIMEMagicParser.header + Array("[50:a/b]\n".utf8) + magicLine(offset: 0, value: [1, 2, 3], wordSize: 2), 30
        ),
        ("range 0", MIMEMagicParser.header + Array("[50:a/b]\n".utf8) + magicLine(offset: 0, value: [1], range: 0), 28),
        ("no newline", MIMEMagicParser.header + Array("[50:a/b]\n>0=".utf8) + [0, 1, 65], 27),
        (
            "indent without parent",
            MIMEMagicParser.header + Array("[50:a/b]\n".utf8) + magicLine(indent: 1, offset: 0, value: [1]), 21
        ),
        (
            "indent jump",
            MIMEMagicParser.header + Array("[50:a/b]\n".utf8) + magicLine(offset: 0, value: [1])
                + magicLine(indent: 2, offset: 0, value: [1]), 28
        ),
    ]

    @Test("malformed magic files throw invalidMagic with the byte offset", arguments: malformed)
    func malformedFiles(name: String, bytes: [UInt8], offset: Int) {
        let error = #expect(throws: UniformTypeError.self, "\(name)") { try parse(bytes) }
        #expect(error?.code == .invalidMagic)
        #expect(error?.source == "fixture/magic")
        #expect(error?.offset == offset, "\(name): \(error?.message ?? "")")
    }
}
