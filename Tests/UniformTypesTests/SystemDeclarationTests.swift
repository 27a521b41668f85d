import Testing
import UniformTypes

/// Catalogs start with the built-in table without validating it (that cost most of the start-up
/// time of `transferkit`), so these tests validate it: they fail if the table is invalid, or if
/// the validator would change any of it.
@Suite("The built-in declarations", .timeLimit(.minutes(5)))
struct SystemDeclarationTests {
    /// The built-in table registered through the validator, as any other batch is.
    private static func validatedCatalog() throws -> TypeCatalog {
        let catalog = TypeCatalog(includingSystemTypes: false)
        try catalog.register(UniformType.systemDeclarations, as: .system)
        return catalog
    }

    @Test("every identifier and parent is a valid, non-dynamic identifier")
    func identifiersAreValid() throws {
        for declaration in UniformType.systemDeclarations {
            for type in [declaration.identifier] + declaration.conformsTo {
                let parsed = try #require(UniformType(type.identifier), "\(type.identifier) is not valid")
                #expect(!parsed.isDynamic, "\(type.identifier) is dynamic")
            }
        }
    }

    @Test("the validator accepts the table and keeps every declaration as written")
    func validatorAcceptsTheTableUnchanged() throws {
        let validated = try Self.validatedCatalog()
        let unvalidated = TypeCatalog()
        #expect(validated.declarations == UniformType.systemDeclarations)
        #expect(unvalidated.declarations == validated.declarations)
        #expect(unvalidated.declarations.count == UniformType.systemDeclarations.count)
    }

    @Test("a catalog built without validation answers as the validated one does")
    func unvalidatedCatalogAnswersAlike() throws {
        let validated = try Self.validatedCatalog()
        let unvalidated = TypeCatalog()
        let types = UniformType.systemDeclarations.map(\.identifier)
        for type in types {
            #expect(unvalidated.origin(of: type) == .system)
            #expect(unvalidated.supertypes(of: type) == validated.supertypes(of: type), "\(type)")
            #expect(unvalidated.tags(of: type) == validated.tags(of: type), "\(type)")
            for other in types where unvalidated.conforms(type, to: other) != validated.conforms(type, to: other) {
                Issue.record("\(type) conforms to \(other): the two catalogs disagree")
            }
        }
        for declaration in UniformType.systemDeclarations {
            for (tagClass, tags) in declaration.tags {
                for tag in tags {
                    #expect(
                        unvalidated.types(tag: tag, tagClass: tagClass, conformingTo: nil)
                            == validated.types(tag: tag, tagClass: tagClass, conformingTo: nil),
                        "\(tagClass.rawValue) \(tag)")
                }
            }
        }
    }
}
