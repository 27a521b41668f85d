#if !canImport(Darwin)
    public import Foundation
    import TransferKitPlatform
    import UniformTypes

    /// Apple's `NSItemProvider`, as a thin class over a native `TransferProvider`.
    ///
    /// Every method has Apple's name, parameters and completion-handler shape, and returns a Foundation `Progress`
    /// whose `cancel()` cancels the native load. Errors are Apple's (see ``appleError(for:loadingObject:)``).
    /// Handlers are `@Sendable` and run on an arbitrary thread, as on Apple platforms: in Swift 6 mode a handler
    /// written in a `@MainActor` type hops to the main actor before touching its state. Unlike the native provider,
    /// objects are always encoded and decoded, never handed over as the same instance (Apple's drag sessions offer
    /// `localObject` for that).
    ///
    /// ```swift
    /// let provider = NSItemProvider(object: model)
    /// provider.loadObject(ofClass: Model.self) { object, error in … }
    /// ```
    open class NSItemProvider: NSObject, @unchecked Sendable {
        /// The native provider that holds the representations; use its async API from new code.
        public let transferProvider: TransferProvider

        /// An empty provider.
        public override init() {
            transferProvider = TransferProvider()
            transferProvider.loadOptions.allowsInProcessFastPath = false
            super.init()
        }

        /// A provider over an existing native provider (for example one of an archive's items).
        ///
        /// - Parameter transferProvider: The native provider; its in-process fast path is turned off.
        public init(transferProvider: TransferProvider) {
            self.transferProvider = transferProvider
            transferProvider.loadOptions.allowsInProcessFastPath = false
            super.init()
        }

        /// A provider holding an object's representations, in its writable order.
        ///
        /// - Parameter object: The object; it stays in the provider and encodes itself on each load.
        public convenience init(object: any NSItemProviderWriting) {
            self.init()
            registerObject(object, visibility: .all)
        }

        /// A provider holding one item under a type identifier: `Data`/`NSData` as its bytes, `String`/`NSString`
        /// as UTF-8 text, `URL`/`NSURL` as the URL's absolute string.
        ///
        /// Without a type identifier, the item's own type is used (`public.data`, `public.utf8-plain-text`,
        /// `public.url` or `public.file-url`). Other items are not registered: Linux has no general secure coding of
        /// arbitrary objects.
        ///
        /// - Parameters:
        ///   - item: The item, such as `data as NSData`.
        ///   - typeIdentifier: The type of the item's bytes, such as `kUTTypePlainText as String`.
        public convenience init(item: (any NSSecureCoding)?, typeIdentifier: String?) {
            self.init()
            guard let (data, type) = Self.bytes(of: item) else { return }
            let registered = typeIdentifier.flatMap(UniformType.init) ?? type
            transferProvider.registerDataRepresentation(for: registered) { _ in data }
        }

        /// A provider for a file, typed by its extension; `nil` unless the URL is a file URL of an existing file.
        ///
        /// - Parameter fileURL: The file.
        public convenience init?(contentsOf fileURL: URL?) {
            guard let fileURL, fileURL.isFileURL, FileManager.default.fileExists(atPath: fileURL.path) else {
                return nil
            }
            self.init(transferProvider: TransferProvider(contentsOf: fileURL))
        }

        /// A name for the item, used by receivers that save it.
        open var suggestedName: String? {
            get { transferProvider.suggestedName }
            set { transferProvider.suggestedName = newValue }
        }

        /// The registered type identifiers in fidelity order.
        open var registeredTypeIdentifiers: [String] {
            transferProvider.registeredTypeIdentifiers
        }

        /// The registered type identifiers that match the file options, in fidelity order.
        ///
        /// - Parameter fileOptions: `.openInPlace` for the file representations registered for opening in place;
        ///   no options for all.
        /// - Returns: The identifiers.
        open func registeredTypeIdentifiers(fileOptions: NSItemProviderFileOptions = []) -> [String] {
            registeredTypes(fileOptions).map(\.identifier)
        }

        /// Whether a registered type conforms to the type with this identifier.
        ///
        /// - Parameter typeIdentifier: A type identifier.
        /// - Returns: `false` also for an invalid identifier.
        open func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
            transferProvider.hasItemConformingToTypeIdentifier(typeIdentifier)
        }

        /// Whether a registered type that matches the file options conforms to the type with this identifier.
        ///
        /// - Parameters:
        ///   - typeIdentifier: A type identifier.
        ///   - fileOptions: `.openInPlace` to consider only representations that open in place.
        /// - Returns: `false` also for an invalid identifier.
        open func hasRepresentationConforming(
            toTypeIdentifier typeIdentifier: String, fileOptions: NSItemProviderFileOptions = []
        ) -> Bool {
            guard let type = UniformType(typeIdentifier) else { return false }
            return TypeCatalog.shared.chooseRepresentation(offered: registeredTypes(fileOptions), requested: [type])
                != nil
        }

        private func registeredTypes(_ fileOptions: NSItemProviderFileOptions) -> [UniformType] {
            fileOptions.contains(.openInPlace)
                ? transferProvider.registeredTypes(openableInPlace: true) : transferProvider.registeredTypes
        }

        /// The bytes and natural type of an item of `init(item:typeIdentifier:)` or a load handler of
        /// `registerItem(forTypeIdentifier:loadHandler:)`.
        static func bytes(of item: (any NSSecureCoding)?) -> (Data, UniformType)? {
            switch item {
            case let data as NSData: (Data(referencing: data), .data)
            case let text as NSString: (Data(String(describing: text).utf8), .utf8PlainText)
            case let url as NSURL:
                (Data(url.absoluteString.utf8), url.isFileURL ? .fileURL : .url)
            default: nil
            }
        }
    }

    /// A non-`Sendable` value carried across a task boundary that Apple's API shape (plain closures, plain objects)
    /// requires; each is used by one load at a time.
    struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
    }
#endif
