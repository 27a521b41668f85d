import CBOR
import TransferKitJSON
import UniformTypes

/// The type declarations an archive carries (format 1.1, `Schemas/transfer-archive.md` §3.6): their keys, their rules,
/// and their encoding in both forms. One home for the writer and both readers.
enum ArchiveDeclarations {
    /// The body key. Five bytes starting with `d`, so it sorts before `items` in both forms' key orders and a streaming
    /// reader has the declarations before the first item.
    static let key = "decls"
    static let identifierKey = "identifier"
    static let conformsToKey = "conformsTo"
    static let tagsKey = "tags"
    static let descriptionKey = "description"
    /// The longest tag and the longest description, in UTF-8 bytes.
    static let maxTextLength = 1024

    /// The declaration as an archive carries it: identifier, parents, non-empty tag lists and description.
    static func carried(_ declaration: UniformTypeDeclaration) -> UniformTypeDeclaration {
        UniformTypeDeclaration(
            identifier: declaration.identifier, conformsTo: declaration.conformsTo,
            tags: declaration.tags.filter { !$0.value.isEmpty }, description: declaration.description)
    }

    // MARK: Rules, in the binary form's key order (tags, conformsTo, identifier, description)

    /// Throws `invalidIdentifier` unless `type` (a parent or tag class) fits the archive's grammar (§3.1).
    static func checkIdentifier(_ identifier: String, declarationIndex: Int, offset: Int?) throws(TransferArchiveError)
    {
        if let problem = ArchiveRules.identifierProblem(identifier.utf8) {
            throw TransferArchiveError(
                code: .invalidIdentifier,
                message: "Declaration \(declarationIndex) holds \(String(reflecting: identifier)), which is not an "
                    + "archive type identifier: \(problem) (Schemas/transfer-archive.md, sections 3.1 and 3.6).",
                offset: offset)
        }
    }

    /// Throws `invalidDeclaration` unless `tag` has 1 to 1 024 bytes and no control character.
    static func checkTag(_ tag: String, of declared: UniformType?, offset: Int?) throws(TransferArchiveError) {
        let length = tag.utf8.count
        guard length == 0 || length > maxTextLength || ArchiveRules.hasControlCharacter(tag) else { return }
        throw invalid(
            "the tag \(MessageExcerpt.quoted(tag)) must have 1 to \(maxTextLength) bytes and no control character",
            declared: declared, offset: offset)
    }

    /// Throws `invalidDeclaration` when `identifier` is a dynamic type's (first component `dyn`), which no one declares.
    static func checkDeclarable(_ identifier: UniformType, offset: Int?) throws(TransferArchiveError) {
        if identifier.identifier.prefix(while: { $0 != "." }).lowercased() == "dyn" {
            throw invalid(
                "dynamic types (dyn.) are made up by readers for tags they do not know and cannot be declared",
                declared: identifier, offset: offset)
        }
    }

    /// Throws `invalidDeclaration` unless `description` has at most 1 024 bytes and no control character.
    static func checkDescription(
        _ description: String, of declared: UniformType?, offset: Int?
    )
        throws(TransferArchiveError)
    {
        guard description.utf8.count > maxTextLength || ArchiveRules.hasControlCharacter(description) else { return }
        throw invalid(
            "its description must have at most \(maxTextLength) bytes and no control character", declared: declared,
            offset: offset)
    }

    /// Throws `invalidDeclaration` if `seen` already holds the identifier (ASCII case-insensitive); adds it otherwise.
    static func checkUnique(
        _ identifier: UniformType, in seen: inout Set<UniformType>, offset: Int?
    ) throws(TransferArchiveError) {
        guard seen.insert(identifier).inserted else {
            throw invalid("an earlier declaration declares the same type", declared: identifier, offset: offset)
        }
    }

    /// Every rule of §3.6 for a declaration about to be written, in the readers' order.
    static func check(
        _ declaration: UniformTypeDeclaration, index: Int, seen: inout Set<UniformType>
    ) throws(TransferArchiveError) {
        for (tagClass, tags) in declaration.tags.sorted(by: { cborKeyPrecedes($0.key, $1.key) }) {
            try checkIdentifier(tagClass.rawValue, declarationIndex: index, offset: nil)
            for tag in tags {
                try checkTag(tag, of: declaration.identifier, offset: nil)
            }
        }
        for parent in declaration.conformsTo {
            try checkIdentifier(parent.identifier, declarationIndex: index, offset: nil)
        }
        try checkIdentifier(declaration.identifier.identifier, declarationIndex: index, offset: nil)
        try checkDeclarable(declaration.identifier, offset: nil)
        if let description = declaration.description {
            try checkDescription(description, of: declaration.identifier, offset: nil)
        }
        try checkUnique(declaration.identifier, in: &seen, offset: nil)
    }

