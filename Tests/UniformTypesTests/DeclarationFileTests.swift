import Foundation
import Testing
import UniformTypes

/// The fixture `Resources/<folder>/<name>.json`.
private func fixture(_ folder: String, _ name: String) throws -> URL {
    let resources = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
    return resources.appendingPathComponent(folder).appendingPathComponent(name + ".json")
}

private func type(_ identifier: String) throws -> UniformType {
    try #require(UniformType(identifier))
}

@Suite("Declaration files", .timeLimit(.minutes(5)))
struct DeclarationFileTests {
    @Test("a library's exported and imported types are usable after loading")
    func loadCards() throws {
        let catalog = TypeCatalog()
        try catalog.loadDeclarations(from: fixture("valid", "Cards"))
        let card = try type("com.example.card")
        let deck = try type("com.example.deck")
        let archive = try type("com.other.archive")

        #expect(catalog.origin(of: card) == .exported)
        #expect(catalog.origin(of: deck) == .exported)
        #expect(catalog.origin(of: archive) == .imported)
        #expect(catalog.conforms(card, to: .text))
        // An exported type may conform to a type the same file imports, listed after it.
        #expect(catalog.conforms(deck, to: card))
        #expect(catalog.conforms(deck, to: .archive))
        #expect(catalog.type(filenameExtension: "CARDS") == card)
        #expect(catalog.type(filenameExtension: "deck") == deck)
        #expect(catalog.type(mimeType: "application/vnd.example.card+json") == card)
        #expect(catalog.type(mimeType: "application/x-other-archive") == archive)
        #expect(catalog.tags(of: deck)[.filenameExtension] == ["deck"])
        #expect(catalog.tags(of: deck)[UniformTypeTagClass(rawValue: "com.example.tag-class")] == ["DECK"])
        let declaration = try #require(catalog.declaration(for: card))
        #expect(declaration.description == "Example card")
        #expect(declaration.referenceURL == URL(string: "https://example.com/formats/card"))
        #expect(declaration.version == 2)
        // The shared catalog is untouched.
        #expect(!TypeCatalog.shared.isDeclared(archive))
    }

    @Test("Data with a source name loads like a file; an empty document declares nothing")
    func loadData() throws {
        let catalog = TypeCatalog()
        let count = catalog.declarations.count
        try catalog.loadDeclarations(from: Data(contentsOf: fixture("valid", "Empty")), source: "Empty.json")
        #expect(catalog.declarations.count == count)
        let json = #"{"exported": [{"identifier": "com.example.inline", "conformsTo": ["public.text"]}]}"#
        try catalog.loadDeclarations(from: Data(json.utf8), source: "inline")
        #expect(catalog.conforms(try type("com.example.inline"), to: .data))
    }

    @Test("exported wins over imported for the same identifier, in either load order")
    func exportedWins() throws {
        let shared = try type("com.example.shared")
        for order in [["SharedImported", "SharedExported"], ["SharedExported", "SharedImported"]] {
            let catalog = TypeCatalog()
            for name in order {
                try catalog.loadDeclarations(from: fixture("valid", name))
            }
            #expect(catalog.origin(of: shared) == .exported, "\(order)")
            #expect(catalog.declaration(for: shared)?.description == "Shared (exported)", "\(order)")
            #expect(catalog.conforms(shared, to: .plainText), "\(order)")
            #expect(catalog.types(tag: "shrd", tagClass: .filenameExtension, conformingTo: nil) == [shared])
        }
        // And within one file, whichever list comes first.
        let catalog = TypeCatalog()
        try catalog.loadDeclarations(from: fixture("valid", "BothInOneFile"))
        let both = try type("com.example.both")
        #expect(catalog.origin(of: both) == .exported)
        #expect(catalog.conforms(both, to: .xml))
    }

