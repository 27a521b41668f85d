import CBOR
import TransferChecksum
public import UniformTypes

/// Reads the binary form of a transfer archive front to back, streaming payloads with constant memory.
///
/// The header (format name and version) is read and checked when the reader is made. Then pull items and
/// their representations in order, and read or skip each payload:
///
/// ```swift
/// var reader = try TransferArchiveReader(fileDescriptor: input.fileDescriptor)
/// while let item = try reader.nextItem() {
///     while let representation = try reader.nextRepresentation() {
///         try reader.readPayload(progress: progress) { chunk in try output.write(contentsOf: chunk) }
///     }
/// }
/// ```
///
/// Payloads arrive in chunks of at most ``chunkSize`` bytes through one reused buffer; the CRC-32 is computed on
/// the way and checked when the payload ends, so a mismatch is reported after the last chunk (with
/// `TransferArchiveError.Code.checksumMismatch` naming the item and type). Skipped payloads and representations
/// are still checked. Unknown map keys are skipped at every level; the input must be in the deterministic
/// encoding the CDDL describes (RFC 8949 §4.2.1), which is also what puts `type` before `payload` and `checksum`
/// after it. After the last item the reader checks that nothing follows the archive, which on a pipe waits for
/// the writer to close it.
///
/// After an error the reader is failed, and later calls throw `TransferArchiveError.Code.malformed`.
///
/// Not `Sendable`: it owns a position in its input; make it in the task that reads.
public struct TransferArchiveReader: ~Copyable {
    /// An item's header: everything but its representations.
    public struct ItemHeader: Sendable, Hashable {
        /// The item's position in the archive, from 0.
        public var index: Int
        /// A file name without folders, or `nil`.
        public var suggestedName: String?
        /// Small values that travel with the item.
        public var metadata: [String: TransferMetadataValue]
        /// How many representations follow.
        public var representationCount: Int
    }

    /// A representation's header: what comes before its payload.
    public struct RepresentationHeader: Sendable, Hashable {
        /// The index of the item it belongs to.
        public var itemIndex: Int
        /// Its position in the item, from 0 (fidelity order).
        public var index: Int
        /// The type of the payload.
        public var type: UniformType
        /// The payload's length in bytes, as declared; checked against ``TransferArchive/Limits/maxPayloadLength``.
        public var length: UInt64
    }

    /// The archive's version, read from its header (a minor version above `Int.max` is given as `Int.max`).
    public let version: (major: Int, minor: Int)
    /// The declarations of types the items use that the archive carries (format 1.1), read with the header, before
    /// the first item: use them for the choices you make while you read, through
    /// `TypeCatalog.addingCarriedDeclarations(_:)`. Empty for an archive that carries none (every 1.0 archive).
    public let declarations: [UniformTypeDeclaration]
    /// The archive's minor version exactly: any integer from 0 to 2^64 − 1 (spec section 6).
    package let minorVersion: UInt64
    /// How many items the archive declares.
    public let itemCount: Int
    /// The largest chunk ``readPayload(progress:_:)`` delivers.
    public let chunkSize: Int
    /// The limits checked as values are read.
    public let limits: TransferArchive.Limits

    private var cbor: CBORReader
    /// The input's size when it is in memory, to check declared lengths against.
    private let inputSize: Int?
    private var chunk: [UInt8] = []
    private var failed = false

    private var nextItemIndex = 0
    private var bodyKeys: MapCursor
    private var archiveElementsLeft: UInt64

    private var item: ItemHeader?
    private var itemKeys = MapCursor(count: 0)
    private var representationsLeft = 0
    private var nextRepresentationIndex = 0
    private var itemTypes: Set<UniformType> = []
    /// The last type identifier read and its type: the items of an archive usually share their types, and making a
    /// type from its identifier is a good part of a small item's cost.
    private var lastType: (utf8: [UInt8], type: UniformType)?

    private var representation: RepresentationHeader?
    private var representationKeys = MapCursor(count: 0)
    private var payloadPending = false

