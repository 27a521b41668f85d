import TransferKitJSON
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The contents of a type-declaration file (`Schemas/type-declarations.schema.json`), checked for
/// shape but not yet against a catalog.
///
/// ```json
/// {
///   "exported": [ { "identifier": "com.example.card", "conformsTo": ["public.json"],
///                   "tags": { "public.filename-extension": ["card"] } } ],
///   "imported": [ { "identifier": "com.other.base", "conformsTo": ["public.data"] } ]
/// }
/// ```
///
/// The rules here are the schema's, so a file that passes the schema passes this check and the
/// other way round (see the schema for the few things only one of them can express). Checks that
/// need the catalog (parents, duplicates, cycles, tag syntax) are `DeclarationValidator`'s.
///
/// A file is read twice only when it has a problem: first value by value straight from its bytes
/// (``readDirectly(_:)``), which gives up at the first problem, then through a JSON tree
/// (``init(checking:source:)``), which finds the problem and names it.
struct DeclarationFile: Sendable {
    /// The `exported` entries, in file order.
    var exported: [UniformTypeDeclaration] = []
    /// The `imported` entries, in file order.
    var imported: [UniformTypeDeclaration] = []
    /// Whether each declaration has been through `DeclarationValidator.checked(_:)` (the direct reading does it while
    /// each declaration's parts are still in the cache), so that the validator need not check them again.
    var isChecked = false

    /// The top-level keys a file may have.
    static let topLevelKeys: Set<String> = ["$schema", "exported", "imported"]
    /// The keys an entry may have.
    /// The longest `description` a file may give, in UTF-8 bytes: a description is a name for people (a desktop
    /// shows it as the file type), not a document.
    static let maximumDescriptionLength = 1024

    static let entryKeys: Set<String> = ["identifier", "conformsTo", "tags", "description", "referenceURL", "version"]
    /// The largest file accepted: far above any real declaration file, low enough to bound memory.
    static let maximumSize = 16 * 1024 * 1024
    /// The deepest nesting accepted: a declaration file needs 4 levels (file, list, entry, tags).
    static let maximumDepth = 32

    /// Parses and checks `data`.
    /// - Parameter source: How errors name the file, e.g. its path.
    /// - Throws: ``UniformTypeError`` with code `invalidJSON`, `invalidDeclaration` or
    ///   `invalidIdentifier`; its `source` is `<source>` or `<source>: exported[<n>] <identifier>`.
    init(data: Data, source: String) throws(UniformTypeError) {
        guard data.count <= Self.maximumSize else {
            throw Self.tooLarge(data.count, source: source)
        }
        try self.init(bytes: [UInt8](data), source: source)
    }

    /// Parses and checks `bytes`, as ``init(data:source:)`` does, without another copy of a file read as bytes.
    init(bytes: [UInt8], source: String) throws(UniformTypeError) {
        guard bytes.count <= Self.maximumSize else {
            throw Self.tooLarge(bytes.count, source: source)
        }
        if let file = Self.readDirectly(bytes) {
            self = file
            return
        }
        try self.init(checking: bytes, source: source)
    }

