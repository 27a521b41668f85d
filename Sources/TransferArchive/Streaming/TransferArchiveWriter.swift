import CBOR
import TransferChecksum
import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes the binary form of a transfer archive front to back, streaming payloads with constant memory.
///
/// Promise the counts first, then write each item's header and its representations, then finish:
///
/// ```swift
/// var writer = TransferArchiveWriter(fileDescriptor: output.fileDescriptor)
/// try writer.begin(itemCount: 1)
/// try writer.beginItem(suggestedName: "movie.mov", metadata: ["source": "camera"], representationCount: 2)
/// try writer.writeRepresentation(type: .quickTimeMovie, length: size, from: input.fileDescriptor, progress: progress)
/// try writer.writeRepresentation(type: .jpeg, data: thumbnail)
/// try writer.finish()
/// ```
///
/// The output is the deterministic encoding that ``TransferArchive/encoded(as:)`` gives for the same content. Each
/// payload's CRC-32 is computed while it streams and written after it. Payloads from a descriptor go through one
/// reused buffer of ``chunkSize`` bytes; small payloads and headers are gathered into one buffer and written in
/// blocks of about 64 KiB. A payload read from a regular file into a writer on a pipe is read once, for its
/// checksum, and moved into the pipe with `splice(2)` (Linux), which saves copying it a second time; a file that
/// changes while it is written then arrives with a checksum that no longer matches, so readers reject it.
///
/// After any error the writer is failed: later calls throw `TransferArchiveError.Code.ioFailed`, and the output
/// holds an incomplete archive that readers reject.
///
/// Not `Sendable`: it owns a position in its output; make it in the task that writes. TransferKit's async methods
/// (`write(providers:progress:)`, `writeItem(from:progress:)`) need the writer in a local variable: at the top level
/// of a `main.swift`, declare it inside a `do { }` block or a function, since Swift passes a top-level `var` (a
/// main-actor global) `inout` to no async call.
public struct TransferArchiveWriter: ~Copyable {
    private enum Sink {
        case fileDescriptor(Int32)
        case closure((UnsafeRawBufferPointer) throws -> Void)
    }

    private enum Stage {
        case initial, writing, finished, failed
    }

    /// The size of the buffer that payloads from a descriptor stream through.
    public let chunkSize: Int

    private let sink: Sink
    private var cbor = CBORWriter(reservingCapacity: ArchiveCBOR.smallPayloadSize + 1024)
    private var chunk: [UInt8] = []
    private var stage = Stage.initial
    private var itemCount = 0
    private var itemsBegun = 0
    private var representationsPromised = 0
    private var representationsWritten = 0
    private var itemTypes: Set<UniformType> = []
    /// The last type checked for the archive's identifier grammar (items usually share their types).
    private var lastCheckedType: UniformType?
    /// Whether the output descriptor is a pipe, once asked.
    private var outputPipe: Bool?
    /// The representation being written in pieces, between ``beginRepresentation(type:length:progress:)`` and
    /// ``finishRepresentation()``.
    private var openPayload: OpenPayload?

    private struct OpenPayload {
        let type: UniformType
        let length: UInt64
        var remaining: UInt64
        var crc = CRC32()
        let progress: (any TransferArchiveProgressReporting)?
    }

    /// A writer to an open file descriptor (a file, a pipe, a socket), which it neither owns nor closes.
    /// - Parameters:
    ///   - fileDescriptor: Where the archive goes.
    ///   - chunkSize: The size of the one buffer that payloads read from descriptors go through; 1 MiB by default.
    public init(fileDescriptor: Int32, chunkSize: Int = 1 << 20) {
        sink = .fileDescriptor(fileDescriptor)
        self.chunkSize = max(4096, chunkSize)
    }

