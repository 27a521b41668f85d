#if !canImport(Darwin)
    public import Foundation
    import TransferKitPlatform
    import UniformTypes

    extension NSItemProvider {
        /// Whether an object of the class can be loaded: some registered type conforms to one it reads.
        ///
        /// - Parameter aClass: The reader class.
        /// - Returns: `true` if a load would choose a representation; decoding may still fail.
        public func canLoadObject(ofClass aClass: any NSItemProviderReading.Type) -> Bool {
            canLoad(aClass)
        }

        private func canLoad<T: NSItemProviderReading>(_ aClass: T.Type) -> Bool {
            transferProvider.canLoadObject(ofClass: ItemProviderObject<T>.self)
        }

        /// Whether a bridged value (`String`, `URL`) can be loaded through its Foundation class.
        ///
        /// - Parameter aClass: The value type.
        /// - Returns: `true` if a load would choose a representation.
        public func canLoadObject<T: _ObjectiveCBridgeable>(ofClass aClass: T.Type) -> Bool
        where T._ObjectiveCType: NSItemProviderReading {
            canLoad(T._ObjectiveCType.self)
        }

        /// Loads an object of the class from the representation its preferred types choose.
        ///
        /// - Parameters:
        ///   - aClass: The reader class.
        ///   - completionHandler: Gets the object, or `nil` and an error in ``NSItemProviderErrorDomain``
        ///     (−1200 when nothing conforms, −1100 when the class cannot read the bytes).
        /// - Returns: A progress; cancelling it cancels the load.
        @discardableResult
        public func loadObject(
            ofClass aClass: any NSItemProviderReading.Type,
            completionHandler: @escaping @Sendable ((any NSItemProviderReading)?, (any Error)?) -> Void
        ) -> Progress {
            load(aClass, completionHandler)
        }

        private func load<T: NSItemProviderReading>(
            _ aClass: T.Type, _ handler: @escaping @Sendable ((any NSItemProviderReading)?, (any Error)?) -> Void
        ) -> Progress {
            let provider = transferProvider
            return start(loadingObject: true, { handler($0?.value.object, $1) }) { progress in
                Unchecked(value: try await provider.loadObject(ofClass: ItemProviderObject<T>.self, progress: progress))
            }
        }

        /// Loads a bridged value (`String`, `URL`) through its Foundation class (`NSString`, `NSURL`).
        ///
        /// - Parameters:
        ///   - aClass: The value type.
        ///   - completionHandler: Gets the value, or `nil` and an error as for the class form.
        /// - Returns: A progress; cancelling it cancels the load.
        @discardableResult
        public func loadObject<T: _ObjectiveCBridgeable>(
            ofClass aClass: T.Type, completionHandler: @escaping @Sendable (T?, (any Error)?) -> Void
        ) -> Progress where T._ObjectiveCType: NSItemProviderReading, T: SendableMetatype {
            loadObject(ofClass: T._ObjectiveCType.self) { object, error in
                guard let object else { return completionHandler(nil, error) }
                guard let value = object as? T else {
                    return completionHandler(
                        nil,
                        NSError(
                            domain: NSItemProviderErrorDomain, code: ErrorCode.unexpectedValueClassError.rawValue,
                            userInfo: [NSLocalizedDescriptionKey: "\(type(of: object)) does not bridge to \(T.self)."]))
                }
                completionHandler(value, nil)
            }
        }

        /// Loads the bytes of the first representation that conforms to a type.
        ///
        /// - Parameters:
        ///   - typeIdentifier: The requested type.
        ///   - completionHandler: Gets the bytes, or `nil` and an error (−1000 when nothing conforms).
        /// - Returns: A progress; cancelling it cancels the load.
        @discardableResult
        public func loadDataRepresentation(
            forTypeIdentifier typeIdentifier: String,
            completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
        ) -> Progress {
            let provider = transferProvider
            return start(typeIdentifier, completionHandler) { type, progress in
                try await provider.loadDataRepresentation(for: type, progress: progress)
            }
        }

        /// Loads the first representation that conforms to a type as a temporary file, deleted when the handler
        /// returns (copy it to keep it).
        ///
        /// - Parameters:
        ///   - typeIdentifier: The requested type.
        ///   - completionHandler: Gets the file's URL, or `nil` and an error.
        /// - Returns: A progress; cancelling it cancels the load.
        @discardableResult
        public func loadFileRepresentation(
            forTypeIdentifier typeIdentifier: String,
            completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
        ) -> Progress {
            let provider = transferProvider
            return start(typeIdentifier, { (_: Bool?, error) in if let error { completionHandler(nil, error) } }) {
                type, progress in
                try await provider.loadFileRepresentation(for: type, progress: progress) { url in
                    completionHandler(url, nil)
                    return true
                }
            }
        }

        /// Loads the first representation that conforms to a type as a file, in place when it was registered with
        /// `.openInPlace` (then the handler's flag is `true` and the file is not deleted), else as a temporary copy.
        ///
        /// - Parameters:
        ///   - typeIdentifier: The requested type.
        ///   - completionHandler: Gets the URL and whether it is in place, or `nil`, `false` and an error.
        /// - Returns: A progress; cancelling it cancels the load.
        @discardableResult
        public func loadInPlaceFileRepresentation(
            forTypeIdentifier typeIdentifier: String,
            completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void
        ) -> Progress {
            let provider = transferProvider
            let inPlace = Set(provider.registeredTypes(openableInPlace: true))
            return start(typeIdentifier, { (_: Bool?, error) in if let error { completionHandler(nil, false, error) } })
            {
                type, progress in
                try await provider.loadFileRepresentation(for: type, progress: progress) { url in
                    let chosen = TypeCatalog.shared.chooseRepresentation(
                        offered: provider.registeredTypes, requested: [type])
                    let isInPlace = chosen.map { inPlace.contains(provider.registeredTypes[$0]) } ?? false
                    completionHandler(url, isInPlace, nil)
                    return true
                }
            }
        }

        /// Apple's handler type of ``loadItem(forTypeIdentifier:options:completionHandler:)``: `@Sendable`, as in
        /// Apple's SDK, so it runs on whatever thread the load finishes on.
        public typealias CompletionHandler = @Sendable ((any NSSecureCoding)?, (any Error)?) -> Void

        /// Loads the first representation that conforms to a type as an item: an `NSURL` when the requested type
        /// conforms to `public.url`, else the bytes as `NSData`.
        ///
        /// Apple coerces the item to the class that an Objective-C block declares; Swift sees `NSSecureCoding`, and
        /// these are the two classes Apple hands to Swift for data and URLs. `options` are ignored (Apple's one key
        /// asks for a preview image size).
        ///
        /// - Parameters:
        ///   - typeIdentifier: The requested type.
        ///   - options: Ignored.
        ///   - completionHandler: Gets the item, or `nil` and an error as for
        ///     ``loadDataRepresentation(forTypeIdentifier:completionHandler:)``; without one nothing is loaded.
        public func loadItem(
            forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil,
            completionHandler: CompletionHandler? = nil
        ) {
            guard let completionHandler else { return }
            let provider = transferProvider
            _ = start(
                typeIdentifier,
                { (item: Unchecked<any NSSecureCoding>?, error) in completionHandler(item?.value, error) }
            ) {
                type, progress in
                let data = try await provider.loadDataRepresentation(for: type, progress: progress)
                guard type.conforms(to: .url) else { return Unchecked(value: data as NSData) }
                return Unchecked(value: try URL.object(from: data, type: type) as NSURL)
            }
        }

        /// Runs a native load for a type identifier, reporting to an Apple-shaped handler.
        private func start<R: Sendable>(
            _ typeIdentifier: String, _ handler: @escaping @Sendable (R?, (any Error)?) -> Void,
            load: @escaping @Sendable (UniformType, TransferProgress) async throws -> R
        ) -> Progress {
            guard let type = UniformType(typeIdentifier) else {
                let progress = Progress(totalUnitCount: 1)
                handler(
                    nil,
                    NSError(
                        domain: NSItemProviderErrorDomain, code: ErrorCode.itemUnavailableError.rawValue,
                        userInfo: [
                            NSLocalizedDescriptionKey: "'\(typeIdentifier)' is not a valid uniform type identifier."
                        ]))
                return progress
            }
            return start(loadingObject: false, handler) { progress in try await load(type, progress) }
        }

        /// Starts `load` in a task and returns a Foundation progress whose cancel cancels it.
        func start<R: Sendable>(
            loadingObject: Bool, _ handler: @escaping @Sendable (R?, (any Error)?) -> Void,
            load: @escaping @Sendable (TransferProgress) async throws -> R
        ) -> Progress {
            let progress = TransferProgress(totalUnitCount: 1)
            let foundationProgress = progress.makeFoundationProgress()
            Task {
                do {
                    handler(try await load(progress), nil)
                } catch {
                    handler(nil, NSItemProvider.appleError(for: error, loadingObject: loadingObject))
                }
            }
            return foundationProgress
        }
    }
#endif
