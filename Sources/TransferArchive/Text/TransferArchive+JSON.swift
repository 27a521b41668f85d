import TransferKitJSON
import TransferKitPlatform
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The text form: one JSON object, read and written whole in memory (bounded by
/// ``TransferArchive/Limits/maxJSONDocumentSize``).
///
/// Output is deterministic: object keys sorted by their UTF-8 bytes, no white space, one trailing newline;
/// strings escape only `"`, `\` and control characters (`\b \f \n \r \t`, else `\u00xx`) and hold everything
/// else as UTF-8; integers in decimal; floats as `CanonicalFloat` writes them, always with a `.` or an exponent so
/// they read back as floats.
extension TransferArchive {
    func encodedJSON() throws(TransferArchiveError) -> Data {
        var output = JSONOutput()
        try ArchiveDeclarations.check(declarations)
        output.raw("{")
        ArchiveDeclarations.writeJSON(declarations, to: &output)
        output.raw("\"format\":")
        output.string(Self.formatName.utf8)
        output.raw(",\"items\":[")
        var seenTypes: Set<UniformType> = []
        for (index, item) in items.enumerated() {
            if index > 0 { output.raw(",") }
            output.raw("{")
            if !item.metadata.isEmpty {
                try ArchiveRules.checkMetadata(item.metadata, itemIndex: index)
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
        output.raw("],\"version\":[\(Self.currentVersion.major),\(declarations.isEmpty ? 0 : 1)]}\n")
        return Data(output.bytes)
    }

    /// How a listing writes NaN and the infinities, which JSON cannot hold and an archive's text form refuses.
    package enum NonFiniteSpelling: Sendable {
        /// The strings `"NaN"`, `"Infinity"` and `"-Infinity"`: for people (`transferkit inspect`'s text listing),
        /// since a program cannot tell them from text.
        case strings
        /// The JSON view of the specification ("The JSON view of an archive"): the objects `{"NaN":null}`,
        /// `{"Infinity":null}` and `{"-Infinity":null}`, which no other metadata value is written as, since metadata
        /// holds no null (`transferkit inspect --json`).
        case view
    }

    /// A metadata map as the text form writes it (spec section 5.2), for listings such as `transferkit inspect
    /// --json`, with NaN and the infinities spelled as `nonFinite` says.
    package static func listingJSON(
        _ metadata: [String: TransferMetadataValue], nonFinite: NonFiniteSpelling = .view
    ) -> [UInt8] {
        var output = JSONOutput()
        // With a spelling for non-finite floats nothing is refused, so the error path is never taken.
        do {
            try writeJSON(metadata, to: &output, itemIndex: 0, nonFinite: nonFinite)
        } catch {
            return Array("{}".utf8)
        }
        return output.bytes
    }

    /// A type declaration as the text form writes it (spec section 5.2), with `extra` members merged in key order, for
    /// listings such as `transferkit inspect --json`.
    /// - Parameters:
    ///   - declaration: The declaration.
    ///   - extra: More members: a key and its value as JSON text.
    package static func listingJSON(
        _ declaration: UniformTypeDeclaration, adding extra: [(key: String, value: [UInt8])]
    ) -> [UInt8] {
        var output = JSONOutput()
        ArchiveDeclarations.writeJSON(declaration, adding: extra, to: &output)
        return output.bytes
    }

    /// A JSON array of strings, as the text form writes it.
    package static func listingJSON(_ strings: [String]) -> [UInt8] {
        ArchiveDeclarations.jsonArray(strings)
    }

    private static func writeJSON(
        _ dictionary: [String: TransferMetadataValue], to output: inout JSONOutput, itemIndex: Int,
        nonFinite: NonFiniteSpelling? = nil
    ) throws(TransferArchiveError) {
        output.raw("{")
        let sorted = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (position, (key, value)) in sorted.enumerated() {
            if position > 0 { output.raw(",") }
            output.string(key.utf8)
            output.raw(":")
            try writeJSON(value, to: &output, itemIndex: itemIndex, nonFinite: nonFinite)
        }
        output.raw("}")
    }

    private static func writeJSON(
        _ value: TransferMetadataValue, to output: inout JSONOutput, itemIndex: Int, nonFinite: NonFiniteSpelling?
    ) throws(TransferArchiveError) {
        switch value {
        case .string(let string):
            output.string(string.utf8)
        case .integer(let integer):
            output.raw(String(integer))
        case .double(let double) where !double.isFinite && nonFinite != nil:
            let name = double.isNaN ? "NaN" : double < 0 ? "-Infinity" : "Infinity"
            if nonFinite == .view {
                output.raw("{")
                output.string(name.utf8)
                output.raw(":null}")
            } else {
                output.string(name.utf8)
            }
        case .double(let double):
            guard double.isFinite else {
                throw TransferArchiveError(
                    code: .unrepresentableValue,
                    message:
                        "Item \(itemIndex)'s metadata holds \(double), which JSON cannot represent; use the binary form "
                        + "or store it as a string.", details: .init(itemIndex: itemIndex))
            }
            output.raw(CanonicalFloat.text(double))
        case .bool(let bool):
            output.raw(bool ? "true" : "false")
        case .array(let array):
            output.raw("[")
            for (position, element) in array.enumerated() {
                if position > 0 { output.raw(",") }
                try writeJSON(element, to: &output, itemIndex: itemIndex, nonFinite: nonFinite)
            }
            output.raw("]")
        case .dictionary(let dictionary):
            try writeJSON(dictionary, to: &output, itemIndex: itemIndex, nonFinite: nonFinite)
        }
    }
}

extension TransferArchive {
    /// Reads the text form whole; also returns its minor version, which the archive value does not keep.
    static func decodeJSON(
        _ bytes: [UInt8], limits: Limits
    ) throws(TransferArchiveError) -> (archive: Self, minorVersion: UInt64) {
        guard bytes.count <= limits.maxJSONDocumentSize else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "The JSON archive has \(bytes.count) bytes; the limit is \(limits.maxJSONDocumentSize) "
                    + "(Limits.maxJSONDocumentSize). Use the binary form for large payloads.")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxDepth: max(1, limits.maxNestingDepth))
        } catch {
            throw archiveError(error, maxDepth: max(1, limits.maxNestingDepth))
        }
        try checkKeyLengths(root, at: .root)
        guard case .object = root, case .string(let format, _)? = root["format"],
            format.elementsEqual(formatName.utf8)
        else {
            throw TransferArchiveError(
                code: .notAnArchive,
                message: "The JSON is not a transfer archive: it needs an object with \"format\": \"\(formatName)\".")
        }
        // Spec section 5.1: each element's exact decimal value is an integer from 0 to 2^64 - 1, however written.
        guard case .array(let version, _)? = root["version"], version.count >= 2,
            case .number(let majorText, _) = version[0], let major = exactUnsigned(majorText),
            case .number(let minorText, _) = version[1], let minor = exactUnsigned(minorText)
        else {
            throw TransferArchiveError(
                code: .malformed,
                message: "The JSON archive's \"version\" is not an array [major, minor] of integers from 0 to "
                    + "18446744073709551615.")
        }
        guard major == UInt64(currentVersion.major) else {
            throw TransferArchiveError(
                code: .unsupportedVersion,
                message: "The archive has major version \(major); this reader knows only major version "
                    + "\(currentVersion.major). Update TransferKit, or ask the sender for version "
                    + "\(currentVersion.major).")
        }
        var declarations: [UniformTypeDeclaration] = []
        if minor >= 1, let value = root[ArchiveDeclarations.key] {
            declarations = try ArchiveDeclarations.readJSON(value, limits: limits)
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
        var archive = TransferArchive(declarations: declarations)
        for (index, item) in items.enumerated() {
            archive.items.append(try decodeJSONItem(item, index: index, limits: limits))
        }
        return (archive, minor)
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
            item.representations.append(
                try decodeJSONRepresentation(representation, itemIndex: index, types: &types, limits: limits))
        }
        return item
    }

    /// Reads one representation in the binary form's order (spec section 8): type, then whether the item already has
    /// it, then the bytes, then the checksum.
    private static func decodeJSONRepresentation(
        _ value: JSONValue, itemIndex: Int, types: inout Set<UniformType>, limits: Limits
    ) throws(TransferArchiveError) -> Representation {
        guard isObject(value), case .string(let identifier, let offset)? = value["type"] else {
            throw malformedJSON("a representation of item \(itemIndex) has no \"type\" string", itemIndex: itemIndex)
        }
        let type = try ArchiveRules.type(fromUTF8: identifier, limits: limits, itemIndex: itemIndex, offset: offset)
        guard types.insert(type).inserted else {
            throw TransferArchiveError(
                code: .duplicateType, message: "Item \(itemIndex) has two representations of \(type).", offset: offset,
                details: .init(itemIndex: itemIndex, type: type))
        }
        let data: Data
        switch (value["text"], value["base64"]) {
        case (.string(let text, _)?, nil):
            data = Data(text)
        case (nil, .string(let base64, let base64Offset)?):
            // Spec section 5.1: padded, and the padding bits zero, so that the bytes have one spelling (RFC 4648
            // section 3.5 lets a decoder reject the others).
            guard base64.count % 4 == 0, let decoded = Data(base64Encoded: Data(base64)),
                decoded.base64EncodedData().elementsEqual(base64)
            else {
                throw TransferArchiveError(
                    code: .invalidBase64,
                    message: "The \(type) representation of item \(itemIndex) is not standard base64 with padding "
                        + "and zero padding bits.", offset: base64Offset,
                    details: .init(itemIndex: itemIndex, type: type))
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
        guard case .number(let checksumText, _)? = value["checksum"], let stored = exactUnsigned(checksumText),
            stored <= UInt64(UInt32.max)
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

    /// The exact value of a JSON number (valid number syntax) when it is an integer from 0 to 2^64 − 1, else `nil`.
    ///
    /// JSON has one number type, so the format's integer fields accept `4`, `4.0`, `4e0` and `-0` alike (spec
    /// section 5.1), as JSON Schema's `integer` does; the decision is made on the decimal text, exactly, never on a
    /// binary64 it may round to (`907060870.00000000001` is not an integer). Writers write `4`. Metadata keeps the
    /// integer/float distinction (`metadataValue`).
    static func exactUnsigned(_ text: [UInt8]) -> UInt64? {
        let digitRange = UInt8(ascii: "0")...UInt8(ascii: "9")
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var fractionLength = 0
        var inFraction = false
        while index < text.count, text[index] != UInt8(ascii: "e"), text[index] != UInt8(ascii: "E") {
            if text[index] == UInt8(ascii: ".") {
                inFraction = true
            } else if digitRange.contains(text[index]) {
                digits.append(text[index] - UInt8(ascii: "0"))
                if inFraction { fractionLength += 1 }
            }
            index += 1
        }
        var exponentText = index < text.count ? Array(text[(index + 1)...]) : []
        let exponentNegative = exponentText.first == UInt8(ascii: "-")
        if exponentText.first == UInt8(ascii: "-") || exponentText.first == UInt8(ascii: "+") {
            exponentText.removeFirst()
        }
        while let first = digits.first, first == 0 { digits.removeFirst() }
        if digits.isEmpty { return 0 }
        guard !negative else { return nil }
        var trailingZeros = 0
        while let last = digits.last, last == 0 {
            digits.removeLast()
            trailingZeros += 1
        }
        while let first = exponentText.first, first == UInt8(ascii: "0") { exponentText.removeFirst() }
        // An exponent of 7 or more digits is far beyond any integer of 20 digits, or is a fraction.
        guard exponentText.count <= 6 else { return nil }
        let exponentMagnitude = exponentText.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        let scale = (exponentNegative ? -exponentMagnitude : exponentMagnitude) - fractionLength + trailingZeros
        guard scale >= 0, digits.count + scale <= 20 else { return nil }
        var value: UInt64 = 0
        for digit in digits + [UInt8](repeating: 0, count: scale) {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    /// Where a JSON value sits, for ``checkKeyLengths(_:at:)``.
    private enum Place { case root, items, item, elsewhere }

    /// Spec section 7: every key outside item metadata has at most 256 bytes (`MapCursor.maxKeyLength`, as in the
    /// binary form); the keys of an item's `metadata` value are bounded by the metadata size instead.
    private static func checkKeyLengths(_ value: JSONValue, at place: Place) throws(TransferArchiveError) {
        switch value {
        case .object(let members, _):
            for (key, member) in members {
                guard key.count <= MapCursor.maxKeyLength else {
                    throw TransferArchiveError(
                        code: .limitExceeded,
                        message: "A key of \(key.count) bytes is longer than \(MapCursor.maxKeyLength), the limit for "
                            + "keys outside metadata.", offset: containerSpan(value)?.lowerBound)
                }
                if place == .item && key.elementsEqual(ArchiveCBOR.metadataKey.utf8) { continue }
                let isItems = place == .root && key.elementsEqual(ArchiveCBOR.itemsKey.utf8)
                try checkKeyLengths(member, at: isItems ? .items : .elsewhere)
            }
        case .array(let elements, _):
            for element in elements {
                try checkKeyLengths(element, at: place == .items ? .item : .elsewhere)
            }
        case .string, .number, .bool, .null:
            break
        }
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
                message: "The JSON archive nests deeper than \(maxDepth) levels (Limits.maxNestingDepth), counting "
                    + "values under keys this reader ignores.", cause: error, offset: error.offset)
        }
    }
}
