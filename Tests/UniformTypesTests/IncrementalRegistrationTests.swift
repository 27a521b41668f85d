import Testing
import UniformTypes

/// A batch that only adds types extends the catalog's indexes instead of rebuilding them; these
/// tests check that the result answers exactly as a catalog given the same types in one batch.
@Suite("Registering one declaration at a time", .timeLimit(.minutes(5)))
struct IncrementalRegistrationTests {
    /// A chain of exported types, each conforming to the one before and to `public.text`, with
    /// imported types hanging off it; long enough for skip pointers several levels deep in the
    /// catalog's conformance index, with extensions and MIME types shared between
    /// origins.
    private static func declarations() throws -> [(UniformTypeDeclaration, UniformTypeDeclaration.Origin)] {
        var result: [(UniformTypeDeclaration, UniformTypeDeclaration.Origin)] = []
        var previous = UniformType.text
        for number in 0..<80 {
            let type = try #require(UniformType("com.example.incremental.t\(number)"))
            let origin: UniformTypeDeclaration.Origin = number % 3 == 0 ? .imported : .exported
            defer {
                if origin == .exported {
                    previous = type
                }
            }
            let declaration = UniformTypeDeclaration(
                identifier: type, conformsTo: [previous, .text],
                tags: [
                    .filenameExtension: ["inc\(number % 7)", ".Inc\(number)"],
                    .mimeType: ["application/x-inc\(number % 5)", "Application/X-Inc\(number % 5); Level=\(number)"],
                ])
            result.append((declaration, origin))
        }
        return result
    }

    @Test("types added one at a time answer as the same types added in one batch")
    func oneAtATimeMatchesOneBatch() throws {
        let all = try Self.declarations()
        let stepwise = TypeCatalog()
        for (declaration, origin) in all {
            try stepwise.register([declaration], as: origin)
        }
        let batched = TypeCatalog()
        try batched.register(all.filter { $0.1 == .exported }.map(\.0), as: .exported)
        try batched.register(all.filter { $0.1 == .imported }.map(\.0), as: .imported)

        let types = stepwise.declarations.map(\.identifier)
        #expect(Set(types) == Set(batched.declarations.map(\.identifier)))
        for type in types {
            #expect(stepwise.supertypes(of: type) == batched.supertypes(of: type), "\(type)")
            #expect(stepwise.origin(of: type) == batched.origin(of: type), "\(type)")
        }
        for number in 0..<7 {
            #expect(
                stepwise.types(tag: "inc\(number)", tagClass: .filenameExtension, conformingTo: nil)
                    == batched.types(tag: "inc\(number)", tagClass: .filenameExtension, conformingTo: nil))
        }
        for number in 0..<5 {
            for query in ["application/x-inc\(number)", "application/x-inc\(number); level=\(number + 5)"] {
                let found = stepwise.types(tag: query, tagClass: .mimeType, conformingTo: nil)
                #expect(found == batched.types(tag: query, tagClass: .mimeType, conformingTo: nil), "\(query)")
                #expect(!found.isEmpty, "\(query)")
            }
        }
        let last = try #require(UniformType("com.example.incremental.t79"))
        let first = try #require(UniformType("com.example.incremental.t1"))
        #expect(stepwise.conforms(last, to: first))
        #expect(!stepwise.conforms(first, to: last))
        #expect(stepwise.conforms(last, to: .data))
    }

    @Test("an exported claim comes before an imported one registered earlier")
    func rankOrderAcrossRegistrations() throws {
        let catalog = TypeCatalog()
        let imported = try #require(UniformType("com.example.incremental.imported"))
        let exported = try #require(UniformType("com.example.incremental.exported"))
        try catalog.register(
            [UniformTypeDeclaration(identifier: imported, conformsTo: [.data], tags: [.filenameExtension: ["incx"]])],
            as: .imported)
        try catalog.register(
            [UniformTypeDeclaration(identifier: exported, conformsTo: [.data], tags: [.filenameExtension: ["incx"]])],
            as: .exported)
        #expect(catalog.types(tag: "incx", tagClass: .filenameExtension, conformingTo: nil) == [exported, imported])
        #expect(catalog.type(filenameExtension: "INCX") == exported)
    }

    @Test("conformanceCycle: a batch of new types that loop is still rejected, and changes nothing")
    func cycleAmongNewTypes() throws {
        let catalog = TypeCatalog()
        let a = try #require(UniformType("com.example.incremental.a"))
        let b = try #require(UniformType("com.example.incremental.b"))
        let before = catalog.declarations.count
        let error = #expect(throws: UniformTypeError.self) {
            try catalog.register(
                [
                    UniformTypeDeclaration(identifier: a, conformsTo: [.data, b]),
                    UniformTypeDeclaration(identifier: b, conformsTo: [a]),
                ], as: .exported)
        }
        #expect(error?.code == .conformanceCycle)
        #expect(error?.source == "declarations[0] com.example.incremental.a")
        #expect(catalog.declarations.count == before)
        #expect(!catalog.isDeclared(a))
    }
}
