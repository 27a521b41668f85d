#if !canImport(Darwin)
    public import Foundation
    public import UniformTypes

    /// An encoder that produces a whole document, as Combine's `TopLevelEncoder` (Combine is not on Linux).
    public protocol TopLevelEncoder: SendableMetatype {
        /// What the encoder produces.
        associatedtype Output
        /// Encodes a value.
        ///
        /// - Parameter value: The value.
        /// - Returns: The document.
        /// - Throws: `EncodingError`.
        func encode<T: Encodable>(_ value: T) throws -> Output
    }

    /// A decoder that reads a whole document, as Combine's `TopLevelDecoder`.
    public protocol TopLevelDecoder: SendableMetatype {
        /// What the decoder reads.
        associatedtype Input
        /// Decodes a value.
        ///
        /// - Parameters:
        ///   - type: The value's type.
        ///   - from: The document.
        /// - Returns: The value.
        /// - Throws: `DecodingError`.
        func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
    }

    extension JSONEncoder: TopLevelEncoder {}
    extension JSONDecoder: TopLevelDecoder {}
    extension PropertyListEncoder: TopLevelEncoder {}
    extension PropertyListDecoder: TopLevelDecoder {}

    /// CoreTransferable's `CodableRepresentation`: the item as `Codable` through an encoder and decoder (JSON by
    /// default).
    public struct CodableRepresentation<
        Item: Transferable & Codable, Encoder: TopLevelEncoder, Decoder: TopLevelDecoder
    >:
        TransferRepresentation, @unchecked Sendable
    where Encoder.Output == Data, Decoder.Input == Data {
        /// The native list: one Codable representation.
        public let transferRepresentations: RepresentationList<Item>

        /// A representation with the given encoder and decoder.
        ///
        /// - Parameters:
        ///   - itemType: The item type.
        ///   - contentType: The encoded form's type.
        ///   - encoder: Encodes items.
        ///   - decoder: Decodes items.
        public init(for itemType: Item.Type = Item.self, contentType: UTType, encoder: Encoder, decoder: Decoder) {
            let coders = Unchecked(value: (encoder, decoder))
            transferRepresentations = .codable(
                contentType,
                coding: TransferCoding(
                    encode: { try coders.value.0.encode(Unchecked(value: $0)) },
                    decode: { try coders.value.1.decode(Unchecked<Item>.self, from: $0).value }))
        }

        /// The representation itself.
        public var body: TransferRepresentationGroup<Item> { TransferRepresentationGroup(transferRepresentations) }
    }

    extension CodableRepresentation where Encoder == JSONEncoder, Decoder == JSONDecoder {
        /// A JSON representation.
        ///
        /// - Parameters:
        ///   - itemType: The item type.
        ///   - contentType: The encoded form's type, usually one conforming to `public.json`.
        public init(for itemType: Item.Type = Item.self, contentType: UTType) {
            self.init(for: itemType, contentType: contentType, encoder: JSONEncoder(), decoder: JSONDecoder())
        }
    }

    extension Unchecked: Encodable where Value: Encodable {
        func encode(to encoder: any Swift.Encoder) throws {
            try value.encode(to: encoder)
        }
    }

    extension Unchecked: Decodable where Value: Decodable {
        init(from decoder: any Swift.Decoder) throws {
            value = try Value(from: decoder)
        }
    }

    /// CoreTransferable's `DataRepresentation`: bytes from and to closures.
    public struct DataRepresentation<Item: Transferable>: TransferRepresentation, @unchecked Sendable {
        /// The native list: one data representation.
        public let transferRepresentations: RepresentationList<Item>

        /// Exports and imports bytes of `contentType`.
        ///
        /// - Parameters:
        ///   - contentType: The bytes' type.
        ///   - exporting: Produces the bytes of an item.
        ///   - importing: Makes an item of bytes.
        public init(
            contentType: UTType,
            exporting: @escaping @Sendable (Item) async throws -> Data,
            importing: @escaping @Sendable (Data) async throws -> Item
        ) {
            transferRepresentations = .data(contentType, exporting: exporting, importing: importing)
        }

        /// Only exports bytes of `exportedContentType`.
        ///
        /// - Parameters:
        ///   - exportedContentType: The bytes' type.
        ///   - exporting: Produces the bytes of an item.
        public init(exportedContentType: UTType, exporting: @escaping @Sendable (Item) async throws -> Data) {
            transferRepresentations = .data(exportedContentType, exporting: exporting)
        }

        /// Only imports bytes of `importedContentType`.
        ///
        /// - Parameters:
        ///   - importedContentType: The bytes' type.
        ///   - importing: Makes an item of bytes.
        public init(importedContentType: UTType, importing: @escaping @Sendable (Data) async throws -> Item) {
            transferRepresentations = .data(importedContentType, exporting: nil, importing: importing)
        }

        /// The representation itself.
        public var body: TransferRepresentationGroup<Item> { TransferRepresentationGroup(transferRepresentations) }
    }

    /// A file an exporter hands out.
    public struct SentTransferredFile: Sendable {
        /// The file.
        public var file: URL
        /// Whether receivers may use the original instead of a copy.
        public var allowAccessingOriginalFile: Bool

        /// A file to send.
        ///
        /// - Parameters:
        ///   - file: The file.
        ///   - allowAccessingOriginalFile: Whether receivers may use the original.
        public init(_ file: URL, allowAccessingOriginalFile: Bool = false) {
            self.file = file
            self.allowAccessingOriginalFile = allowAccessingOriginalFile
        }
    }

    /// A file an importer receives; it is deleted after the importer returns, so copy it to keep it.
    public struct ReceivedTransferredFile: Sendable {
        /// The file.
        public let file: URL
        /// Whether this is the sender's original file (never here: importers get a temporary copy).
        public let isOriginalFile: Bool
    }

    /// CoreTransferable's `FileRepresentation`: a file from and to closures.
    public struct FileRepresentation<Item: Transferable>: TransferRepresentation, @unchecked Sendable {
        /// The native list: one file representation.
        public let transferRepresentations: RepresentationList<Item>

        /// Exports and imports files of `contentType`.
        ///
        /// - Parameters:
        ///   - contentType: The file's type.
        ///   - shouldAttemptToOpenInPlace: Ignored: importers always get a temporary copy.
        ///   - exporting: Produces a file holding an item.
        ///   - importing: Makes an item of a received file.
        public init(
            contentType: UTType, shouldAttemptToOpenInPlace: Bool = false,
            exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile,
            importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
        ) {
            transferRepresentations = .file(
                contentType, exporting: { try await exporting($0).file },
                importing: { try await importing(ReceivedTransferredFile(file: $0, isOriginalFile: false)) })
        }

        /// Only exports files of `exportedContentType`.
        ///
        /// - Parameters:
        ///   - exportedContentType: The file's type.
        ///   - shouldAllowToOpenInPlace: Ignored.
        ///   - exporting: Produces a file holding an item.
        public init(
            exportedContentType: UTType, shouldAllowToOpenInPlace: Bool = false,
            exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile
        ) {
            transferRepresentations = .file(exportedContentType, exporting: { try await exporting($0).file })
        }

        /// Only imports files of `importedContentType`.
        ///
        /// - Parameters:
        ///   - importedContentType: The file's type.
        ///   - shouldAttemptToOpenInPlace: Ignored.
        ///   - importing: Makes an item of a received file.
        public init(
            importedContentType: UTType, shouldAttemptToOpenInPlace: Bool = false,
            importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
        ) {
            transferRepresentations = .file(
                importedContentType, exporting: nil,
                importing: { try await importing(ReceivedTransferredFile(file: $0, isOriginalFile: false)) })
        }

        /// The representation itself.
        public var body: TransferRepresentationGroup<Item> { TransferRepresentationGroup(transferRepresentations) }
    }

    /// CoreTransferable's `ProxyRepresentation`: the item through another transferable type's representations.
    public struct ProxyRepresentation<Item: Transferable, ProxyRepresentation: Transferable>: TransferRepresentation,
        @unchecked Sendable
    {
        /// The native list: the proxy type's representations, converted.
        public let transferRepresentations: RepresentationList<Item>

        /// Exports as the proxy type and imports from it.
        ///
        /// - Parameters:
        ///   - exporting: Converts an item to the proxy type.
        ///   - importing: Converts the proxy type to an item.
        public init(
            exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation,
            importing: @escaping @Sendable (ProxyRepresentation) throws -> Item
        ) {
            transferRepresentations = .proxy(
                ProxyRepresentation.transferRepresentations, exporting: { try exporting($0) },
                importing: { try importing($0) })
        }

        /// Only exports as the proxy type.
        ///
        /// - Parameter exporting: Converts an item to the proxy type.
        public init(exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation) {
            transferRepresentations = .proxy(
                ProxyRepresentation.transferRepresentations, exporting: { try exporting($0) }, importing: nil)
        }

        /// Only imports from the proxy type.
        ///
        /// - Parameter importing: Converts the proxy type to an item.
        public init(importing: @escaping @Sendable (ProxyRepresentation) throws -> Item) {
            transferRepresentations = .proxy(
                ProxyRepresentation.transferRepresentations, exporting: nil, importing: { try importing($0) })
        }

        /// The representation itself.
        public var body: TransferRepresentationGroup<Item> { TransferRepresentationGroup(transferRepresentations) }
    }
#endif
