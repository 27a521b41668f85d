#if !canImport(Darwin)
    public import Foundation
    public import UniformTypes

    extension Transferable {
        /// Makes a value of bytes through the type's own imported representations (CoreTransferable, iOS 18.2 and
        /// macOS 15.2).
        ///
        /// With a content type, the bytes are read as a drop of that type would be read: by the first imported
        /// representation whose type the content type conforms to, or through a built-in converter's derived type
        /// (HTML reads as plain text). Without one, each imported type is tried in turn, in the declaration's order,
        /// and the first representation that reads the bytes wins.
        ///
        /// ```swift
        /// let card = try await Card(importing: json, contentType: .card)
        /// ```
        ///
        /// - Parameters:
        ///   - data: The bytes.
        ///   - contentType: Their type, or `nil` to let every imported representation try.
        /// - Throws: `TransferError` with `TransferError.Code.unavailableRepresentation` when no imported
        ///   representation reads `contentType` (or the type imports nothing), `TransferError.Code.decodingFailed`
        ///   when the representation (without a content type: every one) fails to read the bytes.
        public init(importing data: Data, contentType: UTType?) async throws {
            let register: @Sendable (UTType) -> TransferProvider = { type in TransferProvider(data: data, type: type) }
            self = try await Self.imported(contentType, register)
        }

        /// Makes a value of a file through the type's own imported representations (CoreTransferable, iOS 18.2 and
        /// macOS 15.2).
        ///
        /// Without a content type, the file's name gives one when a declared type claims its extension (`card.json`
        /// is `public.json`); a name that says nothing (`public.data`) lets each imported representation try in turn,
        /// as the `Data` form of `init(importing:contentType:)` does. A file representation's importer gets a temporary
        /// copy of the file, never the file itself; the others read its bytes.
        ///
        /// - Parameters:
        ///   - file: A file URL.
        ///   - contentType: The file's type, or `nil` to infer it from the name.
        /// - Throws: The errors of the `Data` form, or `TransferError.Code.fileCoercionFailed` when `file` is not a file
        ///   URL or the file cannot be read.
        public init(importing file: URL, contentType: UTType?) async throws {
            guard file.isFileURL else {
                throw TransferError(
                    code: .fileCoercionFailed,
                    message: "\(file.absoluteString) is not a file URL; pass a file's URL, or load the bytes and use "
                        + "init(importing:contentType:) with them.",
                    source: file.absoluteString)
            }
            let named = TypeCatalog.shared.declaredType(forFileName: file.lastPathComponent)
            let register: @Sendable (UTType) -> TransferProvider = { type in
                let provider = TransferProvider()
                provider.registerFileRepresentation(for: type) { _ in file }
                return provider
            }
            self = try await Self.imported(contentType ?? (named == .data ? nil : named), register)
        }

        /// A value imported from what `register` offers: under `contentType`, or under each imported type in turn.
        private static func imported(
            _ contentType: UTType?, _ register: @Sendable (UTType) -> TransferProvider
        ) async throws -> Self {
            if let contentType {
                return try await register(contentType).loadObject(ofClass: TransferableValue<Self>.self).value
            }
            let types = importedContentTypes()
            if types.isEmpty {
                throw transferRepresentations.failure
                    ?? TransferError(
                        code: .unavailableRepresentation,
                        message: "\(Self.self) imports nothing: declare a representation that imports, or pass a "
                            + "content type it reads.")
            }
            var failures: [(UTType, TransferError)] = []
            for type in types {
                do {
                    return try await register(type).loadObject(ofClass: TransferableValue<Self>.self).value
                } catch let error as TransferError
                    where error.code == .decodingFailed || error.code == .conversionFailed
                {
                    // The bytes are not of this type (a converter that reads it may find so first): try the next.
                    failures.append((type, error))
                }
            }
            throw TransferError(
                code: .decodingFailed,
                message: "None of the representations of \(Self.self) could read the bytes: "
                    + failures.map { "as \($0.0): \($0.1.message)" }.joined(separator: "; ")
                    + ". Pass the bytes' content type, or check that they are what the sender wrote.",
                cause: failures.first?.1)
        }
    }
#endif