    /// A reader over an open file descriptor (a file, a pipe, a socket), which it neither owns nor closes.
    /// - Parameters:
    ///   - fileDescriptor: Where the archive comes from.
    ///   - limits: What to accept; ``TransferArchive/Limits/default`` unless given.
    ///   - chunkSize: The largest chunk a payload is delivered in; 1 MiB by default.
    /// - Throws: ``TransferArchiveError`` if the header is not that of a supported archive.
    public init(
        fileDescriptor: Int32, limits: TransferArchive.Limits = .default, chunkSize: Int = 1 << 20
    ) throws(TransferArchiveError) {
        let source = CBORFileDescriptorSource(fileDescriptor: fileDescriptor)
        try self.init(
            cbor: CBORReader(
                source: source, limits: .default, requireDeterministic: true, bufferSize: max(4096, chunkSize)),
            inputSize: nil, limits: limits, chunkSize: chunkSize)
    }

    /// A reader over an open file descriptor whose first bytes were already read from it (to tell the archive's form
    /// on a pipe, which cannot be peeked at): `prefix` is read first, then the descriptor.
    package init(
        fileDescriptor: Int32, prefix: [UInt8], limits: TransferArchive.Limits = .default, chunkSize: Int = 1 << 20
    ) throws(TransferArchiveError) {
        let source = PrefixedSource(prefix: prefix, rest: CBORFileDescriptorSource(fileDescriptor: fileDescriptor))
        try self.init(
            cbor: CBORReader(
                source: source, limits: .default, requireDeterministic: true, bufferSize: max(4096, chunkSize)),
            inputSize: nil, limits: limits, chunkSize: chunkSize)
    }

    /// A reader over an archive in memory.
    /// - Parameters:
    ///   - bytes: The whole archive.
    ///   - limits: What to accept; ``TransferArchive/Limits/default`` unless given.
    ///   - chunkSize: The largest chunk a payload is delivered in; 1 MiB by default.
    /// - Throws: ``TransferArchiveError`` if the header is not that of a supported archive.
    public init(
        bytes: [UInt8], limits: TransferArchive.Limits = .default, chunkSize: Int = 1 << 20
    ) throws(TransferArchiveError) {
        try self.init(
            cbor: CBORReader(bytes: bytes, limits: .default, requireDeterministic: true),
            inputSize: bytes.count, limits: limits, chunkSize: chunkSize)
    }

    private init(
        cbor: CBORReader, inputSize: Int?, limits: TransferArchive.Limits, chunkSize: Int
    ) throws(TransferArchiveError) {
        var cbor = cbor
        let header = try ArchiveHeader.read(&cbor, limits: limits)
        self.cbor = cbor
        self.inputSize = inputSize
        self.limits = limits
        self.chunkSize = max(1, chunkSize)
        version = (header.major, Int(clamping: header.minor))
        minorVersion = header.minor
        itemCount = header.itemCount
        declarations = header.declarations
        bodyKeys = header.bodyKeys
        archiveElementsLeft = header.archiveElementsLeft
    }

    /// Moves to the next item, skipping (and checking) whatever is left of the current one.
    /// - Returns: The item's header, or `nil` after the last item, once the end of the archive is checked.
    /// - Throws: ``TransferArchiveError`` for damaged or hostile input, including a checksum mismatch in a skipped
    ///   representation.
    public mutating func nextItem() throws(TransferArchiveError) -> ItemHeader? {
        try guarded { (reader: inout Self) throws(TransferArchiveError) in try reader.advanceItem() }
    }

    /// Moves to the next representation of the current item, skipping (and checking) the current one's payload
    /// if it was not read.
    /// - Returns: The representation's header, or `nil` when the item has no more (or no item is current).
    /// - Throws: ``TransferArchiveError`` for damaged or hostile input.
    public mutating func nextRepresentation() throws(TransferArchiveError) -> RepresentationHeader? {
        try guarded { (reader: inout Self) throws(TransferArchiveError) in try reader.advanceRepresentation() }
    }

