import Foundation
import Testing
import TransferKitCompatibility
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

@testable import TransferKitCompatibilitySeeds

/// The completion handlers are `@Sendable`, as in Apple's SDK: in Swift 6 mode a handler written inside a
/// `@MainActor` type is not main-actor code, so touching the type's state from it is a compile-time error (it used to
/// compile, run off the main actor, and trap under the run-time isolation checks), and the fix-up Apple users write
/// — hop with `Task { @MainActor in … }` or `DispatchQueue.main.async` — compiles and lands on the main actor.
@Suite("Swift 6 completion handlers in a @MainActor controller", .timeLimit(.minutes(5)))
@MainActor
struct Swift6HandlerTests {
    /// Runs one drop on a fresh controller and waits until its change reaches the main actor.
    private func drop(_ start: (CardTableController) -> Void) async -> CardTableController {
        let controller = CardTableController()
        await withCheckedContinuation { continuation in
            controller.didChange = { continuation.resume() }
            start(controller)
        }
        return controller
    }

    @Test("Seed 000's model drop: the handler is not main-actor code and its hop runs on the main queue")
    func modelDrop() async {
        let model = Model(name: "Panther", character: "calm", favorite: "tea")
        let controller = await drop { $0.performDrop(ofModel: NSItemProvider(object: model), at: 0) }
        #expect(controller.rows.map(\.name) == ["Panther"])
        #expect(controller.rows.first !== model)
        #expect(controller.handlerClaimedAnActor == [false])
        #expect(controller.hopsOnMainQueue == [true])
    }

    @Test("Seed 000's text drop through String, hopping with DispatchQueue.main.async")
    func textDrop() async {
        let provider = NSItemProvider(item: Data("Luke".utf8) as NSData, typeIdentifier: kUTTypePlainText as String)
        let controller = await drop { $0.performDrop(ofText: provider) }
        #expect(controller.texts == ["Luke"])
        #expect(controller.handlerClaimedAnActor == [false])
        #expect(controller.hopsOnMainQueue == [true])
    }

    @Test("Seed 001's dropInteraction(_:performDrop:) with [weak self]")
    func moduleDrop() async {
        let controller = await drop { $0.performDrop(ofModule: NSItemProvider(object: CustomModule(type: .Switch))) }
        #expect(controller.modules == [.Switch])
        #expect(controller.handlerClaimedAnActor == [false])
        #expect(controller.hopsOnMainQueue == [true])
    }

    @Test("An NSString loaded as an NSItemProviderReading casts to String at run time, alone and as seed 000's array")
    func bridgingCast() async {
        let provider = NSItemProvider(item: Data("Leia".utf8) as NSData, typeIdentifier: kUTTypePlainText as String)
        let object: (any NSItemProviderReading)? = await withCheckedContinuation { continuation in
            _ = provider.loadObject(ofClass: NSString.self) { object, _ in
                continuation.resume(returning: object.map { Unchecked($0) })
            }
        }?.value
        // `object as? String` is the same cast; written directly the compiler warns that it always fails.
        #expect((object as Any?) as? String == "Leia")
        let items: [any NSItemProviderReading] = object.map { [$0] } ?? []
        #expect(items as? [String] == ["Leia"])
    }

    @Test(
        "The controller builds in Swift 6 mode with the seeds in its module once Model is Sendable, and only then",
        .enabled(if: swiftCompiler != nil, "needs swiftc from the toolchain on the PATH"))
    func realBuild() async throws {
        let compiler = try #require(swiftCompiler)
        let folder = try makeTemporaryDirectory(prefix: "swift6-controller")
        defer { try? FileManager.default.removeItem(at: folder) }
        let products = TransferKitExecutable.productsDirectory
        // The seeds compiled beside the controller, in its module and its language mode, as a Swift 6 app has them:
        // verbatim, and with the porting article's one change, seed 000's immutable Model declared Sendable.
        let verbatimModel = try String(
            contentsOf: repositoryFile("Tests/CompatibilitySeeds/Model.swift"), encoding: .utf8)
        let declaration = "final class Model: NSObject, Codable,"
        #expect(verbatimModel.contains(declaration))
        let sendableModel = verbatimModel.replacingOccurrences(
            of: declaration, with: "final class Model: NSObject, Sendable, Codable,")
        let customModule = repositoryFile("Tests/CompatibilitySeeds/CustomModule.swift").path
        let controller = try String(
            contentsOf: repositoryFile("Tests/TransferKitCompatibilitySwift6Tests/CardTableController.swift"),
            encoding: .utf8
        )
        .replacingOccurrences(of: "@testable import TransferKitCompatibilitySeeds", with: "")
        let controllerFile = folder.appendingPathComponent("CardTableController.swift")
        try Data(controller.utf8).write(to: controllerFile)
        func build(model: String, _ others: [URL]) async throws -> ChildProcess.Result {
            let modelFile = folder.appendingPathComponent("Model.swift")
            try Data(model.utf8).write(to: modelFile)
            let sources = [modelFile.path, customModule] + others.map(\.path)
            return try await ChildProcess.run(
                compiler, arguments: swiftTypeCheckArguments(sources, products: products, check: .build))
        }
        let good = try await build(model: sendableModel, [controllerFile])
        #expect(good.status == 0, "\(good.errorText)")

        // The hop sends the model to the main actor: a build (not a type check) rejects a model that is not Sendable.
        let notSendable = try await build(model: verbatimModel, [controllerFile])
        #expect(notSendable.status != 0)
        #expect(notSendable.errorText.contains("sending 'model' risks causing data races"))

        // Seed 000's handler as Swift 5 code wrote it, with UIKit's main-thread callback in mind.
        let unfixed = folder.appendingPathComponent("Unfixed.swift")
        try Data(
            """
            import TransferKitCompatibility
            @MainActor final class UnfixedController {
                var rows: [Model] = []
                func performDrop(_ provider: NSItemProvider) {
                    _ = provider.loadObject(ofClass: Model.self) { object, error in
                        guard let model = object as? Model else { return }
                        self.rows.append(model)
                    }
                }
            }
            """.utf8
        ).write(to: unfixed)
        let bad = try await build(model: sendableModel, [unfixed])
        #expect(bad.status != 0)
        #expect(
            bad.errorText.contains("main actor-isolated property 'rows' can not be mutated from a Sendable closure"))
    }
}

/// A value the test carries out of a handler into its continuation, as `NSItemProvider` carries it to the handler.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
