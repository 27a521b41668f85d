import Foundation
import Testing
import TransferArchive
import TransferKitPlatform
import UniformTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Archive writer: representations in pieces, and files spliced into pipes", .timeLimit(.minutes(5)))
struct ArchivePiecewiseWriterTests {
    /// A writer into memory and what it wrote.
    final class Output {
        var bytes = Data()
        func makeWriter() -> TransferArchiveWriter { TransferArchiveWriter { self.bytes.append(contentsOf: $0) } }
    }

    @Test("Pieces of any size give the archive that writeRepresentation(type:data:) gives")
    func piecesEqualWhole() throws {
        let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let expected = try TransferArchive(items: [
            TransferArchive.Item(
                suggestedName: "clip", metadata: [:],
                representations: [
                    TransferArchive.Representation(type: .movie, data: payload),
                    TransferArchive.Representation(type: .utf8PlainText, data: Data("hi".utf8)),
                ])
        ]).encoded(as: .cbor)
        let output = Output()
        var writer = output.makeWriter()
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: "clip", metadata: [:], representationCount: 2)
        try writer.beginRepresentation(type: .movie, length: UInt64(payload.count))
        // Small pieces (gathered) and large ones (written through), and an empty one.
        var start = 0
        for size in [1, 0, 100, 70_000, 3, 100_000] + [payload.count] {
            let end = min(payload.count, start + size)
            try payload[start..<end].withUnsafeBytes { try writer.appendPayload($0) }
            start = end
        }
        try writer.finishRepresentation()
        try writer.writeRepresentation(type: .utf8PlainText, data: Data("hi".utf8))
        try writer.finish()
        #expect(output.bytes == expected)
    }

    @Test("More bytes than promised is lengthMismatch")
    func tooMany() throws {
        var writer = Output().makeWriter()
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        try writer.beginRepresentation(type: .data, length: 3)
        let error = #expect(throws: TransferArchiveError.self) {
            try Data([1, 2, 3, 4]).withUnsafeBytes { try writer.appendPayload($0) }
        }
        #expect(error?.code == .lengthMismatch)
        #expect(error?.type == .data)
    }

    @Test("Fewer bytes than promised is lengthMismatch")
    func tooFew() throws {
        var writer = Output().makeWriter()
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        try writer.beginRepresentation(type: .data, length: 3)
        try Data([1, 2]).withUnsafeBytes { try writer.appendPayload($0) }
        let error = #expect(throws: TransferArchiveError.self) { try writer.finishRepresentation() }
        #expect(error?.code == .lengthMismatch)
    }

    @Test("Pieces without an open representation, or other calls while one is open, are countMismatch")
    func outOfOrder() throws {
        var writer = Output().makeWriter()
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 2)
        let stray = #expect(throws: TransferArchiveError.self) {
            try Data([1]).withUnsafeBytes { try writer.appendPayload($0) }
        }
        #expect(stray?.code == .countMismatch)

        var open = Output().makeWriter()
        try open.begin(itemCount: 1)
        try open.beginItem(suggestedName: nil, metadata: [:], representationCount: 2)
        try open.beginRepresentation(type: .data, length: 1)
        let interleaved = #expect(throws: TransferArchiveError.self) {
            try open.writeRepresentation(type: .png, data: Data([1]))
        }
        #expect(interleaved?.code == .countMismatch)

        var unopened = Output().makeWriter()
        try unopened.begin(itemCount: 0)
        let finishing = #expect(throws: TransferArchiveError.self) { try unopened.finishRepresentation() }
        #expect(finishing?.code == .countMismatch)
    }

    @Test("A cancelled progress stops the next piece with cancelled")
    func cancelledPiece() throws {
        final class Cancelling: TransferArchiveProgressReporting {
            var isCancelled = false
            func willTransfer(byteCount: UInt64) {}
            func didTransfer(byteCount: Int) { isCancelled = true }
        }
        var writer = Output().makeWriter()
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        try writer.beginRepresentation(type: .data, length: 2, progress: Cancelling())
        try Data([1]).withUnsafeBytes { try writer.appendPayload($0) }
        let error = #expect(throws: TransferArchiveError.self) {
            try Data([2]).withUnsafeBytes { try writer.appendPayload($0) }
        }
        #expect(error?.code == .cancelled)
    }

    @Test("A file written into a pipe (spliced on Linux) gives the same archive and leaves the file after the payload")
    func fileIntoPipe() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("splice-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let prefix = Data("skip".utf8)
        let payload = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) })
        try (prefix + payload + Data("tail".utf8)).write(to: url)
        let expected = try TransferArchive(items: [
            TransferArchive.Item(
                suggestedName: nil, metadata: [:],
                representations: [TransferArchive.Representation(type: .data, data: payload)])
        ]).encoded(as: .cbor)

        let input = open(url.path, O_RDONLY)
        try #require(input >= 0)
        defer { close(input) }
        #expect(lseek(input, off_t(prefix.count), SEEK_SET) == off_t(prefix.count))
        // Close-on-exec, so no child that another test spawns meanwhile keeps the write end open.
        let pipe = try Syscall.makePipe()
        let ends = [pipe.read, pipe.write]
        let readEnd = ends[0]
        let received = ReceivedBytes()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.append(buffer[..<count])
            }
            received.finish()
        }
        reader.start()
        var writer = TransferArchiveWriter(fileDescriptor: ends[1], chunkSize: 256 * 1024)
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        try writer.writeRepresentation(type: .data, length: UInt64(payload.count), from: input)
        try writer.finish()
        close(ends[1])
        let bytes = received.wait()
        close(readEnd)
        #expect(bytes == expected)
        #expect(lseek(input, 0, SEEK_CUR) == off_t(prefix.count + payload.count))
    }
}

