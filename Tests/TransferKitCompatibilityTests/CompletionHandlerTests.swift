import Foundation
import Testing
import TransferKitCompatibility
import TransferKitTestSupport

/// The completion-handler spellings of TransferKit's own types (`TransferProvider`, `ItemProviderReading` and
/// `ItemProviderWriting`), which live in TransferKitCompatibility beside Apple's.
@Suite("Completion-handler spellings of TransferProvider", .timeLimit(.minutes(5)))
struct CompletionHandlerTests {
    @Test("loadDataRepresentation(forTypeIdentifier:completionHandler:) delivers the data")
    func loadDataWithHandler() async throws {
        let provider = TransferProvider(data: Data("hi".utf8), type: .utf8PlainText)
        let (data, error) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: "public.text", completionHandler: $0)
        }
        #expect(data == Data("hi".utf8))
        #expect(error == nil)
    }

    @Test("An invalid identifier is an unavailableRepresentation error delivered to the handler")
    func invalidIdentifier() async throws {
        let provider = TransferProvider(data: Data(), type: .data)
        let (_, error) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: "not a type!", completionHandler: $0)
        }
        #expect((error as? TransferError)?.code == .unavailableRepresentation)
        #expect(!provider.hasItemConformingToTypeIdentifier("not a type!"))
    }

    @Test("loadFileRepresentation(forTypeIdentifier:completionHandler:) delivers a readable file, deleted afterwards")
    func loadFileWithHandler() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = TransferProvider(temporaryDirectory: folder)
        provider.registerDataRepresentation(for: .png) { _ in Data([7, 7]) }
        let (bytes, _) = await completion { handler in
            provider.loadFileRepresentation(forTypeIdentifier: "public.image") { url, error in
                handler(url.flatMap { try? Data(contentsOf: $0) }, error)
            }
        }
        #expect(bytes == Data([7, 7]))
        // The file goes when the load's task finishes, just after the handler returns.
        while try !FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty {
            await Task.yield()
        }
    }

    @Test("loadObject(ofClass:completionHandler:) delivers the object")
    func loadObjectWithHandler() async throws {
        let provider = TransferProvider(object: Greeting(text: "hello"))
        provider.loadOptions.allowsInProcessFastPath = false
        let (greeting, error) = await completion {
            provider.loadObject(ofClass: Greeting.self, completionHandler: $0)
        }
        #expect(greeting == Greeting(text: "hello"))
        #expect(error == nil)
    }

    @Test(
        "registerDataRepresentation(forTypeIdentifier:visibility:loadHandler:) takes the NSItemProvider handler shape")
    func registerWithHandler() async throws {
        let provider = TransferProvider()
        #expect(
            provider.registerDataRepresentation(forTypeIdentifier: "public.utf8-plain-text", visibility: .ownProcess) {
                completion in
                let progress = Progress(totalUnitCount: 1)
                completion(Data("seed".utf8), nil)
                completion(Data("twice".utf8), nil)  // a second call is ignored, not a crash
                progress.completedUnitCount = 1
                return progress
            })
        #expect(!provider.registerDataRepresentation(forTypeIdentifier: "bad id") { _ in nil })
        provider.registerDataRepresentation(forTypeIdentifier: "public.png") { completion in
            completion(nil, LoaderBroke())
            return nil
        }

        #expect(provider.registeredTypeIdentifiers == ["public.utf8-plain-text", "public.png"])
        #expect(provider.hasItemConformingToTypeIdentifier("public.text"))
        #expect(!provider.hasItemConformingToTypeIdentifier("com.adobe.pdf"))
        #expect(provider.registeredTypes(visibleTo: .otherProcesses) == [.png])
        #expect(try await provider.loadDataRepresentation(for: .plainText) == Data("seed".utf8))
        let error = await #expect(throws: TransferError.self) { try await provider.loadDataRepresentation(for: .png) }
        #expect(error?.code == .loaderFailed)
        #expect(error?.cause is LoaderBroke)
    }

    @Test("Cancelling the returned Foundation Progress cancels the load")
    func foundationProgressCancels() async throws {
        let (started, start) = AsyncStream<Void>.makeStream()
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .data) { progress in
            start.yield()
            while true {
                try progress.checkCancellation()
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        let (finished, finish) = AsyncStream<TransferError?>.makeStream()
        let progress = provider.loadDataRepresentation(forTypeIdentifier: "public.data") { _, error in
            finish.yield(error as? TransferError)
        }
        for await _ in started { break }
        progress.cancel()
        var result: TransferError?
        for await error in finished {
            result = error
            break
        }
        #expect(result?.code == .cancelled)
    }

    @Test("A model ported with the seeds' NSItemProvider spellings round trips and keeps those spellings")
    func legacyModel() async throws {
        let model = LegacyModel(name: "Panther", character: "calm", favorite: "tea")
        let provider = TransferProvider(object: model)
        provider.loadOptions.allowsInProcessFastPath = false

        #expect(LegacyModel.writableTypes == [.data])
        #expect(LegacyModel.readableTypes == [.data])
        let copy = try await provider.loadObject(ofClass: LegacyModel.self)
        #expect(copy !== model)
        #expect((copy.name, copy.character, copy.favorite) == ("Panther", "calm", "tea"))
        let decoded = try LegacyModel.object(
            withItemProviderData: try await provider.loadDataRepresentation(for: .data), typeIdentifier: "public.data")
        #expect(decoded.favorite == "tea")
    }
}

/// An error that a failing loader throws.
private struct LoaderBroke: Error {}

/// A native `TransferCodable` value, loaded through the completion-handler spelling.
private struct Greeting: TransferCodable, Equatable {
    var text: String

    static var contentType: UniformType {
        UniformType(exportedAs: "com.example.compatibility.greeting", conformingTo: .json)
    }
}

/// The seeds' `Model` ported with TransferKit's `Sendable` compatibility protocols: its NSItemProvider code kept as it
/// was (the only change: throwing instead of `fatalError()`).
final class LegacyModel: NSObject, Codable, ItemProviderReading, ItemProviderWriting, Sendable {
    let name: String
    let character: String
    let favorite: String

    init(name: String, character: String, favorite: String) {
        self.name = name
        self.character = character
        self.favorite = favorite
    }

    static var readableTypeIdentifiersForItemProvider: [String] {
        [UniformType.data.identifier]
    }

    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> LegacyModel {
        let decoder = JSONDecoder()
        return try decoder.decode(LegacyModel.self, from: data)
    }

    static var writableTypeIdentifiersForItemProvider: [String] {
        [UniformType.data.identifier]
    }

    func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping (Data?, (any Error)?) -> Void
    ) -> Progress? {
        let progress = Progress(totalUnitCount: 100)
        do {
            let data = try JSONEncoder().encode(self)
            progress.completedUnitCount = 100
            completionHandler(data, nil)
        } catch {
            completionHandler(nil, error)
        }
        return progress
    }
}