    /// Checks every declaration for writing.
    static func check(_ declarations: [UniformTypeDeclaration]) throws(TransferArchiveError) {
        var seen: Set<UniformType> = []
        for (index, declaration) in declarations.enumerated() {
            try check(declaration, index: index, seen: &seen)
        }
    }

    static func invalid(_ what: String, declared: UniformType?, offset: Int?) -> TransferArchiveError {
        let name = declared.map { "The declaration of \($0.identifier)" } ?? "A declaration"
        return TransferArchiveError(
            code: .invalidDeclaration,
            message: "\(name) is invalid: \(what) (Schemas/transfer-archive.md, section 3.6).", offset: offset,
            details: .init(type: declared))
    }

    private static func cborKeyPrecedes(_ a: UniformTypeTagClass, _ b: UniformTypeTagClass) -> Bool {
        ArchiveCBOR.keyPrecedes(a.rawValue, b.rawValue)
    }

    // MARK: Binary form

    /// Appends the `decls` array in the deterministic encoding (keys by encoded bytes: `tags`, `conformsTo`,
    /// `identifier`, `description`).
    static func write(_ declarations: [UniformTypeDeclaration], to writer: inout CBORWriter) {
        writer.writeArrayHead(count: UInt64(declarations.count))
        for declaration in declarations {
            let tags = declaration.tags.filter { !$0.value.isEmpty }.sorted { cborKeyPrecedes($0.key, $1.key) }
            var count: UInt64 = 1
            if !tags.isEmpty { count += 1 }
            if !declaration.conformsTo.isEmpty { count += 1 }
            if declaration.description != nil { count += 1 }
            writer.writeMapHead(count: count)
            if !tags.isEmpty {
                writer.writeTextString(tagsKey)
                writer.writeMapHead(count: UInt64(tags.count))
                for (tagClass, values) in tags {
                    writer.writeTextString(tagClass.rawValue)
                    writer.writeArrayHead(count: UInt64(values.count))
                    for value in values { writer.writeTextString(value) }
                }
            }
            if !declaration.conformsTo.isEmpty {
                writer.writeTextString(conformsToKey)
                writer.writeArrayHead(count: UInt64(declaration.conformsTo.count))
                for parent in declaration.conformsTo { writer.writeTextString(parent.identifier) }
            }
            writer.writeTextString(identifierKey)
            writer.writeTextString(declaration.identifier.identifier)
            if let description = declaration.description {
                writer.writeTextString(descriptionKey)
                writer.writeTextString(description)
            }
        }
    }

    // MARK: Text form

    /// Appends `"decls":[…],` in the canonical text (keys by UTF-8 bytes: `conformsTo`, `description`, `identifier`,
    /// `tags`); nothing when there are no declarations.
    static func writeJSON(_ declarations: [UniformTypeDeclaration], to output: inout JSONOutput) {
        guard !declarations.isEmpty else { return }
        output.raw("\"\(key)\":[")
        for (position, declaration) in declarations.enumerated() {
            if position > 0 { output.raw(",") }
            writeJSON(declaration, adding: [], to: &output)
        }
        output.raw("],")
    }

