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
}

/// A value the test carries out of a handler into its continuation, as `NSItemProvider` carries it to the handler.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
