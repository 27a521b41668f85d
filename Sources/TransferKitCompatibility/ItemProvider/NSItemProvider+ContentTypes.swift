#if !canImport(Darwin)
    public import Foundation
    public import UniformTypes

    extension NSItemProvider {
        /// The registered content types in fidelity (registration) order: ``registeredTypeIdentifiers`` as `UTType`s.
        public var registeredContentTypes: [UTType] {
            transferProvider.registeredTypes
        }

        /// The registered content types that a reader can open in place, in fidelity order: the file
        /// representations registered with `.openInPlace` (or `openInPlace: true`).
        ///
        /// Linux has no file coordination or security-scoped access: "in place" means that
        /// ``loadInPlaceFileRepresentation(forTypeIdentifier:completionHandler:)`` hands over the registered file
        /// itself instead of a temporary copy.
        public var registeredContentTypesForOpenInPlace: [UTType] {
            transferProvider.registeredTypes(openableInPlace: true)
        }

        /// The registered content types that conform to a type, in fidelity order.
        ///
        /// A type conforms to itself, so asking for `.image` returns a registered `.png` and `.image` alike. Only
        /// registered types count; the types that converters derive from them do not.
        ///
        /// ```swift
        /// let images = provider.registeredContentTypes(conformingTo: .image)   // [.png, .jpeg], say
        /// ```
        ///
        /// - Parameter contentType: The type to conform to.
        /// - Returns: The registered types that conform to it.
        public func registeredContentTypes(conformingTo contentType: UTType) -> [UTType] {
            transferProvider.registeredTypes.filter { $0.conforms(to: contentType) }
        }

        /// The `TransferProvider.metadata` key of ``preferredPresentationSize``: `org.transferkit.presentation-size`,
        /// an array of the width and the height (floating-point numbers).
        public static let presentationSizeMetadataKey = "org.transferkit.presentation-size"

        /// The size at which the item would ideally be shown, or `.zero` (the default) for none.
        ///
        /// Apple derives it from an image's or a video's natural size and uses it for drag and drop previews; nothing
        /// on Linux derives it or draws with it. Set it, as iOS code does, and it travels with the item: it is kept in
        /// the native provider's `TransferProvider.metadata` under ``presentationSizeMetadataKey``, so an archive
        /// and an in-process drag carry it and the receiver reads it back. Setting `.zero` removes it; a stored value
        /// that is not two finite numbers reads as `.zero`.
        public var preferredPresentationSize: CGSize {
            get {
                guard case .array(let values)? = transferProvider.metadata[Self.presentationSizeMetadataKey],
                    values.count == 2, let width = Self.number(values[0]), let height = Self.number(values[1])
                else { return .zero }
                return CGSize(width: width, height: height)
            }
            set {
                let width = Double(newValue.width)
                let height = Double(newValue.height)
                let stored: TransferMetadataValue? =
                    newValue == .zero || !width.isFinite || !height.isFinite
                    ? nil : .array([.double(width), .double(height)])
                transferProvider.metadata[Self.presentationSizeMetadataKey] = stored
            }
        }

        /// A metadata number as a finite `Double` (an archive's JSON form may hand back `100.0` as the integer 100).
        private static func number(_ value: TransferMetadataValue) -> Double? {
            switch value {
            case .double(let value) where value.isFinite: value
            case .integer(let value): Double(value)
            default: nil
            }
        }
    }
#endif