    /// A writer that hands its output, block by block, to `sink`.
    ///
    /// ```swift
    /// var data = Data()
    /// var writer = TransferArchiveWriter { data.append(contentsOf: $0) }
    /// ```
    /// - Parameters:
    ///   - chunkSize: The size of the one buffer that payloads read from descriptors go through; 1 MiB by default.
    ///   - sink: Receives the bytes; the buffer is only valid during the call. What it throws becomes
    ///     `TransferArchiveError.Code.ioFailed` with the error as `TransferArchiveError.cause`.
    public init(chunkSize: Int = 1 << 20, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = .closure(sink)
        self.chunkSize = max(4096, chunkSize)
    }

    /// Writes the archive's header and promises how many items follow.
    ///
    /// The header carries the type declarations, if any, before the items, so that a streaming reader knows the types
    /// before it meets them; pass ``TransferArchive/declarations(for:in:)`` of the types you will write:
    ///
    /// ```swift
    /// try writer.begin(itemCount: cards.count, declarations: TransferArchive.declarations(for: [.card]))
    /// ```
    /// - Parameters:
    ///   - itemCount: The number of ``beginItem(suggestedName:metadata:representationCount:)`` calls to come.
    ///   - declarations: Declarations of the items' types that readers may not know (`Schemas/transfer-archive.md`
    ///     §3.6); with none, the archive is written as version 1.0, otherwise as 1.1. Their `referenceURL` and
    ///     `version` are not written.
    /// - Throws: `TransferArchiveError.Code.countMismatch` if called twice or with a negative count;
    ///   `TransferArchiveError.Code.invalidIdentifier` for a declared identifier, parent or tag class outside the
    ///   archive's grammar; `TransferArchiveError.Code.invalidDeclaration` for a type declared twice, a `dyn.` type,
    ///   or a tag or description that is too long or holds a control character.
    public mutating func begin(
        itemCount: Int, declarations: [UniformTypeDeclaration] = []
    ) throws(TransferArchiveError) {
        try expect(.initial, "begin(itemCount:) must be the first call, and only once")
        guard itemCount >= 0 else {
            throw fail(.countMismatch, "The item count \(itemCount) is negative.")
        }
        do {
            try ArchiveDeclarations.check(declarations)
        } catch {
            stage = .failed
            throw error
        }
        self.itemCount = itemCount
        cbor.writeSelfDescribedTag()
        cbor.writeArrayHead(count: 3)
        cbor.writeTextString(TransferArchive.formatName)
        cbor.writeArrayHead(count: 2)
        cbor.writeUnsignedInteger(UInt64(TransferArchive.currentVersion.major))
        cbor.writeUnsignedInteger(declarations.isEmpty ? 0 : 1)
        if declarations.isEmpty {
            cbor.writeMapHead(count: 1)
        } else {
            cbor.writeMapHead(count: 2)
            cbor.writeTextString(ArchiveDeclarations.key)
            ArchiveDeclarations.write(declarations, to: &cbor)
        }
        cbor.writeTextString(ArchiveCBOR.itemsKey)
        cbor.writeArrayHead(count: UInt64(itemCount))
        stage = .writing
    }

