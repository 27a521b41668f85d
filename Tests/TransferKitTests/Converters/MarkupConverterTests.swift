import Foundation
import Testing
import TransferKit
import UniformTypes

@Suite("The built-in HTML, RTF, file-list and line-ending converters", .timeLimit(.minutes(5)))
struct MarkupConverterTests {
    static func text(_ source: UniformType, _ input: String) throws -> String {
        let converter = try TextConverterTests.converter(source, .utf8PlainText)
        return String(decoding: try converter.convert(Data(input.utf8)), as: UTF8.self)
    }

    static let htmlCases: [(html: String, text: String)] = [
        ("<p>Hello <b>world</b></p>", "Hello world"),
        ("<p>One</p><p>Two</p>", "One\n\nTwo"),
        ("a<br>b<br/>c", "a\nb\nc"),
        ("<ul>\n  <li>first</li>\n  <li>second</li>\n</ul>", "first\nsecond"),
        ("Fish &amp; chips &lt;3 &eacute;&#233;&#xE9; &copy; &#128512; &nbsp;x", "Fish & chips <3 ééé © 😀 \u{A0}x"),
        ("&unknown; &amp &#x110000; &#150;", "&unknown; &amp \u{FFFD} –"),
        ("<html><head><title>T</title><style>p { color: red }</style></head><body>shown</body></html>", "shown"),
        ("before<script>var a = '<p>';</script>after<!-- <p>comment</p> -->", "beforeafter"),
        ("<pre>  keep\n    this</pre><p>  collapse \n  this  </p>", "  keep\n    this\ncollapse this"),
        ("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>", "a\tb\n1\t2"),
        ("<a href=\"x>y\" title='>'>link</a> 3 < 4", "link 3 < 4"),
        ("<h1>Title</h1>text<div>block</div>", "Title\n\ntext\nblock"),
        ("", ""),
    ]

    @Test("HTML to plain text (golden)", arguments: htmlCases)
    func html(html: String, text: String) throws {
        #expect(try Self.text(.html, html) == text)
    }

    static let rtfCases: [(rtf: String, text: String)] = [
        (#"{\rtf1\ansi{\fonttbl\f0\fswiss Helvetica;}\f0\pard Hello \b world\b0 .\par Next}"#, "Hello world.\nNext"),
        (#"{\rtf1\ansi caf\'e9 \'93quoted\'94 \u8364? \uc2\u8212\'97\'97 end}"#, "café “quoted” € — end"),
        (#"{\rtf1 a\tab b\line c\{d\}e\\f\~g}"#, "a\tb\nc{d}e\\f\u{A0}g"),
        (#"{\rtf1{\*\generator Writer;}{\info{\title T}}{\colortbl;\red0\green0\blue0;}body\par}"#, "body"),
        (#"{\rtf1 \emdash\endash\bullet\lquote x\rquote\ldblquote y\rdblquote}"#, "—–•‘x’“y”"),
        (#"{\rtf1 {\pict\pngblip 89504e47}text}"#, "text"),
    ]

    @Test("RTF to plain text (golden)", arguments: rtfCases)
    func rtf(rtf: String, text: String) throws {
        #expect(try Self.text(.rtf, rtf) == text)
    }

    @Test("A document that is not RTF fails with conversionFailed")
    func notRTF() throws {
        let error = #expect(throws: TransferError.self) { try Self.text(.rtf, "plain text") }
        #expect(error?.code == .conversionFailed)
    }

    @Test("text/uri-list ⇄ a newline list ⇄ [URL]")
    func fileLists() async throws {
        let urls = [URL(fileURLWithPath: "/tmp/a b.txt"), URL(string: "https://example.com/x?y=1")!]
        let uriList = URL.uriList(urls)
        let newline = try Self.text(.uriList, "# a comment\r\n" + String(decoding: uriList, as: UTF8.self))
        #expect(newline == "/tmp/a b.txt\nhttps://example.com/x?y=1")
        let back = try TransferConverter.newlineListToURIList.convert(Data(newline.utf8))
        #expect(back == uriList)
        #expect(try URL.list(fromURIList: back) == urls)

        // A provider of [URL] offers the newline list, so a text reader gets the paths.
        let provider = TransferProvider(object: urls)
        #expect(provider.offeredTypes.contains(.utf8PlainText))
        #expect(try await provider.loadObject(ofClass: String.self) == newline)

        let error = #expect(throws: TransferError.self) {
            try TransferConverter.newlineListToURIList.convert(Data("relative/path\n".utf8))
        }
        #expect(error?.code == .conversionFailed)
    }

    @Test("Line endings are rewritten, also across chunks", arguments: TransferConverter.LineEnding.allCases)
    func lineEndings(ending: TransferConverter.LineEnding) async throws {
        let input = Data("a\r\nb\rc\nd\r".utf8)
        let separator = ["lf": "\n", "crlf": "\r\n", "cr": "\r"][ending.rawValue] ?? ""
        let expected = Data(["a", "b", "c", "d", ""].joined(separator: separator).utf8)
        let converter = TransferConverter.lineEndings(ending)
        #expect(try converter.convert(input) == expected)
        for chunkSize in [1, 2, 3] {
            #expect(try await TextConverterTests.convert(input, with: converter, chunkSize: chunkSize) == expected)
        }
    }

    @Test("An HTML-only provider gives plain text, and UTF-16 through one chain")
    func htmlProvider() async throws {
        let provider = TransferProvider(data: Data("<p>Caf&eacute;</p>".utf8), type: .html)
        #expect(Array(provider.offeredTypes.prefix(2)) == [.html, .utf8PlainText])
        #expect(try await provider.loadDataRepresentation(for: .plainText) == Data("Café".utf8))
        let utf16 = try await provider.loadDataRepresentation(for: .utf16ExternalPlainText)
        #expect(Array(utf16) == [0xFF, 0xFE, 0x43, 0, 0x61, 0, 0x66, 0, 0xE9, 0])
    }
}
