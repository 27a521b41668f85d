import CBOR
import UniformTypes

/// The keys of a definite-length map being walked by hand, checked to be text in ascending deterministic order
/// (which also rules out duplicates).
struct MapCursor {
    /// Entries not yet read.
    private(set) var left: UInt64
    /// The previous key's bytes (valid when `hasPrevious`), and the buffer the next key is read into: the two swap
    /// after each key, so walking a map allocates its key buffers once rather than once per key.
    private var previous: [UInt8] = []
    private var current: [UInt8] = []
    private var hasPrevious = false

    /// The longest key outside metadata a reader accepts (spec section 7); every key this version knows is far
    /// shorter.
    static let maxKeyLength = 256

    init(count: UInt64) {
        left = count
    }

    /// Reads the next key, or returns `nil` when the map has no more entries; the caller then reads its value.
    mutating func nextKey(_ cbor: inout CBORReader) throws(TransferArchiveError) -> String? {
        guard left > 0 else { return nil }
        left -= 1
        let offset = cbor.offset
        try Self.readKey(&cbor, into: &current)
        if hasPrevious, !ArchiveCBOR.keyPrecedes(previous, current) {
            throw TransferArchiveError(
                code: .malformed,
                message:
                    "The archive is malformed: map keys must be unique and in deterministic order (RFC 8949 §4.2.1), "
                    + "but \(String(reflecting: String(decoding: current, as: UTF8.self))) follows "
                    + "\(String(reflecting: String(decoding: previous, as: UTF8.self))).", offset: offset)
        }
        swap(&previous, &current)
        hasPrevious = true
        return String(decoding: previous, as: UTF8.self)
    }

    /// Reads a text key of at most ``maxKeyLength`` valid UTF-8 bytes into `bytes`, replacing what it held.
    static func readKey(_ cbor: inout CBORReader, into bytes: inout [UInt8]) throws(TransferArchiveError) {
        let offset = cbor.offset
        let head: CBORHead
        do {
            head = try cbor.readHead()
        } catch {
            throw TransferArchiveReader.convert(error)
        }
        guard head.majorType == .textString, let length = head.length else {
            throw TransferArchiveError(
                code: .malformed, message: "The archive is malformed: a map key is not a text string.", offset: offset)
        }
        guard length <= UInt64(maxKeyLength) else {
            throw TransferArchiveError(
                code: .limitExceeded, message: "A map key of \(length) bytes is longer than \(maxKeyLength).",
                offset: offset)
        }
        do {
            try cbor.readBytes(count: Int(length), into: &bytes)
        } catch {
            throw TransferArchiveReader.convert(error)
        }
        // Every key the format defines is ASCII; anything else is checked in full.
        guard bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil else {
            throw TransferArchiveError(code: .invalidUTF8, message: "A map key is not valid UTF-8.", offset: offset)
        }
    }
}

extension CBORReader {
    /// The next head, with the CBOR module's errors given as the archive's.
    mutating func archiveHead() throws(TransferArchiveError) -> CBORHead {
        do {
            return try readHead()
        } catch {
            throw TransferArchiveReader.convert(error)
        }
    }

    /// Reads `count` bytes into `bytes`, with the CBOR module's errors given as the archive's.
    mutating func archiveBytes(count: Int, into bytes: inout [UInt8]) throws(TransferArchiveError) {
        do {
            try readBytes(count: count, into: &bytes)
        } catch {
            throw TransferArchiveReader.convert(error)
        }
    }
}

extension ArchiveCBOR {
    /// Whether encoded text key `a` sorts before `b`: shorter first, then bytewise.
    static func keyPrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
    }
}

/// The archive's header, up to the head of the items array.
struct ArchiveHeader {
    var major = 0
    var minor: UInt64 = 0
    var itemCount = 0
    var bodyKeys = MapCursor(count: 0)
    var archiveElementsLeft: UInt64 = 0
    /// The type declarations (spec section 3.6), read only from an archive of minor version 1 or later.
    var declarations: [UniformTypeDeclaration] = []

