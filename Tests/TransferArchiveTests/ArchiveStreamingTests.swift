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

@Suite("Archive streaming: writer and reader with constant memory", .timeLimit(.minutes(5)))
struct ArchiveStreamingTests {
    /// A temporary file, removed at the end of the test.
    final class TemporaryFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }

        func open(_ flags: Int32) -> Int32 { Glibc.open(url.path, flags, 0o600) }
    }

    /// A deterministic byte pattern (a linear congruential generator).
    struct Pattern {
        var state: UInt32 = 0x1234_5678

        mutating func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// Writes `length` bytes of ``Pattern`` to `fd` through one reused buffer.
    static func writePattern(to fd: Int32, length: Int) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var pattern = Pattern()
        var written = 0
        while written < length {
            let count = min(buffer.count, length - written)
            for index in 0..<count {
                buffer[index] = pattern.next()
            }
            let result = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, count) }
            try #require(result == count)
            written += count
        }
    }

    @Test("A 64 MiB representation streams from a file through the writer and reader in bounded chunks")
    func largeRepresentation() throws {
        let length = 64 << 20
        let source = TemporaryFile()
        let sourceFD = source.open(O_CREAT | O_RDWR | O_TRUNC)
        try #require(sourceFD >= 0)
        defer { close(sourceFD) }
        try Self.writePattern(to: sourceFD, length: length)

        let archive = TemporaryFile()
        let archiveFD = archive.open(O_CREAT | O_RDWR | O_TRUNC)
        try #require(archiveFD >= 0)
        defer { close(archiveFD) }

        lseek(sourceFD, 0, SEEK_SET)
        let writeProgress = CountingReporter()
        var writer = TransferArchiveWriter(fileDescriptor: archiveFD)
        try writer.begin(itemCount: 2)
        try writer.beginItem(
            suggestedName: "big.bin", metadata: ["size": .integer(Int64(length))], representationCount: 2)
        try writer.writeRepresentation(type: .data, length: UInt64(length), from: sourceFD, progress: writeProgress)
        try writer.writeRepresentation(type: .utf8PlainText, data: Data("small".utf8))
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 0)
        try writer.finish()
        #expect(writeProgress.announced == [UInt64(length)])
        #expect(writeProgress.transferred == length)

        lseek(archiveFD, 0, SEEK_SET)
        let chunkSize = 256 * 1024
        var reader = try TransferArchiveReader(fileDescriptor: archiveFD, chunkSize: chunkSize)
        #expect(reader.version.major == 1)
        #expect(reader.itemCount == 2)
        let item = try #require(try reader.nextItem())
        #expect(item.suggestedName == "big.bin")
        #expect(item.representationCount == 2)
        let header = try #require(try reader.nextRepresentation())
        #expect(header.type == .data)
        #expect(header.length == UInt64(length))
        var received = 0
        var largest = 0
        var pattern = Pattern()
        var matches = true
        let readProgress = CountingReporter()
        try reader.readPayload(progress: readProgress) { chunk in
            largest = max(largest, chunk.count)
            received += chunk.count
            for byte in chunk where byte != pattern.next() {
                matches = false
            }
        }
        #expect(received == length)
        #expect(largest <= chunkSize)
        #expect(matches, "every byte equals the pattern written")
        #expect(readProgress.announced == [UInt64(length)])
        #expect(readProgress.transferred == length)
        #expect(readProgress.chunks == (length + chunkSize - 1) / chunkSize)
        let small = try #require(try reader.nextRepresentation())
        #expect(small.type == .utf8PlainText)
        var text = Data()
        try reader.readPayload { text.append(contentsOf: $0) }
        #expect(text == Data("small".utf8))
        #expect(try reader.nextRepresentation() == nil)
        let empty = try #require(try reader.nextItem())
        #expect(empty.index == 1 && empty.representationCount == 0)
        #expect(try reader.nextItem() == nil)
    }

    @Test("The writer's output equals the in-memory encoding, and the reader streams it through a pipe")
    func pipe() throws {
        // Close-on-exec, so no child that another test spawns meanwhile keeps the write end open.
        let ends = try Syscall.makePipe()
        let fds = [ends.read, ends.write]
        let expected = try ArchiveFixtures.golden.encoded(as: .cbor)
        let writeEnd = fds[1]
        let writerThread = Thread {
            var writer = TransferArchiveWriter(fileDescriptor: writeEnd)
            let item = ArchiveFixtures.golden.items[0]
            try? writer.begin(itemCount: 1)
            try? writer.beginItem(
                suggestedName: item.suggestedName, metadata: item.metadata,
                representationCount: item.representations.count)
            for representation in item.representations {
                try? writer.writeRepresentation(type: representation.type, data: representation.data)
            }
            try? writer.finish()
            close(writeEnd)
        }
        writerThread.start()
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fds[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        close(fds[0])
        #expect(Data(bytes) == expected)
    }

    @Test("Skipping payloads still checks them, and skipping whole items works")
    func skipping() throws {
        var bytes = Array(try ArchiveFixtures.golden.encoded(as: .cbor))
        var reader = try TransferArchiveReader(bytes: bytes)
        #expect(try reader.nextItem() != nil)
        #expect(try reader.nextItem() == nil)

        // Flip a byte of the PNG payload: skipping the item must still notice.
        let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]
        let at = try #require(bytes.firstRange(of: png)).lowerBound
        bytes[at + 2] ^= 0x01
        var damaged = try TransferArchiveReader(bytes: bytes)
        _ = try damaged.nextItem()
        let error = #expect(throws: TransferArchiveError.self) { _ = try damaged.nextItem() }
        #expect(error?.code == .checksumMismatch)
    }

    @Test("A checksum mismatch names the item and the type", arguments: TransferArchiveFormat.allCases)
    func checksumMismatch(format: TransferArchiveFormat) throws {
        var bytes = Array(try ArchiveFixtures.golden.encoded(as: format))
        switch format {
        case .cbor:
            let at = try #require(bytes.firstRange(of: Array("llo".utf8))).lowerBound
            bytes[at] ^= 0x20  // "lLo": still valid UTF-8
        case .json:
            let at = try #require(bytes.firstRange(of: Array("llo".utf8))).lowerBound
            bytes[at] ^= 0x20
        }
        let error = try #require(ArchiveFixtures.decodeError(bytes))
        #expect(error.code == .checksumMismatch)
        #expect(error.itemIndex == 0)
        #expect(error.type == .utf8PlainText)
        #expect(error.message.contains("note.txt") || format == .json)
        #expect(error.description.contains("public.utf8-plain-text"))
    }

    @Test("A descriptor shorter than the promised length is an error")
    func shortSource() throws {
        let source = TemporaryFile()
        let fd = source.open(O_CREAT | O_RDWR | O_TRUNC)
        try #require(fd >= 0)
        defer { close(fd) }
        try Self.writePattern(to: fd, length: 10)
        lseek(fd, 0, SEEK_SET)
        var output = Data()
        var writer = TransferArchiveWriter { output.append(contentsOf: $0) }
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        let error = #expect(throws: TransferArchiveError.self) {
            try writer.writeRepresentation(type: .data, length: 11, from: fd)
        }
        #expect(error?.code == .truncated)
        let later = #expect(throws: TransferArchiveError.self) { try writer.finish() }
        #expect(later?.code == .ioFailed)
    }

    @Test("The writer checks the promised counts and the order of calls")
    func writerCounts() throws {
        func attempt(_ body: (inout TransferArchiveWriter) throws -> Void) -> TransferArchiveError.Code? {
            var writer = TransferArchiveWriter { _ in }
            do {
                try body(&writer)
                return nil
            } catch let error as TransferArchiveError {
                return error.code
            } catch {
                return nil
            }
        }
        #expect(
            attempt {
                try $0.begin(itemCount: 1); try $0.finish()
            } == .countMismatch)
        #expect(
            attempt { try $0.beginItem(suggestedName: nil, metadata: [:], representationCount: 0) } == .countMismatch)
        #expect(
            attempt {
                try $0.begin(itemCount: 1)
                try $0.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
                try $0.finish()
            } == .countMismatch)
        #expect(
            attempt {
                try $0.begin(itemCount: 1)
                try $0.beginItem(suggestedName: nil, metadata: [:], representationCount: 0)
                try $0.writeRepresentation(type: .data, data: Data())
            } == .countMismatch)
        #expect(
            attempt {
                try $0.begin(itemCount: 1)
                try $0.beginItem(suggestedName: nil, metadata: [:], representationCount: 2)
                try $0.writeRepresentation(type: .data, data: Data())
                try $0.writeRepresentation(type: .data, data: Data([1]))
            } == .duplicateType)
        #expect(
            attempt {
                try $0.begin(itemCount: 1)
                try $0.beginItem(suggestedName: "a/b", metadata: [:], representationCount: 0)
            } == .invalidName)
        #expect(
            attempt {
                try $0.begin(itemCount: 1)
                try $0.beginItem(suggestedName: "ok", metadata: [:], representationCount: 0)
                try $0.finish()
            } == nil)
    }

    @Test("A failing sink becomes ioFailed with the cause kept")
    func failingSink() {
        struct Full: Error {}
        var writer = TransferArchiveWriter { _ in throw Full() }
        let error = #expect(throws: TransferArchiveError.self) {
            try writer.begin(itemCount: 0)
            try writer.finish()
        }
        #expect(error?.code == .ioFailed)
        #expect(error?.cause is Full)
    }

    @Test("A progress reporter that says cancelled stops the reader with cancelled")
    func cancellation() throws {
        let bytes = Array(try ArchiveFixtures.golden.encoded(as: .cbor))
        var reader = try TransferArchiveReader(bytes: bytes)
        _ = try reader.nextItem()
        _ = try reader.nextRepresentation()
        let progress = CountingReporter()
        progress.isCancelled = true
        let error = #expect(throws: TransferArchiveError.self) { try reader.readPayload(progress: progress) { _ in } }
        #expect(error?.code == .cancelled)
    }
}

/// A progress reporter that records what the reader or writer told it.
private final class CountingReporter: TransferArchiveProgressReporting {
    var announced: [UInt64] = []
    var transferred = 0
    var chunks = 0
    var isCancelled = false

    func willTransfer(byteCount: UInt64) { announced.append(byteCount) }

    func didTransfer(byteCount: Int) {
        transferred += byteCount
        chunks += 1
    }
}
