import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import UniformTypes

/// Counts the chunks a ``CountedChunks`` sequence made and how many of them were alive (not yet freed) at once.
final class ChunkLedger: Sendable {
    struct Counts {
        var made = 0
        var alive = 0
        var peakAlive = 0
    }

    private let counts = SanitizedMutex(Counts())

    var snapshot: Counts { counts.withLock { $0 } }

    func made() {
        counts.withLock { counts in
            counts.made += 1
            counts.alive += 1
            counts.peakAlive = max(counts.peakAlive, counts.alive)
        }
    }

    func freed() {
        counts.withLock { $0.alive -= 1 }
    }
}

/// A failure a test stream throws.
enum StreamFailure: Error, Equatable {
    case sourceVanished
}

/// `count` chunks of `size` bytes (chunk `i` filled with `i`), each in memory of its own that reports to `ledger`
/// when it is freed; optionally throwing `failure` instead of chunk `failAt`, and calling `onChunk` before each.
struct CountedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    var count: Int
    var size: Int
    var ledger = ChunkLedger()
    var failAt: Int?
    /// Whether `next()` suspends (`Task.yield()`) before each chunk, as a real source would, so that a task that
    /// iterates leaves its thread to others (a sequence that never suspends keeps it until it ends).
    var suspends = false
    var onChunk: @Sendable (Int) -> Void = { _ in }

    var totalBytes: Int { count * size }

    func makeAsyncIterator() -> Iterator { Iterator(chunks: self) }

    struct Iterator: AsyncIteratorProtocol {
        let chunks: CountedChunks
        var index = 0

        mutating func next() async throws -> Data? {
            guard index < chunks.count else { return nil }
            if chunks.suspends { await Task.yield() }
            if index == chunks.failAt { throw StreamFailure.sourceVanished }
            chunks.onChunk(index)
            let memory = UnsafeMutableRawPointer.allocate(byteCount: chunks.size, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index), count: chunks.size)
            chunks.ledger.made()
            let ledger = chunks.ledger
            index += 1
            return Data(
                bytesNoCopy: memory, count: chunks.size,
                deallocator: .custom { pointer, _ in
                    pointer.deallocate()
                    ledger.freed()
                })
        }
    }

    /// The bytes all chunks hold, in order.
    var expectedBytes: Data {
        var data = Data()
        for index in 0..<count { data.append(Data(repeating: UInt8(truncatingIfNeeded: index), count: size)) }
        return data
    }
}

/// What an archive writer wrote: all of it, or only how much.
final class ArchiveOutput: Sendable {
    let bytes = SanitizedMutex(Data())
    let byteCount = SanitizedMutex(0)
    let keepsBytes: Bool

    init(keepsBytes: Bool = true) {
        self.keepsBytes = keepsBytes
    }

    /// A writer into this output.
    func makeWriter() -> TransferArchiveWriter {
        TransferArchiveWriter { chunk in
            self.byteCount.withLock { $0 += chunk.count }
            if self.keepsBytes { self.bytes.withLock { $0.append(contentsOf: chunk) } }
        }
    }

    func archive() throws -> TransferArchive {
        try TransferArchive(decoding: bytes.withLock { $0 })
    }
}

@Suite("Stream representations: chunks larger than memory, into archives and loads", .timeLimit(.minutes(5)))
struct StreamRepresentationTests {
    static let chunkSize = 64 * 1024

    @Test("A stream of chunks in memory yields them in order, on every pass, and its length is their total")
    func chunksInMemory() async throws {
        let chunks = [Data("Caf".utf8), Data(), Data([0xC3]), Data([0xA9])]
        let stream = TransferByteStream(chunks: chunks)
        #expect(stream.length == 5)
        for _ in 0..<2 {
            var seen: [Data] = []
            for try await chunk in stream { seen.append(chunk) }
            #expect(seen.reduce(Data(), +) == Data("Café".utf8))
        }
        #expect(TransferByteStream(chunks: []).length == 0)
    }

