import TransferKitCompatibility

@testable import TransferKitCompatibilitySeeds

// Swift 6 lets only Sendable values cross from a `@Sendable` handler to the main actor, with Apple's SDK as here. Seed
// 000's `Model` is immutable (three `let` strings), so an app declares it `Sendable` where it declares the class
// (`final class Model: NSObject, Sendable, Codable, …`, checked by the compiler); the seed's copy stays verbatim, so
// this target adds the conformance from outside. Compiled together with the class, as an app compiles it, the
// controller type-checks without it (`Swift6HandlerTests.typeCheck`).
extension Model: @unchecked Sendable {}
