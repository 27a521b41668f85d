import Foundation
import Testing
import TransferKitCompatibility
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

@testable import TransferKitCompatibilitySeeds

/// Seed 000's `Model` and seed 001's `CustomModule`, unchanged but for their import lines, through `NSItemProvider`.
@Suite("The seeds' classes through NSItemProvider", .timeLimit(.minutes(5)))
struct SeedRoundTripTests {
    static let models = [
        Model(name: "Panther", character: "calm", favorite: "tea"),
        Model(name: "한글 이름", character: "\"quoted\"", favorite: ""),
    ]

    private func loadModel(from provider: NSItemProvider) async throws -> Model {
        #expect(provider.canLoadObject(ofClass: Model.self))
        let (object, error) = await completion { provider.loadObject(ofClass: Model.self, completionHandler: $0) }
        #expect(error == nil)
        return try #require(object as? Model)
    }

    private func loadModule(from provider: NSItemProvider) async throws -> CustomModule {
        let (object, error) = await completion {
            provider.loadObject(ofClass: CustomModule.self, completionHandler: $0)
        }
        #expect(error == nil)
        return try #require(object as? CustomModule)
    }

    @Test("Model round trips in process, encoded and decoded by its own code", arguments: models)
    func modelInProcess(model: Model) async throws {
        let provider = NSItemProvider(object: model)
        #expect(provider.registeredTypeIdentifiers == [kUTTypeData as String])
        let copy = try await loadModel(from: provider)
        #expect(copy !== model)
        #expect([copy.name, copy.character, copy.favorite] == [model.name, model.character, model.favorite])
    }

    @Test("CustomModule round trips in process with its enum", arguments: [CustomModuleType.Button, .Switch])
    func moduleInProcess(type: CustomModuleType) async throws {
        let provider = NSItemProvider(object: CustomModule(type: type))
        let (data, _) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: String(kUTTypeData), completionHandler: $0)
        }
        let json = String(decoding: try #require(data), as: UTF8.self)
        #expect(json == (type == .Button ? #"{"type":"button"}"# : #"{"type":"switch"}"#))
        #expect(try await loadModule(from: provider).type == type)
    }

    @Test("Both seeds round trip through an archive, in both forms", arguments: TransferArchiveFormat.allCases)
    func throughArchive(format: TransferArchiveFormat) async throws {
        let model = Self.models[1]
        let archive = try await TransferArchive(providers: [
            NSItemProvider(object: model).transferProvider,
            NSItemProvider(object: CustomModule(type: .Switch)).transferProvider,
        ])
        let decoded = try TransferArchive(decoding: try archive.encoded(as: format), format: format)
        let providers = decoded.makeProviders().map(NSItemProvider.init(transferProvider:))
        let copy = try await loadModel(from: providers[0])
        #expect([copy.name, copy.character, copy.favorite] == [model.name, model.character, model.favorite])
        #expect(try await loadModule(from: providers[1]).type == .Switch)
    }

    @Test("Both seeds round trip through a child process that decodes and re-encodes them with their own code")
    func throughChildProcess() async throws {
        let probe = TransferKitExecutable.product(named: "transferkit-compatibility-probe")
        let model = Self.models[0]
        for (seed, provider) in [
            ("Model", NSItemProvider(object: model)),
            ("CustomModule", NSItemProvider(object: CustomModule(type: .Button))),
        ] {
            let archive = try await TransferArchive(providers: [provider.transferProvider])
            var environment = ProcessInfo.processInfo.environment
            environment["TRANSFERKIT_SEED"] = seed
            let result = try await ChildProcess.run(
                probe, arguments: ["reencode", "-"], input: [UInt8](try archive.encoded(as: .cbor)),
                environment: environment)
            #expect(result.status == 0, "\(result.errorText)")
            let returned = try TransferArchive(decoding: Data(result.standardOutput), format: .cbor)
            let back = NSItemProvider(transferProvider: returned.makeProviders()[0])
            if seed == "Model" {
                let copy = try await loadModel(from: back)
                #expect([copy.name, copy.character, copy.favorite] == [model.name, model.character, model.favorite])
            } else {
                #expect(try await loadModule(from: back).type == .Button)
            }
        }
    }

    @Test("The seed's plain-text drag reads back as String and as NSString")
    func plainTextDrag() async throws {
        let item = "Panther's row"
        guard let data = item.data(using: .utf8) else { return }
        let itemProvider = NSItemProvider(item: data as NSData, typeIdentifier: kUTTypePlainText as String)
        #expect(itemProvider.registeredTypeIdentifiers == ["public.plain-text"])
        #expect(itemProvider.canLoadObject(ofClass: String.self))
        let (text, error) = await completion { itemProvider.loadObject(ofClass: String.self, completionHandler: $0) }
        #expect(error == nil)
        #expect(text == item)
        let (object, _) = await completion { itemProvider.loadObject(ofClass: NSString.self, completionHandler: $0) }
        // Apple code writes `items as? [String]`; without Objective-C bridging the compiler knows that a
        // `NSItemProviderReading` is no `String`, so go through `NSString` (see the porting article).
        let strings = [object].compactMap { $0 as? NSString }.map { $0 as String }
        #expect(strings == [item])
    }
}
