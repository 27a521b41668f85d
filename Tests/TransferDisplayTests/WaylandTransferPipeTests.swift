import Foundation
import Testing
import TransferKit
import TransferKitPlatform

@testable import TransferDisplay

/// The pipes of Wayland transfers are 1 MiB on both sides, without a compositor: a 64 KiB pipe made a 256 MiB paste
/// take 4 096 turns of writer and reader, each a wake-up that a busy machine delays (the paste ran at a tenth of
/// wl-paste's rate).
@Suite("Wayland transfer pipes", .timeLimit(.minutes(5)))
struct WaylandTransferPipeTests {
    /// The capacity the system lets this process give a pipe, up to 1 MiB.
    static var expectedCapacity: Int {
        let limit =
            (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? (1 << 20)
        return min(1 << 20, getuid() == 0 ? 1 << 20 : limit)
    }

    @Test("a receive's pipe holds 1 MiB")
    func receivePipe() throws {
        #if os(Linux)
            let pipe = try WaylandBackend.makeTransferPipe()
            defer {
                Syscall.close(pipe.read)
                Syscall.close(pipe.write)
            }
            #expect(WaylandBackend.transferPipeCapacity == 1 << 20)
            #expect(Syscall.pipeCapacity(pipe.read) == Self.expectedCapacity)
        #endif
    }

    @Test("serving into a reader's 64 KiB pipe enlarges it to 1 MiB, and the bytes arrive whole")
    func servedPipe() async throws {
        #if os(Linux)
            let (readEnd, writeEnd) = try Syscall.makePipe()
            defer { Syscall.close(readEnd) }
            let before = Syscall.pipeCapacity(readEnd)
            #expect(before == 1 << 16)
            let bytes = Data((0..<(3 << 16)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            // The serve closes the write end when it is done; a reader on a thread of its own drains the pipe meanwhile.
            async let reading = DedicatedThread.run { () throws(SystemError) -> (Data, Int?) in
                var received = Data()
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                var capacity: Int?
                while true {
                    let count = try Syscall.read(readEnd, into: &buffer)
                    capacity = capacity ?? Syscall.pipeCapacity(readEnd)
                    if count == 0 { return (received, capacity) }
                    received.append(contentsOf: buffer[..<count])
                }
            }
            await WaylandBackend.serveTransfer(
                mimeType: "application/octet-stream", fd: writeEnd, timeout: .seconds(120),
                serve: { _ in TransferByteStream(data: bytes) })
            let (received, capacity) = try await reading
            #expect(received == bytes)
            #expect(capacity == Self.expectedCapacity)
        #endif
    }
}