    /// Writes the header of the next item and promises how many representations follow.
    /// - Parameters:
    ///   - suggestedName: A file name without folders, or `nil`.
    ///   - metadata: Small values that travel with the item; an empty dictionary is not written.
    ///   - representationCount: The number of `writeRepresentation` calls to come for this item.
    /// - Throws: `TransferArchiveError.Code.countMismatch` when the previous item is incomplete or all promised
    ///   items were written; `TransferArchiveError.Code.invalidName` for a name with `/` or a control character;
    ///   `TransferArchiveError.Code.unrepresentableValue` for a metadata key with a character Unicode 3.2 does not
    ///   assign.
    public mutating func beginItem(
        suggestedName: String?, metadata: [String: TransferMetadataValue], representationCount: Int
    ) throws(TransferArchiveError) {
        try expect(.writing, "beginItem must come after begin(itemCount:) and before finish()")
        try checkItemComplete()
        guard itemsBegun < itemCount else {
            throw fail(.countMismatch, "begin(itemCount:) promised \(itemCount) items; this would be one more.")
        }
        guard representationCount >= 0 else {
            throw fail(.countMismatch, "The representation count \(representationCount) is negative.")
        }
        do {
            if let suggestedName {
                try ArchiveRules.checkName(suggestedName, itemIndex: itemsBegun)
            }
            try ArchiveRules.checkMetadata(metadata, itemIndex: itemsBegun)
        } catch {
            stage = .failed
            throw error
        }
        let includesMetadata = !metadata.isEmpty
        cbor.writeMapHead(count: 1 + (suggestedName == nil ? 0 : 1) + (includesMetadata ? 1 : 0))
        if let suggestedName {
            cbor.writeTextString(ArchiveCBOR.nameKey)
            cbor.writeTextString(suggestedName)
        }
        if includesMetadata {
            cbor.writeTextString(ArchiveCBOR.metadataKey)
            ArchiveCBOR.write(metadata, to: &cbor)
        }
        cbor.writeTextString(ArchiveCBOR.representationsKey)
        cbor.writeArrayHead(count: UInt64(representationCount))
        itemsBegun += 1
        representationsPromised = representationCount
        representationsWritten = 0
        if !itemTypes.isEmpty { itemTypes.removeAll(keepingCapacity: true) }
        try flushIfFull()
    }

    /// Writes a representation whose bytes are in memory.
    /// - Parameters:
    ///   - type: The type of the bytes; unique within the item.
    ///   - data: The bytes.
    ///   - progress: Told the payload's length, then each chunk written; when it reports
    ///     ``TransferArchiveProgressReporting/isCancelled`` it stops the write with
    ///     `TransferArchiveError.Code.cancelled`.
    /// - Throws: `TransferArchiveError.Code.countMismatch`, `TransferArchiveError.Code.duplicateType`,
    ///   `TransferArchiveError.Code.ioFailed` or `TransferArchiveError.Code.cancelled`.
    public mutating func writeRepresentation(
        type: UniformType, data: Data, progress: (any TransferArchiveProgressReporting)? = nil
    ) throws(TransferArchiveError) {
        try writeRepresentationHead(type: type, length: UInt64(data.count), progress: progress)
        var crc = CRC32()
        if data.count <= ArchiveCBOR.smallPayloadSize {
            data.withUnsafeBytes { crc.update($0) }
            cbor.writeRawBytes(data)
            progress?.didTransfer(byteCount: data.count)
        } else {
            try flush()
            let sink = self.sink
            var start = data.startIndex
            while start < data.endIndex {
                let end = data.index(start, offsetBy: min(chunkSize, data.endIndex - start))
                try checkCancellation(progress, type: type)
                let written: Result<Void, TransferArchiveError> = data[start..<end].withUnsafeBytes { bytes in
                    crc.update(bytes)
                    return Result { () throws(TransferArchiveError) in try Self.emit(bytes, to: sink) }
                }
                try check(written)
                progress?.didTransfer(byteCount: end - start)
                start = end
            }
        }
        try writeRepresentationTail(checksum: crc.value)
    }

