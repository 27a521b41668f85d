import Foundation
import TransferKitJSON
import TransferKitPlatform
import UniformTypes

/// The text form: one JSON object, read and written whole in memory (bounded by
/// ``TransferArchive/Limits/maxJSONDocumentSize``).
///
/// Output is deterministic: object keys sorted by their UTF-8 bytes, no white space, one trailing newline;
/// strings escape only `"`, `\` and control characters (`\b \f \n \r \t`, else `\u00xx`) and hold everything
/// else as UTF-8; integers in decimal; floats in Swift's shortest round-trip form, always with a `.` or an
/// exponent so they read back as floats.
extension TransferArchive {
    func encodedJSON() throws(TransferArchiveError) -> Data {
        var output = JSONOutput()
        output.raw("{\"format\":")
        output.string(Self.formatName.utf8)
        output.raw(",\"items\":[")
        var seenTypes: Set<UniformType> = []
        for (index, item) in items.enumerated() {
            if index > 0 { output.raw(",") }
            output.raw("{")
            if !item.metadata.isEmpty {
                output.raw("\"metadata\":")
                try Self.writeJSON(item.metadata, to: &output, itemIndex: index)
                output.raw(",")
            }
            if let name = item.suggestedName {
                try ArchiveRules.checkName(name, itemIndex: index)
                output.raw("\"name\":")
                output.string(name.utf8)
                output.raw(",")
            }
            output.raw("\"representations\":[")
            seenTypes.removeAll(keepingCapacity: true)
            for (position, representation) in item.representations.enumerated() {
                guard seenTypes.insert(representation.type).inserted else {
                    throw TransferArchiveError(
                        code: .duplicateType,
                        message: "Item \(index) has two representations of \(representation.type).",
                        details: .init(itemIndex: index, type: representation.type))
                }
                try ArchiveRules.checkIdentifier(representation.type, itemIndex: index)
                if position > 0 { output.raw(",") }
                let data = representation.data
                // Spec §5.3: "text" exactly when the bytes are valid UTF-8, whatever the type; no type graph needed.
                let text = String(validating: data, as: UTF8.self) != nil
                if !text {
                    output.raw("{\"base64\":")
                    output.string(data.base64EncodedString().utf8)
                    output.raw(",")
                } else {
                    output.raw("{")
                }
                output.raw("\"checksum\":\(representation.checksum)")
                if text {
                    output.raw(",\"text\":")
                    output.string(data)
                }
                output.raw(",\"type\":")
                output.string(representation.type.identifier.utf8)
                output.raw("}")
            }
            output.raw("]}")
        }
        output.raw("],\"version\":[\(Self.currentVersion.major),\(Self.currentVersion.minor)]}\n")
        return Data(output.bytes)
    }

    private static func writeJSON(
        _ dictionary: [String: TransferMetadataValue], to output: inout JSONOutput, itemIndex: Int
    ) throws(TransferArchiveError) {
        output.raw("{")
        let sorted = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (position, (key, value)) in sorted.enumerated() {
            if position > 0 { output.raw(",") }
            output.string(key.utf8)
            output.raw(":")
            try writeJSON(value, to: &output, itemIndex: itemIndex)
        }
        output.raw("}")
    }

    private static func writeJSON(
        _ value: TransferMetadataValue, to output: inout JSONOutput, itemIndex: Int
    ) throws(TransferArchiveError) {
        switch value {
        case .string(let string):
            output.string(string.utf8)
        case .integer(let integer):
            output.raw(String(integer))
        case .double(let double):
            guard double.isFinite else {
                throw TransferArchiveError(
                    code: .unrepresentableValue,
                    message:
                        "Item \(itemIndex)'s metadata holds \(double), which JSON cannot represent; use the binary form "
                        + "or store it as a string.", details: .init(itemIndex: itemIndex))
            }
            var text = double.description
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                text += ".0"
            }
            output.raw(text)
        case .bool(let bool):
            output.raw(bool ? "true" : "false")
        case .array(let array):
            output.raw("[")
            for (position, element) in array.enumerated() {
                if position > 0 { output.raw(",") }
                try writeJSON(element, to: &output, itemIndex: itemIndex)
            }
            output.raw("]")
        case .dictionary(let dictionary):
            try writeJSON(dictionary, to: &output, itemIndex: itemIndex)
        }
    }
}

