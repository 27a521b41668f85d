public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An ordered list of representations of `Item`, built with ``RepresentationListBuilder`` for
/// ``TransferRepresentable/transferRepresentations``.
///
/// Make one with ``codable(_:coding:)``, ``data(_:exporting:importing:)``, ``file(_:exporting:importing:)`` or
/// ``proxy(exporting:importing:)``, and narrow it with ``exportingCondition(_:)``, ``visibility(_:)`` and
/// `suggestedFileName(_:)` (a modifier applies to every representation of the list it is called on).
public struct RepresentationList<Item>: Sendable {
    /// The representations in order.
    public internal(set) var elements: [Element]

    /// A list of the given representations.
    ///
    /// - Parameter elements: The representations in order.
    public init(_ elements: [Element] = []) {
        self.elements = elements
    }

    /// Why TransferKit cannot use the declaration this list was made of, if it cannot; the list is then empty.
    ///
    /// Set only by TransferKitCompatibility, for a `Transferable` declaration whose representations are of another
    /// item type. Loads, decodes and registry registrations of the item type throw it, so that such a type fails
    /// with what is wrong rather than with an empty list's "no representation".
    package private(set) var failure: TransferError?

    /// An empty list for a declaration TransferKit cannot use: it exports and imports nothing, and every load or
    /// decode through it, and every registration of its item type in a ``TransferRegistry``, throws `failure`.
    ///
    /// - Parameter failure: What is wrong with the declaration and how to fix it.
    package init(failure: TransferError) {
        self.elements = []
        self.failure = failure
    }

    /// The lists' representations in order; a failed list among them makes the whole list that failure (a
    /// declaration with one unusable part is unusable: keeping the other parts would drop that part silently).
    ///
    /// - Parameter parts: The lists, in order.
    package init(concatenating parts: [RepresentationList]) {
        if let failure = parts.lazy.compactMap(\.failure).first {
            self.init(failure: failure)
        } else {
            self.init(parts.flatMap(\.elements))
        }
    }

    /// One representation: what it exports and imports, and how.
    public struct Element: Sendable {
        /// How a representation was declared: an extensible set of values, so new kinds do not break `switch`
        /// statements of users.
        public struct Kind: Hashable, Sendable, CustomStringConvertible {
            let name: String

            /// `Codable` through a ``TransferCoding``.
            public static var codable: Self { Self(name: "codable") }
            /// Bytes from and to closures.
            public static var data: Self { Self(name: "data") }
            /// A file from and to closures.
            public static var file: Self { Self(name: "file") }
            /// Another type's representations.
            public static var proxy: Self { Self(name: "proxy") }

            /// The kind's name, such as `proxy`.
            public var description: String { name }
        }

        /// How it was declared.
        public var kind: Kind
        /// The types it exports, in order (empty for an import-only representation).
        public var exportedTypes: [UniformType]
        /// The types it imports, in order (empty for an export-only representation).
        public var importedTypes: [UniformType]
        /// Which processes may see what it exports.
        public var visibility: TransferVisibility = .all
        /// Whether a value exports it; `nil` for always.
        public var exportingCondition: (@Sendable (Item) -> Bool)?
        /// A file name for receivers that save the representation.
        public var suggestedFileName: (@Sendable (Item) -> String?)?
        let exportData: @Sendable (Item, UniformType, TransferProgress) async throws -> Data
        let importer: Importer?

        enum Importer: Sendable {
            case synchronous(@Sendable (Data, UniformType) throws -> Item)
            case asynchronous(@Sendable (Data, UniformType, TransferProgress) async throws -> Item)
        }

        func isExported(by item: Item?) -> Bool {
            guard let item, let exportingCondition else { return true }
            return exportingCondition(item)
        }

        func importValue(_ data: Data, _ type: UniformType, _ progress: TransferProgress) async throws -> Item {
            switch importer {
            case .synchronous(let importer): try importer(data, type)
            case .asynchronous(let importer): try await importer(data, type, progress)
            case nil:
                throw TransferError(
                    code: .decodingFailed, message: "This \(kind) representation of \(Item.self) does not import.",
                    source: type.identifier)
            }
        }
    }
}