    /// Writes a representation of exactly `length` bytes read from `fileDescriptor`, streaming them through one
    /// reused buffer and computing the checksum on the way.
    /// - Parameters:
    ///   - type: The type of the bytes; unique within the item.
    ///   - length: How many bytes to read and write.
    ///   - fileDescriptor: Where the bytes come from, read from its current position; not closed.
    ///   - progress: Told `length`, then each chunk written; when it reports
    ///     ``TransferArchiveProgressReporting/isCancelled`` it stops the write with
    ///     `TransferArchiveError.Code.cancelled`.
    /// - Throws: `TransferArchiveError.Code.truncated` if the descriptor ends before `length` bytes (the output
    ///   is then unusable), `TransferArchiveError.Code.ioFailed`, `TransferArchiveError.Code.countMismatch`,
    ///   `TransferArchiveError.Code.duplicateType` or `TransferArchiveError.Code.cancelled`.
    public mutating func writeRepresentation(
        type: UniformType, length: UInt64, from fileDescriptor: Int32,
        progress: (any TransferArchiveProgressReporting)? = nil
    ) throws(TransferArchiveError) {
        try writeRepresentationHead(type: type, length: length, progress: progress)
        try flush()
        var buffer: [UInt8] = []
        swap(&buffer, &chunk)
        defer { swap(&buffer, &chunk) }
        if buffer.count != chunkSize {
            buffer = [UInt8](repeating: 0, count: chunkSize)
        }
        var copier = PayloadCopier(input: fileDescriptor, output: sink, outputIsPipe: outputIsPipe())
        var crc = CRC32()
        var remaining = length
        while remaining > 0 {
            try checkCancellation(progress, type: type)
            let wanted = Int(min(remaining, UInt64(chunkSize)))
            let outcome: Result<Int, TransferArchiveError> = buffer.withUnsafeMutableBytes { storage in
                Result { () throws(TransferArchiveError) in
                    let received = try copier.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[..<wanted]))
                    if received == 0 {
                        throw TransferArchiveError(
                            code: .truncated,
                            message:
                                "Descriptor \(fileDescriptor) ended \(remaining) bytes before the \(length) bytes promised "
                                + "for \(type); pass the length of what the descriptor really holds.")
                    }
                    let bytes = UnsafeRawBufferPointer(rebasing: storage[..<received])
                    crc.update(bytes)
                    try copier.emit(bytes)
                    return received
                }
            }
            let received = try check(outcome)
            remaining -= UInt64(received)
            progress?.didTransfer(byteCount: received)
        }
        try check(Result { () throws(TransferArchiveError) in try copier.finish() })
        try writeRepresentationTail(checksum: crc.value)
    }

    /// Starts a representation of exactly `length` bytes that arrive in pieces, for bytes that are neither in memory
    /// nor in one descriptor (a network stream, an `AsyncSequence` of chunks): pass them to
    /// ``appendPayload(_:)`` as they come, then call ``finishRepresentation()``, which writes the checksum.
    ///
    /// ```swift
    /// try writer.beginRepresentation(type: .mpeg4Movie, length: size)
    /// for try await chunk in download {
    ///     try chunk.withUnsafeBytes { bytes in try writer.appendPayload(bytes) }
    /// }
    /// try writer.finishRepresentation()
    /// ```
    ///
    /// The length comes first because the archive's deterministic CBOR writes it before the bytes.
    /// - Parameters:
    ///   - type: The type of the bytes; unique within the item.
    ///   - length: How many bytes the pieces will hold in all.
    ///   - progress: Told `length`, then each piece; when it reports
    ///     ``TransferArchiveProgressReporting/isCancelled`` the next ``appendPayload(_:)`` stops the write with
    ///     `TransferArchiveError.Code.cancelled`.
    /// - Throws: `TransferArchiveError.Code.countMismatch` (out of order, or one representation too many),
    ///   `TransferArchiveError.Code.duplicateType`, `TransferArchiveError.Code.ioFailed`.
    public mutating func beginRepresentation(
        type: UniformType, length: UInt64, progress: (any TransferArchiveProgressReporting)? = nil
    ) throws(TransferArchiveError) {
        try writeRepresentationHead(type: type, length: length, progress: progress)
        openPayload = OpenPayload(type: type, length: length, remaining: length, progress: progress)
    }

    /// Writes the next piece of the representation that ``beginRepresentation(type:length:progress:)`` started.
    ///
    /// Pieces smaller than 64 KiB are gathered and written in larger blocks; larger ones are written as they are.
    /// - Parameter bytes: The piece; only read during the call.
    /// - Throws: `TransferArchiveError.Code.lengthMismatch` when the pieces would exceed the promised length,
    ///   `TransferArchiveError.Code.countMismatch` when no representation is open,
    ///   `TransferArchiveError.Code.cancelled`, `TransferArchiveError.Code.ioFailed`.
    public mutating func appendPayload(_ bytes: UnsafeRawBufferPointer) throws(TransferArchiveError) {
        guard stage == .writing, var payload = openPayload else {
            try expect(.writing, "appendPayload must come after beginRepresentation(type:length:progress:)")
            throw fail(.countMismatch, "Calls out of order: appendPayload must come after beginRepresentation.")
        }
        try checkCancellation(payload.progress, type: payload.type)
        guard UInt64(bytes.count) <= payload.remaining else {
            throw fail(
                .lengthMismatch,
                "The pieces of \(payload.type) exceed the \(payload.length) bytes promised by beginRepresentation: "
                    + "\(payload.length - payload.remaining + UInt64(bytes.count)) bytes so far.",
                type: payload.type)
        }
        payload.crc.update(bytes)
        payload.remaining -= UInt64(bytes.count)
        openPayload = payload
        if bytes.count < ArchiveCBOR.smallPayloadSize {
            cbor.writeRawBytes(bytes)
            try flushIfFull()
        } else {
            try flush()
            let sink = self.sink
            try check(Result { () throws(TransferArchiveError) in try Self.emit(bytes, to: sink) })
        }
        payload.progress?.didTransfer(byteCount: bytes.count)
    }

    /// Ends the representation that ``beginRepresentation(type:length:progress:)`` started and writes its checksum.
    /// - Throws: `TransferArchiveError.Code.lengthMismatch` when the pieces held fewer bytes than promised (the
    ///   output is then unusable), `TransferArchiveError.Code.countMismatch` when no representation is open,
    ///   `TransferArchiveError.Code.ioFailed`.
    public mutating func finishRepresentation() throws(TransferArchiveError) {
        guard stage == .writing, let payload = openPayload else {
            try expect(.writing, "finishRepresentation must come after beginRepresentation(type:length:progress:)")
            throw fail(.countMismatch, "Calls out of order: finishRepresentation must come after beginRepresentation.")
        }
        guard payload.remaining == 0 else {
            throw fail(
                .lengthMismatch,
                "The pieces of \(payload.type) held \(payload.length - payload.remaining) of the \(payload.length) "
                    + "bytes promised by beginRepresentation; promise the length the bytes really have.",
                type: payload.type)
        }
        openPayload = nil
        try writeRepresentationTail(checksum: payload.crc.value)
    }

    /// Checks that every promised item and representation was written and writes what is still buffered.
    /// - Throws: `TransferArchiveError.Code.countMismatch` or `TransferArchiveError.Code.ioFailed`.
    public mutating func finish() throws(TransferArchiveError) {
        try expect(.writing, "finish() must come after begin(itemCount:), and only once")
        try checkItemComplete()
        guard itemsBegun == itemCount else {
            throw fail(.countMismatch, "begin(itemCount:) promised \(itemCount) items, but \(itemsBegun) were written.")
        }
        try flush()
        stage = .finished
    }
}

