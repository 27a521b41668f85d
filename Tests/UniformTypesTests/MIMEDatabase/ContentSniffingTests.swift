import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import UniformTypes

private let pngHeader: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// A mime directory with a few globs, one subclass and a magic file, imported into a fresh catalog.
private struct SniffingFixture {
    let directory: URL
    let catalog: TypeCatalog
    /// The fixture's mime directory.
    let mime: URL

    init(magic: [UInt8]? = nil) throws {
        directory = try makeTemporaryDirectory(prefix: "transferkit-sniffing")
        mime = directory.appendingPathComponent("mime")
        try FileManager.default.createDirectory(at: mime, withIntermediateDirectories: true)
        let types = [
            "image/png", "application/x-fix-high", "text/x-fix-a", "text/x-fix-b", "text/x-fix-base",
            "application/x-desktop",
        ]
        try Data(types.joined(separator: "\n").utf8).write(to: mime.appendingPathComponent("types"))
        let globs =
            "50:image/png:*.png\n50:text/x-fix-a:*.amb\n50:text/x-fix-b:*.amb\n50:application/x-desktop:*.desktop\n"
        try Data(globs.utf8).write(to: mime.appendingPathComponent("globs2"))
        try Data("text/x-fix-b text/x-fix-base\n".utf8).write(to: mime.appendingPathComponent("subclasses"))
        let rules = magicFile([
            (90, "application/x-fix-high", [magicLine(offset: 0, value: Array("HIGH".utf8))]),
            (50, "image/png", [magicLine(offset: 0, value: pngHeader)]),
            (50, "text/x-fix-base", [magicLine(offset: 0, value: Array("BASE".utf8))]),
            (50, "application/x-desktop", [magicLine(offset: 0, value: Array("[Desktop Entry]".utf8))]),
        ])
        try Data(magic ?? rules).write(to: mime.appendingPathComponent("magic"))
        catalog = TypeCatalog()
        catalog.importMIMEDatabase(directories: [mime])
    }

    func type(_ mimeType: String) throws -> UniformType {
        try #require(catalog.type(tag: mimeType, tagClass: .mimeType, conformingTo: nil))
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("Content types from bytes", .timeLimit(.minutes(5)))
struct ContentSniffingTests {
    @Test("content alone: the magic rules, then text or binary")
    func contentAlone() throws {
        let fixture = try SniffingFixture()
        defer { fixture.remove() }
        let catalog = fixture.catalog
        #expect(try catalog.type(forContentsOf: Data(pngHeader + [1, 2, 3])) == .png)
        #expect(try catalog.type(forContentsOf: Data("HIGH and dry".utf8)) == fixture.type("application/x-fix-high"))
        #expect(try catalog.type(forContentsOf: Data("just words\twith\r\nbreaks é".utf8)) == .plainText)
        #expect(try catalog.type(forContentsOf: Data([0x41, 0x00, 0x42])) == .data)
        #expect(try catalog.type(forContentsOf: Data()) == .plainText)
        #expect(try catalog.type(forContentsOf: fixture.file("photo.txt", pngHeader)) == .png)
    }

    @Test("one glob decides without the content; none lets the content decide")
    func namesFirst() throws {
        let fixture = try SniffingFixture()
        defer { fixture.remove() }
        let catalog = fixture.catalog
        #expect(try catalog.type(forFileNamed: "x.png", contents: Data("HIGH".utf8)) == .png)
        #expect(try catalog.type(forFileNamed: "dir/photo", contents: Data(pngHeader)) == .png)
        #expect(try catalog.type(forFileNamed: nil, contents: Data(pngHeader)) == .png)
        #expect(try catalog.type(forFileNamed: "notes", contents: Data("plain".utf8)) == .plainText)
        #expect(try catalog.type(forFileNamed: "blob", contents: Data([0, 1, 2])) == .data)
        #expect(try catalog.type(forFileAt: fixture.file("x.png", Array("HIGH".utf8))) == .png)
        #expect(try catalog.type(forFileAt: fixture.file("photo", pngHeader)) == .png)
    }

    @Test("several globs: magic of priority 80 or more wins, a weaker match picks a glob type derived from it")
    func severalGlobs() throws {
        let fixture = try SniffingFixture()
        defer { fixture.remove() }
        let catalog = fixture.catalog
        let first = try fixture.type("text/x-fix-a")
        #expect(
            try catalog.type(forFileNamed: "x.amb", contents: Data("HIGH".utf8))
                == fixture.type("application/x-fix-high"))
        #expect(try catalog.type(forFileNamed: "x.amb", contents: Data("BASE".utf8)) == fixture.type("text/x-fix-b"))
        #expect(try catalog.type(forFileAt: fixture.file("y.amb", Array("BASE".utf8))) == fixture.type("text/x-fix-b"))
        // Text sniffs as text/plain, which both glob types derive from: the first stands; so it does for binary.
        #expect(try catalog.type(forFileNamed: "x.amb", contents: Data("words".utf8)) == first)
        #expect(try catalog.type(forFileNamed: "x.amb", contents: Data([0, 1])) == first)
        // A PNG is no text/x-fix-*, and priority 50 does not override names.
        #expect(try catalog.type(forFileNamed: "x.amb", contents: Data(pngHeader)) == first)
    }

    @Test("an empty file is text; a launcher must be named .desktop; a directory is a folder")
    func specialCases() throws {
        let fixture = try SniffingFixture()
        defer { fixture.remove() }
        let catalog = fixture.catalog
        #expect(try catalog.type(forFileAt: fixture.file("empty.png", [])) == .plainText)
        #expect(try catalog.type(forFileNamed: "empty.png", contents: Data()) == .plainText)
        let launcher = Data("[Desktop Entry]\nExec=rm -rf ~\n".utf8)
        #expect(try catalog.type(forFileNamed: "readme", contents: launcher) == .plainText)
        #expect(try catalog.type(forFileNamed: "x.amb", contents: launcher) == fixture.type("text/x-fix-a"))
        #expect(
            try catalog.type(forFileNamed: "app.desktop", contents: launcher) == fixture.type("application/x-desktop"))
        #expect(try catalog.type(forFileAt: fixture.directory) == .folder)
        #expect(try catalog.type(forContentsOf: fixture.directory) == .folder)
    }