    /// Streams the current representation's payload to `chunk` in pieces of at most ``chunkSize`` bytes, then
    /// checks its CRC-32.
    ///
    /// - Parameters:
    ///   - progress: Told the payload's length, then each chunk's size; when it reports
    ///     ``TransferArchiveProgressReporting/isCancelled`` it stops the read with
    ///     `TransferArchiveError.Code.cancelled`.
    ///   - chunk: Receives the bytes; the buffer is reused, so copy what you keep. What it throws is wrapped as
    ///     `TransferArchiveError.Code.ioFailed` unless it is a ``TransferArchiveError``.
    /// - Throws: `TransferArchiveError.Code.checksumMismatch` (after the last chunk) naming the item and type,
    ///   `TransferArchiveError.Code.truncated`, `TransferArchiveError.Code.countMismatch` when no payload is
    ///   pending, and others for damaged input.
    /// - Returns: The payload's CRC-32, verified against the archive.
    @discardableResult
    public mutating func readPayload(
        progress: (any TransferArchiveProgressReporting)? = nil, _ chunk: (UnsafeRawBufferPointer) throws -> Void
    ) throws(TransferArchiveError) -> UInt32 {
        try guarded { (reader: inout Self) throws(TransferArchiveError) in
            try reader.streamPayload(progress: progress, deliver: chunk)
        }
    }

    /// Skips the current representation's payload, still checking its CRC-32.
    /// - Throws: `TransferArchiveError.Code.checksumMismatch`, `TransferArchiveError.Code.countMismatch`
    ///   when no payload is pending, and others for damaged input.
    /// - Returns: The payload's CRC-32, verified against the archive.
    @discardableResult
    public mutating func skipPayload() throws(TransferArchiveError) -> UInt32 {
        try readPayload { _ in }
    }

    /// Where the current representation's payload starts, counted from the first byte the reader read; `nil` when no
    /// payload is pending. A binary archive's payloads are definite-length byte strings, so the payload is the
    /// ``RepresentationHeader/length`` bytes from there: a reader of a regular file can serve them later with
    /// `pread`, without copying them.
    package var payloadOffset: Int? {
        payloadPending ? cbor.offset : nil
    }
}

extension TransferArchiveReader {
    private mutating func guarded<T>(
        _ body: (inout Self) throws(TransferArchiveError) -> T
    ) throws(TransferArchiveError) -> T {
        guard !failed else {
            throw TransferArchiveError(
                code: .malformed, message: "An earlier call failed; the reader cannot continue past an error.")
        }
        do {
            return try body(&self)
        } catch {
            failed = true
            var located = error
            located.itemIndex = located.itemIndex ?? item?.index
            located.type = located.type ?? representation?.type
            throw located
        }
    }

