public import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TransferProvider {
    /// Registers a representation whose bytes `loadHandler` hands out as a stream of chunks, so that it may be larger
    /// than memory.
    ///
    /// ```swift
    /// provider.registerStreamRepresentation(for: .mpeg4Movie) { progress in
    ///     try TransferByteStream(contentsOf: recordingURL)
    /// }
    /// ```
    ///
    /// `TransferArchiveWriter.writeItem(from:progress:)` writes the stream into an archive one chunk at a time;
    /// ``loadStream(for:progress:)`` gives it to a reader as it is. ``loadDataRepresentation(for:progress:)`` (and
    /// everything built on it, such as `TransferArchive.init(providers:progress:)`) still works: it collects the
    /// chunks into one `Data`, reporting each to the load's progress and stopping when the load is cancelled.
    ///
    /// - Parameters:
    ///   - type: The type of the bytes.
    ///   - visibility: Which processes may see the representation.
    ///   - loadHandler: Makes the stream; it runs once per load, possibly concurrently with itself, and each load
    ///     iterates the stream it returns once.
    /// - Returns: `false` if a representation of an equal type was registered before (the first one wins).
    @discardableResult
    public func registerStreamRepresentation(
        for type: UniformType,
        visibility: TransferVisibility = .all,
        loadHandler: @escaping @Sendable (TransferProgress) async throws -> TransferByteStream
    ) -> Bool {
        let collect: @Sendable (TransferProgress) async throws -> Data = { progress in
            try await loadHandler(progress).collect(progress: progress)
        }
        return register(Entry(type: type, visibility: visibility, source: .data(collect), stream: loadHandler))
    }

    /// Loads the first registered representation that conforms to `type` as a stream of chunks.
    ///
    /// A stream representation gives its handler's stream; a file representation streams the file from disk; any
    /// other representation is loaded as data and given as one chunk.
    ///
    /// ```swift
    /// var size = 0
    /// for try await chunk in try await provider.loadStream(for: .movie) {
    ///     size += chunk.count
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The requested type; a registered subtype satisfies it.
    ///   - progress: The caller's progress: the load that makes the stream reports into a child of it, and
    ///     cancelling it (or the iterating task) stops the iteration with `TransferError.Code.cancelled`. The
    ///     chunks themselves are the consumer's to count.
    /// - Returns: The stream. Errors while iterating it are ``TransferError``s: `TransferError.Code.loaderFailed`
    ///   with the sequence's error as `cause`, `TransferError.Code.lengthMismatch`, or
    ///   `TransferError.Code.cancelled`.
    /// - Throws: The errors of ``loadDataRepresentation(for:progress:)``.
    public func loadStream(for type: UniformType, progress: TransferProgress? = nil) async throws -> TransferByteStream
    {
        let entry = try representation(for: [type], reader: nil)
        let stream = try await stream(of: entry, progress: progress)
        return stream.checked(type: entry.type, cancelledBy: progress)
    }

    /// The stream of an entry: its handler's, its file's, or its data as one chunk.
    func stream(of entry: Entry, progress: TransferProgress?) async throws -> TransferByteStream {
        if let handler = entry.stream {
            return try await run(entry, progress: progress) { child in try await handler(child) }
        }
        if case .file(_, let loader) = entry.source {
            let url = try await run(entry, progress: progress) { child in try await loader(child) }
            return try TransferByteStream(contentsOf: url)
        }
        let data = try await run(entry, progress: progress) { child in try await self.loadData(from: entry, child) }
        return TransferByteStream(data: data)
    }
}

extension TransferByteStream {
    /// This stream with its errors as the provider reports them (`TransferError.Code.loaderFailed` around the
    /// sequence's own), stopping with `TransferError.Code.cancelled` when `progress` or the task is cancelled.
    func checked(type: UniformType, cancelledBy progress: TransferProgress?) -> TransferByteStream {
        let original = self
        return TransferByteStream(
            length: length,
            CheckedChunks(stream: original, type: type, progress: progress)
        ).keepingFileBacking(of: original)
    }

    /// The error a consumer of `type`'s stream reports for `error`.
    static func providerError(_ error: any Error, type: UniformType) -> TransferError {
        TransferError.wrapping(
            error, as: .loaderFailed,
            message: "The byte stream of \(type) failed: \(error). Fix the stream's source, or catch the error and "
                + "try another registered type.",
            source: type.identifier)
    }
}

/// A stream's chunks with provider errors and cancellation.
private struct CheckedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let stream: TransferByteStream
    let type: UniformType
    let progress: TransferProgress?

    func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), type: type, progress: progress)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: TransferByteStream.AsyncIterator
        let type: UniformType
        let progress: TransferProgress?

        mutating func next() async throws -> Data? {
            if progress?.isCancelled == true || Task.isCancelled {
                throw TransferError.cancelled(source: type.identifier)
            }
            do {
                return try await base.next()
            } catch {
                throw TransferByteStream.providerError(error, type: type)
            }
        }
    }
}
