import Foundation
import Testing
import TransferKit
import UniformTypes

/// The text converters against hostile input (issue 35's defects): RTF that smuggles NUL or binary data, and a
/// URL list that is converted as a stream rather than as a list of URLs held at once.
@Suite("Text converters against hostile input", .timeLimit(.minutes(5)))
struct TextHardeningTests {
    static func rtf(_ input: String) throws -> [UInt8] {
        [UInt8](try TextConverterTests.converter(.rtf, .utf8PlainText).convert(Data(input.utf8)))
    }

    @Test(
        "RTF: \\u0, \\'00 and a raw NUL write no NUL",
        arguments: [
            (#"{\rtf1 a\u0 ?b}"#, "ab"),
            (#"{\rtf1 a\u0?b}"#, "ab"),
            (#"{\rtf1 a\'00b}"#, "ab"),
            ("{\\rtf1 a\u{0}b}", "ab"),
        ])
    func rtfNul(input: String, text: String) throws {
        let output = try Self.rtf(input)
        #expect(!output.contains(0))
        #expect(output == Array(text.utf8))
    }

    @Test(
        "RTF: \\binN skips N bytes of binary data, braces and backslashes included",
        arguments: [
            (#"{\rtf1 A\bin3 xyzB}"#, "AB"),
            (#"{\rtf1 A{\pict\bin4 }}{\}B}"#, "AB"),
            (#"{\rtf1 A\bin2 \parB\par C}"#, "AarB\nC"),
            (#"{\rtf1 A\bin99 xy}"#, "A"),
            (#"{\rtf1 A\bin-5 B}"#, "AB"),
        ])
    func rtfBinary(input: String, text: String) throws {
        #expect(try Self.rtf(input) == Array(text.utf8))
    }

    @Test("text/uri-list streams: lines split across chunks (a CRLF too) give what the whole list gives")
    func uriListStreams() async throws {
        var list = "# dragged files\r\n"
        for index in 0..<500 {
            list += index % 7 == 0 ? "https://example.com/a?\(index)\r\n" : "file:///tmp/f%20\(index).txt\r\n"
        }
        let converter = try TextConverterTests.converter(.uriList, .utf8PlainText)
        let whole = try converter.convert(Data(list.utf8))
        let expected = try URL.list(fromURIList: Data(list.utf8)).map { $0.isFileURL ? $0.path : $0.absoluteString }
        #expect(String(decoding: whole, as: UTF8.self) == expected.joined(separator: "\n"))
        for chunkSize in [1, 2, 17, 4096] {
            let streamed = try await TextConverterTests.convert(Data(list.utf8), with: converter, chunkSize: chunkSize)
            #expect(streamed == whole, "chunks of \(chunkSize)")
        }
        // A line that is not a URL fails, wherever it falls.
        await #expect(throws: TransferError.self) {
            _ = try await TextConverterTests.convert(
                Data((list + "not a url\r\n").utf8), with: converter, chunkSize: 100)
        }
    }
}
