import Foundation
import Testing
import UniformTypes

@Suite("Dynamic types", .timeLimit(.minutes(5)))
struct DynamicTypeTests {
    @Test(
        "identifiers encode the tag class and the normalized tag",
        arguments: [
            ("foo", UniformTypeTagClass.filenameExtension, "dyn.ext.foo"),
            (".FOO", .filenameExtension, "dyn.ext.foo"),
            ("tar.zst2", .filenameExtension, "dyn.ext.tar-2ezst2"),
            ("application/x-thing", .mimeType, "dyn.mime.application-2fx-2dthing"),
            ("Application/X-Thing; a=b", .mimeType, "dyn.mime.application-2fx-2dthing"),
            ("Abc", UniformTypeTagClass(rawValue: "com.example.code"), "dyn.xcom-2eexample-2ecode.-41bc"),
        ]
    )
    func scheme(tag: String, tagClass: UniformTypeTagClass, identifier: String) throws {
        let type = try #require(UniformType(tag: tag, tagClass: tagClass, conformingTo: nil))
        #expect(type.identifier == identifier)
        #expect(type.isDynamic)
        #expect(!type.isDeclared)
        #expect(type.conforms(to: .data))
        #expect(type.conforms(to: .item))
        #expect(!type.conforms(to: .text))
    }

    @Test(
        "identifier → tags → the same type",
        arguments: [
            ("weird-ext", UniformTypeTagClass.filenameExtension), ("ünïcödé", .filenameExtension),
            ("application/vnd.example.thing+json", .mimeType), ("x-unknown/x-thing", .mimeType),
            ("Case/Matters?", UniformTypeTagClass(rawValue: "com.example.code")),
        ]
    )
    func roundTrip(tag: String, tagClass: UniformTypeTagClass) throws {
        for parent in [UniformType.data, .text, .image] {
            let type = try #require(UniformType(tag: tag, tagClass: tagClass, conformingTo: parent))
            #expect(type.isDynamic)
            #expect(type.conforms(to: parent))
            let decoded = try #require(UniformType(type.identifier))
            #expect(decoded == type)
            let tags = decoded.tags
            let (decodedClass, decodedTags) = try #require(tags.first)
            #expect(tags.count == 1 && decodedTags.count == 1)
            #expect(decodedClass == tagClass)
            let again = try #require(UniformType(tag: decodedTags[0], tagClass: decodedClass, conformingTo: parent))
            #expect(again == type)
            #expect(again.identifier == type.identifier)
        }
    }

    @Test("a dynamic type conforms to its parent and the parent's supertypes")
    func parents() throws {
        let type = try #require(UniformType(filenameExtension: "zzz", conformingTo: .plainText))
        #expect(type.identifier == "dyn.ext.zzz.public-2eplain-2dtext")
        #expect(type.conforms(to: .plainText) && type.conforms(to: .text) && type.conforms(to: .content))
        #expect(!type.conforms(to: .utf8PlainText))
        #expect(type.isSubtype(of: .text))
        #expect(UniformType.text.isSupertype(of: type))
        #expect(type.supertypes == [.plainText, .text, .data, .content, .item])
        #expect(type.preferredFilenameExtension == "zzz")
        #expect(type.preferredMIMEType == nil)
    }

    @Test("dynamic types survive Codable")
    func codable() throws {
        let type = try #require(UniformType(mimeType: "application/x-thing", conformingTo: .text))
        let data = try JSONEncoder().encode(type)
        let decoded = try JSONDecoder().decode(UniformType.self, from: data)
        #expect(decoded == type)
        #expect(decoded.conforms(to: .text))
    }

    @Test(
        "dyn. identifiers this library did not write are dynamic without tags or parents",
        arguments: [
            "dyn.ah62d4rv4ge80s5pe", "dyn.ext", "dyn.ext.-zz", "dyn.ext.a-61", "dyn.ext.-2epng", "dyn.nope.abc",
            "dyn.ext.a.bad-",
        ])
    func unknownDynamic(identifier: String) throws {
        let type = try #require(UniformType(identifier))
        #expect(type.isDynamic)
        #expect(type.tags.isEmpty)
        #expect(type.conforms(to: type))
        #expect(!type.conforms(to: .data))
    }

    @Test("exportedAs with an invalid identifier yields a dynamic type conforming to the parent")
    func invalidExported() throws {
        let type = UniformType(exportedAs: "not a valid id!", conformingTo: .json)
        #expect(type.isDynamic)
        #expect(!type.isDeclared)
        #expect(type.identifier.hasPrefix("dyn.id."))
        #expect(type.conforms(to: .json) && type.conforms(to: .text))
        #expect(type == UniformType(exportedAs: "not a valid id!", conformingTo: .json))
        #expect(type.tags.isEmpty)

        let long = UniformType(importedAs: String(repeating: "? ", count: 200))
        #expect(long.isDynamic && long.conforms(to: .data))
        #expect(long.identifier.utf8.count <= 255)
    }
}