@Suite("Archive reader: large payloads read straight from the descriptor", .timeLimit(.minutes(5)))
struct ArchiveDirectReadTests {
    /// An archive with one `length`-byte payload (byte i is i * 5), written to a temporary file cut to `keep` bytes.
    private func archiveFile(payloadLength length: Int, keep: Int? = nil) throws -> URL {
        let payload = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 5) })
        let bytes = try TransferArchive(items: [
            TransferArchive.Item(
                suggestedName: nil, metadata: [:],
                representations: [TransferArchive.Representation(type: .data, data: payload)])
        ]).encoded(as: .cbor)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID().uuidString)")
        try bytes.prefix(keep ?? bytes.count).write(to: url)
        return url
    }

    @Test("Chunks of a multi-MiB payload arrive whole and in order, with the checksum verified")
    func wholeChunks() throws {
        let url = try archiveFile(payloadLength: 3 * (1 << 20) + 1234)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var reader = try TransferArchiveReader(fileDescriptor: fd)
        _ = try #require(try reader.nextItem())
        _ = try #require(try reader.nextRepresentation())
        var sizes: [Int] = []
        var index = 0
        var matches = true
        try reader.readPayload { chunk in
            sizes.append(chunk.count)
            for byte in chunk {
                if byte != UInt8(truncatingIfNeeded: index &* 5) { matches = false }
                index += 1
            }
        }
        #expect(sizes == [1 << 20, 1 << 20, 1 << 20, 1234])
        #expect(matches)
        #expect(try reader.nextItem() == nil)
    }

    @Test("An input that ends inside a large payload is truncated, saying how far in")
    func truncatedInside() throws {
        let url = try archiveFile(payloadLength: 3 << 20, keep: 2 << 20)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var reader = try TransferArchiveReader(fileDescriptor: fd)
        _ = try #require(try reader.nextItem())
        let header = try #require(try reader.nextRepresentation())
        var received = 0
        let error = #expect(throws: TransferArchiveError.self) {
            try reader.readPayload { received += $0.count }
        }
        #expect(error?.code == .truncated)
        #expect(received == 1 << 20)
        #expect(
            error?.message.contains("bytes into the \(header.length)-byte payload") == true,
            "\(String(describing: error))")
    }
}

/// Bytes a reader thread collects, handed over once it is done.
private final class ReceivedBytes: @unchecked Sendable {
    // @unchecked: `bytes` is written by the reader thread only before `done` is signalled, and read after.
    private var bytes = Data()
    private let done = DispatchSemaphore(value: 0)

    func append(_ chunk: ArraySlice<UInt8>) { bytes.append(contentsOf: chunk) }
    func finish() { done.signal() }

    func wait() -> Data {
        done.wait()
        return bytes
    }
}