extension TransferArchiveWriter {
    private mutating func writeRepresentationHead(
        type: UniformType, length: UInt64, progress: (any TransferArchiveProgressReporting)?
    ) throws(TransferArchiveError) {
        try expect(.writing, "writeRepresentation must come after beginItem")
        guard itemsBegun > 0, representationsWritten < representationsPromised else {
            throw fail(
                .countMismatch,
                "beginItem promised \(representationsPromised) representations for item \(itemsBegun - 1); "
                    + "\(type) would be one more.",
                type: type)
        }
        if lastCheckedType?.identifier != type.identifier {
            do {
                try ArchiveRules.checkIdentifier(type, itemIndex: itemsBegun - 1)
            } catch {
                stage = .failed
                throw error
            }
            lastCheckedType = type
        }
        // An item of one representation cannot repeat a type: no set to fill.
        guard representationsPromised == 1 || itemTypes.insert(type).inserted else {
            throw fail(
                .duplicateType, "Item \(itemsBegun - 1) already has a representation of \(type); write each type once.",
                type: type)
        }
        progress?.willTransfer(byteCount: length)
        cbor.writeMapHead(count: 3)
        cbor.writeTextString(ArchiveCBOR.typeKey)
        cbor.writeTextString(type.identifier)
        cbor.writeTextString(ArchiveCBOR.payloadKey)
        cbor.writeByteStringHead(length: length)
    }

