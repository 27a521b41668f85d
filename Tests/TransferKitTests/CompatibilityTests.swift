import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import UniformTypes

@Suite("Completion-handler spellings")
struct CompatibilityTests {
    @Test("loadDataRepresentation(forTypeIdentifier:completionHandler:) delivers the data and a finished Progress")
    func loadDataWithHandler() async throws {
        let provider = TransferProvider(data: Data("hi".utf8), type: .utf8PlainText)
        let (data, error) = await withCheckedContinuation { continuation in
            provider.loadDataRepresentation(forTypeIdentifier: "public.text") { data, error in
                continuation.resume(returning: (data, error.map { "\($0)" }))
            }
        }
        #expect(data == Data("hi".utf8))
        #expect(error == nil)
    }

    @Test("An invalid identifier is an unavailableRepresentation error delivered to the handler")
    func invalidIdentifier() async throws {
        let provider = TransferProvider(data: Data(), type: .data)
        let error = await withCheckedContinuation { continuation in
            provider.loadDataRepresentation(forTypeIdentifier: "not a type!") { _, error in
                continuation.resume(returning: error as? TransferError)
            }
        }
        #expect(error?.code == .unavailableRepresentation)
        #expect(!provider.hasItemConformingToTypeIdentifier("not a type!"))
    }

    @Test("loadFileRepresentation(forTypeIdentifier:completionHandler:) delivers a readable file, deleted afterwards")
    func loadFileWithHandler() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = TransferProvider(temporaryDirectory: folder)
        provider.registerDataRepresentation(for: .png) { _ in Data([7, 7]) }
        let done = StartSignal()
        let bytes = Box<Data?>(nil)
        provider.loadFileRepresentation(forTypeIdentifier: "public.image") { url, _ in
            bytes.value = url.flatMap { try? Data(contentsOf: $0) }
            done.fire()
        }
        await done.wait()
        #expect(bytes.value == Data([7, 7]))
        // The file goes when the load's task finishes, just after the handler returns.
        while try !contents(of: folder).isEmpty {
            await Task.yield()
        }
        #expect(try contents(of: folder).isEmpty)
    }

    @Test("loadObject(ofClass:completionHandler:) delivers the object")
    func loadObjectWithHandler() async throws {
        let provider = TransferProvider(object: CustomModule(type: .button))
        provider.loadOptions.allowsInProcessFastPath = false
        let type = await withCheckedContinuation { continuation in
            provider.loadObject(ofClass: CustomModule.self) { module, _ in
                continuation.resume(returning: module?.type)
            }
        }
        #expect(type == .button)
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
        let started = StartSignal()
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .data) { progress in
            started.fire()
            try await waitForCancellation(of: progress)
        }
        let finished = StartSignal()
        let result = Box<TransferError?>(nil)
        let progress = provider.loadDataRepresentation(forTypeIdentifier: "public.data") { _, error in
            result.value = error as? TransferError
            finished.fire()
        }
        await started.wait()
        progress.cancel()
        await finished.wait()
        #expect(result.value?.code == .cancelled)
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