    /// Appends one declaration as a JSON object in the canonical text, with `extra` members (each value JSON text)
    /// merged in key order.
    static func writeJSON(
        _ declaration: UniformTypeDeclaration, adding extra: [(key: String, value: [UInt8])],
        to output: inout JSONOutput
    ) {
        var members = extra
        if !declaration.conformsTo.isEmpty {
            members.append((conformsToKey, jsonArray(declaration.conformsTo.map(\.identifier))))
        }
        if let description = declaration.description {
            var text = JSONOutput()
            text.string(description.utf8)
            members.append((descriptionKey, text.bytes))
        }
        var identifier = JSONOutput()
        identifier.string(declaration.identifier.identifier.utf8)
        members.append((identifierKey, identifier.bytes))
        let tags = declaration.tags.filter { !$0.value.isEmpty }.sorted {
            $0.key.rawValue.utf8.lexicographicallyPrecedes($1.key.rawValue.utf8)
        }
        if !tags.isEmpty {
            var object = JSONOutput()
            object.raw("{")
            for (index, (tagClass, values)) in tags.enumerated() {
                if index > 0 { object.raw(",") }
                object.string(tagClass.rawValue.utf8)
                object.raw(":")
                object.bytes += jsonArray(values)
            }
            object.raw("}")
            members.append((tagsKey, object.bytes))
        }
        output.raw("{")
        for (index, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { output.raw(",") }
            output.string(member.key.utf8)
            output.raw(":")
            output.bytes += member.value
        }
        output.raw("}")
    }

    /// A JSON array of strings.
    static func jsonArray(_ strings: [String]) -> [UInt8] {
        var output = JSONOutput()
        output.raw("[")
        for (index, string) in strings.enumerated() {
            if index > 0 { output.raw(",") }
            output.string(string.utf8)
        }
        output.raw("]")
        return output.bytes
    }

    /// Reads the text form's `decls` value (spec sections 3.6 and 8: each declaration in the binary form's key order).
    static func readJSON(
        _ value: JSONValue, limits: TransferArchive.Limits
    ) throws(TransferArchiveError) -> [UniformTypeDeclaration] {
        guard case .array(let elements, let span) = value else {
            throw malformed("the declarations (\"decls\") are not an array", offset: nil)
        }
        guard elements.count <= limits.maxDeclarationCount else {
            throw countExceeded(elements.count, limits: limits, offset: span.lowerBound)
        }
        guard span.count <= limits.maxDeclarationsSize else {
            throw sizeExceeded(limits: limits, offset: span.lowerBound)
        }
        var declarations: [UniformTypeDeclaration] = []
        var seen: Set<UniformType> = []
        for (index, element) in elements.enumerated() {
            guard case .object(_, let elementSpan) = element else {
                throw malformed("declaration \(index) is not an object", offset: nil)
            }
            let offset = elementSpan.lowerBound
            var tags: [UniformTypeTagClass: [String]] = [:]
            switch element[tagsKey] {
            case nil: break
            case .object(let members, _)?:
                for (tagClass, list) in members.sorted(by: { cborKeyPrecedes($0.key, $1.key) }) {
                    let name = String(decoding: tagClass, as: UTF8.self)
                    try checkIdentifier(name, declarationIndex: index, offset: offset)
                    guard case .array(let values, _) = list else {
                        throw malformed("declaration \(index)'s tags of \(name) are not an array", offset: offset)
                    }
                    var strings: [String] = []
                    for value in values {
                        guard case .string(let bytes, let tagOffset) = value else {
                            throw malformed("declaration \(index) has a tag that is not a string", offset: offset)
                        }
                        let tag = String(decoding: bytes, as: UTF8.self)
                        try checkTag(tag, of: nil, offset: tagOffset)
                        strings.append(tag)
                    }
                    if !strings.isEmpty { tags[UniformTypeTagClass(rawValue: name)] = strings }
                }
            default:
                throw malformed("declaration \(index)'s \"tags\" is not an object", offset: offset)
            }
            var parents: [UniformType] = []
            switch element[conformsToKey] {
            case nil: break
            case .array(let values, _)?:
                for value in values {
                    guard case .string(let bytes, let parentOffset) = value else {
                        throw malformed("declaration \(index) has a parent that is not a string", offset: offset)
                    }
                    parents.append(try type(bytes, declarationIndex: index, limits: limits, offset: parentOffset))
                }
            default:
                throw malformed("declaration \(index)'s \"conformsTo\" is not an array", offset: offset)
            }
            var identifier: UniformType?
            switch element[identifierKey] {
            case nil: break
            case .string(let bytes, let identifierOffset)?:
                let declared = try type(bytes, declarationIndex: index, limits: limits, offset: identifierOffset)
                try checkDeclarable(declared, offset: identifierOffset)
                identifier = declared
            default:
                throw malformed("declaration \(index)'s \"identifier\" is not a string", offset: offset)
            }
            var description: String?
            switch element[descriptionKey] {
            case nil: break
            case .string(let bytes, let descriptionOffset)?:
                let text = String(decoding: bytes, as: UTF8.self)
                try checkDescription(text, of: identifier, offset: descriptionOffset)
                description = text
            default:
                throw malformed("declaration \(index)'s \"description\" is not a string", offset: offset)
            }
            guard let identifier else {
                throw malformed("declaration \(index) has no \"identifier\"", offset: offset)
            }
            try checkUnique(identifier, in: &seen, offset: offset)
            declarations.append(
                UniformTypeDeclaration(
                    identifier: identifier, conformsTo: parents, tags: tags, description: description))
        }
        return declarations
    }