extension RepresentationList {
    /// The exported types (those whose condition holds for `item`, or all when `item` is `nil`) without duplicates.
    func exportedTypes(of item: Item?) -> [UniformType] {
        var seen = Set<UniformType>()
        return elements.filter { $0.isExported(by: item) }.flatMap(\.exportedTypes).filter { seen.insert($0).inserted }
    }

    /// The imported types without duplicates, in order.
    var importedTypes: [UniformType] {
        var seen = Set<UniformType>()
        return elements.filter { $0.importer != nil }.flatMap(\.importedTypes).filter { seen.insert($0).inserted }
    }

    /// The first representation exporting exactly `type` for `item`.
    func exporter(of type: UniformType, for item: Item) -> Element? {
        elements.first { $0.isExported(by: item) && $0.exportedTypes.contains(type) }
    }

    /// The first importing representation (reader preference) whose types `type` conforms to, by the choice rule.
    func importer(for type: UniformType, catalog: TypeCatalog) -> Element? {
        elements.first { element in
            element.importer != nil
                && catalog.chooseRepresentation(offered: [type], requested: element.importedTypes) != nil
        }
    }
}

extension RepresentationList {
    /// The value as `Codable`, through `coding` (JSON with sorted keys by default).
    ///
    /// - Parameters:
    ///   - type: The encoded form's type, exported and imported.
    ///   - coding: How values become bytes and back.
    /// - Returns: A list of one representation.
    public static func codable(_ type: UniformType, coding: TransferCoding<Item>) -> Self {
        Self([
            Element(
                kind: .codable, exportedTypes: [type], importedTypes: [type],
                exportData: { item, _, _ in
                    do {
                        return try coding.encode(item)
                    } catch {
                        throw TransferError.wrapping(
                            error, as: .encodingFailed,
                            message: "Could not encode \(Item.self) as \(type): \(error). Check its encode(to:).",
                            source: type.identifier)
                    }
                },
                importer: .synchronous { data, registered in
                    do {
                        return try coding.decode(data)
                    } catch {
                        throw TransferError.decodingFailed(
                            error, type: registered, byteCount: data.count)
                    }
                })
        ])
    }

    /// Bytes that closures produce and read; pass `nil` for a direction the representation does not support.
    ///
    /// - Parameters:
    ///   - type: The bytes' type.
    ///   - exporting: Produces the bytes of a value; `nil` for an import-only representation.
    ///   - importing: Makes a value of the bytes; `nil` for an export-only representation.
    /// - Returns: A list of one representation.
    public static func data(
        _ type: UniformType,
        exporting: (@Sendable (Item) async throws -> Data)?,
        importing: (@Sendable (Data) async throws -> Item)? = nil
    ) -> Self {
        Self([
            Element(
                kind: .data, exportedTypes: exporting == nil ? [] : [type],
                importedTypes: importing == nil ? [] : [type],
                exportData: { item, _, _ in
                    guard let exporting else { throw TransferError.notExported(Item.self, type) }
                    return try await exporting(item)
                },
                importer: importing.map { importing in .asynchronous { data, _, _ in try await importing(data) } })
        ])
    }

    /// A file that closures produce and read.
    ///
    /// The exporter's file is read when the representation is loaded (as data or copied as a file); the importer
    /// gets a file that is deleted after it returns, so copy it to keep it.
    ///
    /// - Parameters:
    ///   - type: The file's type.
    ///   - exporting: Returns the URL of a file holding the value; `nil` for an import-only representation.
    ///   - importing: Makes a value of a file; `nil` for an export-only representation.
    /// - Returns: A list of one representation.
    public static func file(
        _ type: UniformType,
        exporting: (@Sendable (Item) async throws -> URL)?,
        importing: (@Sendable (URL) async throws -> Item)? = nil
    ) -> Self {
        Self([
            Element(
                kind: .file, exportedTypes: exporting == nil ? [] : [type],
                importedTypes: importing == nil ? [] : [type],
                exportData: { item, type, _ in
                    guard let exporting else { throw TransferError.notExported(Item.self, type) }
                    let url = try await exporting(item)
                    return try TransferProvider.coerce(type, from: url) { try Data(contentsOf: url) }
                },
                importer: importing.map { importing in
                    .asynchronous { data, type, _ in try await RepresentationList.withFile(data, type, importing) }
                })
        ])
    }

