import Foundation
import Testing
import UniformTypes

private func type(_ identifier: String) throws -> UniformType {
    try #require(UniformType(identifier))
}

@Suite("Declarations carried by data (an archive's own)")
struct CarriedDeclarationTests {
    @Test("each declaration's outcome, and the original catalogue unchanged")
    func outcomes() throws {
        let catalog = TypeCatalog()
        try catalog.register(
            [
                UniformTypeDeclaration(identifier: try type("com.mine.same"), conformsTo: [.json]),
                UniformTypeDeclaration(identifier: try type("com.mine.other"), conformsTo: [.text]),
            ], as: .exported)
        let given: [UniformTypeDeclaration] = [
            UniformTypeDeclaration(
                identifier: try type("com.example.child"), conformsTo: [try type("com.example.base")]),
            UniformTypeDeclaration(identifier: try type("com.example.base"), conformsTo: [.json]),
            UniformTypeDeclaration(identifier: try type("com.mine.same"), conformsTo: [.json]),
            UniformTypeDeclaration(identifier: try type("com.mine.other"), conformsTo: [.json]),
            UniformTypeDeclaration(identifier: try type("public.new-thing"), conformsTo: [.data]),
            UniformTypeDeclaration(identifier: try type("DYN.made-up"), conformsTo: [.data]),
            UniformTypeDeclaration(identifier: try type("com.example.orphan"), conformsTo: [try type("com.x.missing")]),
            UniformTypeDeclaration(
                identifier: try type("com.example.loop-a"), conformsTo: [try type("com.example.loop-b")]),
            UniformTypeDeclaration(
                identifier: try type("com.example.loop-b"), conformsTo: [try type("com.example.loop-a")]),
            UniformTypeDeclaration(identifier: try type("COM.example.base"), conformsTo: [.text]),
            UniformTypeDeclaration(
                identifier: try type("com.example.bad-tag"), conformsTo: [.data], tags: [.mimeType: ["not a type"]]),
        ]
        let carried = catalog.addingCarriedDeclarations(given)
        let outcomes = carried.outcomes.map(\.outcome)
        #expect(
            outcomes == [
                .used, .used, .alreadyDeclared, .conflicts(catalogParents: [.text]), .reserved, .reserved,
                .unresolved, .unresolved, .unresolved, .duplicate, .refused(.invalidTag),
            ])
        #expect(carried.catalog.conforms(try type("com.example.child"), to: .json))
        #expect(carried.catalog.origin(of: try type("com.example.base")) == .carried)
        #expect(!carried.catalog.conforms(try type("com.mine.other"), to: .json))
        #expect(!catalog.isDeclared(try type("com.example.base")))
        #expect(!carried.catalog.isDeclared(try type("public.new-thing")))
    }

    @Test("a carried declaration never takes a tag from a type the catalogue knows")
    func tagsStayWithKnownTypes() throws {
        let catalog = TypeCatalog()
        let impostor = UniformTypeDeclaration(
            identifier: try type("com.example.impostor"), conformsTo: [.data],
            tags: [.filenameExtension: ["json", "imp"], .mimeType: ["application/json"]])
        let carried = catalog.addingCarriedDeclarations([impostor])
        #expect(carried.outcomes.map(\.outcome) == [.used])
        #expect(carried.catalog.type(filenameExtension: "json") == .json)
        #expect(carried.catalog.type(mimeType: "application/json") == .json)
        #expect(carried.catalog.type(filenameExtension: "imp") == (try type("com.example.impostor")))
    }

    @Test("no declarations give a catalogue that answers as the original")
    func nothingCarried() throws {
        let carried = TypeCatalog().addingCarriedDeclarations([])
        #expect(carried.outcomes.isEmpty)
        #expect(carried.catalog.conforms(.json, to: .text))
    }
}