    /// Parses and checks `bytes` through a JSON tree: the reading that finds each problem a file can have and says
    /// which it is (``readDirectly(_:)`` only tells that there is one).
    init(checking bytes: [UInt8], source: String) throws(UniformTypeError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxDepth: Self.maximumDepth)
        } catch {
            throw UniformTypeError(
                code: .invalidJSON,
                message: "line \(error.line(in: bytes)): \(error.detail); the file must be UTF-8 JSON (RFC 8259, no "
                    + "trailing commas or duplicate keys), for example as a JSON linter checks it.",
                cause: error, source: source, offset: error.offset)
        }
        guard let members = root.members else {
            throw Self.shapeError(
                "the top level is \(root.typeName), not an object; write {\"exported\": [...], \"imported\": [...]}",
                source: source)
        }
        let top = Dictionary(members, uniquingKeysWith: { first, _ in first })
        for key in top.keys.sorted() where !Self.topLevelKeys.contains(key) {
            throw Self.shapeError(
                "unknown top-level key '\(key)'; a declaration file has only \"exported\", \"imported\" and "
                    + "\"$schema\"", source: source)
        }
        if let schema = top["$schema"], schema.string == nil {
            throw Self.shapeError("\"$schema\" must be a string, not \(schema.typeName)", source: source)
        }
        exported = try Self.entries(top["exported"], list: "exported", source: source)
        imported = try Self.entries(top["imported"], list: "imported", source: source)
    }

    private static func tooLarge(_ count: Int, source: String) -> UniformTypeError {
        UniformTypeError(
            code: .unreadableFile,
            message: "the file has \(count) bytes, more than the \(Self.maximumSize) a declaration file "
                + "may have; split it into smaller files.",
            source: source)
    }

    /// How errors name the entry at `position` of `list`: `Cards.json: exported[2]`.
    static func entryName(source: String, list: String, position: Int) -> String {
        "\(source): \(list)[\(position)]"
    }

    private static func entries(
        _ value: JSONValue?, list: String, source: String
    ) throws(UniformTypeError) -> [UniformTypeDeclaration] {
        guard let value else {
            return []
        }
        guard case .array(let items, _) = value else {
            throw shapeError("\"\(list)\" must be an array of declarations, not \(value.typeName)", source: source)
        }
        var result: [UniformTypeDeclaration] = []
        result.reserveCapacity(items.count)
        IdentifierTable.shared.reserveCapacity(forAdditional: items.count)
        for (position, item) in items.enumerated() {
            result.append(try entry(item) { entryName(source: source, list: list, position: position) })
        }
        return result
    }

    /// A key an entry may have; its raw value is its position in ``entryKeyBytes``.
    private enum Field: Int {
        case identifier, conformsTo, tags, description, referenceURL, version
    }

    /// The values of an entry's fields, held inline rather than in an array allocated per entry.
    private struct Fields {
        var values: (JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?)

        init() {
            values = (nil, nil, nil, nil, nil, nil)
        }

        subscript(field: Field) -> JSONValue? {
            get {
                switch field {
                case .identifier: values.0
                case .conformsTo: values.1
                case .tags: values.2
                case .description: values.3
                case .referenceURL: values.4
                case .version: values.5
                }
            }
            set {
                switch field {
                case .identifier: values.0 = newValue
                case .conformsTo: values.1 = newValue
                case .tags: values.2 = newValue
                case .description: values.3 = newValue
                case .referenceURL: values.4 = newValue
                case .version: values.5 = newValue
                }
            }
        }
    }

    /// The keys an entry may have, as the parser gives them, in the order of ``Field``.
    private static let entryKeyBytes: [[UInt8]] = [
        "identifier", "conformsTo", "tags", "description", "referenceURL", "version",
    ].map { Array($0.utf8) }

    /// The class named by a key of `tags`: the filename-extension class, which nearly every file uses, without
    /// making a string.
    private static let filenameExtensionBytes = Array(UniformTypeTagClass.filenameExtension.rawValue.utf8)

    /// Reads one entry straight from the parser's members, matching their keys as bytes: a dictionary of
    /// strings per entry, and the names that errors use made for every entry, were half of reading a large file.
    /// - Parameter name: Names the entry for errors, e.g. `Cards.json: exported[2]`.
    private static func entry(
        _ value: JSONValue, name: () -> String
    ) throws(UniformTypeError) -> UniformTypeDeclaration {
        guard case .object(let members, _) = value else {
            throw shapeError("a declaration must be an object, not \(value.typeName)", source: name())
        }
        // The parser rejects repeated keys, so each field is found at most once.
        var fields = Fields()
        var hasUnknownKey = false
        for member in members {
            if let field = entryKeyBytes.firstIndex(of: member.key).flatMap(Field.init(rawValue:)) {
                fields[field] = member.value
            } else {
                hasUnknownKey = true
            }
        }
        func field(_ field: Field) -> JSONValue? {
            fields[field]
        }
        guard let identifierValue = field(.identifier) else {
            throw shapeError(
                "the declaration has no \"identifier\"; add one, such as \"com.example.format\"", source: name())
        }
        guard let identifierText = identifierValue.string else {
            throw shapeError("\"identifier\" must be a string, not \(identifierValue.typeName)", source: name())
        }
        // Escaped and cut short: a 10 000-character identifier is named once (not again in the message), in part.
        func source() -> String {
            "\(name()) \(MessageExcerpt.escaped(identifierText))"
        }
        let identifier = try parseIdentifier(identifierText, field: "identifier", source: source)
        if hasUnknownKey {
            let keys = members.map { String(decoding: $0.key, as: UTF8.self) }
            for key in Set(keys).sorted() where !entryKeys.contains(key) {
                throw shapeError(
                    "unknown key '\(key)'; a declaration has only \(entryKeys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))",
                    source: source())
            }
        }

        var declaration = UniformTypeDeclaration(identifier: identifier)
        if let value = field(.conformsTo) {
            let parents = try strings(value, field: "conformsTo", source: source)
            declaration.conformsTo.reserveCapacity(parents.count)
            for (index, parent) in parents.enumerated() {
                declaration.conformsTo.append(
                    try parseIdentifier(parent, field: "conformsTo[\(index)]", source: source))
            }
        }
        if let value = field(.tags) {
            guard case .object(let byClass, _) = value else {
                throw shapeError(
                    "\"tags\" must be an object keyed by tag class, such as {\"public.filename-extension\": [\"card\"]}, "
                        + "not \(value.typeName)", source: source())
            }
            for (classBytes, tags) in byClass {
                let tagClass = Self.tagClass(classBytes)
                declaration.tags[tagClass] = try strings(tags, field: "tags.\(tagClass.rawValue)", source: source)
            }
        }
        if let value = field(.description) {
            guard let text = value.string else {
                throw shapeError("\"description\" must be a string, not \(value.typeName)", source: source())
            }
            declaration.description = try description(text, source: source)
        }
        if let value = field(.referenceURL) {
            declaration.referenceURL = try referenceURL(value.string, source: source)
        }
        if let value = field(.version) {
            declaration.version = try version(value, source: source)
        }
        return declaration
    }

    /// The tag class a key of `tags` names.
    private static func tagClass(_ key: [UInt8]) -> UniformTypeTagClass {
        key == filenameExtensionBytes
            ? UniformTypeTagClass.filenameExtension
            : UniformTypeTagClass(rawValue: String(decoding: key, as: UTF8.self))
    }

    /// `text` as a declaration's description, if it is not too long.
    private static func description(_ text: String, source: () -> String) throws(UniformTypeError) -> String {
        guard text.utf8.count <= Self.maximumDescriptionLength else {
            throw shapeError(
                "\"description\" has \(text.utf8.count) UTF-8 bytes, more than the \(Self.maximumDescriptionLength) "
                    + "a description may have; shorten it", source: source())
        }
        return text
    }

    /// The URL `text` (the string a `referenceURL` holds, `nil` if it holds another value) names, if it is absolute.
    private static func referenceURL(_ text: String?, source: () -> String) throws(UniformTypeError) -> URL {
        guard let text, let url = URL(string: text), url.scheme != nil else {
            throw shapeError(
                "\"referenceURL\" must be an absolute URL string, such as \"https://example.com/format\"",
                source: source())
        }
        return url
    }

    /// The version `value` holds, if it is a whole number of at least 0.
    private static func version(_ value: JSONValue, source: () -> String) throws(UniformTypeError) -> Int {
        guard let version = value.integer, version >= 0 else {
            throw shapeError("\"version\" must be a whole number of at least 0", source: source())
        }
        return version
    }

    /// The strings of an array.
    /// - Parameters:
    ///   - field: Names the array for errors; made only for an error.
    ///   - source: Names the entry for errors.
    private static func strings(
        _ value: JSONValue, field: @autoclosure () -> String, source: () -> String
    ) throws(UniformTypeError) -> [String] {
        guard case .array(let items, _) = value else {
            throw shapeError("\"\(field())\" must be an array of strings, not \(value.typeName)", source: source())
        }
        var result: [String] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .string(let bytes, _) = item else {
                throw shapeError(
                    "\"\(field())\"[\(index)] must be a string, not \(item.typeName)", source: source())
            }
            result.append(String(decoding: bytes, as: UTF8.self))
        }
        return result
    }

    private static func parseIdentifier(
        _ text: String, field: @autoclosure () -> String, source: () -> String
    ) throws(UniformTypeError) -> UniformType {
        if let problem = IdentifierSyntax.problem(with: text) {
            let field = field()
            throw UniformTypeError(
                code: .invalidIdentifier,
                // The entry's own identifier is in `source` already.
                message: field == "identifier"
                    ? "\"identifier\" is not a valid type identifier: \(problem)."
                    : "\"\(field)\" \(MessageExcerpt.quoted(text)) is not a valid type identifier: \(problem).",
                source: source())
        }
        return UniformType(trusted: text)
    }

    private static func shapeError(_ problem: String, source: String) -> UniformTypeError {
        UniformTypeError(
            code: .invalidDeclaration,
            message: problem + " (see Schemas/type-declarations.schema.json).",
            source: source)
    }
}

