#if !canImport(Darwin)
    public import Foundation
    public import UniformTypes

    /// An instance of an Apple-style ``NSItemProviderReading`` / ``NSItemProviderWriting`` class as a native
    /// TransferKit reader and writer (`ItemProviderReading` and `ItemProviderWriting`).
    ///
    /// ``NSItemProvider`` uses it for every object it registers or loads. Use it yourself to put such a class in a
    /// `TransferRegistry` (for a tool's `check` and `reencode`) or a `TransferProvider`:
    ///
    /// ```swift
    /// try registry.register(ItemProviderObject<Model>.self)
    /// let model = try await provider.loadObject(ofClass: ItemProviderObject<Model>.self).object
    /// ```
    ///
    /// It is `@unchecked Sendable` because Apple's protocols do not require `Sendable`: the object is only handed to
    /// the class's own methods, one call at a time per load, as `NSItemProvider` does.
    public struct ItemProviderObject<Object>: @unchecked Sendable {
        /// The wrapped instance.
        public let object: Object

        /// Wraps an instance.
        ///
        /// - Parameter object: The instance.
        public init(_ object: Object) {
            self.object = object
        }
    }

    extension ItemProviderObject: TransferProviderWriting, ItemProviderWriting where Object: NSItemProviderWriting {
        /// The class's static writable identifiers.
        public static var writableTypeIdentifiersForItemProvider: [String] {
            Object.writableTypeIdentifiersForItemProvider
        }

        /// The instance's writable identifiers that are valid type identifiers.
        public var writableTypes: [UniformType] {
            object.writableTypeIdentifiersForItemProvider.compactMap(UniformType.init)
        }

        /// The instance's visibility for the type.
        public func visibility(for type: UniformType) -> TransferVisibility {
            object.itemProviderVisibilityForRepresentation(withTypeIdentifier: type.identifier).transferVisibility
        }

        /// Forwards to the instance.
        public func loadData(
            withTypeIdentifier typeIdentifier: String,
            forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
        ) -> Progress? {
            object.loadData(withTypeIdentifier: typeIdentifier, forItemProviderCompletionHandler: completionHandler)
        }
    }

    extension ItemProviderObject: TransferProviderReading, ItemProviderReading where Object: NSItemProviderReading {
        /// The class's readable identifiers.
        public static var readableTypeIdentifiersForItemProvider: [String] {
            Object.readableTypeIdentifiersForItemProvider
        }

        /// Creates the instance with the class's method.
        public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
            Self(try Object.object(withItemProviderData: data, typeIdentifier: typeIdentifier))
        }
    }

    extension ItemProviderObject: Equatable where Object: Equatable {}
#endif