    @Test("A stream much larger than the configured limit goes through the archive writer one chunk at a time")
    func streamsWithoutCollecting() async throws {
        // The limit on what the writer may hold: 4 chunks. The stream is 64 chunks (16× the limit).
        let limitInChunks = 4
        let chunks = CountedChunks(count: 64, size: Self.chunkSize)
        #expect(chunks.count > 4 * limitInChunks)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .movie) { _ in
            TransferByteStream(length: UInt64(chunks.totalBytes), chunks)
        }
        provider.suggestedName = "take-1.mov"
        // The sink counts what it gets and keeps none of it.
        let output = ArchiveOutput(keepsBytes: false)
        var writer = output.makeWriter()
        let progress = TransferProgress()
        try await writer.write(providers: [provider], progress: progress)

        let counts = chunks.ledger.snapshot
        #expect(counts.made == 64)
        #expect(counts.alive == 0)
        #expect(counts.peakAlive <= 2)
        #expect(counts.peakAlive < limitInChunks)
        #expect(output.byteCount.withLock { $0 } > chunks.totalBytes)
        #expect(progress.fractionCompleted == 1)
    }

    @Test("The streamed archive holds the stream's bytes, readable by the in-memory reader")
    func streamedArchiveReadsBack() async throws {
        let chunks = CountedChunks(count: 9, size: 10_000)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .movie) { _ in
            TransferByteStream(length: UInt64(chunks.totalBytes), chunks)
        }
        provider.registerDataRepresentation(for: .jpeg) { _ in Data([0xFF, 0xD8]) }
        provider.metadata = ["frames": 9]
        let output = ArchiveOutput()
        var writer = output.makeWriter()
        try await writer.write(providers: [provider])

        let archive = try output.archive()
        let item = try #require(archive.items.first)
        #expect(item.representations.map(\.type) == [.movie, .jpeg])
        #expect(item.representations.first?.data == chunks.expectedBytes)
        #expect(item.metadata == ["frames": 9])
        // The same archive as the in-memory path, which collects the stream.
        let inMemory = try await TransferArchive(providers: [provider])
        #expect(try inMemory.encoded(as: .cbor) == output.bytes.withLock { $0 })
    }

    @Test("A stream without a length is spooled to a temporary file, then written")
    func unknownLength() async throws {
        let chunks = CountedChunks(count: 5, size: 3_000)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in TransferByteStream(chunks) }
        let output = ArchiveOutput()
        var writer = output.makeWriter()
        try await writer.write(providers: [provider])
        #expect(try output.archive().items.first?.representations.first?.data == chunks.expectedBytes)
        #expect(chunks.ledger.snapshot.peakAlive <= 2)
    }

    @Test("Loading a stream representation as data collects its chunks and reports them to the progress")
    func loadsAsData() async throws {
        let chunks = CountedChunks(count: 6, size: 1_000)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(length: UInt64(chunks.totalBytes), chunks)
        }
        #expect(provider.representations.map(\.kind) == [.stream])
        let progress = TransferProgress()
        let data = try await provider.loadDataRepresentation(for: .data, progress: progress)
        #expect(data == chunks.expectedBytes)
        #expect(progress.fractionCompleted == 1)
    }

    @Test("Any representation loads as a stream: data in one chunk, a stream chunk by chunk")
    func loadStream() async throws {
        let chunks = CountedChunks(count: 3, size: 500)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .movie) { _ in
            TransferByteStream(length: UInt64(chunks.totalBytes), chunks)
        }
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("note".utf8) }
        var sizes: [Int] = []
        for try await chunk in try await provider.loadStream(for: .movie) { sizes.append(chunk.count) }
        #expect(sizes == [500, 500, 500])
        var text = Data()
        for try await chunk in try await provider.loadStream(for: .text) { text.append(chunk) }
        #expect(text == Data("note".utf8))
    }

    @Test("A file streams from disk: through the writer from its descriptor, and as chunks")
    func fileStream() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: url)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in try TransferByteStream(contentsOf: url) }
        let output = ArchiveOutput()
        var writer = output.makeWriter()
        try await writer.write(providers: [provider])
        #expect(try output.archive().items.first?.representations.first?.data == bytes)

        var sizes: [Int] = []
        for try await chunk in try TransferByteStream(contentsOf: url, chunkSize: 128 * 1024) {
            sizes.append(chunk.count)
        }
        #expect(sizes == [131_072, 131_072, 37_856])
    }

    @Test("A missing file is fileCoercionFailed")
    func missingFile() throws {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
        let error = #expect(throws: TransferError.self) { try TransferByteStream(contentsOf: url) }
        #expect(error?.code == .fileCoercionFailed)
    }

    @Test("Cancelling the progress mid-stream stops the archive writer with cancelled")
    func cancelMidStream() async throws {
        let progress = TransferProgress()
        let chunks = CountedChunks(
            count: 100, size: 1_000,
            onChunk: { index in if index == 3 { progress.cancel() } })
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(length: UInt64(chunks.totalBytes), chunks)
        }
        var writer = TransferArchiveWriter { _ in }
        let error = await #expect(throws: TransferError.self) {
            try await writer.write(providers: [provider], progress: progress)
        }
        #expect(error?.code == .cancelled)
        #expect(chunks.ledger.snapshot.made <= 5)
    }

    @Test("Cancelling the task mid-stream stops the archive writer with cancelled")
    func cancelTaskMidStream() async throws {
        let started = AsyncStream<Void>.makeStream()
        let chunks = CountedChunks(
            count: 1_000_000, size: 16, suspends: true,
            onChunk: { index in if index == 2 { started.continuation.yield() } })
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(length: UInt64(chunks.totalBytes), chunks)
        }
        let task = Task {
            var writer = TransferArchiveWriter { _ in }
            try await writer.write(providers: [provider])
        }
        for await _ in started.stream { break }
        task.cancel()
        let error = await #expect(throws: TransferError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(chunks.ledger.snapshot.made < 1_000_000)
    }

    @Test("Cancelling a load that collects a stream stops it with cancelled")
    func cancelCollecting() async throws {
        let progress = TransferProgress()
        let chunks = CountedChunks(count: 100, size: 100, onChunk: { index in if index == 2 { progress.cancel() } })
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in TransferByteStream(chunks) }
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: .data, progress: progress)
        }
        #expect(error?.code == .cancelled)
        #expect(chunks.ledger.snapshot.made <= 4)
    }

    @Test("An error thrown by the sequence surfaces as loaderFailed with that error as its cause")
    func sequenceError() async throws {
        let chunks = CountedChunks(count: 10, size: 100, failAt: 4)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(length: UInt64(chunks.totalBytes), chunks)
        }
        var writer = TransferArchiveWriter { _ in }
        let written = await #expect(throws: TransferError.self) { try await writer.write(providers: [provider]) }
        #expect(written?.code == .loaderFailed)
        #expect(written?.cause as? StreamFailure == .sourceVanished)

        let loaded = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: .data)
        }
        #expect(loaded?.code == .loaderFailed)
        #expect(loaded?.cause as? StreamFailure == .sourceVanished)

        let iterated = await #expect(throws: TransferError.self) {
            for try await _ in try await provider.loadStream(for: .data) {}
        }
        #expect(iterated?.code == .loaderFailed)
        #expect(iterated?.cause as? StreamFailure == .sourceVanished)
    }

    @Test(
        "A sequence that yields more or fewer bytes than it declared is lengthMismatch",
        arguments: [-1, 1, -100])
    func lengthMismatch(offset: Int) async throws {
        let chunks = CountedChunks(count: 4, size: 100)
        let declared = UInt64(chunks.totalBytes + offset)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in TransferByteStream(length: declared, chunks) }
        var writer = TransferArchiveWriter { _ in }
        let written = await #expect(throws: TransferError.self) { try await writer.write(providers: [provider]) }
        #expect(written?.code == .lengthMismatch)

        let loaded = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: .data)
        }
        #expect(loaded?.code == .lengthMismatch)

        let iterated = await #expect(throws: TransferError.self) {
            for try await _ in try await provider.loadStream(for: .data) {}
        }
        #expect(iterated?.code == .lengthMismatch)
    }

    @Test("writeItem writes one provider at a time between begin and finish")
    func writeItemByItem() async throws {
        let output = ArchiveOutput()
        var writer = output.makeWriter()
        try writer.begin(itemCount: 2)
        for text in ["one", "two"] {
            let provider = TransferProvider()
            provider.registerStreamRepresentation(for: .utf8PlainText) { _ in TransferByteStream(data: Data(text.utf8))
            }
            try await writer.writeItem(from: provider)
        }
        try writer.finish()
        let texts = try output.archive().items.map { String(decoding: $0.representations[0].data, as: UTF8.self) }
        #expect(texts == ["one", "two"])
    }
}