    /// Another type's representations, in its order: the value converts to `Other` to export and from it to
    /// import (a card that is also plain text: `proxy(exporting: \.title, importing: { Card(title: $0) })`).
    ///
    /// - Parameters:
    ///   - exporting: Converts a value to `Other`; `nil` for an import-only proxy.
    ///   - importing: Converts an `Other` to a value; `nil` for an export-only proxy.
    /// - Returns: A list of one representation.
    public static func proxy<Other: TransferProviderReading & TransferProviderWriting>(
        exporting: (@Sendable (Item) async throws -> Other)?,
        importing: (@Sendable (Other) async throws -> Item)? = nil
    ) -> Self {
        Self([
            Element(
                kind: .proxy, exportedTypes: exporting == nil ? [] : Other.writableTypes,
                importedTypes: importing == nil ? [] : Other.readableTypes,
                exportData: { item, type, progress in
                    guard let exporting else { throw TransferError.notExported(Item.self, type) }
                    return try await exporting(item).loadData(for: type, progress: progress)
                },
                importer: importing.map { importing in
                    .asynchronous { data, type, _ in
                        let other: Other
                        do {
                            other = try Other.object(from: data, type: type)
                        } catch {
                            throw TransferError.decodingFailed(
                                error, type: type, byteCount: data.count)
                        }
                        return try await importing(other)
                    }
                })
        ])
    }

    /// Another list's representations, in its order, through conversions to and from its item type: the proxy
    /// of ``proxy(exporting:importing:)`` for an `Other` described by a list rather than by its reader and writer.
    /// The other list's exporting conditions and file names are not applied (they would need the converted value).
    ///
    /// - Parameters:
    ///   - other: The other type's representations.
    ///   - exporting: Converts a value to `Other`; `nil` for an import-only proxy.
    ///   - importing: Converts an `Other` to a value; `nil` for an export-only proxy.
    /// - Returns: One representation per representation of `other`, or `other`'s failure if TransferKit cannot use
    ///   it.
    public static func proxy<Other>(
        _ other: RepresentationList<Other>,
        exporting: (@Sendable (Item) async throws -> Other)?,
        importing: (@Sendable (Other) async throws -> Item)? = nil
    ) -> Self {
        if let failure = other.failure {
            return Self(failure: failure)
        }
        return Self(
            other.elements.map { element in
                Element(
                    kind: .proxy, exportedTypes: exporting == nil ? [] : element.exportedTypes,
                    importedTypes: importing == nil || element.importer == nil ? [] : element.importedTypes,
                    visibility: element.visibility,
                    exportData: { item, type, progress in
                        guard let exporting else { throw TransferError.notExported(Item.self, type) }
                        return try await element.exportData(try await exporting(item), type, progress)
                    },
                    importer: importing.map { importing in
                        .asynchronous { data, type, progress in
                            try await importing(try await element.importValue(data, type, progress))
                        }
                    })
            })
    }

    /// The same representations for another item type that wraps this one (an adapter that makes a
    /// non-`Sendable` type representable, for example).
    ///
    /// - Parameters:
    ///   - wrap: Makes the other item of a value.
    ///   - unwrap: Gets the value of the other item.
    /// - Returns: The representations, converting on every export, import and condition (or this list's failure).
    public func bridged<Other>(
        wrap: @escaping @Sendable (Item) -> Other, unwrap: @escaping @Sendable (Other) -> Item
    ) -> RepresentationList<Other> {
        if let failure {
            return RepresentationList<Other>(failure: failure)
        }
        return RepresentationList<Other>(elements.map { Self.bridge($0, wrap: wrap, unwrap: unwrap) })
    }

