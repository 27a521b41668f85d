import Foundation
import Testing
import TransferKit
import UniformTypes

/// Readers that decode nothing useful: the registry tests only look at which one is chosen.
protocol NamedReader: TransferProviderReading {}

extension NamedReader {
    static func object(from data: Data, type: UniformType) throws -> Self {
        throw TransferError(code: .decodingFailed, message: "\(Self.self) reads nothing.")
    }
}

struct DataReader: NamedReader { static var readableTypes: [UniformType] { [.data] } }
struct ContentReader: NamedReader { static var readableTypes: [UniformType] { [.content] } }
struct ImageReader: NamedReader { static var readableTypes: [UniformType] { [.image] } }
struct PNGReader: NamedReader { static var readableTypes: [UniformType] { [.png] } }
struct OtherPNGReader: NamedReader { static var readableTypes: [UniformType] { [.png, .jpeg] } }

@Suite("TransferRegistry", .timeLimit(.minutes(5)))
struct RegistryTests {
    static func name(_ reader: (any TransferProviderReading.Type)?) -> String {
        reader.map { "\($0)" } ?? "nil"
    }

    @Test(
        "The most specific registered supertype wins",
        arguments: [
            (UniformType.png, "PNGReader"), (.jpeg, "ImageReader"), (.image, "ImageReader"),
            (.pdf, "DataReader"), (.utf8PlainText, "DataReader"), (.data, "DataReader"), (.item, "nil"),
        ])
    func mostSpecific(type: UniformType, expected: String) throws {
        let registry = TransferRegistry()
        try registry.register(DataReader.self)
        try registry.register(ImageReader.self)
        try registry.register(PNGReader.self)
        #expect(Self.name(registry.reader(for: type)) == expected)
        #expect(registry.registeredTypes == [.data, .image, .png])  // sorted by identifier
    }

    @Test("A higher priority wins a shared type; the lower one keeps its other types")
    func priority() throws {
        let registry = TransferRegistry()
        try registry.register(PNGReader.self)
        try registry.register(OtherPNGReader.self, priority: .high)
        #expect(Self.name(registry.reader(for: .png)) == "OtherPNGReader")
        #expect(Self.name(registry.reader(for: .jpeg)) == "OtherPNGReader")

        let lower = TransferRegistry()
        try lower.register(PNGReader.self)
        try lower.register(OtherPNGReader.self, priority: .low)
        #expect(Self.name(lower.reader(for: .png)) == "PNGReader")
        #expect(Self.name(lower.reader(for: .jpeg)) == "OtherPNGReader")
    }

    @Test("An equal-priority claim is a registryConflict error and registers nothing")
    func equalPriorityConflict() throws {
        let registry = TransferRegistry()
        try registry.register(PNGReader.self)
        let error = #expect(throws: TransferError.self) { try registry.register(OtherPNGReader.self) }
        #expect(error?.code == .registryConflict)
        #expect(error?.source == UniformType.png.identifier)
        #expect(registry.reader(for: .jpeg) == nil)  // all or nothing
        try registry.register(PNGReader.self, priority: 5)  // the same reader again just changes its priority
        #expect(Self.name(registry.reader(for: .png)) == "PNGReader")
    }

    @Test("Equally near supertypes: priority first, then the identifier in ascending order")
    func nearestSupertypeTieBreak() throws {
        // public.image has two direct parents, public.content and public.data: both one step away.
        let registry = TransferRegistry()
        try registry.register(DataReader.self)
        try registry.register(ContentReader.self)
        #expect(Self.name(registry.reader(for: .image)) == "ContentReader")  // "public.content" < "public.data"
        #expect(Self.name(registry.reader(for: .png)) == "ContentReader")

        let prioritized = TransferRegistry()
        try prioritized.register(DataReader.self, priority: .high)
        try prioritized.register(ContentReader.self)
        #expect(Self.name(prioritized.reader(for: .image)) == "DataReader")
    }

    @Test("Nearness beats priority: a nearer supertype wins over a farther one with a higher priority")
    func distanceBeatsPriority() throws {
        let registry = TransferRegistry()
        try registry.register(DataReader.self, priority: .high)
        try registry.register(ImageReader.self, priority: .low)
        #expect(Self.name(registry.reader(for: .png)) == "ImageReader")
    }

    @Test("object(from:type:) decodes without the caller naming the Swift type")
    func decodeAnonymously() throws {
        let registry = TransferRegistry()
        try registry.register(Model.self)
        try registry.register(CustomModule.self)
        let data = try Model(name: "a", character: "b", favorite: "c").transferEncodedData()

        let object = try registry.object(from: data, type: Model.contentType)
        #expect((object as? Model) == Model(name: "a", character: "b", favorite: "c"))
        let module = try registry.object(from: Data(#"{"type":"switch"}"#.utf8), type: CustomModule.contentType)
        #expect((module as? CustomModule)?.type == .switch)
    }

    @Test("No reader is a noReader error; bad bytes are a decodingFailed error")
    func registryErrors() throws {
        let registry = TransferRegistry()
        try registry.register(Model.self)
        let none = #expect(throws: TransferError.self) { try registry.object(from: Data(), type: .png) }
        #expect(none?.code == .noReader)
        #expect(none?.message.contains(Model.contentType.identifier) == true)

        let bad = #expect(throws: TransferError.self) {
            try registry.object(from: Data("{}".utf8), type: Model.contentType)
        }
        #expect(bad?.code == .decodingFailed)
        #expect(bad?.cause is DecodingError)
    }

    @Test("A reader whose object(from:type:) throws a foreign error is reported as decodingFailed")
    func foreignDecodeError() throws {
        let registry = TransferRegistry()
        try registry.register(JSONDataReader.self)
        let error = #expect(throws: TransferError.self) { try registry.object(from: Data("x".utf8), type: .png) }
        #expect(error?.code == .decodingFailed)  // .png conforms to the reader's public.data
        #expect(error?.cause is DecodingError)
    }

    @Test("Type identifiers match case-insensitively")
    func caseInsensitive() throws {
        let registry = TransferRegistry()
        try registry.register(PNGReader.self)
        let shouted = try #require(UniformType("PUBLIC.PNG"))
        #expect(Self.name(registry.reader(for: shouted)) == "PNGReader")
    }
}

/// A reader of `public.data` that decodes with `JSONDecoder` itself, so its errors are `DecodingError`s.
private struct JSONDataReader: TransferProviderReading, Decodable {
    var name: String

    static var readableTypes: [UniformType] { [.data] }

    static func object(from data: Data, type: UniformType) throws -> JSONDataReader {
        try JSONDecoder().decode(JSONDataReader.self, from: data)
    }
}