    private mutating func writeRepresentationTail(checksum: UInt32) throws(TransferArchiveError) {
        cbor.writeTextString(ArchiveCBOR.checksumKey)
        cbor.writeUnsignedInteger(UInt64(checksum))
        representationsWritten += 1
        try flushIfFull()
    }

    private mutating func checkItemComplete() throws(TransferArchiveError) {
        guard representationsWritten == representationsPromised else {
            throw fail(
                .countMismatch,
                "beginItem promised \(representationsPromised) representations for item \(itemsBegun - 1), "
                    + "but \(representationsWritten) were written.")
        }
    }

    private mutating func expect(_ wanted: Stage, _ rule: String) throws(TransferArchiveError) {
        if let openPayload, stage == .writing {
            throw fail(
                .countMismatch,
                "Calls out of order: \(rule); finish the representation of \(openPayload.type) first "
                    + "(finishRepresentation()).", type: openPayload.type)
        }
        guard stage == wanted else {
            if stage == .failed {
                throw TransferArchiveError(
                    code: .ioFailed,
                    message: "An earlier call failed, so the output is incomplete; start a new archive.")
            }
            throw fail(.countMismatch, "Calls out of order: \(rule).")
        }
    }

    private mutating func checkCancellation(
        _ progress: (any TransferArchiveProgressReporting)?, type: UniformType
    ) throws(TransferArchiveError) {
        if let progress, progress.isCancelled {
            throw fail(.cancelled, "Writing \(type) was cancelled by its progress reporter.", type: type)
        }
    }

    private mutating func fail(
        _ code: TransferArchiveError.Code, _ message: String, type: UniformType? = nil
    ) -> TransferArchiveError {
        stage = .failed
        return TransferArchiveError(
            code: code, message: message, details: .init(itemIndex: itemsBegun > 0 ? itemsBegun - 1 : nil, type: type))
    }

    private mutating func flushIfFull() throws(TransferArchiveError) {
        if cbor.bytes.count >= ArchiveCBOR.smallPayloadSize {
            try flush()
        }
    }

    private mutating func flush() throws(TransferArchiveError) {
        guard !cbor.bytes.isEmpty else { return }
        let sink = self.sink
        let outcome: Result<Void, TransferArchiveError> = cbor.bytes.withUnsafeBytes { bytes in
            Result { () throws(TransferArchiveError) in try Self.emit(bytes, to: sink) }
        }
        try check(outcome)
        cbor.flush { _ in }
    }

    /// Returns the success value, or marks the writer failed and throws the error located at the current item.
    @discardableResult
    private mutating func check<T>(_ outcome: Result<T, TransferArchiveError>) throws(TransferArchiveError) -> T {
        switch outcome {
        case .success(let value):
            return value
        case .failure(var error):
            stage = .failed
            error.itemIndex = error.itemIndex ?? (itemsBegun > 0 ? itemsBegun - 1 : nil)
            throw error
        }
    }