    @Test(
        "each invalid file fails with its code, names the file and entry, and registers nothing",
        arguments: [
            ("InvalidJSON", UniformTypeError.Code.invalidJSON, nil),
            ("TopLevelArray", .invalidDeclaration, nil),
            ("UnknownParent", .unknownParent, "exported[1] com.example.orphan"),
            ("DuplicateInFile", .duplicateIdentifier, "exported[2] COM.EXAMPLE.TWICE"),
            ("Cycle", .conformanceCycle, "imported[0] com.example.cycle-c"),
            ("InvalidIdentifier", .invalidIdentifier, "exported[1] com.example.bad id"),
            ("InvalidParentIdentifier", .invalidIdentifier, "exported[0] com.example.child"),
            ("ReservedIdentifier", .invalidIdentifier, "imported[0] dyn.ext.card"),
            ("InvalidTag", .invalidTag, "exported[2] com.example.tagged"),
            ("WildcardTag", .invalidTag, "exported[0] com.example.wild"),
            ("WrongFieldType", .invalidDeclaration, "exported[1] com.example.wrong"),
            ("MissingIdentifier", .invalidDeclaration, "imported[0]"),
            ("UnknownKey", .invalidDeclaration, "exported[0] com.example.typo"),
        ] as [(String, UniformTypeError.Code, String?)])
    func invalidFile(name: String, code: UniformTypeError.Code, entry: String?) throws {
        let catalog = TypeCatalog()
        let before = catalog.declarations.count
        let url = try fixture("invalid", name)
        let error = #expect(throws: UniformTypeError.self) {
            try catalog.loadDeclarations(from: url)
        }
        #expect(error?.code == code)
        let expectedSource = entry.map { "\(url.path): \($0)" } ?? url.path
        #expect(error?.source == expectedSource)
        #expect(error?.message.isEmpty == false)
        #expect(catalog.declarations.count == before)
    }

    @Test("declaring an identifier that an earlier file of the same origin declared fails; nothing is added")
    func duplicateAcrossFiles() throws {
        let catalog = TypeCatalog()
        try catalog.loadDeclarations(from: fixture("valid", "Cards"))
        let url = try fixture("invalid", "DuplicateOfCards")
        let error = #expect(throws: UniformTypeError.self) {
            try catalog.loadDeclarations(from: url)
        }
        #expect(error?.code == .duplicateIdentifier)
        #expect(error?.source == "\(url.path): exported[1] com.example.card")
        #expect(!catalog.isDeclared(try type("com.example.new-in-this-file")))
    }

    @Test("a missing file, a directory and a non-file URL are unreadableFile")
    func unreadable() throws {
        let catalog = TypeCatalog()
        let missing = try fixture("valid", "NoSuchFile")
        let directory = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
        let remote = try #require(URL(string: "https://example.com/types.json"))
        for (url, source) in [(missing, missing.path), (directory, directory.path), (remote, remote.absoluteString)] {
            let error = #expect(throws: UniformTypeError.self) {
                try catalog.loadDeclarations(from: url)
            }
            #expect(error?.code == .unreadableFile)
            #expect(error?.source == source)
        }
    }

    @Test(
        "field checks match the schema",
        arguments: [
            (#"{"exported": {}}"#, "inline"),
            (#"{"exported": [1]}"#, "inline: exported[0]"),
            (#"{"exported": [{"identifier": 5}]}"#, "inline: exported[0]"),
            (#"{"exported": [{"identifier": "a.b", "tags": []}]}"#, "inline: exported[0] a.b"),
            (#"{"exported": [{"identifier": "a.b", "tags": {"public.mime-type": "a/b"}}]}"#, "inline: exported[0] a.b"),
            (#"{"exported": [{"identifier": "a.b", "tags": {"public.mime-type": [1]}}]}"#, "inline: exported[0] a.b"),
            (#"{"exported": [{"identifier": "a.b", "description": 1}]}"#, "inline: exported[0] a.b"),
            (#"{"exported": [{"identifier": "a.b", "referenceURL": "no scheme"}]}"#, "inline: exported[0] a.b"),
            (#"{"exported": [{"identifier": "a.b", "version": "1"}]}"#, "inline: exported[0] a.b"),
            (#"{"exported": [{"identifier": "a.b", "version": -1}]}"#, "inline: exported[0] a.b"),
            (#"{"exported": [{"identifier": "a.b", "version": 1.5}]}"#, "inline: exported[0] a.b"),
            (#"{"imported": [{"identifier": "a.b", "conformsTo": [null]}]}"#, "inline: imported[0] a.b"),
            (#"{"$schema": 1}"#, "inline"),
            (#"{"declarations": []}"#, "inline"),
        ])
    func fieldChecks(json: String, source: String) {
        let error = #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: Data(json.utf8), source: "inline")
        }
        #expect(error?.code == .invalidDeclaration)
        #expect(error?.source == source)
    }

    @Test("commas and brackets inside strings are text, not syntax")
    func punctuationInStrings() throws {
        let catalog = TypeCatalog()
        let json = #"{"exported": [{"identifier": "a.b", "description": "x,] \\\",}"}]}"#
        try catalog.loadDeclarations(from: Data(json.utf8), source: "inline")
        #expect(catalog.declaration(for: try type("a.b"))?.description == #"x,] \",}"#)
    }

    @Test("a trailing comma is reported on its line, with the byte offset")
    func trailingCommaLine() {
        let bytes = Data("{\"exported\": [\n{\"identifier\": \"a.b\"},\n]}".utf8)
        let error = #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: bytes, source: "bytes")
        }
        #expect(error?.code == .invalidJSON)
        #expect(error?.message.hasPrefix("line 3: unexpected character \"]\"") == true)
        #expect(error?.offset == 38)
    }

    @Test("a duplicate key is invalidJSON, not silently the first value")
    func duplicateKey() {
        let bytes = Data(#"{"exported": [], "exported": [{"identifier": "a.b"}]}"#.utf8)
        let error = #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: bytes, source: "bytes")
        }
        #expect(error?.code == .invalidJSON)
        #expect(error?.message.contains("the key \"exported\" twice") == true)
    }

    @Test("invalid UTF-8 is invalidJSON naming the offset, not a type mismatch")
    func invalidUTF8Offset() {
        let bytes = Data([UInt8](#"{"exported": [{"identifier": "a."#.utf8) + [0xFF] + [UInt8](#"b"}]}"#.utf8))
        let error = #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: bytes, source: "bytes")
        }
        #expect(error?.code == .invalidJSON)
        #expect(error?.message.contains("not valid UTF-8") == true)
        #expect(error?.offset == 32)
    }

    @Test("bytes that are not UTF-8 JSON are invalidJSON")
    func notJSON() {
        let trailingComma = Data("{\"exported\": [\n{\"identifier\": \"a.b\"},\n]}".utf8)
        for bytes in [Data([0xFF, 0xFE, 0x00]), Data(), Data("{\"exported\": [".utf8), trailingComma] {
            let error = #expect(throws: UniformTypeError.self) {
                try TypeCatalog().loadDeclarations(from: bytes, source: "bytes")
            }
            #expect(error?.code == .invalidJSON)
            #expect(error?.source == "bytes")
            // The parser's error is kept, and the message names the line.
            #expect(error?.cause != nil)
            #expect(error?.message.hasPrefix("line ") == true)
        }
    }
}