    private static func bridge<Other>(
        _ element: Element, wrap: @escaping @Sendable (Item) -> Other, unwrap: @escaping @Sendable (Other) -> Item
    ) -> RepresentationList<Other>.Element {
        typealias OtherElement = RepresentationList<Other>.Element
        var importer: OtherElement.Importer?
        if element.importer != nil {
            importer = .asynchronous { data, type, progress in
                wrap(try await element.importValue(data, type, progress))
            }
        }
        let exportData: @Sendable (Other, UniformType, TransferProgress) async throws -> Data = {
            other, type, progress in
            try await element.exportData(unwrap(other), type, progress)
        }
        var bridged = OtherElement(
            kind: OtherElement.Kind(name: element.kind.name),
            exportedTypes: element.exportedTypes, importedTypes: element.importedTypes, visibility: element.visibility,
            exportData: exportData, importer: importer)
        if let condition = element.exportingCondition {
            bridged.exportingCondition = { other in condition(unwrap(other)) }
        }
        if let name = element.suggestedFileName {
            bridged.suggestedFileName = { other in name(unwrap(other)) }
        }
        return bridged
    }

    /// Writes `data` to a temporary file, passes it to `importing` and deletes it.
    static func withFile(
        _ data: Data, _ type: UniformType, _ importing: @Sendable (URL) async throws -> Item
    ) async throws -> Item {
        let provider = TransferProvider(data: data, type: type)
        return try await provider.loadFileRepresentation(for: type) { url in try await importing(url) }
    }
}

extension RepresentationList where Item: Codable & SendableMetatype {
    /// The value as JSON with sorted keys.
    ///
    /// - Parameter type: The encoded form's type, usually one conforming to `public.json`.
    /// - Returns: A list of one representation.
    public static func codable(_ type: UniformType) -> Self {
        codable(type, coding: .json)
    }
}

extension RepresentationList {
    /// Exports only when `condition` holds for the value; imports are unaffected.
    ///
    /// - Parameter condition: Decides per value.
    /// - Returns: The list with the condition added to every representation.
    public func exportingCondition(_ condition: @escaping @Sendable (Item) -> Bool) -> Self {
        modified { element in
            let previous = element.exportingCondition
            element.exportingCondition = { item in (previous?(item) ?? true) && condition(item) }
        }
    }

    /// Which processes may see the exported representations (the narrower of this and any earlier setting).
    ///
    /// - Parameter visibility: The visibility.
    /// - Returns: The list with every representation narrowed.
    public func visibility(_ visibility: TransferVisibility) -> Self {
        modified { $0.visibility = $0.visibility.narrowed(by: visibility) }
    }

    /// A file name for receivers that save a representation, per value.
    ///
    /// - Parameter name: The name for a value, or `nil` for none.
    /// - Returns: The list with the name on every representation.
    public func suggestedFileName(_ name: @escaping @Sendable (Item) -> String?) -> Self {
        modified { $0.suggestedFileName = name }
    }

    /// A fixed file name for receivers that save a representation.
    ///
    /// - Parameter name: The name, such as `card.json`.
    /// - Returns: The list with the name on every representation.
    public func suggestedFileName(_ name: String) -> Self {
        suggestedFileName { _ in name }
    }

    private func modified(_ change: (inout Element) -> Void) -> Self {
        var copy = self
        for index in copy.elements.indices {
            change(&copy.elements[index])
        }
        return copy
    }
}

extension TransferError {
    static func notExported(_ item: Any.Type, _ type: UniformType) -> TransferError {
        TransferError(
            code: .unavailableRepresentation,
            message: "The \(type) representation of \(item) only imports; ask for an exported type.",
            source: type.identifier)
    }
}
