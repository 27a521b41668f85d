import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// The porting article's Swift 6 claims, checked by the compiler itself: `swiftc` builds the seeds and the
/// `@MainActor` controller of `TransferKitCompatibilitySwift6Tests` in a module of their own.
@Suite("Swift 6 builds of the seeds and the controller", .timeLimit(.minutes(5)))
struct Swift6BuildTests {
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