// MARK: - Reading without a tree

extension DeclarationFile {
    /// The keys of the top level, as the parser gives them.
    private static let exportedKey = Array("exported".utf8)
    private static let importedKey = Array("imported".utf8)
    private static let schemaKey = Array("$schema".utf8)
    /// After how many entries of a list ``readList(_:)`` makes room for the identifiers of the rest.
    private static let entriesBeforeReserving = 64

    /// A file of these lists.
    fileprivate init(exported: [UniformTypeDeclaration], imported: [UniformTypeDeclaration]) {
        self.exported = exported
        self.imported = imported
    }

    /// The file read straight from its bytes, without a JSON tree, each declaration checked on its own by
    /// `DeclarationValidator.checked(_:)` as it is made; `nil` when the file has any problem, which
    /// ``init(checking:source:)`` and the validator then find and name.
    ///
    /// A file's tree was a fifth of loading a large one: its allocations, and freeing them. The checks here are those
    /// of ``init(checking:source:)``, made by the same functions on the same values (and `JSONParser`'s one grammar),
    /// so that a file read here reads to the same declarations there; only the problems are not told apart.
    static func readDirectly(_ bytes: [UInt8]) -> DeclarationFile? {
        do {
            return try JSONParser.read(bytes, maxDepth: maximumDepth) {
                (reader: inout JSONParser) throws(JSONSyntaxError) -> DeclarationFile? in
                try readFile(&reader)
            }
        } catch {
            return nil
        }
    }