    static func read(_ cbor: inout CBORReader, limits: TransferArchive.Limits) throws(TransferArchiveError) -> Self {
        var header = ArchiveHeader()
        let notAnArchive = TransferArchiveError(
            code: .notAnArchive,
            message:
                "The input is not a binary transfer archive: it must start with the CBOR self-describe tag (d9 d9 f7) "
                + "and an array holding \"\(TransferArchive.formatName)\". Check the file, or read it as JSON.",
            offset: 0)
        do {
            guard try !cbor.isAtEnd() else { throw notAnArchive }
        } catch let error as CBORError {
            throw TransferArchiveReader.convert(error)
        } catch {
            throw notAnArchive
        }
        let tag = try head(&cbor)
        guard tag.majorType == .tag, tag.argument == CBORValue.selfDescribedTag else { throw notAnArchive }
        // Spec section 4.1: the tag's content must be an array whose first element is the format name, or the input
        // is some other CBOR (notAnArchive); only then do the array's length and the rest count (malformed).
        let array = try head(&cbor)
        guard array.majorType == .array, let count = array.length, count > 0 else { throw notAnArchive }
        // Decided at the first element's head: only a text string of the name's length can be the name, so the input
        // is another format even if it ends before that string would (spec section 2).
        let nameHead = try head(&cbor)
        guard nameHead.majorType == .textString, let nameLength = nameHead.length,
            nameLength == UInt64(TransferArchive.formatName.utf8.count)
        else {
            throw notAnArchive
        }
        var name: [UInt8] = []
        do {
            try cbor.readBytes(count: Int(nameLength), into: &name)
        } catch {
            throw TransferArchiveReader.convert(error)
        }
        guard name.elementsEqual(TransferArchive.formatName.utf8) else { throw notAnArchive }
        guard count >= 3 else {
            throw TransferArchiveError(
                code: .malformed, message: "The archive's top-level array has \(count) elements; it needs 3.",
                offset: cbor.offset)
        }
        let versionOffset = cbor.offset
        let versionHead = try head(&cbor)
        guard versionHead.majorType == .array, let versionCount = versionHead.length, versionCount >= 2 else {
            throw TransferArchiveError(
                code: .malformed, message: "The archive's version is not an array [major, minor].",
                offset: versionOffset)
        }
        let majorHead = try head(&cbor)
        let minorHead = try head(&cbor)
        guard majorHead.majorType == .unsignedInteger, minorHead.majorType == .unsignedInteger else {
            throw TransferArchiveError(
                code: .malformed, message: "The archive's version numbers are not unsigned integers.",
                offset: versionOffset)
        }
        guard majorHead.argument == UInt64(TransferArchive.currentVersion.major) else {
            throw TransferArchiveError(
                code: .unsupportedVersion,
                message: "The archive has major version \(majorHead.argument); this reader knows only major version "
                    + "\(TransferArchive.currentVersion.major). Update TransferKit, or ask the sender for version "
                    + "\(TransferArchive.currentVersion.major).", offset: versionOffset)
        }
        for _ in 2..<versionCount {
            try skip(&cbor, parentLevel: 2, limits: limits)
        }
        header.major = Int(majorHead.argument)
        header.minor = minorHead.argument
        let bodyOffset = cbor.offset
        let body = try head(&cbor)
        guard body.majorType == .map, let bodyCount = body.length else {
            throw TransferArchiveError(
                code: .malformed, message: "The archive's body is not a map.", offset: bodyOffset)
        }
        header.bodyKeys = MapCursor(count: bodyCount)
        while true {
            guard let key = try header.bodyKeys.nextKey(&cbor) else {
                throw TransferArchiveError(
                    code: .malformed, message: "The archive's body has no \"items\" key.", offset: cbor.offset)
            }
            if key == ArchiveDeclarations.key, header.minor >= 1 {
                header.declarations = try CBORDeclarationsReader.read(&cbor, limits: limits)
                continue
            }
            guard key == ArchiveCBOR.itemsKey else {
                try skip(&cbor, parentLevel: 2, limits: limits)
                continue
            }
            let itemsOffset = cbor.offset
            let items = try head(&cbor)
            guard items.majorType == .array, let itemCount = items.length else {
                throw TransferArchiveError(
                    code: .malformed, message: "The archive's items are not an array.", offset: itemsOffset)
            }
            guard itemCount <= UInt64(max(0, limits.maxItemCount)) else {
                throw TransferArchiveError(
                    code: .limitExceeded,
                    message: "The archive declares \(itemCount) items; the limit is \(limits.maxItemCount) "
                        + "(Limits.maxItemCount).", offset: itemsOffset)
            }
            header.itemCount = Int(itemCount)
            break
        }
        header.archiveElementsLeft = count - 3
        return header
    }