    private mutating func advanceItem() throws(TransferArchiveError) -> ItemHeader? {
        if item != nil {
            while try advanceRepresentation() != nil {}
            while let key = try itemKeys.nextKey(&cbor) {
                _ = key
                try skipValue(parentLevel: 4)
            }
            item = nil
        }
        guard nextItemIndex < itemCount else {
            try finishArchive()
            return nil
        }
        let index = nextItemIndex
        nextItemIndex += 1
        let mapHead = try readHead()
        guard mapHead.majorType == .map, let count = mapHead.length else {
            throw malformed("item \(index) is not a map", itemIndex: index)
        }
        itemKeys = MapCursor(count: count)
        var header = ItemHeader(index: index, suggestedName: nil, metadata: [:], representationCount: 0)
        while true {
            guard let key = try itemKeys.nextKey(&cbor) else {
                throw malformed("item \(index) has no \"representations\" key", itemIndex: index)
            }
            switch key {
            case ArchiveCBOR.nameKey:
                let offset = cbor.offset
                let bytes = try readText(maxLength: limits.maxNameLength, what: "a suggested name")
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    throw TransferArchiveError(
                        code: .invalidUTF8, message: "Item \(index)'s name is not valid UTF-8.", offset: offset,
                        details: .init(itemIndex: index))
                }
                try ArchiveRules.checkName(name, itemIndex: index, offset: offset)
                header.suggestedName = name
            case ArchiveCBOR.metadataKey:
                header.metadata = try readMetadata(itemIndex: index)
            case ArchiveCBOR.representationsKey:
                let offset = cbor.offset
                let arrayHead = try readHead()
                guard arrayHead.majorType == .array, let count = arrayHead.length else {
                    throw malformed("item \(index)'s representations are not an array", itemIndex: index)
                }
                guard count <= UInt64(max(0, limits.maxRepresentationsPerItem)) else {
                    throw TransferArchiveError(
                        code: .limitExceeded,
                        message: "Item \(index) has \(count) representations; the limit is "
                            + "\(limits.maxRepresentationsPerItem) (Limits.maxRepresentationsPerItem).", offset: offset,
                        details: .init(itemIndex: index))
                }
                header.representationCount = Int(count)
                representationsLeft = Int(count)
                nextRepresentationIndex = 0
                if !itemTypes.isEmpty { itemTypes.removeAll(keepingCapacity: true) }
                item = header
                return header
            default:
                try skipValue(parentLevel: 4)
            }
        }
    }

    private mutating func advanceRepresentation() throws(TransferArchiveError) -> RepresentationHeader? {
        if representation != nil {
            if payloadPending {
                try streamPayload(progress: nil) { _ in }
            }
        }
        guard let item, representationsLeft > 0 else { return nil }
        let index = nextRepresentationIndex
        let mapHead = try readHead()
        guard mapHead.majorType == .map, let count = mapHead.length else {
            throw malformed("representation \(index) of item \(item.index) is not a map", itemIndex: item.index)
        }
        representationKeys = MapCursor(count: count)
        var type: UniformType?
        while true {
            guard let key = try representationKeys.nextKey(&cbor) else {
                throw malformed(
                    "representation \(index) of item \(item.index) has no \(type == nil ? "\"type\"" : "\"payload\"")",
                    itemIndex: item.index, type: type)
            }
            switch key {
            case ArchiveCBOR.typeKey:
                let offset = cbor.offset
                // The format's own bound comes first (invalidIdentifier); ArchiveRules then applies the reader's limit.
                let bytes = try readText(maxLength: 255, what: "a type identifier", tooLong: .invalidIdentifier)
                let read: UniformType
                if let lastType, lastType.utf8 == bytes {
                    read = lastType.type
                } else {
                    read = try ArchiveRules.type(fromUTF8: bytes, limits: limits, itemIndex: item.index, offset: offset)
                    lastType = (bytes, read)
                }
                // An item of one representation cannot repeat a type: no set to fill.
                guard item.representationCount == 1 || itemTypes.insert(read).inserted else {
                    throw TransferArchiveError(
                        code: .duplicateType, message: "Item \(item.index) has two representations of \(read).",
                        offset: offset, details: .init(itemIndex: item.index, type: read))
                }
                type = read
            case ArchiveCBOR.payloadKey:
                guard let type else {
                    throw malformed(
                        "representation \(index) of item \(item.index) has a payload before its type",
                        itemIndex: item.index)
                }
                let offset = cbor.offset
                let head = try readHead()
                guard head.majorType == .byteString, let length = head.length else {
                    throw malformed("the payload of \(type) is not a byte string", itemIndex: item.index, type: type)
                }
                guard length <= limits.maxPayloadLength else {
                    throw TransferArchiveError(
                        code: .limitExceeded,
                        message:
                            "The payload of \(type) declares \(length) bytes; the limit is \(limits.maxPayloadLength) "
                            + "(Limits.maxPayloadLength).", offset: offset,
                        details: .init(itemIndex: item.index, type: type))
                }
                if let inputSize, length > UInt64(inputSize - cbor.offset) {
                    throw TransferArchiveError(
                        code: .truncated,
                        message:
                            "The payload of \(type) declares \(length) bytes but only \(inputSize - cbor.offset) are left.",
                        offset: offset, details: .init(itemIndex: item.index, type: type))
                }
                let header = RepresentationHeader(itemIndex: item.index, index: index, type: type, length: length)
                representation = header
                payloadPending = true
                nextRepresentationIndex += 1
                representationsLeft -= 1
                return header
            default:
                try skipValue(parentLevel: 6)
            }
        }
    }

    @discardableResult
    private mutating func streamPayload(
        progress: (any TransferArchiveProgressReporting)?, deliver: (UnsafeRawBufferPointer) throws -> Void
    ) throws(TransferArchiveError) -> UInt32 {
        guard let header = representation, payloadPending else {
            throw TransferArchiveError(
                code: .countMismatch,
                message: "No payload is pending: call nextRepresentation() first, and read each payload once.")
        }
        payloadPending = false
        progress?.willTransfer(byteCount: header.length)
        var buffer: [UInt8] = []
        swap(&buffer, &chunk)
        defer { swap(&buffer, &chunk) }
        let largestChunk = Int(min(header.length, UInt64(chunkSize)))
        if buffer.count < largestChunk {
            buffer = [UInt8](repeating: 0, count: largestChunk)
        }
        var crc = CRC32()
        var remaining = header.length
        while remaining > 0 {
            if let progress, progress.isCancelled {
                throw TransferArchiveError(
                    code: .cancelled, message: "Reading \(header.type) was cancelled by its progress reporter.")
            }
            let count = Int(min(remaining, UInt64(chunkSize)))
            // One read from the input into the chunk, the checksum over it there, and the chunk handed on: no copy
            // between reading and delivering.
            let outcome: Result<Void, TransferArchiveError> = buffer.withUnsafeMutableBytes { storage in
                let bytes = UnsafeMutableRawBufferPointer(rebasing: storage[..<count])
                let received: Int
                do throws(CBORError) {
                    received = try cbor.readBytes(into: bytes)
                } catch {
                    return .failure(Self.convert(error))
                }
                guard received == count else {
                    let available = header.length - remaining + UInt64(received)
                    return .failure(
                        TransferArchiveError(
                            code: .truncated,
                            message: "The input ends \(available) bytes into the \(header.length)-byte payload of "
                                + "\(header.type) (\(header.length - available) bytes missing): the archive was cut "
                                + "short or its length field is damaged.",
                            offset: cbor.offset))
                }
                crc.update(UnsafeRawBufferPointer(bytes))
                do {
                    try deliver(UnsafeRawBufferPointer(bytes))
                    return .success(())
                } catch let error as TransferArchiveError {
                    return .failure(error)
                } catch {
                    return .failure(
                        TransferArchiveError(
                            code: .ioFailed, message: "The payload's consumer failed: \(error).", cause: error))
                }
            }
            try outcome.get()
            remaining -= UInt64(count)
            progress?.didTransfer(byteCount: count)
        }
        try finishRepresentation(header, checksum: crc.value)
        return crc.value
    }

    private mutating func finishRepresentation(
        _ header: RepresentationHeader, checksum: UInt32
    ) throws(TransferArchiveError) {
        var stored: UInt64?
        while let key = try representationKeys.nextKey(&cbor) {
            if key == ArchiveCBOR.checksumKey {
                let head = try readHead()
                guard head.majorType == .unsignedInteger, head.argument <= UInt64(UInt32.max) else {
                    throw malformed("the checksum of \(header.type) is not an unsigned 32-bit integer")
                }
                stored = head.argument
            } else {
                try skipValue(parentLevel: 6)
            }
        }
        guard let stored else {
            throw malformed("the representation of \(header.type) has no \"checksum\"")
        }
        guard stored == UInt64(checksum) else {
            let name = item?.suggestedName.map { " (\(String(reflecting: $0)))" } ?? ""
            throw TransferArchiveError(
                code: .checksumMismatch,
                message: "The \(header.type) representation of item \(header.itemIndex)\(name) has CRC-32 "
                    + "\(Self.hex(checksum)) but the archive records \(Self.hex(UInt32(stored))): the archive was "
                    + "damaged or edited. Get a fresh copy from the sender.", offset: cbor.offset,
                details: .init(itemIndex: header.itemIndex, type: header.type))
        }
        representation = nil
    }

    private mutating func finishArchive() throws(TransferArchiveError) {
        while try bodyKeys.nextKey(&cbor) != nil {
            try skipValue(parentLevel: 2)
        }
        while archiveElementsLeft > 0 {
            try skipValue(parentLevel: 1)
            archiveElementsLeft -= 1
        }
        let atEnd: Bool
        do {
            atEnd = try cbor.isAtEnd()
        } catch {
            throw Self.convert(error)
        }
        guard atEnd else {
            throw malformed("bytes follow the end of the archive")
        }
    }
}

