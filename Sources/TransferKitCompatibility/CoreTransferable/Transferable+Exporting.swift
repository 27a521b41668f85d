#if !canImport(Darwin)
    public import Foundation
    import TransferKitPlatform
    public import UniformTypes

    extension Transferable {
        /// Exports the value as bytes through its own representations (CoreTransferable, iOS 18.2 and macOS 15.2).
        ///
        /// The first exported representation whose type conforms to `contentType` is used, or the first exported one
        /// when `contentType` is `nil`; as on Apple platforms, only the declared representations count (no
        /// converter's derived type). Exporting conditions apply; every visibility counts (the bytes stay in this
        /// process). A file representation's file is read whole.
        ///
        /// ```swift
        /// let json = try await card.exported(as: .json)
        /// ```
        ///
        /// - Parameter contentType: The type of the bytes, or `nil` for the first exported representation.
        /// - Returns: The bytes.
        /// - Throws: `TransferError` with `TransferError.Code.unavailableRepresentation` when no exported
        ///   representation conforms to `contentType` (or the value exports nothing); the exporter's own error,
        ///   wrapped as `TransferError.Code.loaderFailed`.
        public func exported(as contentType: UTType?) async throws -> Data {
            let (provider, type) = try exportingProvider(contentType)
            return try await provider.loadDataRepresentation(for: type)
        }

        /// Exports the value as a temporary file, passes it to `fileHandler`, and deletes it when the handler returns
        /// or throws (CoreTransferable, iOS 18.2 and macOS 15.2).
        ///
        /// The representation is chosen as ``exported(as:)`` chooses it. The file is named by the representation's
        /// suggested file name, or `item`, with the type's filename extension when the name has none; it lies in a
        /// fresh folder of its own under the system's temporary directory. Copy or move it inside the handler to keep
        /// it.
        ///
        /// - Parameters:
        ///   - contentType: The type of the file, or `nil` for the first exported representation.
        ///   - fileHandler: Uses the file.
        /// - Returns: What `fileHandler` returns.
        /// - Throws: The errors of ``exported(as:)``, `TransferError.Code.fileCoercionFailed` when the file cannot be
        ///   written, or what `fileHandler` throws.
        public func withExportedFile<Result>(
            contentType: UTType?, fileHandler: (URL) async throws -> Result
        ) async throws -> Result {
            let (provider, type) = try exportingProvider(contentType)
            return try await provider.loadFileRepresentation(for: type, fileHandler)
        }

        /// Exports the value as a new file in a folder and returns the file's URL; the caller owns the file
        /// (CoreTransferable, iOS 18.2 and macOS 15.2).
        ///
        /// The representation is chosen as ``exported(as:)`` chooses it, and the file named as
        /// ``withExportedFile(contentType:fileHandler:)`` names it. The file never replaces one already in the folder:
        /// when the name is taken, the first free one of `Name 2.ext`, `Name 3.ext`, … is used. The file is written
        /// whole under a temporary name and then linked into place, so the folder never holds half of it.
        ///
        /// ```swift
        /// let url = try await card.export(to: documents, contentType: .json)   // documents/Luke.card
        /// ```
        ///
        /// - Parameters:
        ///   - destinationDirectory: The folder, which must exist.
        ///   - contentType: The type of the file, or `nil` for the first exported representation.
        /// - Returns: The new file's URL.
        /// - Throws: The errors of ``exported(as:)``, or `TransferError.Code.fileCoercionFailed` when the file cannot
        ///   be written (not a file URL, no such folder, no permission, every numbered name taken, a full disk).
        public func export(to destinationDirectory: URL, contentType: UTType?) async throws -> URL {
            guard destinationDirectory.isFileURL else {
                throw TransferError(
                    code: .fileCoercionFailed,
                    message: "\(destinationDirectory.absoluteString) is not a file URL; pass a folder's file URL.",
                    source: destinationDirectory.absoluteString)
            }
            let (provider, type) = try exportingProvider(contentType)
            let data = try await provider.loadDataRepresentation(for: type)
            let value = TransferableValue(self)
            let name = TransferProvider.fileName(suggested: value.suggestedFileName(for: type), for: type)
            let folder =
                destinationDirectory.path.hasSuffix("/") ? destinationDirectory.path : destinationDirectory.path + "/"
            do {
                let (_, written) = try await AtomicFile.writeNew(
                    inDirectory: folder, firstFreeOf: TransferProvider.numberedFileNames(name)
                ) { descriptor in
                    try data.withUnsafeBytes { bytes in try Syscall.write(descriptor, bytes) }
                }
                return destinationDirectory.appendingPathComponent(written, isDirectory: false)
            } catch {
                throw TransferError(
                    code: .fileCoercionFailed,
                    message: "Could not write the \(type) representation of \(Self.self) as a new file in "
                        + "\(folder): \(error). Check that the folder exists and is writable.",
                    cause: error, source: folder + name)
            }
        }

        /// A provider holding the value's exported representations, and the registered type that `contentType`
        /// chooses: the first that conforms to it (registered types only, no converter's derived ones), or the first.
        private func exportingProvider(_ contentType: UTType?) throws -> (TransferProvider, UTType) {
            let provider = TransferProvider()
            provider.registerObject(TransferableValue(self))
            let exported = provider.registeredTypes
            if exported.isEmpty, let failure = Self.transferRepresentations.failure {
                throw failure
            }
            let index: Int?
            if let contentType {
                index = TypeCatalog.shared.chooseRepresentation(offered: exported, requested: [contentType])
            } else {
                index = exported.isEmpty ? nil : 0
            }
            guard let index else {
                throw TransferError(
                    code: .unavailableRepresentation,
                    message: "\(Self.self) exports "
                        + (exported.isEmpty
                            ? "nothing for this value"
                            : "[\(exported.map(\.identifier).joined(separator: ", "))] for this value")
                        + (contentType.map { ", and none of it conforms to \($0)" } ?? "")
                        + ". Ask for one of its exported types, or declare a representation that exports the type.",
                    source: contentType?.identifier)
            }
            return (provider, exported[index])
        }
    }
#endif
