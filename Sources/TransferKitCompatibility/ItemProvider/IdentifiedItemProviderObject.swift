#if !canImport(Darwin)
    public import Foundation
    public import UniformTypes

    /// How the instances of an Apple-style class are told apart: a key path or a closure from an instance to a
    /// `Sendable` value.
    ///
    /// ```swift
    /// ItemProviderIdentity(\Model.name)                       // a key path
    /// ItemProviderIdentity { (module: CustomModule) in "\(module.type)" }  // a closure
    /// ```
    public struct ItemProviderIdentity<Object, ID: Hashable & Sendable>: Sendable {
        /// The identity of an instance.
        public let id: @Sendable (Object) -> ID

        /// An identity read through a key path, such as `\Model.name`.
        ///
        /// - Parameter keyPath: The property that identifies an instance.
        public init(_ keyPath: any KeyPath<Object, ID> & Sendable) {
            id = { $0[keyPath: keyPath] }
        }

        /// An identity computed by a closure.
        ///
        /// - Parameter id: Returns an instance's identity; it must give equal values for an instance and its copy
        ///   decoded from the instance's own data, or a moved item is not recognized.
        public init(_ id: @escaping @Sendable (Object) -> ID) {
            self.id = id
        }
    }

    /// An Apple-style class whose instances have an identity, so that they can join drag sessions and ordered lists
    /// through ``IdentifiedItemProviderObject``.
    ///
    /// Conform in an extension; the class itself stays as it is. The class must be `final`, as the seeds' are (and as
    /// their `object(withItemProviderData:typeIdentifier:) -> Model` requires): the requirement's type names `Self`,
    /// which Swift lets only a final class satisfy.
    ///
    /// ```swift
    /// extension Model: ItemProviderIdentifiable {
    ///     static var itemProviderIdentity: ItemProviderIdentity<Model, String> { ItemProviderIdentity(\.name) }
    /// }
    /// ```
    public protocol ItemProviderIdentifiable: AnyObject {
        /// The type of an instance's identity; for `TransferList` also `LosslessStringConvertible`, such as `String`.
        associatedtype ItemProviderID: Hashable & Sendable

        /// How an instance's identity is found.
        static var itemProviderIdentity: ItemProviderIdentity<Self, ItemProviderID> { get }
    }

    /// An instance of an Apple-style ``NSItemProviderReading`` / ``NSItemProviderWriting`` class as a `Sendable`,
    /// `Identifiable` native reader and writer, so the seeds' classes join TransferSessions' `TransferList`,
    /// `DragSession` and cross-process drops without being rewritten.
    ///
    /// ```swift
    /// extension Model: ItemProviderIdentifiable {
    ///     static var itemProviderIdentity: ItemProviderIdentity<Model, String> { ItemProviderIdentity(\.name) }
    /// }
    ///
    /// let cards = TransferList(models.map(IdentifiedItemProviderObject.init))
    /// let done = TransferList<IdentifiedItemProviderObject<Model>>([])
    /// _ = try await done.drop(try cards.beginDrag(["Panther"]), at: 0)
    /// let moved: [Model] = done.elements.map(\.object)
    /// ```
    ///
    /// Writing and reading go through the class's own methods, as with ``ItemProviderObject``: another process (or a
    /// copy) gets an instance decoded by `object(withItemProviderData:typeIdentifier:)`, and its identity is computed
    /// again from it. In one process a move hands over the same instance.
    ///
    /// It is `@unchecked Sendable` because Apple's protocols do not require `Sendable`, and what that leaves open is
    /// stated here instead of checked: the identity is computed once, when the value is made, so lists and sessions
    /// never read the object's properties from their threads; the object is touched only by its class's
    /// `loadData(withTypeIdentifier:forItemProviderCompletionHandler:)`, one call per load, on the loading task's
    /// thread. Do not change a wrapped object while a session may load it (seed 000's `Model`, all `let`s, cannot
    /// change); declare your class `Sendable` where you can, and the promise is the compiler's.
    public struct IdentifiedItemProviderObject<Object: ItemProviderIdentifiable>: Identifiable, @unchecked Sendable {
        /// The wrapped instance.
        public let object: Object

        /// The instance's identity, computed when it was wrapped.
        public let id: Object.ItemProviderID

        /// Wraps an instance, computing its identity.
        ///
        /// - Parameter object: The instance.
        public init(_ object: Object) {
            self.object = object
            id = Object.itemProviderIdentity.id(object)
        }
    }

    extension IdentifiedItemProviderObject: TransferProviderWriting where Object: NSItemProviderWriting {
        /// The class's static writable types that are valid type identifiers.
        public static var writableTypes: [UniformType] {
            ItemProviderObject<Object>.writableTypes
        }

        /// The instance's writable types that are valid type identifiers.
        public var writableTypes: [UniformType] {
            ItemProviderObject(object).writableTypes
        }

        /// The instance's visibility for the type.
        public func visibility(for type: UniformType) -> TransferVisibility {
            ItemProviderObject(object).visibility(for: type)
        }

        /// The bytes the instance's `loadData(withTypeIdentifier:forItemProviderCompletionHandler:)` hands over.
        ///
        /// - Throws: What the instance reports.
        public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
            try await ItemProviderObject(object).loadData(for: type, progress: progress)
        }
    }

    extension IdentifiedItemProviderObject: TransferProviderReading where Object: NSItemProviderReading {
        /// The class's readable types that are valid type identifiers.
        public static var readableTypes: [UniformType] {
            ItemProviderObject<Object>.readableTypes
        }

        /// An instance made by the class's `object(withItemProviderData:typeIdentifier:)`, with its identity.
        ///
        /// - Throws: What the class throws.
        public static func object(from data: Data, type: UniformType) throws -> Self {
            Self(try ItemProviderObject<Object>.object(from: data, type: type).object)
        }
    }
#endif
