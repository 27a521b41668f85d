import Foundation
import Testing
import TransferArchive
import UniformTypes

private func type(_ identifier: String) throws -> UniformType {
    try #require(UniformType(identifier))
}

private func card() throws -> UniformTypeDeclaration {
    UniformTypeDeclaration(
        identifier: try type("com.example.card"), conformsTo: [.json],
        tags: [.filenameExtension: ["card"], .mimeType: ["application/vnd.example.card+json"]],
        description: "Example card")
}

private func cardArchive(declarations: [UniformTypeDeclaration]) throws -> TransferArchive {
    TransferArchive(
        items: [
            TransferArchive.Item(representations: [
                TransferArchive.Representation(type: try type("com.example.card"), data: Data(#"{"name":"Ryu"}"#.utf8))
            ])
        ], declarations: declarations)
}

/// The code of the error `body` throws, or `nil`.
private func code(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as TransferArchiveError {
        return error.code.description
    } catch {
        return "\(error)"
    }
}

@Suite("Type declarations in archives (format 1.1)")
struct ArchiveDeclarationsTests {
    @Test(
        "declarations round-trip in both forms, written as version 1.1 before the items",
        arguments: [
            TransferArchiveFormat.cbor, .json,
        ])
    func roundTrip(format: TransferArchiveFormat) throws {
        let archive = try cardArchive(declarations: [try card()])
        let bytes = try archive.encoded(as: format)
        let decoded = try TransferArchive(decoding: bytes)
        #expect(decoded == archive)
        #expect(decoded.declarations == [try card()])
        if format == .cbor {
            let reader = try TransferArchiveReader(bytes: [UInt8](bytes))
            #expect(reader.version.major == 1 && reader.version.minor == 1)
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix(#"{"decls":[{"conformsTo":["public.json"],"#))
            #expect(text.hasSuffix(#""version":[1,1]}"# + "\n"))
        }
    }

    @Test("the streaming reader has the declarations before the first item")
    func streamingReaderHasThemFirst() throws {
        let bytes = try cardArchive(declarations: [try card()]).encoded(as: .cbor)
        var reader = try TransferArchiveReader(bytes: [UInt8](bytes))
        #expect(reader.declarations.map(\.identifier) == [try type("com.example.card")])
        #expect(try reader.nextItem() != nil)
    }

    @Test("an archive without declarations is a 1.0 archive, byte for byte")
    func withoutDeclarationsItIsVersion10() throws {
        let json = try cardArchive(declarations: []).encoded(as: .json)
        #expect(String(decoding: json, as: UTF8.self).hasSuffix(#""version":[1,0]}"# + "\n"))
        let cbor = try cardArchive(declarations: []).encoded(as: .cbor)
        #expect(
            Array(cbor.prefix(27)) == [0xd9, 0xd9, 0xf7, 0x83, 0x73] + Array("transferkit-archive".utf8) + [0x82, 1, 0])
    }

    @Test("an archive keeps a declaration's identifier, parents, tags and description only")
    func referenceURLAndVersionAreNotCarried() throws {
        var declaration = try card()
        declaration.referenceURL = URL(string: "https://example.com/card")
        declaration.version = 3
        declaration.tags[.mimeType] = []
        var archive = try cardArchive(declarations: [declaration])
        #expect(archive.declarations[0].referenceURL == nil && archive.declarations[0].version == nil)
        #expect(archive.declarations[0].tags[.mimeType] == nil)
        archive.declarations = [declaration]
        #expect(archive.declarations[0].referenceURL == nil)
        #expect(try TransferArchive(decoding: try archive.encoded(as: .cbor)) == archive)
    }

    @Test(
        "a writer refuses declarations that break section 3.6, with the code the readers give",
        arguments: [
            TransferArchiveFormat.cbor, .json,
        ])
    func writerRefuses(format: TransferArchiveFormat) throws {
        let base = try card()
        var twice = base
        twice.identifier = try type("COM.example.CARD")
        var dynamic = base
        dynamic.identifier = try type("dyn.ah62d4rv4ge80")
        var controlTag = base
        controlTag.tags = [.filenameExtension: ["ca\trd"]]
        var emptyTag = base
        emptyTag.tags = [.mimeType: [""]]
        var longDescription = base
        longDescription.description = String(repeating: "é", count: 513)
        var nonASCII = base
        nonASCII.conformsTo = [try type("com.example.café")]
        let cases: [([UniformTypeDeclaration], String)] = [
            ([base, twice], "invalidDeclaration"), ([dynamic], "invalidDeclaration"),
            ([controlTag], "invalidDeclaration"), ([emptyTag], "invalidDeclaration"),
            ([longDescription], "invalidDeclaration"), ([nonASCII], "invalidIdentifier"),
        ]
        for (declarations, expected) in cases {
            let archive = try cardArchive(declarations: declarations)
            #expect(code { _ = try archive.encoded(as: format) } == expected, "\(declarations)")
        }
        var writer = TransferArchiveWriter { _ in }
        #expect(code { try writer.begin(itemCount: 0, declarations: [dynamic]) } == "invalidDeclaration")
    }

    @Test("a description of exactly 1 024 bytes and a tag of 1 024 bytes are accepted")
    func limitsOfTheTextFields() throws {
        var declaration = try card()
        declaration.description = String(repeating: "é", count: 512)
        declaration.tags = [.mimeType: ["application/" + String(repeating: "x", count: 1012)]]
        let archive = try cardArchive(declarations: [declaration])
        for format in TransferArchiveFormat.allCases {
            #expect(try TransferArchive(decoding: try archive.encoded(as: format)) == archive)
        }
    }

    @Test("the reader limits on declarations hold in both forms", arguments: [TransferArchiveFormat.cbor, .json])
    func readerLimits(format: TransferArchiveFormat) throws {
        let many = (0..<5).map { UniformTypeDeclaration(identifier: UniformType("com.example.t\($0)") ?? .data) }
        let bytes = try TransferArchive(items: [], declarations: many).encoded(as: format)
        var limits = TransferArchive.Limits.default
        limits.maxDeclarationCount = 4
        #expect(ArchiveFixtures.decodeError(bytes, limits: limits)?.code == .limitExceeded)
        limits.maxDeclarationCount = 5
        #expect(ArchiveFixtures.decodeError(bytes, limits: limits) == nil)
        limits.maxDeclarationsSize = 40
        #expect(ArchiveFixtures.decodeError(bytes, limits: limits)?.code == .limitExceeded)
    }

    @Test("what an archive of some types should declare: the non-system declarations they reach, sorted")
    func declarationsForTypes() throws {
        let catalog = TypeCatalog()
        let base = UniformTypeDeclaration(identifier: try type("com.example.base"), conformsTo: [.json])
        let derived = UniformTypeDeclaration(
            identifier: try type("com.example.card"), conformsTo: [try type("com.example.base")],
            description: "Card", referenceURL: URL(string: "https://example.com"))
        let other = UniformTypeDeclaration(identifier: try type("com.example.unused"))
        let foreign = UniformTypeDeclaration(identifier: try type("public.example-extension"))
        try catalog.register([base, derived, other, foreign], as: .exported)
        let found = TransferArchive.declarations(
            for: [.png, try type("com.example.card"), try type("public.example-extension"), try type("org.unknown")],
            in: catalog)
        #expect(found.map(\.identifier.identifier) == ["com.example.base", "com.example.card"])
        #expect(found[1].referenceURL == nil && found[1].description == "Card")
    }

    @Test("a 1.0 archive's decls key is an unknown key and is ignored")
    func declsInVersion10AreIgnored() throws {
        let bytes = Array(
            #"{"decls":[{"identifier":"a..b"}],"format":"transferkit-archive","items":[],"version":[1,0]}"#.utf8)
        let archive = try TransferArchive(decoding: bytes)
        #expect(archive.declarations.isEmpty)
    }

    @Test("a reader uses an archive's declarations without changing its own catalogue")
    func carriedDeclarationsChooseRepresentations() throws {
        let catalog = TypeCatalog()
        let archive = try TransferArchive(decoding: try cardArchive(declarations: [try card()]).encoded(as: .cbor))
        #expect(archive.items[0].representation(for: [.json], catalog: catalog) == nil)
        let carried = archive.carriedDeclarations(in: catalog)
        #expect(carried.outcomes.map(\.outcome) == [.used])
        #expect(archive.items[0].representation(for: [.json], catalog: carried.catalog) != nil)
        #expect(!catalog.isDeclared(try type("com.example.card")))
    }
}
