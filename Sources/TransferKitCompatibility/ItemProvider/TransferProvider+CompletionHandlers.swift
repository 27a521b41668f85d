public import Foundation
import Synchronization
import UniformTypes

/// Completion-handler spellings of `NSItemProvider`, as thin adapters over the async API.
///
/// Each starts the async load in a task and returns a Foundation `Progress` that mirrors it; cancelling that
/// `Progress` cancels the load. Handlers run on an arbitrary thread. An identifier that is not a valid uniform type
/// identifier fails with `TransferError.Code.unavailableRepresentation`.
extension TransferProvider {
    /// The registered type identifiers in fidelity order, as strings.
    public var registeredTypeIdentifiers: [String] {
        registeredTypes.map(\.identifier)
    }

    /// Whether a registered type conforms to the type with this identifier.
    ///
    /// - Parameter typeIdentifier: A uniform type identifier.
    /// - Returns: `false` also when the identifier is invalid.
    public func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
        UniformType(typeIdentifier).map(hasRepresentation(conformingTo:)) ?? false
    }

    /// Loads the data of the first representation that conforms to a type; see
    /// `loadDataRepresentation(for:progress:)`.
    ///
    /// - Parameters:
    ///   - typeIdentifier: The requested type's identifier.
    ///   - completionHandler: Gets the data, or `nil` and a `TransferError`.
    /// - Returns: A progress that mirrors the load; cancel it to cancel the load.
    @discardableResult
    public func loadDataRepresentation(
        forTypeIdentifier typeIdentifier: String,
        completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress {
        start(typeIdentifier: typeIdentifier, completionHandler) { type, progress in
            try await self.loadDataRepresentation(for: type, progress: progress)
        }
    }

    /// Loads the first representation that conforms to a type as a file; see
    /// `loadFileRepresentation(for:progress:_:)`.
    ///
    /// The file is deleted when `completionHandler` returns: copy it inside the handler to keep it.
    ///
    /// - Parameters:
    ///   - typeIdentifier: The requested type's identifier.
    ///   - completionHandler: Gets the file's URL, or `nil` and a `TransferError`.
    /// - Returns: A progress that mirrors the load; cancel it to cancel the load.
    @discardableResult
    public func loadFileRepresentation(
        forTypeIdentifier typeIdentifier: String,
        completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
    ) -> Progress {
        let reportFailure: @Sendable (Bool?, (any Error)?) -> Void = { _, error in
            if let error {
                completionHandler(nil, error)
            }
        }
        return start(typeIdentifier: typeIdentifier, reportFailure) { type, progress in
            try await self.loadFileRepresentation(for: type, progress: progress) { url in
                completionHandler(url, nil)
                return true
            }
        }
    }

    /// Loads an object of a reader type; see `loadObject(ofClass:progress:)`.
    ///
    /// - Parameters:
    ///   - objectClass: The reader type.
    ///   - completionHandler: Gets the object, or `nil` and a `TransferError`.
    /// - Returns: A progress that mirrors the load; cancel it to cancel the load.
    @discardableResult
    public func loadObject<T: TransferProviderReading>(
        ofClass objectClass: T.Type,
        completionHandler: @escaping @Sendable (T?, (any Error)?) -> Void
    ) -> Progress {
        start(typeIdentifier: nil, completionHandler) { _, progress in
            try await self.loadObject(ofClass: objectClass, progress: progress)
        }
    }

    /// Registers a data representation whose handler delivers its bytes through a completion handler.
    ///
    /// The shape of `NSItemProvider`'s method, so ported load handlers compile unchanged. The `Progress` the handler
    /// returns, if any, is cancelled when the load is cancelled.
    ///
    /// - Parameters:
    ///   - typeIdentifier: The type of the bytes; an invalid identifier registers nothing.
    ///   - visibility: Which processes may see the representation.
    ///   - loadHandler: Produces the bytes and calls its argument exactly once with the data or an error.
    /// - Returns: `false` if the identifier is invalid or a representation of an equal type was registered before.
    @discardableResult
    public func registerDataRepresentation(
        forTypeIdentifier typeIdentifier: String,
        visibility: TransferVisibility = .all,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) -> Bool {
        guard let type = UniformType(typeIdentifier) else { return false }
        return registerDataRepresentation(for: type, visibility: visibility) { progress in
            try await Self.bridge(progress) { loadHandler($0) }
        }
    }

    /// Runs an async load in a task and reports it to a completion handler.
    private func start<R: Sendable>(
        typeIdentifier: String?,
        _ completionHandler: @escaping @Sendable (R?, (any Error)?) -> Void,
        load: @escaping @Sendable (UniformType, TransferProgress) async throws -> R
    ) -> Progress {
        let progress = TransferProgress(totalUnitCount: 1)
        let foundationProgress = progress.makeFoundationProgress()
        let identifier = typeIdentifier ?? UniformType.data.identifier
        guard let type = UniformType(identifier) else {
            completionHandler(
                nil,
                TransferError(
                    code: .unavailableRepresentation,
                    message: "'\(identifier)' is not a valid uniform type identifier; use reverse-DNS letters, "
                        + "digits, dots and hyphens, such as public.png.",
                    source: identifier))
            return foundationProgress
        }
        Task {
            do {
                completionHandler(try await load(type, progress), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
        return foundationProgress
    }

    /// Awaits a completion-handler style load, linking cancellation of `progress` to the `Progress` it returns.
    static func bridge<R: Sendable>(
        _ progress: TransferProgress,
        _ start: (@escaping @Sendable (R?, (any Error)?) -> Void) -> Progress?
    ) async throws -> R {
        let once = ResumeOnce()
        let result: Result<R, any Error> = await withCheckedContinuation { continuation in
            let returned = start { value, error in
                // A handler that calls back twice must not crash the process: later calls are ignored.
                guard once.claim() else { return }
                if let value {
                    continuation.resume(returning: .success(value))
                } else {
                    continuation.resume(
                        returning: .failure(
                            error
                                ?? TransferError(
                                    code: .loaderFailed,
                                    message: "A load handler completed with neither a value nor an error; "
                                        + "make it pass one of them.")))
                }
            }
            if let returned {
                progress.onCancel { returned.cancel() }
            }
        }
        return try result.get()
    }
}

/// Lets exactly one caller through, so a completion handler called twice resumes its continuation once.
final class ResumeOnce: Sendable {
    private let claimed = Atomic<Bool>(false)

    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}
