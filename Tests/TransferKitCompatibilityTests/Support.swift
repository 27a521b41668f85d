import Foundation
import TransferKitCompatibility

/// Awaits an Apple-style load, whose completion handler is `@Sendable` as in Apple's SDK: starts it, and returns
/// what the handler got (once).
func completion<T>(
    _ start: (@escaping @Sendable (T?, (any Error)?) -> Void) -> Progress
) async -> (value: T?, error: (any Error)?) {
    await withCheckedContinuation { continuation in
        _ = start { value, error in continuation.resume(returning: (value, error)) }
    }
}

/// What `loadItem(forTypeIdentifier:options:completionHandler:)` hands its handler.
func loadedItem(_ provider: NSItemProvider, _ typeIdentifier: String) async -> ((any NSSecureCoding)?, (any Error)?) {
    await withCheckedContinuation { continuation in
        provider.loadItem(forTypeIdentifier: typeIdentifier, options: nil) {
            continuation.resume(returning: ($0, $1))
        }
    }
}

/// The domain and code of an error as an `NSError`.
func domainAndCode(_ error: (any Error)?) -> (String, Int)? {
    guard let error = error as NSError? else { return nil }
    return (error.domain, error.code)
}

/// The seeds' `Model` with throwing instead of `fatalError()` on bad bytes: the porting article's version.
final class ThrowingModel: NSObject, Codable, NSItemProviderReading, NSItemProviderWriting {
    let name: String

    init(name: String) {
        self.name = name
    }

    static var readableTypeIdentifiersForItemProvider: [String] { [kUTTypeJSON as String] }

    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> ThrowingModel {
        try JSONDecoder().decode(ThrowingModel.self, from: data)
    }

    static var writableTypeIdentifiersForItemProvider: [String] { [kUTTypeJSON as String] }

    func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping (Data?, (any Error)?) -> Void
    ) -> Progress? {
        do {
            completionHandler(try JSONEncoder().encode(self), nil)
        } catch {
            completionHandler(nil, error)
        }
        return nil
    }
}
