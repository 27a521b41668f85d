import Foundation
import Testing
import TransferClipboard
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import UniformTypes

/// A file's bytes written to a descriptor: into a pipe they move with `splice(2)`, into a socket they are read and
/// written; either way the reader gets the same bytes and the same errors, and the descriptor keeps its flags.
@Suite("Toolkit offer bridge: a file's bytes", .serialized, .timeLimit(.minutes(5)))
struct TransferOfferFileTests {
    /// A file of `count` bytes that differ from one offset to the next, in a fresh folder.
    static func makeFile(_ count: Int) throws -> (url: URL, bytes: Data, folder: URL) {
        let folder = try makeTemporaryDirectory(prefix: "tk-offer-file")
        let url = folder.appendingPathComponent("payload.bin")
        let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        try bytes.write(to: url)
        return (url, bytes, folder)
    }

    /// An offer of `url` as a file representation of `public.data`.
    static func fileOffer(_ url: URL) -> TransferOffer {
        let provider = TransferProvider()
        provider.registerFileRepresentation(for: .data) { _ in url }
        return TransferOffer(providers: [provider])
    }

    /// Reads `descriptor` to its end on a thread of its own.
    static func readAll(_ descriptor: Int32) async throws -> Data {
        try await onThreadOfItsOwn {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var data = Data()
            while true {
                let count = try Syscall.read(descriptor, into: &buffer)
                guard count > 0 else { return data }
                data.append(contentsOf: buffer[..<count])
            }
        }
    }

    /// Whether `descriptor` is non-blocking.
    static func isNonBlocking(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0
    }

    @Test(
        "A file reaches a pipe whole (spliced), with its progress; the pipe's blocking flag is as it was",
        arguments: [false, true])
    func fileIntoPipe(nonBlocking: Bool) async throws {
        let file = try Self.makeFile((3 << 20) + 123)
        defer { try? FileManager.default.removeItem(at: file.folder) }
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        try Syscall.setNonBlocking(pipe.write, nonBlocking)
        let reader = Task { try await Self.readAll(pipe.read) }
        let progress = TransferProgress()
        try await Self.fileOffer(file.url).write("public.data", to: pipe.write, progress: progress)
        #expect(Self.isNonBlocking(pipe.write) == nonBlocking)
        Syscall.close(pipe.write)
        #expect(try await reader.value == file.bytes)
        #expect(progress.totalUnitCount == Int64(file.bytes.count))
        #expect(progress.completedUnitCount == Int64(file.bytes.count))
    }

    @Test("A range in the middle of a file (a spooled payload, other payloads after it) reaches a pipe alone")
    func rangeIntoPipe() async throws {
        let file = try Self.makeFile((2 << 20) + 1000)
        defer { try? FileManager.default.removeItem(at: file.folder) }
        let spool = SharedDescriptor(adopting: try Syscall.openForReading(file.url.path))
        let range = 1000..<((1 << 20) + 3000)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(
                range: Int64(range.lowerBound), length: UInt64(range.count), of: spool, name: "the middle payload")
        }
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        let reader = Task { try await Self.readAll(pipe.read) }
        try await TransferOffer(providers: [provider]).write("public.data", to: pipe.write)
        Syscall.close(pipe.write)
        #expect(try await reader.value == file.bytes[range])
    }

    @Test("Into a socket, which cannot take a splice, a file's bytes are read and written: the same bytes")
    func fileIntoSocket() async throws {
        let file = try Self.makeFile((1 << 20) + 7)
        defer { try? FileManager.default.removeItem(at: file.folder) }
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { Syscall.close(ends[0]) }
        let reader = Task { [ends] in try await Self.readAll(ends[0]) }
        try await Self.fileOffer(file.url).write("public.data", to: ends[1])
        #expect(!Self.isNonBlocking(ends[1]))
        Syscall.close(ends[1])
        #expect(try await reader.value == file.bytes)
    }

    /// An offer of a stream of `url` whose file `change` alters after the stream was made (its length is then
    /// fixed).
    static func changedFileOffer(_ url: URL, change: @escaping @Sendable (URL) throws -> Void) -> TransferOffer {
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            let stream = try TransferByteStream(contentsOf: url)
            try change(url)
            return stream
        }
        return TransferOffer(providers: [provider])
    }

    @Test(
        "A file that grew or shrank after its stream was made is lengthMismatch, into a pipe as into a socket",
        arguments: [true, false], [true, false])
    func changedFile(grew: Bool, intoPipe: Bool) async throws {
        let file = try Self.makeFile(200_000)
        defer { try? FileManager.default.removeItem(at: file.folder) }
        let offer = Self.changedFileOffer(file.url) { url in
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            if grew {
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("more".utf8))
            } else {
                try handle.truncate(atOffset: 1000)
            }
        }
        var ends: [Int32] = [0, 0]
        if intoPipe {
            let pipe = try Syscall.makePipe()
            ends = [pipe.read, pipe.write]
        } else {
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        }
        defer { Syscall.close(ends[0]) }
        let reader = Task { [ends] in try await Self.readAll(ends[0]) }
        let error = await #expect(throws: TransferError.self) { try await offer.write("public.data", to: ends[1]) }
        Syscall.close(ends[1])
        #expect(error?.code == .lengthMismatch)
        _ = try await reader.value
    }

    @Test("A reader of a file's bytes that went away, or stopped reading, is transferFailed")
    func readerGoneOrStalled() async throws {
        let file = try Self.makeFile(4 << 20)
        defer { try? FileManager.default.removeItem(at: file.folder) }
        try await TransferOfferTests.expectTransferFailedForGoneAndStalledReaders(of: Self.fileOffer(file.url))
    }
}