extension TransferArchiveReader {
    private mutating func readHead() throws(TransferArchiveError) -> CBORHead {
        do {
            return try cbor.readHead()
        } catch {
            throw Self.convert(error)
        }
    }

    /// Skips a value under a key this reader ignores; `parentLevel` is the nesting level of the map holding it.
    private mutating func skipValue(parentLevel: Int) throws(TransferArchiveError) {
        try ArchiveHeader.skip(&cbor, parentLevel: parentLevel, limits: limits)
    }

    /// Reads a definite text string of at most `maxLength` bytes, without checking its UTF-8.
    private mutating func readText(
        maxLength: Int, what: String, tooLong: TransferArchiveError.Code = .limitExceeded
    ) throws(TransferArchiveError) -> [UInt8] {
        let offset = cbor.offset
        let head = try readHead()
        guard head.majorType == .textString, let length = head.length else {
            throw malformed("\(what) is not a text string")
        }
        guard length <= UInt64(max(0, maxLength)) else {
            throw TransferArchiveError(
                code: tooLong, message: "\(what) of \(length) bytes is longer than the limit of \(maxLength).",
                offset: offset)
        }
        var bytes: [UInt8] = []
        do {
            try cbor.readBytes(count: Int(length), into: &bytes)
        } catch {
            throw Self.convert(error)
        }
        return bytes
    }

