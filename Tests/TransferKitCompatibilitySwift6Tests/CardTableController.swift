import Foundation
import TransferKitCompatibility

@testable import TransferKitCompatibilitySeeds

/// Seeds 000 and 001's view-controller drop code in Swift 6 language mode: a `@MainActor` type, as every
/// `UIViewController` is, whose completion handlers carry the fix-up Apple's SDK makes Swift 6 users write.
///
/// The handlers are `@Sendable` (Apple's and now this module's), so they are not main-actor code: they may not touch
/// `rows` or `texts`, and hop to the main actor first — seed 000's model drop with `Task { @MainActor in … }`, its
/// text drop and seed 001's `dropInteraction(_:performDrop:)` with `DispatchQueue.main.async`. Each handler records
/// whether it claims an actor (`#isolation`) and each hop whether it runs on the main queue, the main actor's
/// executor (on Linux a worker thread serves it once the main thread has parked in `dispatch_main`, so
/// `Thread.isMainThread` cannot tell).
///
/// The model hop sends seed 000's `Model` to the main actor. Here it comes from the seeds' own module, in Swift 5 mode
/// as the seeds are, whose types Swift 6 does not hold to `Sendable`; in one Swift 6 module with the controller the
/// model must be `Sendable`, as the porting article's controller has it (`Swift6HandlerTests.realBuild` builds both).
@MainActor
final class CardTableController {
    /// Seed 000's model cards.
    private(set) var rows: [Model] = []
    /// Seed 000's text rows.
    private(set) var texts: [String] = []
    /// Seed 001's dropped modules.
    private(set) var modules: [CustomModuleType] = []
    /// For each handler call: whether the handler's code was isolated to an actor.
    private(set) var handlerClaimedAnActor: [Bool] = []
    /// For each hop: whether it ran on the main queue.
    private(set) var hopsOnMainQueue: [Bool] = []
    /// Called on the main actor after each change, where the seeds call `insertRows(at:with:)`.
    var didChange: @MainActor () -> Void = {}

    /// Seed 000's `performDropWith` for a model card, inserting it at `row`.
    func performDrop(ofModel provider: NSItemProvider, at row: Int) {
        _ = provider.loadObject(ofClass: Model.self) { object, error in
            let isolation: (any Actor)? = #isolation
            guard let model = object as? Model else { return }
            Task { @MainActor in
                self.record(handlerIsolation: isolation)
                self.rows.insert(model, at: min(row, self.rows.count))
                self.didChange()
            }
        }
    }

    /// Seed 000's `performDropWith` for plain text, through `String` as the seed's `items as? [String]` does.
    func performDrop(ofText provider: NSItemProvider) {
        _ = provider.loadObject(ofClass: String.self) { text, error in
            let isolation: (any Actor)? = #isolation
            DispatchQueue.main.async {
                self.record(handlerIsolation: isolation)
                if let text {
                    self.texts.append(text)
                }
                self.didChange()
            }
        }
    }

    /// Seed 001's `dropInteraction(_:performDrop:)`: the dropped module's type decides what is added.
    func performDrop(ofModule provider: NSItemProvider) {
        _ = provider.loadObject(ofClass: CustomModule.self) { [weak self] object, error in
            let isolation: (any Actor)? = #isolation
            guard let customModule = object as? CustomModule else { return }
            let type = customModule.type
            DispatchQueue.main.async {
                guard let self else { return }
                self.record(handlerIsolation: isolation)
                self.modules.append(type)
                self.didChange()
            }
        }
    }

    private func record(handlerIsolation: (any Actor)?) {
        handlerClaimedAnActor.append(handlerIsolation != nil)
        hopsOnMainQueue.append(DispatchQueue.getSpecific(key: mainQueueMark) == true)
    }
}

/// A mark set on the main queue only, so code can ask whether it runs there.
nonisolated let mainQueueMark: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
