import TransferChecksum
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A transfer archive in memory: items, each with typed representations in fidelity order, a suggested name and
/// metadata, as they travel between processes.
///
/// An archive has two forms with the same content (``TransferArchiveFormat``): deterministic CBOR, which
/// ``TransferArchiveWriter`` and ``TransferArchiveReader`` also stream with constant memory, and JSON, for people
/// and for tools without a CBOR library. `Schemas/transfer-archive.cddl` and `Schemas/transfer-archive.schema.json`
/// describe them. Every representation carries a CRC-32 that readers verify.
///
/// ```swift
/// // Sender
/// let archive = try await TransferArchive(providers: [provider])
/// try archive.encoded(as: .cbor).write(to: url)
///
/// // Receiver
/// let received = try TransferArchive(decoding: Data(contentsOf: url))
/// let card = try await received.makeProviders()[0].loadObject(ofClass: Card.self)
/// ```
///
/// Encoding is deterministic: the same archive always gives the same bytes in each form, and converting
/// CBOR → JSON → CBOR (or the other way) gives back the same bytes.
public struct TransferArchive: Sendable, Hashable {
    /// One item: what one provider offered.
    public struct Item: Sendable, Hashable {
        /// A file name for the item, without folders; `nil` when the sender had none.
        public var suggestedName: String?
        /// Small values that travel with the item.
        public var metadata: [String: TransferMetadataValue]
        /// The item's representations, in fidelity order (the best first); at most one per type.
        public var representations: [Representation]

        /// Creates an item.
        /// - Parameters:
        ///   - suggestedName: A file name without folders, or `nil`.
        ///   - metadata: Small values that travel with the item.
        ///   - representations: The representations, best first.
        public init(
            suggestedName: String? = nil, metadata: [String: TransferMetadataValue] = [:],
            representations: [Representation] = []
        ) {
            self.suggestedName = suggestedName
            self.metadata = metadata
            self.representations = representations
        }
    }

    /// One representation: bytes of a uniform type.
    public struct Representation: Sendable, Hashable {
        /// The type of the bytes.
        public var type: UniformType
        /// The bytes.
        public var data: Data

        /// Creates a representation.
        /// - Parameters:
        ///   - type: The type of the bytes.
        ///   - data: The bytes.
        public init(type: UniformType, data: Data) {
            self.type = type
            self.data = data
        }

        /// The CRC-32 (IEEE 802.3, as zlib's `crc32()`) of ``data``, as the archive stores it.
        public var checksum: UInt32 { CRC32.checksum(data) }
    }

    /// The items, in order.
    public var items: [Item]

    /// The declarations of the types the items use that a reader may not know (format 1.1, `Schemas/transfer-archive.md`
    /// §3.6), in order: what each conforms to, its tags and its description, so that a reader learns, say, that
    /// `com.example.card` is JSON.
    ///
    /// An archive carries a declaration's identifier, parents, tags and description; its `referenceURL` and `version`
    /// are dropped when the declaration is stored here, as are empty tag lists. ``declarations(for:in:)`` gives
    /// what a writer should carry; readers use them through ``carriedDeclarations(in:)``.
    public var declarations: [UniformTypeDeclaration] {
        didSet { declarations = declarations.map(ArchiveDeclarations.carried) }
    }

    /// Creates an archive.
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - declarations: The declarations of the items' types that a reader may not know; see ``declarations``.
    public init(items: [Item] = [], declarations: [UniformTypeDeclaration] = []) {
        self.items = items
        self.declarations = declarations.map(ArchiveDeclarations.carried)
    }
}

extension TransferArchive {
    /// The format name that both forms carry, `transferkit-archive`.
    public static let formatName = "transferkit-archive"
    /// The version this library writes: major 1, minor 1. Readers accept any minor version of major 1; an archive
    /// without ``declarations`` is written as 1.0, byte for byte what version 1.0 wrote.
    public static let currentVersion = (major: 1, minor: 1)

    /// Reads an archive in either form, whole, into memory.
    ///
    /// Every checksum is verified, unknown map keys are skipped, and an unknown major version is rejected.
    ///
    /// - Parameters:
    ///   - bytes: The whole archive.
    ///   - format: The form, or `nil` to detect it with ``TransferArchiveFormat/detect(_:)``.
    ///   - limits: What to accept; ``Limits/default`` unless given.
    /// - Throws: ``TransferArchiveError`` with the code of the first problem found.
    public init(
        decoding bytes: some Collection<UInt8>, format: TransferArchiveFormat? = nil, limits: Limits = .default
    ) throws(TransferArchiveError) {
        guard let format = format ?? TransferArchiveFormat.detect(bytes.prefix(64)) else {
            throw TransferArchiveError(
                code: .notAnArchive,
                message: "The input is neither a binary transfer archive (it would start with d9 d9 f7) nor a JSON one "
                    + "(it would start with '{'). Check that the file is a TransferKit archive.")
        }
        switch format {
        case .cbor:
            self = try Self.decodeCBOR(Array(bytes), limits: limits)
        case .json:
            self = try Self.decodeJSON(Array(bytes), limits: limits).archive
        }
    }