    @Test("a file that cannot be read throws unreadableFile")
    func unreadable() throws {
        let fixture = try SniffingFixture()
        defer { fixture.remove() }
        let missing = fixture.directory.appendingPathComponent("missing.amb")
        let error = #expect(throws: UniformTypeError.self) { try fixture.catalog.type(forFileAt: missing) }
        #expect(error?.code == .unreadableFile)
        #expect(error?.source == missing.path)
    }

    @Test("a malformed magic file throws invalidMagic when sniffing, and only then")
    func malformedMagic() throws {
        let fixture = try SniffingFixture(magic: Array("MIME-Magic\0\n[50:image/png]\n>0=\0\u{7}PNG".utf8))
        defer { fixture.remove() }
        let catalog = fixture.catalog
        #expect(catalog.type(filenameExtension: "amb", conformingTo: .item) == (try fixture.type("text/x-fix-a")))
        #expect(try catalog.type(forFileNamed: "x.png", contents: Data([1])) == .png)
        let error = #expect(throws: UniformTypeError.self) {
            try catalog.type(forFileNamed: "x.amb", contents: Data("BASE".utf8))
        }
        #expect(error?.code == .invalidMagic)
        #expect(error?.source?.hasSuffix("/mime/magic") == true)
        let again = #expect(throws: UniformTypeError.self) { try catalog.type(forContentsOf: Data([1])) }
        #expect(again?.code == .invalidMagic)
        #expect(throws: UniformTypeError.self) { try catalog.contentSniffingLength }
    }

    @Test("the magic file is parsed the first time something sniffs, not at import or lookup")
    func lazyMagic() throws {
        let fixture = try SniffingFixture()
        defer { fixture.remove() }
        let catalog = fixture.catalog
        _ = catalog.type(filenameExtension: "amb")
        _ = catalog.type(mimeType: "text/x-fix-base")
        _ = try catalog.type(forFileNamed: "x.png", contents: Data([1]))
        let index = try #require(catalog.snapshot.mimeIndex)
        #expect(index.parsedMagic.withLock { $0 == nil })
        #expect(try catalog.contentSniffingLength == 15)
        #expect(index.parsedMagic.withLock { $0 != nil })
    }

    @Test("before a lazy import, sniffing answers as the imported catalogue does, and imports only for its types")
    func sniffingBeforeImport() throws {
        let fixture = try SniffingFixture()
        defer { fixture.remove() }
        let lazy = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [fixture.mime])
        // Answers that a declared type gives need no import: the sniff reads the database's files alone.
        #expect(try lazy.contentSniffingLength == 15)
        let declaredAnswers: [(String?, [UInt8], UniformType)] = [
            (nil, Array("hello clipboard".utf8), .plainText),
            (nil, pngHeader, .png),
            (nil, [0, 1, 2], .data),
            ("x.png", Array("HIGH".utf8), .png),
            ("notes", Array("[Desktop Entry]\n".utf8), .plainText),
        ]
        for (name, bytes, expected) in declaredAnswers {
            #expect(try lazy.type(forFileNamed: name, contents: Data(bytes)) == expected)
            #expect(try fixture.catalog.type(forFileNamed: name, contents: Data(bytes)) == expected)
        }
        #expect(try lazy.type(forFileAt: fixture.file("photo", pngHeader)) == .png)
        #expect(lazy.isMIMEImportPending)
        // Globs and subclasses of the database decide without the import too; the answer's type then needs it.
        let derived = try lazy.type(forFileNamed: "x.amb", contents: Data("BASE".utf8))
        #expect(!lazy.isMIMEImportPending)
        #expect(derived == (try fixture.type("text/x-fix-b")))
        #expect(try lazy.type(forContentsOf: Data("HIGH".utf8)) == (try fixture.type("application/x-fix-high")))
    }

    @Test("a catalog without a database still tells text from binary and knows declared extensions")
    func noDatabase() throws {
        let catalog = TypeCatalog()
        #expect(try catalog.type(forContentsOf: Data(pngHeader)) == .data)
        #expect(try catalog.type(forContentsOf: Data("text".utf8)) == .plainText)
        #expect(try catalog.type(forFileNamed: "x.png", contents: Data("text".utf8)) == .png)
        #expect(try catalog.contentSniffingLength == 0)
    }
}
