import Foundation
import TransferKit
import TransferKitPlatform
import TransferSessions
import UniformTypes

/// Benchmark 12 (issue 26 item 8): a drag session's exactly-once move between two processes, against the same number
/// of raw Unix-socket round trips between the same two processes. Reported, no target.
///
/// A child copy of the benchmark (`--session-child session FOLDER COUNT`) holds a `TransferList` of cards and
/// publishes one drag of one card after another, each on its own socket; the benchmark connects to each with
/// `RemoteDragSession.connect(toPath:origin:timeout:)` and drops it as a move that loads the card (offer, load,
/// reserved, commit, finished: four request and reply exchanges). A second child (`--session-child raw FOLDER
/// COUNT`) answers four 32-byte requests with 64-byte replies on each of its sockets. Each sample times one whole
/// connection, from `connect` to the last reply; waiting for the child to listen is not timed.
enum SessionMoveBenchmark {
    static let childFlag = "--session-child"

    /// The request and reply exchanges of one remote move, which the raw baseline repeats.
    static let exchanges = 4

    /// The card that moves.
    struct Card: TransferCodable, Identifiable, Sendable {
        var id: String
        var title: String

        static var contentType: UniformType {
            UniformType(exportedAs: "com.example.bench.card", conformingTo: .json)
        }
    }

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let name = "sessions: cross-process move"
        let pairs = configuration.quick ? 5 : 41
        do {
            let benchmark = try ProductsDirectory.executable("transferkit-bench")
            let directory = try TemporaryDirectory()
            let devNull = try Spawn.openFile("/dev/null", writing: true)
            defer { Syscall.close(devNull) }
            // One extra connection each for the warm-up.
            let count = String(pairs + 1)
            let sessionChild = try Spawn.start(
                benchmark, [childFlag, "session", directory.path, count], standardInput: devNull,
                standardOutput: devNull, standardError: 2)
            let rawChild = try Spawn.start(
                benchmark, [childFlag, "raw", directory.path, count], standardInput: devNull, standardOutput: devNull,
                standardError: 2)
            var moved: [Card] = []
            var sessionIndex = 0
            var rawIndex = 0
            let samples: PairedSamples
            do {
                samples = try await PairedRunner.alternate(
                    pairs: pairs,
                    project: {
                        defer { sessionIndex += 1 }
                        let (nanoseconds, cards) = try await move(at: "\(directory.path)/s\(sessionIndex)")
                        moved += cards
                        return nanoseconds
                    },
                    baseline: {
                        defer { rawIndex += 1 }
                        return try await exchange(at: "\(directory.path)/r\(rawIndex)")
                    })
            } catch {
                kill(sessionChild, SIGKILL)
                kill(rawChild, SIGKILL)
                _ = try? Spawn.wait(sessionChild, name: "session child")
                _ = try? Spawn.wait(rawChild, name: "raw child")
                throw error
            }
            let sessionStatus = try Spawn.wait(sessionChild, name: "\(childFlag) session")
            let rawStatus = try Spawn.wait(rawChild, name: "\(childFlag) raw")
            guard sessionStatus == 0, rawStatus == 0 else {
                throw BenchmarkError("the children exited with \(sessionStatus) and \(rawStatus)")
            }
            guard moved.map(\.id) == (0...pairs).map(String.init) else {
                throw BenchmarkError("the moved cards are \(moved.map(\.id)), not each card once in order")
            }
            let microseconds = { (nanoseconds: Double) in nanoseconds / 1000 }
            return [
                ResultRow(
                    name, unit: "µs/move", project: Summary(lowerIsBetter: samples.project).mapped(microseconds),
                    baselineName: "\(exchanges) raw socket round trips",
                    baseline: Summary(lowerIsBetter: samples.baseline).mapped(microseconds),
                    ratio: samples.medianCostRatio, ratioMeaning: "time",
                    note:
                        "Connect, offer, load of one card (JSON), reserved, commit and finished between this process and "
                        + "a child that publishes each drag of a TransferList on its own socket and removes the card "
                        + "once; against a child that answers \(exchanges) 32-byte requests with 64-byte replies on a "
                        + "fresh socket. One connection per sample; each card arrives exactly once, in order.")
            ]
        } catch {
            return [ResultRow(name, status: .error, note: "\(error)")]
        }
    }

    /// Waits (untimed, up to 30 s) until a child listens at `path`.
    ///
    /// The socket's file appears at `bind(2)`, before the child's `listen(2)`; a connect in between is refused. So
    /// this waits for the kernel's table of Unix sockets (`/proc/net/unix`) to show a listening socket at `path`.
    private static func waitForListener(_ path: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !isListening(path) {
            guard ContinuousClock.now < deadline else { throw BenchmarkError("nothing listens at \(path)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Whether `/proc/net/unix` lists a socket bound to `path` with the listening flag (`__SO_ACCEPTCON`, 0x10000).
    private static func isListening(_ path: String) -> Bool {
        guard let table = unixSocketTable() else { return false }
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[7] == path, let flags = UInt32(fields[3], radix: 16) else { return false }
            return flags & 0x10000 != 0
        }
    }

    /// The kernel's table of Unix sockets, read to its end. It is a `seq_file` that reports a size of 0 and hands out
    /// whole lines, about a page, per read; `String(contentsOfFile:)` stops after the first short read, so once the
    /// machine had some 40 sockets the children's listeners fell past it and the suite failed ("nothing listens").
    private static func unixSocketTable() -> String? {
        guard let descriptor = try? Syscall.openForReading("/proc/net/unix") else { return nil }
        defer { Syscall.close(descriptor) }
        var table: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard let count = try? Syscall.read(descriptor, into: &chunk) else { return nil }
            if count == 0 { return String(decoding: table, as: UTF8.self) }
            table += chunk[..<count]
        }
    }

    /// One remote move of the card published at `path`; its time in nanoseconds and the cards that arrived.
    private static func move(at path: String) async throws -> (Double, [Card]) {
        try await waitForListener(path)
        let started = MonotonicClock.now()
        let remote = try await RemoteDragSession.connect(toPath: path, origin: .current, timeout: .seconds(30))
        let result = try await remote.drop(DropProposal(operation: .move)) { drop, _ in
            try await drop.loadObjects(ofClass: Card.self)
        }
        let nanoseconds = MonotonicClock.elapsed(since: started)
        remote.close()
        guard result.operation == .move, let cards = result.value else {
            throw BenchmarkError("the drop at \(path) ended as \(result.operation)")
        }
        return (nanoseconds, cards)
    }

    /// The raw baseline's exchanges on the socket at `path`, in nanoseconds.
    private static func exchange(at path: String) async throws -> Double {
        try await waitForListener(path)
        let started = MonotonicClock.now()
        let socket = try UnixSocket.connect(toPath: path)
        defer { socket.close() }
        let request = [UInt8](repeating: 0x2A, count: 32)
        for _ in 0..<exchanges {
            try socket.sendAll(request, timeout: .seconds(30))
            try receive(64, from: socket)
        }
        return MonotonicClock.elapsed(since: started)
    }

    /// Reads exactly `count` bytes.
    private static func receive(_ count: Int, from socket: UnixSocket) throws {
        var buffer = [UInt8](repeating: 0, count: count)
        var received = 0
        var descriptors: [Int32] = []
        while received < count {
            guard try socket.waitUntilReadable(timeout: .seconds(30)) else {
                throw BenchmarkError("no reply within 30 s")
            }
            let got = try buffer.withUnsafeMutableBytes { bytes in
                try socket.receive(
                    into: UnsafeMutableRawBufferPointer(rebasing: bytes[received...]), descriptors: &descriptors)
            }
            guard got > 0 else { throw BenchmarkError("the peer closed after \(received) of \(count) bytes") }
            received += got
        }
    }

    /// The children: `session FOLDER COUNT` publishes COUNT one-card drags as `FOLDER/s0`, `s1`, …, one after
    /// another; `raw FOLDER COUNT` answers the exchanges on `FOLDER/r0`, `r1`, …. The exit status is 0 when every
    /// connection went through (for `session`: every card left the list, each by a move).
    static func child(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
            BenchmarkProgram.printError("usage: transferkit-bench \(childFlag) session|raw FOLDER COUNT")
            return 2
        }
        let folder = arguments[1]
        do {
            switch arguments[0] {
            case "session":
                let list = TransferList((0..<count).map { Card(id: String($0), title: "card \($0)") })
                for index in 0..<count {
                    let session = try list.beginDrag([String(index)], allowsMoveToOtherApplications: true)
                    let publication = try DragSessionPublication(
                        publishing: session, atPath: "\(folder)/s\(index)", timeout: .seconds(30))
                    let operation = try await publication.ended(within: .seconds(60))
                    publication.close()
                    guard operation == .move else { throw BenchmarkError("drag \(index) ended as \(operation)") }
                }
                guard list.elements.isEmpty else { throw BenchmarkError("\(list.elements.count) cards stayed") }
            case "raw":
                let reply = [UInt8](repeating: 0x2B, count: 64)
                for index in 0..<count {
                    let listener = try UnixSocket.listen(atPath: "\(folder)/r\(index)")
                    defer { listener.close() }
                    guard let connection = try listener.accept(until: .after(.seconds(60))) else {
                        throw BenchmarkError("nobody connected to r\(index)")
                    }
                    defer { connection.close() }
                    for _ in 0..<exchanges {
                        try receive(32, from: connection)
                        try connection.sendAll(reply, timeout: .seconds(30))
                    }
                }
            default:
                BenchmarkProgram.printError("usage: transferkit-bench \(childFlag) session|raw FOLDER COUNT")
                return 2
            }
            return 0
        } catch {
            BenchmarkProgram.printError("transferkit-bench \(childFlag) \(arguments[0]): \(error)")
            return 1
        }
    }
}
