import Synchronization
import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TransferProvider {
    /// Registers a representation whose bytes `loadHandler` produces on demand.
    ///
    /// ```swift
    /// provider.registerDataRepresentation(for: .utf8PlainText) { progress in
    ///     Data("hello".utf8)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the bytes.
    ///   - visibility: Which processes may see the representation.
    ///   - loadHandler: Produces the bytes; it runs once per load, possibly concurrently with itself.
    /// - Returns: `false` if a representation of an equal type was registered before (the first one wins).
    @discardableResult
    public func registerDataRepresentation(
        for type: UniformType,
        visibility: TransferVisibility = .all,
        loadHandler: @escaping @Sendable (TransferProgress) async throws -> Data
    ) -> Bool {
        register(Entry(type: type, visibility: visibility, source: .data(loadHandler)))
    }

    /// Registers a representation that `loadHandler` produces as a file.
    ///
    /// Loading it as a file gives the reader a copy in ``temporaryDirectory`` (deleted after the reader's
    /// closure), unless `openInPlace` is `true`, in which case the reader gets the handler's URL itself. The
    /// provider never deletes the file the handler returns.
    ///
    /// - Parameters:
    ///   - type: The type of the file's contents.
    ///   - visibility: Which processes may see the representation.
    ///   - openInPlace: Whether readers may use the returned file in place instead of a copy.
    ///   - loadHandler: Returns the URL of a file; it runs once per load, possibly concurrently with itself.
    /// - Returns: `false` if a representation of an equal type was registered before (the first one wins).
    @discardableResult
    public func registerFileRepresentation(
        for type: UniformType,
        visibility: TransferVisibility = .all,
        openInPlace: Bool = false,
        loadHandler: @escaping @Sendable (TransferProgress) async throws -> URL
    ) -> Bool {
        register(Entry(type: type, visibility: visibility, source: .file(openInPlace: openInPlace, loadHandler)))
    }

    /// Registers every writable type of `object`, in its order, each with the narrower of `visibility` and the
    /// object's own ``TransferProviderWriting/visibility(for:)``.
    ///
    /// Types registered before are skipped (the first registration wins).
    ///
    /// - Parameters:
    ///   - object: The object; it stays in the provider and encodes itself on each load.
    ///   - visibility: The widest visibility its representations may have.
    /// - Returns: The number of types that were registered.
    @discardableResult
    public func registerObject(_ object: some TransferProviderWriting, visibility: TransferVisibility = .all) -> Int {
        registerObjectEntries(object, visibility: visibility).count
    }

    /// ``registerObject(_:visibility:)``, also returning the suggested file name of the first representation
    /// registered with one.
    func registerObjectEntries(
        _ object: some TransferProviderWriting, visibility: TransferVisibility
    ) -> (count: Int, firstSuggestedName: String?) {
        let source = ObjectSource(storing: object)
        let types = object.writableTypes
        if types.isEmpty {
            recordFailure(of: type(of: object))
        }
        var count = 0
        var firstSuggestedName: String?
        for type in types {
            let name = object.suggestedFileName(for: type)
            let registered = register(
                Entry(
                    type: type, visibility: visibility.narrowed(by: object.visibility(for: type)),
                    source: .object(source), suggestedName: name))
            if registered {
                count += 1
                if firstSuggestedName == nil {
                    firstSuggestedName = name
                }
            }
        }
        return (count, firstSuggestedName)
    }

    /// Registers the static writable types of `objectClass`, whose object `loadHandler` creates on demand.
    ///
    /// Each load (of any of the types) invokes `loadHandler` and then asks the object for the data.
    ///
    /// - Parameters:
    ///   - objectClass: The type of the object the handler creates.
    ///   - visibility: Which processes may see the representations.
    ///   - loadHandler: Creates the object.
    /// - Returns: The number of types that were registered.
    @discardableResult
    public func registerObject<T: TransferProviderWriting>(
        ofClass objectClass: T.Type,
        visibility: TransferVisibility = .all,
        loadHandler: @escaping @Sendable (TransferProgress) async throws -> T
    ) -> Int {
        let source = ObjectSource(objectType: objectClass, handler: { progress in try await loadHandler(progress) })
        let types = objectClass.writableTypes
        if types.isEmpty {
            recordFailure(of: objectClass)
        }
        return types.reduce(0) { count, type in
            count + (register(Entry(type: type, visibility: visibility, source: .object(source))) ? 1 : 0)
        }
    }

    /// Keeps why an object type that writes nothing cannot be used, if that is why (the first such reason wins).
    private func recordFailure(of objectType: Any.Type) {
        guard let failure = representationFailure(of: objectType) else { return }
        state.withLock { state in
            if state.registrationFailure == nil {
                state.registrationFailure = failure
            }
        }
    }

    /// Appends `entry` unless a representation of an equal type is registered (see ``Entries``).
    func register(_ entry: Entry) -> Bool {
        state.withLock { $0.entries.append(entry) }
    }
}

