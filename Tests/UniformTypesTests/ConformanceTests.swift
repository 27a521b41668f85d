import Testing
import UniformTypes

@Suite("Conformance over the built-in hierarchy", .timeLimit(.minutes(5)))
struct ConformanceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var type: UniformType
        var other: UniformType
        var conforms: Bool
        var testDescription: String { "\(type) \(conforms ? "→" : "↛") \(other)" }
    }

    static let cases: [Case] = [
        // The text chain, one step and transitively, and to both roots of public.text.
        Case(type: .utf8PlainText, other: .plainText, conforms: true),
        Case(type: .utf8PlainText, other: .text, conforms: true),
        Case(type: .utf8PlainText, other: .data, conforms: true),
        Case(type: .utf8PlainText, other: .content, conforms: true),
        Case(type: .utf8PlainText, other: .item, conforms: true),
        Case(type: .plainText, other: .utf8PlainText, conforms: false),
        Case(type: .text, other: .plainText, conforms: false),
        Case(type: .content, other: .item, conforms: false),
        Case(type: .item, other: .data, conforms: false),
        // Several parents.
        Case(type: .zip, other: .archive, conforms: true),
        Case(type: .zip, other: .data, conforms: true),
        Case(type: .zip, other: .item, conforms: true),
        Case(type: .zip, other: .content, conforms: false),
        Case(type: .commaSeparatedText, other: .delimitedText, conforms: true),
        Case(type: .commaSeparatedText, other: .plainText, conforms: true),
        Case(type: .utf8TabSeparatedText, other: .utf8PlainText, conforms: true),
        Case(type: .utf8TabSeparatedText, other: .tabSeparatedText, conforms: true),
        Case(type: .utf8TabSeparatedText, other: .commaSeparatedText, conforms: false),
        Case(type: .svg, other: .image, conforms: true),
        Case(type: .svg, other: .xml, conforms: true),
        Case(type: .svg, other: .text, conforms: true),
        Case(type: .xmlPropertyList, other: .propertyList, conforms: true),
        Case(type: .xmlPropertyList, other: .xml, conforms: true),
        Case(type: .binaryPropertyList, other: .xml, conforms: false),
        Case(type: .vCard, other: .contact, conforms: true),
        Case(type: .vCard, other: .text, conforms: true),
        Case(type: .pdf, other: .compositeContent, conforms: true),
        Case(type: .pdf, other: .content, conforms: true),
        Case(type: .pdf, other: .text, conforms: false),
        // Images, audio, video.
        Case(type: .png, other: .image, conforms: true),
        Case(type: .jpeg, other: .png, conforms: false),
        Case(type: .heic, other: .image, conforms: true),
        Case(type: .heic, other: .heif, conforms: false),
        Case(type: .gif, other: .data, conforms: true),
        Case(type: .aiff, other: .audio, conforms: true),
        Case(type: .wav, other: .audiovisualContent, conforms: true),
        Case(type: .mp3, other: .movie, conforms: false),
        Case(type: .quickTimeMovie, other: .movie, conforms: true),
        Case(type: .mpeg2Video, other: .movie, conforms: true),
        Case(type: .mpeg4Movie, other: .video, conforms: false),
        // Source code.
        Case(type: .swiftSource, other: .sourceCode, conforms: true),
        Case(type: .swiftSource, other: .plainText, conforms: true),
        Case(type: .pythonScript, other: .shellScript, conforms: true),
        Case(type: .pythonScript, other: .script, conforms: true),
        Case(type: .javaScript, other: .executable, conforms: true),
        Case(type: .javaScript, other: .script, conforms: true),
        Case(type: .cSource, other: .script, conforms: false),
        // File system.
        Case(type: .folder, other: .directory, conforms: true),
        Case(type: .package, other: .directory, conforms: true),
        Case(type: .package, other: .folder, conforms: false),
        Case(type: .applicationBundle, other: .package, conforms: true),
        Case(type: .applicationBundle, other: .executable, conforms: true),
        Case(type: .applicationBundle, other: .data, conforms: false),
        Case(type: .symbolicLink, other: .item, conforms: true),
        Case(type: .symbolicLink, other: .resolvable, conforms: true),
        Case(type: .fileURL, other: .url, conforms: true),
        Case(type: .fileURL, other: .data, conforms: true),
        Case(type: .directory, other: .data, conforms: false),
        Case(type: .tarArchive, other: .archive, conforms: true),
        Case(type: .gzip, other: .archive, conforms: true),
        Case(type: .log, other: .item, conforms: true),
        Case(type: .log, other: .text, conforms: false),
        Case(type: .cbor, other: .data, conforms: true),
    ]

    @Test("conforms(to:)", arguments: cases)
    func conforms(_ testCase: Case) {
        #expect(testCase.type.conforms(to: testCase.other) == testCase.conforms)
        #expect(TypeCatalog.shared.conforms(testCase.type, to: testCase.other) == testCase.conforms)
        #expect(testCase.type.isSubtype(of: testCase.other) == testCase.conforms)
        #expect(testCase.other.isSupertype(of: testCase.type) == testCase.conforms)
        #expect(testCase.type.supertypes.contains(testCase.other) == testCase.conforms)
    }

    @Test(
        "conformance is reflexive; strict sub- and supertype are not", arguments: [UniformType.png, .item, .data, .zip])
    func reflexive(type: UniformType) {
        #expect(type.conforms(to: type))
        #expect(!type.isSubtype(of: type))
        #expect(!type.isSupertype(of: type))
        #expect(!type.supertypes.contains(type))
    }

    @Test("supertypes is the transitive closure")
    func supertypes() throws {
        let pkzip = try #require(UniformType("com.pkware.zip-archive"))
        #expect(UniformType.utf8PlainText.supertypes == [.plainText, .text, .data, .content, .item])
        #expect(UniformType.zip.supertypes == [pkzip, .archive, .data, .item])
        #expect(UniformType.item.supertypes.isEmpty)
    }

    @Test("undeclared types conform only to themselves")
    func undeclared() throws {
        let type = try #require(UniformType("com.example.never-declared"))
        #expect(!type.isDeclared)
        #expect(type.conforms(to: type))
        #expect(!type.conforms(to: .data))
        #expect(!UniformType.data.conforms(to: type))
        #expect(type.supertypes.isEmpty)
        #expect(type.tags.isEmpty)
        #expect(type.localizedDescription == nil)
    }
}