    /// Reads a text-form archive whole, with its minor version (which the archive value does not keep), for tools
    /// that report it.
    package static func decodingText(
        _ bytes: [UInt8], limits: Limits = .default
    ) throws(TransferArchiveError) -> (archive: Self, minorVersion: UInt64) {
        try decodeJSON(bytes, limits: limits)
    }

    /// The archive in the given form, deterministically: equal archives give equal bytes.
    ///
    /// - Parameter format: The form to write.
    /// - Returns: The encoded archive.
    /// - Throws: ``TransferArchiveError`` with `TransferArchiveError.Code.invalidName` for a suggested name with
    ///   `/` or a control character, `TransferArchiveError.Code.duplicateType` for two representations of one type
    ///   in an item, or `TransferArchiveError.Code.unrepresentableValue` for NaN or infinite metadata in JSON and for
    ///   a metadata key with a character that Unicode 3.2 does not assign.
    public func encoded(as format: TransferArchiveFormat) throws(TransferArchiveError) -> Data {
        switch format {
        case .cbor: try encodedCBOR()
        case .json: try encodedJSON()
        }
    }

    private static func decodeCBOR(_ bytes: [UInt8], limits: Limits) throws(TransferArchiveError) -> Self {
        var reader = try TransferArchiveReader(bytes: bytes, limits: limits)
        var archive = TransferArchive(declarations: reader.declarations)
        while let header = try reader.nextItem() {
            var item = Item(suggestedName: header.suggestedName, metadata: header.metadata)
            while let representation = try reader.nextRepresentation() {
                // The reader checked the length against the bytes left, so this reserves no more than the input.
                var data = Data(capacity: Int(clamping: representation.length))
                try reader.readPayload { data.append(contentsOf: $0) }
                item.representations.append(Representation(type: representation.type, data: data))
            }
            archive.items.append(item)
        }
        return archive
    }

    private func encodedCBOR() throws(TransferArchiveError) -> Data {
        var output = Data()
        var writer = TransferArchiveWriter { output.append(contentsOf: $0) }
        try writer.begin(itemCount: items.count, declarations: declarations)
        for item in items {
            try writer.beginItem(
                suggestedName: item.suggestedName, metadata: item.metadata,
                representationCount: item.representations.count)
            for representation in item.representations {
                try writer.writeRepresentation(type: representation.type, data: representation.data)
            }
        }
        try writer.finish()
        return output
    }
}

/// Checks shared by both forms and by the streaming writer and reader.
enum ArchiveRules {
    /// Throws `TransferArchiveError.Code.invalidName` unless `name` is a file name without folders and without
    /// control characters (spec section 3.2).
    static func checkName(_ name: String, itemIndex: Int, offset: Int? = nil) throws(TransferArchiveError) {
        let utf8 = name.utf8
        if utf8.isEmpty || name == "." || name == ".." || utf8.contains(UInt8(ascii: "/")) || hasControlCharacter(name)
        {
            throw TransferArchiveError(
                code: .invalidName,
                message: "The suggested name \(String(reflecting: name)) is not a file name: it must be non-empty, not "
                    + "'.' or '..', and hold no '/' and no control character (U+0000-U+001F, U+007F-U+009F). Give "
                    + "the item a plain file name, or none.", offset: offset, details: .init(itemIndex: itemIndex))
        }
    }