    private static func cborKeyPrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        ArchiveCBOR.keyPrecedes(a, b)
    }

    // MARK: Shared by both readers

    static func type(
        _ bytes: some Collection<UInt8>, declarationIndex: Int, limits: TransferArchive.Limits, offset: Int?
    ) throws(TransferArchiveError) -> UniformType {
        do {
            return try ArchiveRules.type(fromUTF8: bytes, limits: limits, itemIndex: nil, offset: offset)
        } catch  where error.code == .invalidIdentifier {
            try checkIdentifier(
                String(decoding: bytes, as: UTF8.self), declarationIndex: declarationIndex, offset: offset)
            throw error
        }
    }

    static func malformed(_ what: String, offset: Int?) -> TransferArchiveError {
        TransferArchiveError(code: .malformed, message: "The archive is malformed: \(what).", offset: offset)
    }

    static func countExceeded(
        _ count: some BinaryInteger, limits: TransferArchive.Limits, offset: Int?
    )
        -> TransferArchiveError
    {
        TransferArchiveError(
            code: .limitExceeded,
            message: "The archive carries \(count) type declarations; the limit is \(limits.maxDeclarationCount) "
                + "(Limits.maxDeclarationCount).", offset: offset)
    }

    static func sizeExceeded(limits: TransferArchive.Limits, offset: Int?) -> TransferArchiveError {
        TransferArchiveError(
            code: .limitExceeded,
            message: "The archive's type declarations are larger than \(limits.maxDeclarationsSize) bytes "
                + "(Limits.maxDeclarationsSize).", offset: offset)
    }
}

/// Reads the binary form's `decls` value front to back, counting its bytes as it goes (spec sections 3.6 and 7), so no
/// declared length is trusted.
struct CBORDeclarationsReader {
    let limits: TransferArchive.Limits
    /// Where the value starts.
    let start: Int

    /// Reads the declarations; `cbor` is at the head of the `decls` value, a body map entry (level 2).
    static func read(
        _ cbor: inout CBORReader, limits: TransferArchive.Limits
    ) throws(TransferArchiveError) -> [UniformTypeDeclaration] {
        try CBORDeclarationsReader(limits: limits, start: cbor.offset).read(&cbor)
    }

    private func read(_ cbor: inout CBORReader) throws(TransferArchiveError) -> [UniformTypeDeclaration] {
        let list = try head(&cbor)
        guard list.majorType == .array, let count = list.length else {
            throw ArchiveDeclarations.malformed("the declarations (\"decls\") are not an array", offset: start)
        }
        guard count <= UInt64(max(0, limits.maxDeclarationCount)) else {
            throw ArchiveDeclarations.countExceeded(count, limits: limits, offset: start)
        }
        var declarations: [UniformTypeDeclaration] = []
        var seen: Set<UniformType> = []
        for index in 0..<Int(count) {
            let offset = cbor.offset
            let map = try head(&cbor)
            guard map.majorType == .map, let entries = map.length else {
                throw ArchiveDeclarations.malformed("declaration \(index) is not a map", offset: offset)
            }
            var keys = MapCursor(count: entries)
            var declaration = UniformTypeDeclaration(identifier: .data)
            var identifier: UniformType?
            while let key = try keys.nextKey(&cbor) {
                try checkSize(cbor.offset)
                switch key {
                case ArchiveDeclarations.tagsKey:
                    declaration.tags = try readTags(&cbor, index: index)
                case ArchiveDeclarations.conformsToKey:
                    let parents = try head(&cbor)
                    guard parents.majorType == .array, let parentCount = parents.length else {
                        throw ArchiveDeclarations.malformed(
                            "declaration \(index)'s \"conformsTo\" is not an array", offset: offset)
                    }
                    for _ in 0..<parentCount {
                        declaration.conformsTo.append(try readType(&cbor, index: index))
                    }
                case ArchiveDeclarations.identifierKey:
                    let identifierOffset = cbor.offset
                    let declared = try readType(&cbor, index: index)
                    try ArchiveDeclarations.checkDeclarable(declared, offset: identifierOffset)
                    identifier = declared
                case ArchiveDeclarations.descriptionKey:
                    let descriptionOffset = cbor.offset
                    let text = try readText(&cbor, what: "a description")
                    try ArchiveDeclarations.checkDescription(text, of: identifier, offset: descriptionOffset)
                    declaration.description = text
                default:
                    // Level 4: the top-level array, the body, the list, this declaration.
                    try ArchiveHeader.skip(&cbor, parentLevel: 4, limits: limits)
                }
                try checkSize(cbor.offset)
            }
            guard let identifier else {
                throw ArchiveDeclarations.malformed("declaration \(index) has no \"identifier\"", offset: offset)
            }
            try ArchiveDeclarations.checkUnique(identifier, in: &seen, offset: offset)
            declaration.identifier = identifier
            declarations.append(declaration)
        }
        return declarations
    }