    /// Whether the sink is a descriptor of a pipe (asked once), which `splice(2)` can fill from a file.
    private mutating func outputIsPipe() -> Bool {
        if let outputPipe { return outputPipe }
        guard case .fileDescriptor(let descriptor) = sink else { return false }
        let isPipe = (try? Syscall.status(descriptor))?.isPipe ?? false
        outputPipe = isPipe
        return isPipe
    }

    /// Moves one payload from an input descriptor to the sink, chunk by chunk.
    ///
    /// From a regular file it reads at explicit offsets (`pread`) and leaves the file's position after the payload
    /// at the end, as a plain read would. When the output is a pipe too, each chunk is read once for its checksum
    /// and then moved into the pipe with `splice(2)`, which hands the pipe the file's cached pages instead of
    /// copying the bytes a second time; where splicing is not possible it writes the chunk it read.
    private struct PayloadCopier {
        let input: Int32
        let output: Sink
        /// The input's position, when it is a regular file.
        var offset: Int64?
        var splices: Bool

        init(input: Int32, output: Sink, outputIsPipe: Bool) {
            self.input = input
            self.output = output
            let status = try? Syscall.status(input)
            offset = status?.isRegularFile == true ? Syscall.currentOffset(input) : nil
            splices = outputIsPipe && offset != nil
            if offset != nil { Syscall.adviseSequentialReading(input) }
        }

        /// Reads the next bytes of the input into `buffer`; 0 at its end.
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransferArchiveError) -> Int {
            do {
                guard let offset else { return try Syscall.read(input, into: buffer) }
                return try Syscall.read(input, into: buffer, atOffset: offset)
            } catch {
                throw TransferArchiveError(
                    code: .ioFailed, message: "Reading descriptor \(input) failed: \(error.reason).", cause: error)
            }
        }

        /// Sends `bytes`, just read from the input at ``offset``, to the output.
        mutating func emit(_ bytes: UnsafeRawBufferPointer) throws(TransferArchiveError) {
            var sent = 0
            if splices, case .fileDescriptor(let descriptor) = output, var position = offset {
                while sent < bytes.count {
                    let moved: Int?
                    do {
                        moved = try Syscall.splice(
                            from: input, offset: &position, toPipe: descriptor, count: bytes.count - sent)
                    } catch {
                        throw TransferArchiveError(
                            code: .ioFailed,
                            message: "Writing descriptor \(descriptor) failed: \(error.reason); check the output.",
                            cause: error)
                    }
                    // Not possible here (a file system without splice): copy this chunk and the rest instead.
                    guard let moved, moved > 0 else {
                        splices = false
                        break
                    }
                    sent += moved
                }
            }
            if sent < bytes.count {
                try TransferArchiveWriter.emit(UnsafeRawBufferPointer(rebasing: bytes[sent...]), to: output)
            }
            offset = offset.map { $0 + Int64(bytes.count) }
        }

        /// Leaves a regular file's position after the bytes copied.
        func finish() throws(TransferArchiveError) {
            guard let offset else { return }
            do {
                try Syscall.seek(input, to: offset)
            } catch {
                throw TransferArchiveError(
                    code: .ioFailed, message: "Moving descriptor \(input) past the payload failed: \(error.reason).",
                    cause: error)
            }
        }
    }

    /// Hands bytes to the sink.
    private static func emit(_ bytes: UnsafeRawBufferPointer, to sink: Sink) throws(TransferArchiveError) {
        switch sink {
        case .fileDescriptor(let descriptor):
            do {
                try Syscall.write(descriptor, bytes)
            } catch {
                throw TransferArchiveError(
                    code: .ioFailed,
                    message: "Writing descriptor \(descriptor) failed: \(error.reason); check the output.", cause: error
                )
            }
        case .closure(let body):
            do {
                try body(bytes)
            } catch let error as TransferArchiveError {
                throw error
            } catch {
                throw TransferArchiveError(
                    code: .ioFailed, message: "The archive's sink failed: \(error).", cause: error)
            }
        }
    }
}
