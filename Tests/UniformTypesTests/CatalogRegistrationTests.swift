import Foundation
import Testing
import UniformTypes

private func type(_ identifier: String) throws -> UniformType {
    try #require(UniformType(identifier))
}

private func declaration(
    _ identifier: String,
    _ parents: [String] = ["public.data"],
    tags: [UniformTypeTagClass: [String]] = [:],
    description: String? = nil
) throws -> UniformTypeDeclaration {
    UniformTypeDeclaration(
        identifier: try type(identifier),
        conformsTo: try parents.map(type),
        tags: tags,
        description: description
    )
}

@Suite("Registering declarations", .timeLimit(.minutes(5)))
struct CatalogRegistrationTests {
    @Test("a registered type answers queries in that catalog only")
    func registerAndQuery() throws {
        let catalog = TypeCatalog()
        let note = try type("com.example.reg.note")
        try catalog.register(
            [
                declaration(
                    "com.example.reg.note", ["public.json"],
                    tags: [.filenameExtension: ["note", "nte"], .mimeType: ["application/vnd.example.note+json"]],
                    description: "Note")
            ],
            as: .exported
        )
        #expect(catalog.isDeclared(note))
        #expect(catalog.conforms(note, to: .text))
        #expect(catalog.type(filenameExtension: "NTE") == note)
        #expect(catalog.type(mimeType: "application/vnd.example.note+json") == note)
        #expect(catalog.tags(of: note)[.filenameExtension] == ["note", "nte"])
        #expect(catalog.declaration(for: note)?.description == "Note")
        #expect(catalog.origin(of: note) == .exported)
        #expect(catalog.supertypes(of: note).contains(.item))
        // The shared catalog does not see it.
        #expect(!note.isDeclared)
        #expect(!TypeCatalog.shared.conforms(note, to: .json))
        #expect(TypeCatalog.shared.type(filenameExtension: "nte")?.isDynamic == true)
    }

    @Test("an empty catalog has no system types")
    func emptyCatalog() {
        let catalog = TypeCatalog(includingSystemTypes: false)
        #expect(catalog.declarations.isEmpty)
        #expect(!catalog.isDeclared(.png))
        #expect(!catalog.conforms(.png, to: .image))
        #expect(catalog.conforms(.png, to: .png))
        #expect(catalog.type(filenameExtension: "png")?.isDynamic == true)
    }

    @Test("the built-in catalogue registers cleanly and declares every well-known member")
    func systemTypes() throws {
        let catalog = TypeCatalog(includingSystemTypes: false)
        try catalog.register(UniformType.systemDeclarations, as: .system)
        #expect(catalog.declarations.count == UniformType.systemDeclarations.count)
        #expect(TypeCatalog.shared.declarations.count >= UniformType.systemDeclarations.count)
        #expect(UniformType.systemDeclarations.count >= 80)
        for member: UniformType in [
            .item, .content, .compositeContent, .data, .archive, .executable, .directory, .folder, .package,
            .symbolicLink,
            .url, .fileURL, .text, .plainText, .utf8PlainText, .utf16PlainText, .rtf, .html, .xml, .json, .yaml,
            .commaSeparatedText, .tabSeparatedText, .delimitedText, .sourceCode, .swiftSource, .pythonScript,
            .shellScript,
            .javaScript, .image, .png, .jpeg, .tiff, .gif, .svg, .heic, .heif, .webP, .bmp, .ico, .rawImage, .pdf, .zip,
            .gzip,
            .bz2, .tarArchive, .audio, .mp3, .mpeg4Movie, .wav, .aiff, .quickTimeMovie, .movie, .audiovisualContent,
            .propertyList, .xmlPropertyList, .binaryPropertyList, .vCard, .calendarEvent, .log, .markdown, .cbor,
        ] {
            #expect(catalog.isDeclared(member), "\(member)")
            #expect(try UniformType(validating: member.identifier) == member)
        }
    }

