#if !canImport(Darwin)
    public import Foundation

    /// Apple's `NSItemProviderReading`: a class whose instances can be created from an item provider's data.
    ///
    /// The requirements are Apple's, so a model class written for Apple platforms conforms unchanged. Unlike
    /// TransferKit's own `ItemProviderReading`, it does not require `Sendable`; ``NSItemProvider``
    /// adapts conforming classes with ``ItemProviderObject``.
    public protocol NSItemProviderReading: NSObjectProtocol, SendableMetatype {
        /// The identifiers of the types this class reads, most preferred first.
        static var readableTypeIdentifiersForItemProvider: [String] { get }

        /// Creates an instance from data of the type with this identifier.
        ///
        /// - Parameters:
        ///   - data: The bytes.
        ///   - typeIdentifier: The identifier of the representation the bytes were loaded from.
        /// - Returns: The instance.
        /// - Throws: Any error; ``NSItemProvider`` reports it with code
        ///   ``NSItemProvider/ErrorCode/unexpectedValueClassError`` and the error as `NSUnderlyingErrorKey`.
        static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self
    }

    /// Apple's `NSItemProviderWriting`: a class whose instances hand out their contents as data.
    ///
    /// Apple's optional requirements (the instance list of identifiers and both visibility methods) have default
    /// implementations here: the static list, and ``NSItemProviderRepresentationVisibility/all``.
    public protocol NSItemProviderWriting: NSObjectProtocol, SendableMetatype {
        /// The identifiers of the types every instance writes, highest fidelity first.
        static var writableTypeIdentifiersForItemProvider: [String] { get }

        /// The identifiers of the types this instance writes; by default the static list.
        var writableTypeIdentifiersForItemProvider: [String] { get }

        /// Which processes may see the representation of a type; by default ``NSItemProviderRepresentationVisibility/all``.
        ///
        /// - Parameter typeIdentifier: One of the writable identifiers.
        /// - Returns: The visibility.
        static func itemProviderVisibilityForRepresentation(
            withTypeIdentifier typeIdentifier: String
        ) -> NSItemProviderRepresentationVisibility

        /// Which processes may see this instance's representation of a type; by default the static answer.
        ///
        /// - Parameter typeIdentifier: One of the writable identifiers.
        /// - Returns: The visibility.
        func itemProviderVisibilityForRepresentation(
            withTypeIdentifier typeIdentifier: String
        ) -> NSItemProviderRepresentationVisibility

        /// Encodes the instance as the type with this identifier and passes the bytes (or an error) to the handler.
        ///
        /// - Parameters:
        ///   - typeIdentifier: One of the writable identifiers.
        ///   - completionHandler: Gets the bytes, or `nil` and an error; call it once.
        /// - Returns: A progress for the work, or `nil`; cancelling a load cancels it.
        func loadData(
            withTypeIdentifier typeIdentifier: String,
            forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
        ) -> Progress?
    }

    extension NSItemProviderWriting {
        /// The static ``writableTypeIdentifiersForItemProvider-swift.type.property``.
        public var writableTypeIdentifiersForItemProvider: [String] {
            Self.writableTypeIdentifiersForItemProvider
        }

        /// ``NSItemProviderRepresentationVisibility/all``.
        public static func itemProviderVisibilityForRepresentation(
            withTypeIdentifier typeIdentifier: String
        ) -> NSItemProviderRepresentationVisibility {
            .all
        }

        /// The static answer.
        public func itemProviderVisibilityForRepresentation(
            withTypeIdentifier typeIdentifier: String
        ) -> NSItemProviderRepresentationVisibility {
            Self.itemProviderVisibilityForRepresentation(withTypeIdentifier: typeIdentifier)
        }
    }

    /// Apple's representation visibilities. There are no app groups or teams on Linux: ``group`` and ``team`` are
    /// treated as ``ownProcess`` (never archived, never sent to another process).
    public enum NSItemProviderRepresentationVisibility: Int, Sendable {
        /// Every process.
        case all = 0
        /// Apple: the same team's apps (watchOS). Here: only the registering process.
        case team = 1
        /// Apple: the same app group. Here: only the registering process.
        case group = 2
        /// Only the registering process.
        case ownProcess = 3

        /// The native visibility.
        public var transferVisibility: TransferVisibility {
            self == .all ? .all : .ownProcess
        }
    }

    /// Apple's file options for file representations.
    public struct NSItemProviderFileOptions: OptionSet, Sendable {
        /// The bits.
        public let rawValue: Int

        /// Options from bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Readers may use the file in place instead of a copy.
        public static let openInPlace = NSItemProviderFileOptions(rawValue: 1)
    }
#endif