    private func readTags(
        _ cbor: inout CBORReader, index: Int
    ) throws(TransferArchiveError) -> [UniformTypeTagClass: [String]] {
        let offset = cbor.offset
        let map = try head(&cbor)
        guard map.majorType == .map, let entries = map.length else {
            throw ArchiveDeclarations.malformed("declaration \(index)'s \"tags\" is not a map", offset: offset)
        }
        var tags: [UniformTypeTagClass: [String]] = [:]
        var keys = MapCursor(count: entries)
        while let tagClass = try keys.nextKey(&cbor) {
            try ArchiveDeclarations.checkIdentifier(tagClass, declarationIndex: index, offset: cbor.offset)
            let listOffset = cbor.offset
            let list = try head(&cbor)
            guard list.majorType == .array, let count = list.length else {
                throw ArchiveDeclarations.malformed(
                    "declaration \(index)'s tags of \(tagClass) are not an array", offset: listOffset)
            }
            var values: [String] = []
            for _ in 0..<count {
                let tagOffset = cbor.offset
                let tag = try readText(&cbor, what: "a tag")
                try ArchiveDeclarations.checkTag(tag, of: nil, offset: tagOffset)
                values.append(tag)
            }
            if !values.isEmpty { tags[UniformTypeTagClass(rawValue: tagClass)] = values }
        }
        return tags
    }

    private func readType(_ cbor: inout CBORReader, index: Int) throws(TransferArchiveError) -> UniformType {
        let offset = cbor.offset
        let bytes = try readBytes(&cbor, what: "an identifier")
        return try ArchiveDeclarations.type(bytes, declarationIndex: index, limits: limits, offset: offset)
    }

    private func readText(_ cbor: inout CBORReader, what: String) throws(TransferArchiveError) -> String {
        let offset = cbor.offset
        let bytes = try readBytes(&cbor, what: what)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TransferArchiveError(
                code: .invalidUTF8, message: "A declaration holds \(what) that is not valid UTF-8.", offset: offset)
        }
        return text
    }

    /// The bytes of a definite text string, checked against the size left before they are read.
    private func readBytes(_ cbor: inout CBORReader, what: String) throws(TransferArchiveError) -> [UInt8] {
        let offset = cbor.offset
        let text = try head(&cbor)
        guard text.majorType == .textString, let length = text.length else {
            throw ArchiveDeclarations.malformed("a declaration holds \(what) that is not a text string", offset: offset)
        }
        guard length <= UInt64(max(0, limits.maxDeclarationsSize - (cbor.offset - start))) else {
            throw ArchiveDeclarations.sizeExceeded(limits: limits, offset: offset)
        }
        var bytes: [UInt8] = []
        try cbor.archiveBytes(count: Int(length), into: &bytes)
        return bytes
    }

    private func head(_ cbor: inout CBORReader) throws(TransferArchiveError) -> CBORHead {
        let head = try cbor.archiveHead()
        try checkSize(cbor.offset)
        return head
    }

    private func checkSize(_ offset: Int) throws(TransferArchiveError) {
        if offset - start > limits.maxDeclarationsSize {
            throw ArchiveDeclarations.sizeExceeded(limits: limits, offset: offset)
        }
    }
}