    /// Whether `text` holds a control character, general category Cc: U+0000-U+001F or U+007F-U+009F (spec section
    /// 3.2), which could mislead a terminal or a script that shows it.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }
    }

    /// Throws `TransferArchiveError.Code.unrepresentableValue` unless every scalar of the metadata key `key` was
    /// assigned in Unicode 3.2 (spec section 3.4): canonical equivalence among such keys is the same in every Unicode
    /// version since, so every reader finds the same duplicates whatever version its library has.
    static func checkMetadataKey(_ key: String, itemIndex: Int?, offset: Int?) throws(TransferArchiveError) {
        let outside = key.unicodeScalars.first { scalar in
            guard let age = scalar.properties.age, scalar.properties.generalCategory != .unassigned else { return true }
            return age.major > 3 || (age.major == 3 && age.minor > 2)
        }
        if let outside {
            throw TransferArchiveError(
                code: .unrepresentableValue,
                message:
                    "The metadata key \(String(reflecting: key)) holds U+\(String(outside.value, radix: 16, uppercase: true)), "
                    + "which Unicode 3.2 does not assign; metadata keys use Unicode 3.2's characters so that every "
                    + "reader compares them alike (Schemas/transfer-archive.md, section 3.4). Rename the key.",
                offset: offset, details: .init(itemIndex: itemIndex))
        }
    }

    /// Checks every key of `dictionary` and of the maps nested in it with ``checkMetadataKey(_:itemIndex:offset:)``.
    static func checkMetadata(
        _ dictionary: [String: TransferMetadataValue], itemIndex: Int
    ) throws(TransferArchiveError) {
        for (key, value) in dictionary {
            try checkMetadataKey(key, itemIndex: itemIndex, offset: nil)
            try checkMetadata(value, itemIndex: itemIndex)
        }
    }

    private static func checkMetadata(_ value: TransferMetadataValue, itemIndex: Int) throws(TransferArchiveError) {
        switch value {
        case .dictionary(let dictionary): try checkMetadata(dictionary, itemIndex: itemIndex)
        case .array(let array):
            for element in array { try checkMetadata(element, itemIndex: itemIndex) }
        case .string, .integer, .double, .bool: break
        }
    }

    /// The type for an identifier read from an archive.
    static func type(
        fromUTF8 bytes: some Collection<UInt8>, limits: TransferArchive.Limits, itemIndex: Int?, offset: Int?
    ) throws(TransferArchiveError) -> UniformType {
        if bytes.count > 255, let problem = identifierProblem(bytes) {
            throw TransferArchiveError(
                code: .invalidIdentifier,
                message: "A type identifier of \(bytes.count) bytes is not an archive type identifier: \(problem).",
                offset: offset, details: .init(itemIndex: itemIndex))
        }
        guard bytes.count <= limits.maxIdentifierLength else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "A type identifier of \(bytes.count) bytes is longer than \(limits.maxIdentifierLength) "
                    + "(Limits.maxIdentifierLength).", offset: offset, details: .init(itemIndex: itemIndex))
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw TransferArchiveError(
                code: .invalidUTF8, message: "A type identifier is not valid UTF-8; the archive is damaged.",
                offset: offset, details: .init(itemIndex: itemIndex))
        }
        guard identifierProblem(bytes) == nil, let type = UniformType(string) else {
            throw TransferArchiveError(
                code: .invalidIdentifier,
                message: "\(String(reflecting: string)) is not an archive type identifier: "
                    + "\(identifierProblem(bytes) ?? "not a uniform type identifier"). Fix the writer that produced "
                    + "this archive (Schemas/transfer-archive.md, section 3.1).", offset: offset,
                details: .init(itemIndex: itemIndex))
        }
        return type
    }

    /// Throws `TransferArchiveError.Code.invalidIdentifier` unless `type` can be written to an archive.
    static func checkIdentifier(_ type: UniformType, itemIndex: Int?) throws(TransferArchiveError) {
        if let problem = identifierProblem(type.identifier.utf8) {
            throw TransferArchiveError(
                code: .invalidIdentifier,
                message: "\(String(reflecting: type.identifier)) cannot be written to an archive: \(problem). The "
                    + "format carries ASCII identifiers only (Schemas/transfer-archive.md, section 3.1); declare the "
                    + "type with an ASCII identifier.", details: .init(itemIndex: itemIndex, type: type))
        }
    }

    /// Why `bytes` break the archive's identifier grammar, or `nil`: 1 to 255 bytes, components of ASCII letters,
    /// digits and `-`, separated by single dots (`Schemas/transfer-archive.md`, section 3.1). Narrower than what
    /// `UniformType` accepts (letters and digits above U+007F), so that any JSON Schema or CDDL tool can check it.
    static func identifierProblem(_ bytes: some Collection<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.count <= 255 else { return "it must have 1 to 255 bytes" }
        var componentLength = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "."):
                guard componentLength > 0 else {
                    return "it has an empty component (a leading, doubled or "
                        + "trailing '.')"
                }
                componentLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                componentLength += 1
            default:
                return "it holds a byte (0x\(String(byte, radix: 16))) outside A-Z, a-z, 0-9, '-' and '.'"
            }
        }
        return componentLength > 0 ? nil : "it has an empty component (a leading, doubled or trailing '.')"
    }

    /// Builds a metadata dictionary, rejecting keys that Swift's `String` equality would merge.
    static func insert(
        _ value: TransferMetadataValue, forKey key: String, into dictionary: inout [String: TransferMetadataValue],
        itemIndex: Int, offset: Int?
    ) throws(TransferArchiveError) {
        try checkMetadataKey(key, itemIndex: itemIndex, offset: offset)
        guard dictionary.updateValue(value, forKey: key) == nil else {
            throw TransferArchiveError(
                code: .malformed,
                message: "Metadata has the key \(String(reflecting: key)) twice (or two keys that are canonically "
                    + "equivalent Unicode); keys must be unique.", offset: offset, details: .init(itemIndex: itemIndex))
        }
    }
}

extension TransferArchive.Item {
    /// The representation a receiver that accepts `requested` types (in its preference order) gets from this
    /// item, chosen by the package's one rule, `TypeCatalog.chooseRepresentation(offered:requested:)`; `nil` when
    /// no representation conforms to any requested type.
    ///
    /// It is the same choice `TransferProvider` makes when loading, and `transferkit extract` when writing.
    ///
    /// - Parameters:
    ///   - requested: The acceptable types, most wanted first.
    ///   - catalog: The catalogue that decides conformance.
    public func representation(
        for requested: [UniformType], catalog: TypeCatalog = .shared
    ) -> TransferArchive.Representation? {
        catalog.chooseRepresentation(offered: representations.lazy.map(\.type), requested: requested).map {
            representations[$0]
        }
    }
}
