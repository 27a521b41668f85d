import Foundation
import Testing
import TransferKit
import UniformTypes

@Suite("String, Data and URL readers and writers", .timeLimit(.minutes(5)))
struct ValueReadersTests {
    @Test(
        "String reads every plain-text type, UTF-8 and UTF-16, with and without byte-order marks",
        arguments: [
            (UniformType.utf8PlainText, [0x68, 0xC3, 0xA9]),
            (.utf8PlainText, [0xEF, 0xBB, 0xBF, 0x68, 0xC3, 0xA9]),
            (.plainText, [0x68, 0xC3, 0xA9]),
            (.plainText, [0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00]),
            (.plainText, [0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9]),
            (.utf16PlainText, [0x68, 0x00, 0xE9, 0x00]),
            (.utf16ExternalPlainText, [0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9]),
            (.commaSeparatedText, [0x68, 0xC3, 0xA9]),
        ] as [(UniformType, [UInt8])])
    func stringReadsText(type: UniformType, bytes: [UInt8]) async throws {
        let provider = TransferProvider(data: Data(bytes), type: type)
        #expect(provider.canLoadObject(ofClass: String.self))
        #expect(try await provider.loadObject(ofClass: String.self) == "hé")
    }

    @Test("A charset parameter decides the encoding", arguments: [("utf-16le", [0x68, 0x00]), ("ISO-8859-1", [0xE9])])
    func charset(charset: String, bytes: [UInt8]) throws {
        let text = try String(transferData: Data(bytes), type: .plainText, charset: charset)
        #expect(text == (bytes.count == 1 ? "é" : "h"))
    }

    @Test("An unknown charset and invalid bytes are decodingFailed")
    func badText() async throws {
        let charset = #expect(throws: TransferError.self) {
            try String(transferData: Data([0x68]), type: .plainText, charset: "klingon")
        }
        #expect(charset?.code == .decodingFailed)
        let provider = TransferProvider(data: Data([0xC3, 0x28]), type: .utf8PlainText)
        let invalid = await #expect(throws: TransferError.self) { try await provider.loadObject(ofClass: String.self) }
        #expect(invalid?.code == .decodingFailed)
        let odd = #expect(throws: TransferError.self) {
            try String(transferData: Data([0x68, 0x00, 0x69]), type: .utf16PlainText)
        }
        #expect(odd?.code == .decodingFailed)
    }

    @Test("String writes UTF-8 plain text, and a provider of it does not offer HTML")
    func stringWrites() async throws {
        let provider = TransferProvider(object: "hé")
        #expect(provider.registeredTypes == [.utf8PlainText])
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadDataRepresentation(for: .plainText) == Data("hé".utf8))
        #expect(!provider.hasRepresentation(conformingTo: .html))
    }

    @Test("Data reads whatever a provider has first and writes public.data")
    func data() async throws {
        let provider = TransferProvider(data: Data([1, 2, 3]), type: .png)
        #expect(try await provider.loadObject(ofClass: Data.self) == Data([1, 2, 3]))
        #expect(TransferProvider(object: Data([4])).registeredTypes == [.data])
    }

    @Test("A file URL writes public.file-url and public.url, and reads back")
    func fileURL() async throws {
        let url = URL(fileURLWithPath: "/tmp/a b.txt")
        let provider = TransferProvider(object: url)
        #expect(provider.registeredTypes == [.fileURL, .url])
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadDataRepresentation(for: .url) == Data("file:///tmp/a%20b.txt".utf8))
        #expect(try await provider.loadObject(ofClass: URL.self) == url)
        #expect(TransferProvider(object: URL(string: "https://example.com")!).registeredTypes == [.url])
    }

    @Test("text/uri-list: comments and CRLF are skipped; the first URL is the URL")
    func uriList() async throws {
        let list = "# dragged from Files\r\nfile:///tmp/a.txt\r\nfile:///tmp/b.txt\r\n"
        let urls = try URL.list(fromURIList: Data(list.utf8))
        #expect(urls.map(\.path) == ["/tmp/a.txt", "/tmp/b.txt"])
        #expect(URL.uriList(urls) == Data("file:///tmp/a.txt\r\nfile:///tmp/b.txt\r\n".utf8))
        let provider = TransferProvider(data: Data(list.utf8), type: .uriList)
        #expect(try await provider.loadObject(ofClass: URL.self).path == "/tmp/a.txt")
    }

    @Test(
        "Bad URL bytes and an empty uri-list are decodingFailed", arguments: ["not a url", "", "# only a comment\r\n"])
    func badURL(text: String) async throws {
        let type: UniformType = text.hasPrefix("#") ? .uriList : .url
        let provider = TransferProvider(data: Data(text.utf8), type: type)
        let error = await #expect(throws: TransferError.self) { try await provider.loadObject(ofClass: URL.self) }
        #expect(error?.code == .decodingFailed)
        let listError = #expect(throws: TransferError.self) { try URL.list(fromURIList: Data("a b\n".utf8)) }
        #expect(listError?.code == .decodingFailed)
    }

    @Test("A list of URLs writes text/uri-list and reads it, or a single URL, back")
    func urlList() async throws {
        let files = [URL(fileURLWithPath: "/tmp/a.txt"), URL(fileURLWithPath: "/tmp/b c.txt")]
        let provider = TransferProvider(object: files)
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(provider.registeredTypes == [.uriList])
        #expect(try await provider.loadObject(ofClass: [URL].self) == files)
        #expect(try await provider.loadObject(ofClass: URL.self) == files[0])
        let single = TransferProvider(data: Data("https://example.com".utf8), type: .url)
        #expect(try await single.loadObject(ofClass: [URL].self) == [URL(string: "https://example.com")])
        let bad = TransferProvider(data: Data("one\r\n".utf8), type: .uriList)
        let error = await #expect(throws: TransferError.self) { try await bad.loadObject(ofClass: [URL].self) }
        #expect(error?.code == .decodingFailed)
    }
}