extension TransferProvider {
    /// A description of one registered representation.
    public struct Representation: Hashable, Sendable, CustomStringConvertible {
        /// The representation's type.
        public var type: UniformType
        /// Which processes may see it.
        public var visibility: TransferVisibility
        /// How it was registered.
        public var kind: Kind
        /// Whether a reader may use the registered file in place (only file representations).
        public var isOpenableInPlace: Bool

        /// How a representation was registered.
        public struct Kind: Hashable, Sendable, CustomStringConvertible {
            private let name: String

            /// Bytes from a data load handler.
            public static var data: Self { Self(name: "data") }
            /// A file from a file load handler.
            public static var file: Self { Self(name: "file") }
            /// An object (stored or created lazily) that encodes itself.
            public static var object: Self { Self(name: "object") }
            /// Chunks from a stream handler (``TransferProvider/registerStreamRepresentation(for:visibility:loadHandler:)``).
            public static var stream: Self { Self(name: "stream") }

            /// The kind's name.
            public var description: String { name }
        }

        /// The type, kind and visibility, such as `public.png (file, all)`.
        public var description: String { "\(type) (\(kind), \(visibility))" }
    }

    /// The registered representations in fidelity (registration) order.
    public var representations: [Representation] {
        state.withLock { $0.entries }.map { entry in
            switch entry.source {
            case .data:
                Representation(
                    type: entry.type, visibility: entry.visibility, kind: entry.stream == nil ? .data : .stream,
                    isOpenableInPlace: false)
            case .file(let openInPlace, _):
                Representation(
                    type: entry.type, visibility: entry.visibility, kind: .file, isOpenableInPlace: openInPlace)
            case .object:
                Representation(type: entry.type, visibility: entry.visibility, kind: .object, isOpenableInPlace: false)
            }
        }
    }

    /// The registered types in fidelity (registration) order.
    public var registeredTypes: [UniformType] {
        state.withLock { $0.entries.map(\.type) }
    }

    /// The registered types that `audience` may see, in fidelity order; an archive writer asks for
    /// ``TransferVisibility/Audience/otherProcesses``.
    ///
    /// - Parameter audience: Who will see the representations.
    /// - Returns: The visible types.
    public func registeredTypes(visibleTo audience: TransferVisibility.Audience) -> [UniformType] {
        representations.filter { $0.visibility.isVisible(to: audience) }.map(\.type)
    }

    /// The registered types that can (or cannot) be loaded as files in place, in fidelity order.
    ///
    /// - Parameter openableInPlace: `true` for file representations registered with `openInPlace`; `false` for
    ///   the others.
    /// - Returns: The matching types.
    public func registeredTypes(openableInPlace: Bool) -> [UniformType] {
        representations.filter { $0.isOpenableInPlace == openableInPlace }.map(\.type)
    }

    /// Whether an offered type (registered or derived, see ``offeredTypes``) conforms to `type` (so loading `type`
    /// would succeed in choosing one).
    ///
    /// - Parameter type: The requested type.
    /// - Returns: `true` if some offered type conforms to it.
    public func hasRepresentation(conformingTo type: UniformType) -> Bool {
        choose(for: [type]) != nil
    }

    /// Whether ``loadObject(ofClass:progress:)`` can find a representation (or, with the fast path, an object)
    /// for `objectClass`.
    ///
    /// - Parameter objectClass: The reader type.
    /// - Returns: `true` if a load would choose something; decoding may still fail.
    public func canLoadObject<T: TransferProviderReading>(ofClass objectClass: T.Type) -> Bool {
        if loadOptions.allowsInProcessFastPath, fastPathSource(for: objectClass) != nil {
            return true
        }
        return choose(for: objectClass.readableTypes) != nil
    }
}