extension TransferArchive {
    static func decodeJSON(_ bytes: [UInt8], limits: Limits) throws(TransferArchiveError) -> Self {
        guard bytes.count <= limits.maxJSONDocumentSize else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "The JSON archive has \(bytes.count) bytes; the limit is \(limits.maxJSONDocumentSize) "
                    + "(Limits.maxJSONDocumentSize). Use the binary form for large payloads.")
        }
        // The archive's own levels (root, items, item) sit above the metadata map.
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxDepth: max(1, limits.maxMetadataDepth) + 3)
        } catch {
            throw archiveError(error, maxDepth: max(1, limits.maxMetadataDepth) + 3)
        }
        guard case .object = root, case .string(let format, _)? = root["format"],
            format.elementsEqual(formatName.utf8)
        else {
            throw TransferArchiveError(
                code: .notAnArchive,
                message: "The JSON is not a transfer archive: it needs an object with \"format\": \"\(formatName)\".")
        }
        guard case .array(let version, _)? = root["version"], version.count >= 2,
            let major = try? integer(version[0]), let _ = try? integer(version[1]), major >= 0
        else {
            throw TransferArchiveError(
                code: .malformed, message: "The JSON archive's \"version\" is not an array [major, minor].")
        }
        guard major == Int64(currentVersion.major) else {
            throw TransferArchiveError(
                code: .unsupportedVersion,
                message: "The archive has major version \(major); this reader knows only major version "
                    + "\(currentVersion.major). Update TransferKit, or ask the sender for version "
                    + "\(currentVersion.major).")
        }
        guard case .array(let items, let span)? = root["items"] else {
            throw TransferArchiveError(code: .malformed, message: "The JSON archive has no \"items\" array.")
        }
        guard items.count <= limits.maxItemCount else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message:
                    "The archive has \(items.count) items; the limit is \(limits.maxItemCount) (Limits.maxItemCount).",
                offset: span.lowerBound)
        }
        var archive = TransferArchive()
        for (index, item) in items.enumerated() {
            archive.items.append(try decodeJSONItem(item, index: index, limits: limits))
        }
        return archive
    }

    private static func decodeJSONItem(
        _ value: JSONValue, index: Int, limits: Limits
    ) throws(TransferArchiveError) -> Item {
        guard case .object(_, let span) = value else {
            throw malformedJSON("item \(index) is not an object", itemIndex: index)
        }
        var item = Item()
        switch value["name"] {
        case nil:
            break
        case .string(let bytes, let offset)?:
            guard bytes.count <= limits.maxNameLength else {
                throw TransferArchiveError(
                    code: .limitExceeded,
                    message: "Item \(index)'s name has \(bytes.count) bytes; the limit is \(limits.maxNameLength).",
                    offset: offset, details: .init(itemIndex: index))
            }
            let name = String(decoding: bytes, as: UTF8.self)
            try ArchiveRules.checkName(name, itemIndex: index, offset: offset)
            item.suggestedName = name
        default:
            throw malformedJSON("item \(index)'s \"name\" is not a string", itemIndex: index)
        }
        switch value["metadata"] {
        case nil:
            break
        case .object(_, let metadataSpan)? where metadataSpan.count > limits.maxMetadataSize:
            throw TransferArchiveError(
                code: .limitExceeded,
                message:
                    "Item \(index)'s metadata is larger than \(limits.maxMetadataSize) bytes (Limits.maxMetadataSize).",
                offset: metadataSpan.lowerBound, details: .init(itemIndex: index))
        case let metadata? where isObject(metadata):
            guard
                case .dictionary(let dictionary) = try metadataValue(
                    metadata, depth: 1, itemIndex: index, limits: limits)
            else { throw malformedJSON("item \(index)'s \"metadata\" is not an object", itemIndex: index) }
            item.metadata = dictionary
        default:
            throw malformedJSON("item \(index)'s \"metadata\" is not an object", itemIndex: index)
        }
        guard case .array(let representations, _)? = value["representations"] else {
            throw malformedJSON("item \(index) has no \"representations\" array", itemIndex: index)
        }
        guard representations.count <= limits.maxRepresentationsPerItem else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "Item \(index) has \(representations.count) representations; the limit is "
                    + "\(limits.maxRepresentationsPerItem) (Limits.maxRepresentationsPerItem).",
                offset: span.lowerBound, details: .init(itemIndex: index))
        }
        var types: Set<UniformType> = []
        for representation in representations {
            let decoded = try decodeJSONRepresentation(representation, itemIndex: index, limits: limits)
            guard types.insert(decoded.type).inserted else {
                throw TransferArchiveError(
                    code: .duplicateType, message: "Item \(index) has two representations of \(decoded.type).",
                    details: .init(itemIndex: index, type: decoded.type))
            }
            item.representations.append(decoded)
        }
        return item
    }

    private static func decodeJSONRepresentation(
        _ value: JSONValue, itemIndex: Int, limits: Limits
    ) throws(TransferArchiveError) -> Representation {
        guard isObject(value), case .string(let identifier, let offset)? = value["type"] else {
            throw malformedJSON("a representation of item \(itemIndex) has no \"type\" string", itemIndex: itemIndex)
        }
        let type = try ArchiveRules.type(fromUTF8: identifier, limits: limits, itemIndex: itemIndex, offset: offset)
        let data: Data
        switch (value["text"], value["base64"]) {
        case (.string(let text, _)?, nil):
            data = Data(text)
        case (nil, .string(let base64, let base64Offset)?):
            guard base64.count % 4 == 0, let decoded = Data(base64Encoded: Data(base64)) else {
                throw TransferArchiveError(
                    code: .invalidBase64,
                    message: "The \(type) representation of item \(itemIndex) is not standard base64 with padding.",
                    offset: base64Offset, details: .init(itemIndex: itemIndex, type: type))
            }
            data = decoded
        default:
            throw malformedJSON(
                "the \(type) representation needs exactly one of \"text\" or \"base64\", as a string",
                itemIndex: itemIndex, type: type)
        }
        guard UInt64(data.count) <= limits.maxPayloadLength else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "The payload of \(type) has \(data.count) bytes; the limit is \(limits.maxPayloadLength).",
                details: .init(itemIndex: itemIndex, type: type))
        }
        guard let checksumValue = value["checksum"], let stored = try? integer(checksumValue),
            (0...Int64(UInt32.max)).contains(stored)
        else {
            throw malformedJSON(
                "the \(type) representation has no \"checksum\" integer in 0...4294967295", itemIndex: itemIndex,
                type: type)
        }
        let representation = Representation(type: type, data: data)
        let actual = representation.checksum
        guard UInt32(stored) == actual else {
            throw TransferArchiveError(
                code: .checksumMismatch,
                message:
                    "The \(type) representation of item \(itemIndex) has CRC-32 \(TransferArchiveReader.hex(actual)) but "
                    + "the archive records \(TransferArchiveReader.hex(UInt32(stored))): the archive was damaged or "
                    + "edited. Get a fresh copy from the sender.", details: .init(itemIndex: itemIndex, type: type))
        }
        return representation
    }

    private static func metadataValue(
        _ value: JSONValue, depth: Int, itemIndex: Int, limits: Limits
    ) throws(TransferArchiveError) -> TransferMetadataValue {
        if depth > limits.maxMetadataDepth, let span = containerSpan(value) {
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "Item \(itemIndex)'s metadata nests deeper than \(limits.maxMetadataDepth) levels "
                    + "(Limits.maxMetadataDepth).", offset: span.lowerBound, details: .init(itemIndex: itemIndex))
        }
        switch value {
        case .object(let members, _):
            var dictionary: [String: TransferMetadataValue] = [:]
            for (key, member) in members {
                let decoded = try metadataValue(member, depth: depth + 1, itemIndex: itemIndex, limits: limits)
                try ArchiveRules.insert(
                    decoded, forKey: String(decoding: key, as: UTF8.self), into: &dictionary, itemIndex: itemIndex,
                    offset: nil)
            }
            return .dictionary(dictionary)
        case .array(let elements, _):
            var array: [TransferMetadataValue] = []
            for element in elements {
                array.append(try metadataValue(element, depth: depth + 1, itemIndex: itemIndex, limits: limits))
            }
            return .array(array)
        case .string(let bytes, _):
            return .string(String(decoding: bytes, as: UTF8.self))
        case .number(let text, let offset):
            if text.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
                guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else {
                    throw TransferArchiveError(
                        code: .unrepresentableValue, message: "A metadata number is out of the range of Double.",
                        offset: offset, details: .init(itemIndex: itemIndex))
                }
                return .double(double)
            }
            guard let integer = Int64(String(decoding: text, as: UTF8.self)) else {
                throw TransferArchiveError(
                    code: .unrepresentableValue,
                    message: "The number \(String(decoding: text, as: UTF8.self)) is not an Int64 integer.",
                    offset: offset, details: .init(itemIndex: itemIndex))
            }
            return .integer(integer)
        case .bool(let bool):
            return .bool(bool)
        case .null:
            throw malformedJSON(
                "metadata values are strings, numbers, Booleans, arrays and objects; null is not allowed",
                itemIndex: itemIndex)
        }
    }

    /// An integer JSON number that fits in `Int64`.
    /// The value of a number that must be an integer. JSON has one number type, so `4.0` and `4e0` are accepted as
    /// 4 for the format's integer fields (spec section 5.1), as JSON Schema's `integer` accepts them; writers write
    /// `4`. Metadata keeps the distinction (`metadataValue`).
    private static func integer(_ value: JSONValue, itemIndex: Int? = nil) throws(TransferArchiveError) -> Int64 {
        guard case .number(let text, let offset) = value else {
            throw malformedJSON("a number was expected", itemIndex: itemIndex)
        }
        guard let integer = Int64(String(decoding: text, as: UTF8.self)) ?? value.integer.map(Int64.init) else {
            throw TransferArchiveError(
                code: .unrepresentableValue,
                message: "The number \(String(decoding: text, as: UTF8.self)) is not an Int64 integer.", offset: offset,
                details: .init(itemIndex: itemIndex))
        }
        return integer
    }

    private static func containerSpan(_ value: JSONValue) -> Range<Int>? {
        switch value {
        case .object(_, let span), .array(_, let span): span
        default: nil
        }
    }

    private static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    private static func malformedJSON(
        _ what: String, itemIndex: Int? = nil, type: UniformType? = nil
    ) -> TransferArchiveError {
        TransferArchiveError(
            code: .malformed, message: "The JSON archive is malformed: \(what).",
            details: .init(itemIndex: itemIndex, type: type))
    }

    /// The archive's error for a JSON syntax error.
    private static func archiveError(_ error: JSONSyntaxError, maxDepth: Int) -> TransferArchiveError {
        switch error.kind {
        case .malformed:
            TransferArchiveError(
                code: .malformed, message: "The JSON archive is malformed: \(error.detail).", cause: error,
                offset: error.offset)
        case .truncated:
            TransferArchiveError(
                code: .truncated, message: "The JSON archive ends too early; it was cut off.", cause: error,
                offset: error.offset)
        case .invalidUTF8:
            TransferArchiveError(
                code: .invalidUTF8, message: "The JSON archive is not valid UTF-8 (\(error.detail)); it is damaged.",
                cause: error, offset: error.offset)
        case .tooDeep:
            TransferArchiveError(
                code: .limitExceeded,
                message: "The JSON archive nests deeper than \(maxDepth) levels (Limits.maxMetadataDepth plus the "
                    + "archive's own 3 levels).", cause: error, offset: error.offset)
        }
    }
}