    private static func head(_ cbor: inout CBORReader) throws(TransferArchiveError) -> CBORHead {
        try cbor.archiveHead()
    }

    /// Skips a value the reader ignores, holding it to every rule of the encoding (spec sections 4.2 and 6) and to
    /// the nesting limit counted from the top (section 7): `parentLevel` is the level of the array or map holding it.
    static func skip(
        _ cbor: inout CBORReader, parentLevel: Int, limits: TransferArchive.Limits
    ) throws(TransferArchiveError) {
        cbor.limits.maxNestingDepth = max(0, limits.maxNestingDepth - parentLevel)
        // The keys of ignored maps are built to check their order; they are bounded like the archive's own keys.
        cbor.limits.maxStringLength = MapCursor.maxKeyLength
        do {
            try cbor.skipValue()
        } catch let error where error.code == .nestingTooDeep {
            // The CBOR reader counts from the ignored value; name the limit of the whole input, as the text reader does.
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "The archive nests deeper than \(limits.maxNestingDepth) levels (Limits.maxNestingDepth), "
                    + "counting values under keys this reader ignores.", cause: error, offset: error.offset)
        } catch {
            throw TransferArchiveReader.convert(error)
        }
    }
}

/// Reads one item's metadata from CBOR, counting its bytes and depth as it goes, so no declared size is trusted.
struct MetadataReader {
    let limits: TransferArchive.Limits
    let itemIndex: Int
    /// The offset where the metadata starts.
    let start: Int