    private mutating func readMetadata(itemIndex: Int) throws(TransferArchiveError) -> [String: TransferMetadataValue] {
        let start = cbor.offset
        let metadata = MetadataReader(limits: limits, itemIndex: itemIndex, start: start)
        guard case .dictionary(let dictionary) = try metadata.readValue(&cbor, depth: 1) else {
            throw TransferArchiveError(
                code: .malformed, message: "Item \(itemIndex)'s metadata is not a map.", offset: start,
                details: .init(itemIndex: itemIndex))
        }
        return dictionary
    }

    private func malformed(
        _ what: String, itemIndex: Int? = nil, type: UniformType? = nil
    ) -> TransferArchiveError {
        TransferArchiveError(
            code: .malformed,
            message: "The archive is malformed: \(what). Check that it was written by a TransferKit archive writer.",
            offset: cbor.offset, details: .init(itemIndex: itemIndex, type: type))
    }

    static func convert(_ error: CBORError) -> TransferArchiveError {
        let code: TransferArchiveError.Code =
            switch error.code {
            case .truncated: .truncated
            case .limitExceeded, .nestingTooDeep: .limitExceeded
            case .invalidUTF8: .invalidUTF8
            case .readFailed: .ioFailed
            default: .malformed
            }
        // A failed read is the system's problem, not damage in the archive.
        let message =
            code == .ioFailed
            ? "Reading the archive failed: \(error.message)"
            : "The archive's CBOR is damaged: \(error.message)."
        return TransferArchiveError(code: code, message: message, cause: error, offset: error.offset)
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// Bytes already taken from a descriptor, then the descriptor itself.
private struct PrefixedSource: CBORByteSource {
    var prefix: [UInt8]
    var position = 0
    var rest: CBORFileDescriptorSource

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard position < prefix.count else { return try rest.read(into: buffer) }
        let count = min(buffer.count, prefix.count - position)
        prefix.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)]))
        }
        position += count
        return count
    }
}