    @Test("invalidIdentifier: the dyn. prefix is reserved")
    func invalidIdentifier() throws {
        let catalog = TypeCatalog()
        let error = #expect(throws: UniformTypeError.self) {
            try catalog.register([declaration("dyn.ext.foo")], as: .exported)
        }
        #expect(error?.code == .invalidIdentifier)
        #expect(error?.source == "declarations[0] dyn.ext.foo")
    }

    @Test(
        "invalidTag",
        arguments: [
            [UniformTypeTagClass.filenameExtension: ["ok", ""]], [.filenameExtension: ["a/b"]],
            [.mimeType: ["not-a-mime"]],
            [.mimeType: ["image/*"]], [.mimeType: ["*/*"]], [UniformTypeTagClass(rawValue: "bad class"): ["x"]],
            [UniformTypeTagClass(rawValue: "com.example.tag"): ["with space"]],
        ]
    )
    func invalidTag(tags: [UniformTypeTagClass: [String]]) throws {
        let catalog = TypeCatalog()
        let error = #expect(throws: UniformTypeError.self) {
            try catalog.register(
                [declaration("com.example.ok"), declaration("com.example.tagged", tags: tags)], as: .exported)
        }
        #expect(error?.code == .invalidTag)
        #expect(error?.source == "declarations[1] com.example.tagged")
        // All or nothing: the valid first entry was not registered either.
        #expect(!catalog.isDeclared(try type("com.example.ok")))
    }

    @Test("unknownParent: neither in the catalog nor in the batch")
    func unknownParent() throws {
        let catalog = TypeCatalog()
        let error = #expect(throws: UniformTypeError.self) {
            try catalog.register([declaration("com.example.child", ["com.example.missing"])], as: .imported)
        }
        #expect(error?.code == .unknownParent)
        #expect(error?.message.contains("com.example.missing") == true)
        // Parents may come later in the same batch.
        try catalog.register(
            [
                declaration("com.example.child", ["com.example.parent"]),
                declaration("com.example.parent", ["public.text"]),
            ],
            as: .imported
        )
        #expect(catalog.conforms(try type("com.example.child"), to: .text))
    }

    @Test("duplicateIdentifier: twice in a batch, or again with the same origin")
    func duplicateIdentifier() throws {
        let catalog = TypeCatalog()
        let inBatch = #expect(throws: UniformTypeError.self) {
            try catalog.register([declaration("com.example.dup"), declaration("COM.EXAMPLE.DUP")], as: .exported)
        }
        #expect(inBatch?.code == .duplicateIdentifier)
        #expect(inBatch?.source == "declarations[1] COM.EXAMPLE.DUP")

        try catalog.register([declaration("com.example.dup")], as: .exported)
        let again = #expect(throws: UniformTypeError.self) {
            try catalog.register([declaration("com.example.dup")], as: .exported)
        }
        #expect(again?.code == .duplicateIdentifier)

        let system = #expect(throws: UniformTypeError.self) {
            try catalog.register([declaration("public.png", ["public.image"])], as: .system)
        }
        #expect(system?.code == .duplicateIdentifier)
    }

    @Test("conformanceCycle: through the batch, to itself, or by replacing a declaration")
    func conformanceCycle() throws {
        let catalog = TypeCatalog()
        let loop = #expect(throws: UniformTypeError.self) {
            try catalog.register(
                [
                    declaration("com.example.a", ["com.example.b"]), declaration("com.example.b", ["com.example.c"]),
                    declaration("com.example.c", ["com.example.a"]),
                ],
                as: .exported
            )
        }
        #expect(loop?.code == .conformanceCycle)
        #expect(loop?.message.contains("com.example.a") == true)

        let selfLoop = #expect(throws: UniformTypeError.self) {
            try catalog.register([declaration("com.example.self", ["com.example.self"])], as: .exported)
        }
        #expect(selfLoop?.code == .conformanceCycle)

        // An exported declaration replacing an imported one must not close a loop either.
        try catalog.register(
            [declaration("com.example.base"), declaration("com.example.derived", ["com.example.base"])], as: .imported)
        let replaced = #expect(throws: UniformTypeError.self) {
            try catalog.register([declaration("com.example.base", ["com.example.derived"])], as: .exported)
        }
        #expect(replaced?.code == .conformanceCycle)
        #expect(catalog.origin(of: try type("com.example.base")) == .imported)
    }

    @Test("exported wins over imported, whichever comes first")
    func precedence() throws {
        let catalog = TypeCatalog()
        let thing = try type("com.example.thing")
        try catalog.register(
            [declaration("com.example.thing", ["public.image"], tags: [.filenameExtension: ["thg"]])], as: .imported)
        #expect(catalog.conforms(thing, to: .image))
        try catalog.register(
            [declaration("com.example.thing", ["public.text"], tags: [.filenameExtension: ["thing"]])], as: .exported)
        #expect(catalog.origin(of: thing) == .exported)
        #expect(catalog.conforms(thing, to: .text))
        #expect(!catalog.conforms(thing, to: .image))
        #expect(catalog.type(filenameExtension: "thing") == thing)
        #expect(catalog.type(filenameExtension: "thg")?.isDynamic == true)
        // A later imported declaration is ignored.
        try catalog.register([declaration("com.example.thing", ["public.audio"])], as: .imported)
        #expect(catalog.conforms(thing, to: .text))
        #expect(!catalog.conforms(thing, to: .audio))
        // System declarations win over both.
        try catalog.register([declaration("public.png", ["public.text"])], as: .exported)
        #expect(catalog.origin(of: .png) == .system)
        #expect(!catalog.conforms(.png, to: .text))
    }

    @Test("a stronger origin wins a shared tag")
    func tagPrecedence() throws {
        let catalog = TypeCatalog()
        try catalog.register(
            [declaration("com.example.imported-png", ["public.image"], tags: [.filenameExtension: ["png"]])],
            as: .imported)
        #expect(catalog.type(filenameExtension: "png") == .png)
        let both = catalog.types(tag: "png", tagClass: .filenameExtension, conformingTo: .image)
        #expect(both == [.png, try type("com.example.imported-png")])
    }

    @Test("answers for unrelated types do not change when declarations are added")
    func stableAnswers() throws {
        let catalog = TypeCatalog()
        let before = catalog.supertypes(of: .zip)
        try catalog.register(
            [declaration("com.example.unrelated", ["public.zip-archive"], tags: [.filenameExtension: ["unr"]])],
            as: .exported)
        #expect(catalog.supertypes(of: .zip) == before)
        #expect(catalog.type(filenameExtension: "zip") == .zip)
        #expect(catalog.conforms(try type("com.example.unrelated"), to: .archive))
    }

    @Test("declarations keep registration order and their tags normalized")
    func declarationsList() throws {
        let catalog = TypeCatalog(includingSystemTypes: false)
        try catalog.register(
            [
                declaration("com.example.one", []),
                declaration("com.example.two", [], tags: [.filenameExtension: [".Two"]]),
            ], as: .exported)
        #expect(catalog.declarations.map(\.identifier.identifier) == ["com.example.one", "com.example.two"])
        #expect(catalog.declarations.last?.tags[.filenameExtension] == ["Two"])
        #expect(
            catalog.type(filenameExtension: "two", conformingTo: try type("com.example.two"))
                == (try type("com.example.two")))
    }

    @Test("exportedAs and importedAs register in the shared catalog")
    func exportedAs() throws {
        let parent = UniformType(exportedAs: "com.example.shared.parent", conformingTo: .json)
        #expect(parent.isDeclared)
        #expect(TypeCatalog.shared.origin(of: parent) == .exported)
        #expect(parent.conforms(to: .text))

        let imported = UniformType(importedAs: "com.example.shared.imported", conformingTo: parent)
        #expect(imported.conforms(to: .json))
        #expect(TypeCatalog.shared.origin(of: imported) == .imported)
        // Exported replaces imported; importing again changes nothing.
        let exported = UniformType(exportedAs: "com.example.shared.imported", conformingTo: .image)
        #expect(exported == imported)
        #expect(TypeCatalog.shared.origin(of: exported) == .exported)
        #expect(exported.conforms(to: .image) && !exported.conforms(to: .json))
        _ = UniformType(importedAs: "com.example.shared.imported", conformingTo: .audio)
        #expect(!exported.conforms(to: .audio))
        // Exporting a system type changes nothing.
        #expect(UniformType(exportedAs: "public.png", conformingTo: .text) == .png)
        #expect(!UniformType.png.conforms(to: .text))
        // An undeclared parent leaves the type undeclared.
        let orphan = UniformType(
            exportedAs: "com.example.shared.orphan", conformingTo: try type("com.example.shared.nowhere"))
        #expect(!orphan.isDeclared)
    }

    @Test("declarations round-trip through JSON")
    func declarationCodable() throws {
        let original = UniformTypeDeclaration(
            identifier: try type("com.example.json-decl"),
            conformsTo: [.json],
            tags: [.filenameExtension: ["jd"], .mimeType: ["application/vnd.example.jd+json"]],
            description: "JD",
            referenceURL: URL(string: "https://example.com/jd"),
            version: 2
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(original)
        let text = String(decoding: data, as: UTF8.self)
        #expect(
            text.contains(
                #""tags":{"public.filename-extension":["jd"],"public.mime-type":["application\/vnd.example.jd+json"]}"#)
        )
        #expect(try JSONDecoder().decode(UniformTypeDeclaration.self, from: data) == original)

        let minimal = try JSONDecoder().decode(
            UniformTypeDeclaration.self, from: Data(#"{"identifier":"com.example.min"}"#.utf8))
        #expect(minimal.conformsTo.isEmpty && minimal.tags.isEmpty && minimal.description == nil)
    }
}