    func readValue(_ cbor: inout CBORReader, depth: Int) throws(TransferArchiveError) -> TransferMetadataValue {
        let offset = cbor.offset
        let head = try cbor.archiveHead()
        try checkSize(cbor.offset)
        // The item's metadata map is at level 5 of the whole input (array, body, items, item): both limits hold, the
        // metadata's first (spec section 7), and the message names the one that was passed.
        if head.majorType == .array || head.majorType == .map {
            if depth > limits.maxMetadataDepth {
                throw error(
                    .limitExceeded,
                    "Item \(itemIndex)'s metadata nests deeper than \(limits.maxMetadataDepth) levels "
                        + "(Limits.maxMetadataDepth).",
                    offset)
            }
            if depth + 4 > limits.maxNestingDepth {
                throw error(
                    .limitExceeded,
                    "The archive nests deeper than \(limits.maxNestingDepth) levels (Limits.maxNestingDepth) in item "
                        + "\(itemIndex)'s metadata.",
                    offset)
            }
        }
        switch head.majorType {
        case .unsignedInteger:
            guard let value = Int64(exactly: head.argument) else {
                throw error(.unrepresentableValue, "A metadata integer \(head.argument) does not fit in Int64.", offset)
            }
            return .integer(value)
        case .negativeInteger:
            guard let value = Int64(exactly: head.argument) else {
                throw error(.unrepresentableValue, "A negative metadata integer does not fit in Int64.", offset)
            }
            return .integer(~value)
        case .textString:
            return .string(try readText(&cbor, head: head, offset: offset))
        case .array:
            guard let count = head.length else { throw error(.malformed, "An indefinite array in metadata.", offset) }
            var array: [TransferMetadataValue] = []
            for _ in 0..<count {
                array.append(try readValue(&cbor, depth: depth + 1))
            }
            return .array(array)
        case .map:
            guard let count = head.length else { throw error(.malformed, "An indefinite map in metadata.", offset) }
            var dictionary: [String: TransferMetadataValue] = [:]
            var previous: [UInt8]?
            for _ in 0..<count {
                let keyOffset = cbor.offset
                let keyHead = try cbor.archiveHead()
                guard keyHead.majorType == .textString else {
                    throw error(.malformed, "A metadata map key is not a text string.", keyOffset)
                }
                let key = try readText(&cbor, head: keyHead, offset: keyOffset)
                let keyBytes = Array(key.utf8)
                if let previous, !ArchiveCBOR.keyPrecedes(previous, keyBytes) {
                    throw error(
                        .malformed, "Metadata map keys must be unique and in deterministic order (RFC 8949 §4.2.1).",
                        keyOffset)
                }
                previous = keyBytes
                let value = try readValue(&cbor, depth: depth + 1)
                try ArchiveRules.insert(value, forKey: key, into: &dictionary, itemIndex: itemIndex, offset: keyOffset)
            }
            return .dictionary(dictionary)
        case .simpleOrFloat:
            switch head.additionalInformation {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 25: return .double(Self.half(UInt16(truncatingIfNeeded: head.argument)))
            case 26: return .double(Double(Float(bitPattern: UInt32(truncatingIfNeeded: head.argument))))
            case 27: return .double(Double(bitPattern: head.argument))
            default:
                throw error(
                    .malformed,
                    "Metadata values are strings, integers, floats, Booleans, arrays and maps; null, undefined and "
                        + "other simple values are not allowed.",
                    offset)
            }
        case .byteString, .tag:
            throw error(
                .malformed,
                "Metadata values are strings, integers, floats, Booleans, arrays and maps, not \(head.majorType).",
                offset)
        }
    }

    private func readText(_ cbor: inout CBORReader, head: CBORHead, offset: Int) throws(TransferArchiveError) -> String
    {
        guard let length = head.length else { throw error(.malformed, "An indefinite string in metadata.", offset) }
        guard length <= UInt64(max(0, limits.maxMetadataSize - (cbor.offset - start))) else {
            throw sizeExceeded(offset)
        }
        var bytes: [UInt8] = []
        do {
            try cbor.readBytes(count: Int(length), into: &bytes)
        } catch {
            throw TransferArchiveReader.convert(error)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw error(.invalidUTF8, "A metadata string is not valid UTF-8.", offset)
        }
        return text
    }

    private func checkSize(_ offset: Int) throws(TransferArchiveError) {
        if offset - start > limits.maxMetadataSize {
            throw sizeExceeded(offset)
        }
    }

    private func sizeExceeded(_ offset: Int) -> TransferArchiveError {
        error(
            .limitExceeded,
            "Item \(itemIndex)'s metadata is larger than \(limits.maxMetadataSize) bytes (Limits.maxMetadataSize).",
            offset)
    }

    private func error(_ code: TransferArchiveError.Code, _ message: String, _ offset: Int) -> TransferArchiveError {
        TransferArchiveError(code: code, message: message, offset: offset, details: .init(itemIndex: itemIndex))
    }

    /// An IEEE 754 half-precision value as a `Double`.
    static func half(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 == 0 ? 1 : -1
        let exponent = Int((bits >> 10) & 0x1f)
        let fraction = Double(bits & 0x3ff)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }
}
