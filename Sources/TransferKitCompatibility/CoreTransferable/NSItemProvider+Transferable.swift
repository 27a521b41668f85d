#if !canImport(Darwin)
    public import Foundation

    extension NSItemProvider {
        /// Registers a transferable value's exported representations, in its order.
        ///
        /// The value is made once, now (Apple makes it per load): its exporting conditions decide which
        /// representations are registered. The provider's suggested name becomes the first representation's
        /// suggested file name, if it has none yet.
        ///
        /// - Parameter transferable: The value.
        public func register<T: Transferable>(_ transferable: @autoclosure @escaping @Sendable () -> T) {
            let value = TransferableValue(transferable())
            transferProvider.registerObject(value)
            if suggestedName == nil {
                suggestedName = value.writableTypes.lazy.compactMap(value.suggestedFileName(for:)).first
            }
        }

        /// Loads a transferable value through the first of its imported representations that the provider has.
        ///
        /// - Parameters:
        ///   - transferableType: The type.
        ///   - completionHandler: Gets the value, or an error in ``NSItemProviderErrorDomain`` as for
        ///     `loadObject(ofClass:)`.
        /// - Returns: A progress; cancelling it cancels the load.
        @discardableResult
        public func loadTransferable<T: Transferable>(
            type transferableType: T.Type, completionHandler: @escaping @Sendable (Result<T, any Error>) -> Void
        ) -> Progress {
            let provider = transferProvider
            return start(
                loadingObject: true,
                { (value: Unchecked<T>?, error) in
                    if let value {
                        completionHandler(.success(value.value))
                    } else {
                        completionHandler(.failure(error ?? CocoaError(.coderReadCorrupt)))
                    }
                }
            ) { progress in
                Unchecked(
                    value: try await provider.loadObject(ofClass: TransferableValue<T>.self, progress: progress).value)
            }
        }
    }
#endif