    private static func readFile(_ reader: inout JSONParser) throws(JSONSyntaxError) -> DeclarationFile? {
        guard try reader.peekKind() == .object else {
            return nil
        }
        try reader.beginObject()
        var file = DeclarationFile(exported: [], imported: [])
        file.isChecked = true
        while let key = try reader.nextKey() {
            if key == exportedKey {
                guard let list = try readList(&reader) else {
                    return nil
                }
                file.exported = list
            } else if key == importedKey {
                guard let list = try readList(&reader) else {
                    return nil
                }
                file.imported = list
            } else if key == schemaKey, try reader.peekKind() == .string {
                try reader.readString { _ in }
            } else {
                return nil
            }
        }
        return file
    }

    private static func readList(_ reader: inout JSONParser) throws(JSONSyntaxError) -> [UniformTypeDeclaration]? {
        guard try reader.peekKind() == .array else {
            return nil
        }
        try reader.beginArray()
        let start = reader.offset
        var list: [UniformTypeDeclaration] = []
        while try reader.nextElement() {
            guard let declaration = try readEntry(&reader) else {
                return nil
            }
            list.append(declaration)
            if list.count == entriesBeforeReserving {
                reserveIdentifiers(after: list.count, in: start..<reader.offset, of: reader.count)
            }
        }
        return list
    }

    /// Makes room in the identifier table for the entries that the rest of the file holds if they are as long as the
    /// first `entries`, which `span` held: growing the table step by step rehashed each identifier again and again.
    /// The tree's reading reserves its array's count instead.
    private static func reserveIdentifiers(after entries: Int, in span: Range<Int>, of fileSize: Int) {
        let bytesPerEntry = max(span.count / entries, 16)
        IdentifierTable.shared.reserveCapacity(forAdditional: (fileSize - span.upperBound) / bytesPerEntry)
    }

