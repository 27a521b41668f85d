#if !canImport(Darwin)
    public import Foundation
    import TransferKitPlatform
    import UniformTypes

    extension NSItemProvider {
        /// Registers every writable type of an object, in its order, with its visibility narrowed by `visibility`.
        ///
        /// - Parameters:
        ///   - object: The object.
        ///   - visibility: The widest visibility its representations may have.
        public func registerObject(
            _ object: any NSItemProviderWriting, visibility: NSItemProviderRepresentationVisibility
        ) {
            register(object, visibility: visibility)
        }

        private func register<T: NSItemProviderWriting>(_ object: T, visibility: NSItemProviderRepresentationVisibility)
        {
            transferProvider.registerObject(ItemProviderObject(object), visibility: visibility.transferVisibility)
        }

        /// Registers the writable types of a class, whose object `loadHandler` creates on each load.
        ///
        /// - Parameters:
        ///   - aClass: The class.
        ///   - visibility: Which processes may see the representations.
        ///   - loadHandler: Creates the object and passes it (or an error) to its argument once.
        public func registerObject(
            ofClass aClass: any NSItemProviderWriting.Type,
            visibility: NSItemProviderRepresentationVisibility,
            loadHandler:
                @escaping @Sendable (
                    @escaping @Sendable ((any NSItemProviderWriting)?, (any Error)?) -> Void
                ) -> Progress?
        ) {
            register(aClass, visibility: visibility, loadHandler: loadHandler)
        }

        private func register<T: NSItemProviderWriting>(
            _ aClass: T.Type, visibility: NSItemProviderRepresentationVisibility,
            loadHandler:
                @escaping @Sendable (
                    @escaping @Sendable ((any NSItemProviderWriting)?, (any Error)?) -> Void
                ) -> Progress?
        ) {
            transferProvider.registerObject(
                ofClass: ItemProviderObject<T>.self, visibility: visibility.transferVisibility
            ) { progress in
                let loaded: Unchecked<any NSItemProviderWriting> = try await TransferProvider.bridge(progress) {
                    completion in
                    loadHandler { object, error in completion(object.map { Unchecked(value: $0) }, error) }
                }
                guard let object = loaded.value as? T else {
                    throw NSError(
                        domain: NSItemProviderErrorDomain,
                        code: NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "The load handler returned a \(type(of: loaded.value)), not a \(T.self)."
                        ])
                }
                return ItemProviderObject(object)
            }
        }

        /// Registers a data representation whose handler passes its bytes to a completion handler.
        ///
        /// - Parameters:
        ///   - typeIdentifier: The bytes' type; an invalid identifier registers nothing.
        ///   - visibility: Which processes may see the representation.
        ///   - loadHandler: Produces the bytes and passes them (or an error) to its argument once.
        public func registerDataRepresentation(
            forTypeIdentifier typeIdentifier: String,
            visibility: NSItemProviderRepresentationVisibility,
            loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
        ) {
            guard let type = UniformType(typeIdentifier) else { return }
            transferProvider.registerDataRepresentation(for: type, visibility: visibility.transferVisibility) {
                progress in
                try await TransferProvider.bridge(progress) { completion in loadHandler(completion) }
            }
        }

        /// Apple's handler type of ``registerItem(forTypeIdentifier:loadHandler:)``: it gets a completion handler to
        /// pass the item (or an error) to, the class the item should have, and options (always `nil` here).
        public typealias LoadHandler = @Sendable (CompletionHandler?, AnyClass?, [AnyHashable: Any]?) -> Void

        /// Registers an item that `loadHandler` produces on each load, as a data representation of the type.
        ///
        /// The handler gets a completion handler (never `nil`), the class Apple's `loadItem` would expect — `NSURL`
        /// when the type conforms to `public.url`, else `NSData` — and `nil` options. It passes the completion
        /// handler what ``init(item:typeIdentifier:)`` stores: `NSData`/`Data` as the bytes, `NSString`/`String` as
        /// UTF-8, `NSURL`/`URL` as the URL's absolute string. Every load of the representation
        /// (``loadItem(forTypeIdentifier:options:completionHandler:)``, ``loadDataRepresentation(forTypeIdentifier:completionHandler:)``,
        /// `loadObject(ofClass:)` of a class that reads the type, an archive) calls the handler once.
        ///
        /// ```swift
        /// provider.registerItem(forTypeIdentifier: kUTTypePlainText as String) { completion, _, _ in
        ///     completion?("Luke" as NSString, nil)
        /// }
        /// ```
        ///
        /// Apple also coerces other classes between an item and the class a loader declares; Linux has no keyed
        /// archiving of arbitrary classes, so another item fails the load with ``NSItemProviderErrorDomain`` code
        /// −1100 (`unexpectedValueClassError`). An error passed to the completion handler reaches the loader
        /// unchanged; a handler that never calls its completion handler leaves the load waiting until it is cancelled.
        ///
        /// - Parameters:
        ///   - typeIdentifier: The item's type; an invalid identifier registers nothing.
        ///   - loadHandler: Produces the item and passes it (or an error) to its completion handler once.
        public func registerItem(forTypeIdentifier typeIdentifier: String, loadHandler: @escaping LoadHandler) {
            guard let type = UniformType(typeIdentifier) else { return }
            transferProvider.registerDataRepresentation(for: type) { progress in
                let item: Unchecked<any NSSecureCoding> = try await TransferProvider.bridge(progress) { completion in
                    let expectedClass: AnyClass = type.conforms(to: .url) ? NSURL.self : NSData.self
                    loadHandler(
                        { item, error in completion(item.map { Unchecked(value: $0) }, error) }, expectedClass, nil)
                    return nil
                }
                guard let (data, _) = Self.bytes(of: item.value) else {
                    throw NSError(
                        domain: NSItemProviderErrorDomain, code: ErrorCode.unexpectedValueClassError.rawValue,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "The load handler for \(type) passed a \(Swift.type(of: item.value)); pass NSData, "
                                + "NSString or NSURL (Linux cannot archive other classes)."
                        ])
                }
                return data
            }
        }

        /// Registers a file representation whose handler passes a file's URL to a completion handler.
        ///
        /// - Parameters:
        ///   - typeIdentifier: The file's type; an invalid identifier registers nothing.
        ///   - fileOptions: `.openInPlace` lets readers use the file in place.
        ///   - visibility: Which processes may see the representation.
        ///   - loadHandler: Produces the file and passes its URL, whether it was coordinated (ignored: Linux has no
        ///     file coordination), or an error to its argument once.
        public func registerFileRepresentation(
            forTypeIdentifier typeIdentifier: String,
            fileOptions: NSItemProviderFileOptions = [],
            visibility: NSItemProviderRepresentationVisibility,
            loadHandler: @escaping @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
        ) {
            guard let type = UniformType(typeIdentifier) else { return }
            transferProvider.registerFileRepresentation(
                for: type, visibility: visibility.transferVisibility, openInPlace: fileOptions.contains(.openInPlace)
            ) { progress in
                try await TransferProvider.bridge(progress) { completion in
                    loadHandler { url, _, error in completion(url, error) }
                }
            }
        }
    }
#endif
