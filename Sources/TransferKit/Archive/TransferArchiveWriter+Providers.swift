import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TransferArchiveWriter {
    /// Writes a whole archive of `providers`, streaming each representation: the output is the archive that
    /// `TransferArchive.init(providers:progress:)` builds in memory, but only one chunk of a stream or file
    /// representation is held at a time.
    ///
    /// ```swift
    /// do {
    ///     var writer = TransferArchiveWriter(fileDescriptor: output)
    ///     try await writer.write(providers: [provider])
    /// }
    /// ```
    ///
    /// The writer must be a local variable, as in this `do` block or in a function: at the top level of a
    /// `main.swift` a `var` is a global isolated to the main actor, and Swift passes no actor-isolated variable
    /// `inout` to an async method (`cannot call mutating async function 'write(providers:progress:)' on
    /// actor-isolated var 'writer'`). The same holds for ``writeItem(from:progress:)``.
    ///
    /// - Parameters:
    ///   - providers: The items, in order.
    ///   - progress: Its total becomes the number of representations to write; each reports into a child worth one
    ///     unit (a streamed one chunk by chunk). Cancelling it cancels the write.
    ///   - declaringTypes: Whether the archive carries the declarations of its types that other programs may not
    ///     know, from each provider's catalogue (the default), as `TransferArchive.init(providers:progress:declaringTypes:)`
    ///     does.
    /// - Throws: The errors of ``writeItem(from:progress:)``, and `TransferArchiveError.Code.countMismatch` when
    ///   the writer has already begun.
    public mutating func write(
        providers: [TransferProvider], progress: TransferProgress? = nil, declaringTypes: Bool = true
    ) async throws {
        let visible = providers.map(\.entriesVisibleToOtherProcesses)
        progress?.totalUnitCount = Int64(visible.reduce(0) { $0 + $1.count })
        try begin(
            itemCount: providers.count,
            declarations: declaringTypes ? TransferArchive.declarations(of: providers, entries: visible) : [])
        for (provider, entries) in zip(providers, visible) {
            try await writeItem(provider, entries: entries, progress: progress)
        }
        try finish()
    }

    /// Writes `provider` as the next item: its suggested name, metadata and every representation visible to other
    /// processes, in fidelity order.
    ///
    /// Stream representations (``TransferProvider/registerStreamRepresentation(for:visibility:loadHandler:)``) are
    /// written chunk by chunk as the stream yields them, with the chunk in hand the only one held; a stream without a
    /// length is first copied to an unlinked temporary file in the provider's ``TransferProvider/temporaryDirectory``,
    /// because the archive writes the length first. File representations are copied from the file. Others are
    /// loaded as data. Call ``begin(itemCount:)`` first and ``finish()`` after the last item.
    ///
    /// - Parameters:
    ///   - provider: The item.
    ///   - progress: Its total grows by the number of representations; each reports into a child worth one unit.
    ///     Cancelling it, or the task, stops the write with `TransferError.Code.cancelled`.
    /// - Throws: ``TransferError`` from a load (`TransferError.Code.loaderFailed` with the handler's or the stream's
    ///   error as `cause`, `TransferError.Code.lengthMismatch`, `TransferError.Code.cancelled`,
    ///   `TransferError.Code.fileCoercionFailed`), or ``TransferArchiveError`` from the writer
    ///   (`TransferArchiveError.Code.ioFailed`, `TransferArchiveError.Code.countMismatch`, …). After an error the
    ///   output is incomplete.
    public mutating func writeItem(from provider: TransferProvider, progress: TransferProgress? = nil) async throws {
        let entries = provider.entriesVisibleToOtherProcesses
        if let progress {
            progress.totalUnitCount = max(0, progress.totalUnitCount) + Int64(entries.count)
        }
        try await writeItem(provider, entries: entries, progress: progress)
    }

    private mutating func writeItem(
        _ provider: TransferProvider, entries: [TransferProvider.Entry], progress: TransferProgress?
    ) async throws {
        try beginItem(
            suggestedName: provider.suggestedName, metadata: provider.metadata, representationCount: entries.count)
        for entry in entries {
            let child = progress?.makeChild(withPendingUnitCount: 1)
            if entry.stream != nil || entry.source.isFile {
                // A progress even without a caller's: the copy checks it between chunks for task cancellation.
                try await writeStreamed(entry, of: provider, progress: child ?? TransferProgress())
            } else {
                let data = try await provider.run(entry, progress: child) { loadProgress in
                    try await provider.loadData(from: entry, loadProgress)
                }
                try writeRepresentation(type: entry.type, data: data)
            }
            child?.finish()
        }
    }

    /// Writes a stream or file representation with `progress` counting its bytes.
    private mutating func writeStreamed(
        _ entry: TransferProvider.Entry, of provider: TransferProvider, progress: TransferProgress
    ) async throws {
        if progress.isCancelled { throw TransferError.cancelled(source: entry.type.identifier) }
        // The handler gets a progress of its own: `progress` counts the bytes, which is where the time goes.
        let stream = try await provider.stream(of: entry, progress: nil)
        try await withTaskCancellationHandler {
            do {
                if let path = stream.filePath {
                    try writeFile(atPath: path, length: stream.length, type: entry.type, progress: progress)
                } else if let length = stream.length {
                    try await writeChunks(of: stream, length: length, type: entry.type, progress: progress)
                } else {
                    try await writeSpooled(stream, type: entry.type, provider: provider, progress: progress)
                }
            } catch let error as TransferArchiveError where error.code == .cancelled {
                throw TransferError.cancelled(source: entry.type.identifier, cause: error)
            }
        } onCancel: {
            progress.cancel()
        }
    }

    /// Copies a stream with a known length, one chunk at a time.
    private mutating func writeChunks(
        of stream: TransferByteStream, length: UInt64, type: UniformType, progress: TransferProgress
    ) async throws {
        try beginRepresentation(type: type, length: length, progress: progress)
        var chunks = stream.makeAsyncIterator()
        while let chunk = try await Self.nextChunk(of: &chunks, type: type, progress: progress) {
            let appended = chunk.withUnsafeBytes { bytes in
                Result { () throws(TransferArchiveError) in try appendPayload(bytes) }
            }
            try appended.get()
        }
        try finishRepresentation()
    }

    /// The next chunk of a stream being written, with its errors as the provider reports them, after checking for
    /// cancellation.
    private static func nextChunk(
        of chunks: inout TransferByteStream.AsyncIterator, type: UniformType, progress: TransferProgress
    ) async throws -> Data? {
        if progress.isCancelled { throw TransferError.cancelled(source: type.identifier) }
        do {
            return try await chunks.next()
        } catch {
            throw TransferByteStream.providerError(error, type: type)
        }
    }

    /// Copies a file representation (or a stream made from a file) from its descriptor.
    private mutating func writeFile(
        atPath path: String, length: UInt64?, type: UniformType, progress: TransferProgress
    ) throws {
        let descriptor = try TransferByteStream.open(path)
        defer { Syscall.close(descriptor) }
        let size = try TransferByteStream.regularFileSize(descriptor, path: path)
        if let length, length != size {
            throw TransferByteStream.lengthMismatch(delivered: size, length: length, ended: size < length)
        }
        try writeRepresentation(type: type, length: size, from: descriptor, progress: progress)
    }

    /// Copies a stream of unknown length into an unlinked temporary file, then from there into the archive.
    private mutating func writeSpooled(
        _ stream: TransferByteStream, type: UniformType, provider: TransferProvider, progress: TransferProgress
    ) async throws {
        let folder = provider.temporaryDirectory.path
        let descriptor: Int32
        do {
            descriptor = try TemporaryFile.makeUnlinked(prefix: "transferkit-stream", in: folder)
        } catch {
            throw TransferError(
                code: .fileCoercionFailed,
                message: "Cannot create a temporary file in \(folder) to hold \(type) until its length is known: "
                    + "\(error.reason). Declare the stream's length, or make the temporary directory writable.",
                cause: error, source: folder)
        }
        defer { Syscall.close(descriptor) }
        var total: UInt64 = 0
        var chunks = stream.makeAsyncIterator()
        while let chunk = try await Self.nextChunk(of: &chunks, type: type, progress: progress) {
            let written = chunk.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try Syscall.write(descriptor, bytes) }
            }
            do {
                try written.get()
                total += UInt64(chunk.count)
            } catch {
                throw TransferError(
                    code: .fileCoercionFailed,
                    message: "Cannot write \(type) to a temporary file in \(folder): \(error.reason).", cause: error,
                    source: folder)
            }
        }
        do {
            try Syscall.rewind(descriptor)
        } catch {
            throw TransferError(
                code: .fileCoercionFailed, message: "Cannot rewind the temporary copy of \(type): \(error.reason).",
                cause: error, source: folder)
        }
        try writeRepresentation(type: type, length: total, from: descriptor, progress: progress)
    }
}

extension TransferProvider {
    /// The registered entries that an archive carries (visible to other processes), in fidelity order.
    var entriesVisibleToOtherProcesses: [Entry] {
        state.withLock { $0.entries }.filter { $0.visibility.isVisible(to: .otherProcesses) }
    }
}

extension TransferProvider.Entry.Source {
    /// Whether the entry is a file representation.
    var isFile: Bool {
        if case .file = self { true } else { false }
    }
}