    /// One entry; its fields may come in any order.
    private static func readEntry(_ reader: inout JSONParser) throws(JSONSyntaxError) -> UniformTypeDeclaration? {
        guard try reader.peekKind() == .object else {
            return nil
        }
        try reader.beginObject()
        var identifier: UniformType?
        var conformsTo: [UniformType] = []
        var tags: [UniformTypeTagClass: [String]] = [:]
        var description: String?
        var referenceURL: URL?
        var version: Int?
        while let key = try reader.nextKey() {
            guard let field = entryKeyBytes.firstIndex(of: key).flatMap(Field.init(rawValue:)) else {
                return nil
            }
            switch field {
            case .identifier:
                guard let type = try readIdentifier(&reader) else {
                    return nil
                }
                identifier = type
            case .conformsTo:
                guard try reader.peekKind() == .array else {
                    return nil
                }
                try reader.beginArray()
                while try reader.nextElement() {
                    guard let parent = try readIdentifier(&reader) else {
                        return nil
                    }
                    conformsTo.append(parent)
                }
            case .tags:
                guard try reader.peekKind() == .object else {
                    return nil
                }
                try reader.beginObject()
                while let classKey = try reader.nextKey() {
                    guard let strings = try readStrings(&reader) else {
                        return nil
                    }
                    tags[tagClass(classKey)] = strings
                }
            case .description:
                guard let text = try readString(&reader),
                    let checked = try? Self.description(text, source: { "" })
                else {
                    return nil
                }
                description = checked
            case .referenceURL:
                guard let text = try readString(&reader), let url = try? Self.referenceURL(text, source: { "" }) else {
                    return nil
                }
                referenceURL = url
            case .version:
                let value = try reader.readValue()
                guard let checked = try? Self.version(value, source: { "" }) else {
                    return nil
                }
                version = checked
            }
        }
        guard let identifier else {
            return nil
        }
        var declaration = UniformTypeDeclaration(identifier: identifier)
        declaration.conformsTo = conformsTo
        declaration.tags = tags
        declaration.description = description
        declaration.referenceURL = referenceURL
        declaration.version = version
        return try? DeclarationValidator.checked(declaration)
    }

    /// A string, or `nil` when the value is of another kind.
    private static func readString(_ reader: inout JSONParser) throws(JSONSyntaxError) -> String? {
        guard try reader.peekKind() == .string else {
            return nil
        }
        return try reader.readString { String(decoding: $0, as: UTF8.self) }
    }

    /// An array of strings, or `nil` when the value is something else.
    private static func readStrings(_ reader: inout JSONParser) throws(JSONSyntaxError) -> [String]? {
        guard try reader.peekKind() == .array else {
            return nil
        }
        try reader.beginArray()
        var strings: [String] = []
        while try reader.nextElement() {
            guard let text = try readString(&reader) else {
                return nil
            }
            strings.append(text)
        }
        return strings
    }

    /// A valid identifier's type, or `nil` when the value is not a string or not a valid identifier.
    private static func readIdentifier(_ reader: inout JSONParser) throws(JSONSyntaxError) -> UniformType? {
        guard let text = try readString(&reader) else {
            return nil
        }
        return try? parseIdentifier(text, field: "", source: { "" })
    }
}

/// The two readings of a declaration file side by side, for the fuzzers and tests that hold them to each other.
package enum DeclarationFileReadings {
    /// Whether the direct reading (without a JSON tree) and the tree's reading, followed by the validator's check of
    /// each declaration on its own, agree on `bytes`: both reject it, or both read it to the same checked
    /// declarations in the same order.
    package static func agree(on bytes: [UInt8]) -> Bool {
        let direct = DeclarationFile.readDirectly(bytes)
        let tree = (try? DeclarationFile(checking: bytes, source: "input")).flatMap { file in
            try? DeclarationFile(
                exported: file.exported.map(DeclarationValidator.checked),
                imported: file.imported.map(DeclarationValidator.checked))
        }
        guard let direct, let tree else {
            return direct == nil && tree == nil
        }
        return direct.exported == tree.exported && direct.imported == tree.imported
    }

    /// Whether the direct reading reads `bytes` (and so a load does not read them a second time, through a tree).
    package static func readsDirectly(_ bytes: [UInt8]) -> Bool {
        DeclarationFile.readDirectly(bytes) != nil
    }
}
