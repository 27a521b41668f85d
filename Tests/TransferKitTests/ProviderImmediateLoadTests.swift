import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import UniformTypes

/// Writes different bytes from each path, so a test can tell which one a load took: "immediate" from
/// `immediateData(for:)`, "loaded" from `loadData(for:progress:)`.
private struct Marked: TransferProviderWriting, TransferProviderReading {
    struct Failure: Error {}

    var text: String
    /// What `immediateData(for:)` does: answer, decline (`nil`) or throw.
    var immediate: Immediate = .answer

    enum Immediate: Sendable {
        case answer, decline, fail
    }

    static var writableTypes: [UniformType] { [.utf8PlainText] }
    static var readableTypes: [UniformType] { [.utf8PlainText] }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        Data("loaded".utf8)
    }

    func immediateData(for type: UniformType) throws -> Data? {
        switch immediate {
        case .answer: Data("immediate".utf8)
        case .decline: nil
        case .fail: throw Failure()
        }
    }

    static func object(from data: Data, type: UniformType) throws -> Marked {
        Marked(text: String(decoding: data, as: UTF8.self))
    }
}

/// A model whose encoding always fails.
private struct Unencodable: TransferCodable {
    struct Failure: Error {}
    static var contentType: UniformType { UniformType(exportedAs: "com.example.unencodable", conformingTo: .json) }
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws { throw Failure() }
}

@Suite("Immediate loads (no caller progress, an object held as a value)", .timeLimit(.minutes(5)))
struct ProviderImmediateLoadTests {
    /// A provider of `object` that decodes rather than handing the object over.
    private func provider(_ object: Marked) -> TransferProvider {
        let provider = TransferProvider(object: object)
        provider.loadOptions.allowsInProcessFastPath = false
        return provider
    }

    @Test("a load without a caller progress takes the object's immediate bytes")
    func immediate() async throws {
        let loaded = try await provider(Marked(text: "x")).loadObject(ofClass: Marked.self)
        #expect(loaded.text == "immediate")
    }

    @Test("a load with a caller progress goes through loadData and finishes the caller's progress")
    func withProgress() async throws {
        let progress = TransferProgress()
        let loaded = try await provider(Marked(text: "x")).loadObject(ofClass: Marked.self, progress: progress)
        #expect(loaded.text == "loaded")
        #expect(progress.isFinished)
    }

    @Test("an object that declines (nil) loads through loadData")
    func declined() async throws {
        let loaded = try await provider(Marked(text: "x", immediate: .decline)).loadObject(ofClass: Marked.self)
        #expect(loaded.text == "loaded")
    }

    @Test("an object made by a load handler goes through the handler, once per load")
    func lazyObject() async throws {
        let calls = ImmediateCounter()
        let provider = TransferProvider()
        provider.registerObject(ofClass: Marked.self) { _ in
            calls.increment()
            return Marked(text: "x")
        }
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadObject(ofClass: Marked.self).text == "loaded")
        #expect(try await provider.loadObject(ofClass: Marked.self).text == "loaded")
        #expect(calls.value == 2)
    }

    @Test("what immediateData throws reaches the caller as loaderFailed")
    func immediateFailure() async throws {
        let error = await #expect(throws: TransferError.self) {
            try await provider(Marked(text: "x", immediate: .fail)).loadObject(ofClass: Marked.self)
        }
        #expect(error?.code == .loaderFailed)
        #expect(error?.cause is Marked.Failure)
    }

    @Test("a TransferCodable object that cannot encode fails the load with encodingFailed")
    func encodingFailure() async throws {
        let provider = TransferProvider(object: Unencodable())
        provider.loadOptions.allowsInProcessFastPath = false
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadObject(ofClass: Unencodable.self)
        }
        #expect(error?.code == .encodingFailed)
    }

    @Test("a load in a cancelled task fails with cancelled, on the fast path too", arguments: [false, true])
    func cancelledTask(fastPath: Bool) async throws {
        let provider = provider(Marked(text: "x"))
        provider.loadOptions.allowsInProcessFastPath = fastPath
        // The task cancels itself before it loads: no race, nothing left running.
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await Result { try await provider.loadObject(ofClass: Marked.self) }
        }.value
        guard case .failure(let error as TransferError) = outcome else {
            Issue.record("the load did not fail with a TransferError: \(outcome)")
            return
        }
        #expect(error.code == .cancelled)
    }

    @Test("the fast path still hands over the registered object itself")
    func fastPath() async throws {
        let model = ImmediateBox(name: "a")
        let provider = TransferProvider(object: model)
        #expect(try await provider.loadObject(ofClass: ImmediateBox.self) === model)
        provider.loadOptions.allowsInProcessFastPath = false
        let copy = try await provider.loadObject(ofClass: ImmediateBox.self)
        #expect(copy !== model && copy.name == "a")
    }
}

/// A class model, to tell the registered instance from a decoded copy.
private final class ImmediateBox: TransferCodable {
    let name: String
    init(name: String) { self.name = name }
    static var contentType: UniformType { UniformType(exportedAs: "com.example.box", conformingTo: .json) }
}

/// A count shared with a load handler.
private final class ImmediateCounter: Sendable {
    private let count = SanitizedMutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    fileprivate init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
