import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

/// Writes `text` to `descriptor`.
private func write(_ text: String, to descriptor: Int32) throws {
    try Array(text.utf8).withUnsafeBytes { bytes in try Syscall.write(descriptor, bytes) }
}

@Suite("Atomic files", .timeLimit(.minutes(5)))
struct AtomicFileTests {
    @Test func writesTheWholeFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        try await AtomicFile.write(toPath: path) { try write("hello", to: $0) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions != 0o600)
    }

    @Test func failureLeavesTheOldFileAndNoTemporary() async throws {
        struct Interrupted: Error {}
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: Interrupted.self) {
            try await AtomicFile.write(toPath: path) { descriptor in
                try write("half", to: descriptor)
                throw Interrupted()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
    }

    @Test func unwritableDirectoryThrowsTheSystemError() async {
        let error = await #expect(throws: SystemError.self) {
            try await AtomicFile.write(toPath: "/nonexistent-dir/out.bin") { _ in }
        }
        #expect(error?.errorNumber == ErrorNumber.noSuchFile)
        #expect(error?.path == "/nonexistent-dir/out.bin")
    }

    @Test("a new file takes the first free name and never replaces one; with every name taken it is EEXIST")
    func newFileTakesTheFirstFreeName() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.path + "/"
        try Data("old".utf8).write(to: directory.appendingPathComponent("a.txt"))
        let names = ["a.txt", "a 2.txt", "a 3.txt"]
        let first = try await AtomicFile.writeNew(inDirectory: folder, firstFreeOf: names) { try write("one", to: $0) }
        #expect(first.name == "a 2.txt")
        let second = try await AtomicFile.writeNew(inDirectory: folder, firstFreeOf: names) { try write("two", to: $0) }
        #expect(second.name == "a 3.txt")
        let error = await #expect(throws: SystemError.self) {
            try await AtomicFile.writeNew(inDirectory: folder, firstFreeOf: names) { try write("three", to: $0) }
        }
        #expect(error?.errorNumber == ErrorNumber.fileExists)
        #expect(try String(contentsOfFile: folder + "a.txt", encoding: .utf8) == "old")
        #expect(try String(contentsOfFile: folder + "a 2.txt", encoding: .utf8) == "one")
        #expect(try String(contentsOfFile: folder + "a 3.txt", encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == names.sorted())
    }
}

@Suite("Regular files", .timeLimit(.minutes(5)))
struct RegularFileTests {
    @Test func readsAWholeFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("data").path
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        #expect(RegularFile.read(atPath: path, limit: 3) == .success(Array("abc".utf8)))
        #expect(RegularFile.read(atPath: path, limit: 2) == .failure(.tooLarge(size: 3, limit: 2)))
    }

    @Test func aMissingFileIsMissing() {
        #expect(RegularFile.read(atPath: "/nonexistent-dir/file", limit: 10) == .failure(.missing))
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        // A blocking open would wait here forever: nobody opens the FIFO for writing.
        #expect(RegularFile.read(atPath: path, limit: 10) == .failure(.notRegular))
    }

    @Test func aDirectoryIsNotARegularFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(RegularFile.read(atPath: directory.path, limit: 10) == .failure(.notRegular))
    }
}

@Suite("Temporary files", .timeLimit(.minutes(5)))
struct TemporaryFileTests {
    @Test func anUnlinkedFileHasNoNameButHoldsData() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let descriptor = try TemporaryFile.makeUnlinked(prefix: "spool-test", in: directory.path)
        defer { Syscall.close(descriptor) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        try write("kept", to: descriptor)
        try Syscall.rewind(descriptor)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try Syscall.read(descriptor, into: &buffer)
        #expect(Array(buffer[..<count]) == Array("kept".utf8))
    }
}

@Suite("Stale temporary files", .timeLimit(.minutes(5)))
struct StaleTemporaryFileTests {
    @Test func onlyRegularFilesOfProcessesThatAreGoneAreRemoved() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 2^31 - 1 is above any pid_max, so no process has it; pid 1 always exists.
        let gone = ".transferkit-tmp-2147483647-out.bin.AbC123"
        let names = [
            gone, ".transferkit-tmp-\(Syscall.processID)-mine.bin.AbC123", ".transferkit-tmp-1-init.bin.AbC123",
            ".transferkit-tmp-x-not-a-pid", ".transferkit-tmp-2147483647", "out.bin",
        ]
        for name in names {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent(".transferkit-tmp-2147483647-folder"),
            withIntermediateDirectories: false)
        let removed = AtomicFile.removeStaleTemporaryFiles(inDirectory: directory.path + "/")
        #expect(removed == [directory.path + "/" + gone])
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == (names.dropFirst() + [".transferkit-tmp-2147483647-folder"]).sorted())
    }

    @Test func everyCatchableTerminatingSignalButPIPEIsCleanedUp() {
        #expect(Set(AtomicFile.cleanupSignals) == [SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM])
        #expect(!AtomicFile.cleanupSignals.contains(SIGPIPE))
    }
}

@Suite("Pipes", .timeLimit(.minutes(5)))
struct PipeTests {
    @Test("enlargePipe grows a pipe up to the system's limit, and says nil for a file")
    func enlarge() throws {
        let (readEnd, writeEnd) = try Syscall.makePipe()
        defer {
            Syscall.close(readEnd)
            Syscall.close(writeEnd)
        }
        #if os(Linux)
            let before = try #require(Syscall.pipeCapacity(writeEnd))
            let after = try #require(Syscall.enlargePipe(writeEnd, toAtMost: 1 << 20))
            #expect(after >= before)
            #expect(after <= 1 << 20)
            // Asking for less never shrinks it.
            #expect(Syscall.enlargePipe(readEnd, toAtMost: 4096) == after)
            #expect(Syscall.pipeCapacity(readEnd) == after)
        #endif
        let file = try Syscall.openForReading("/proc/self/status")
        defer { Syscall.close(file) }
        #expect(Syscall.enlargePipe(file, toAtMost: 1 << 20) == nil)
        #expect(try Syscall.status(readEnd).isPipe)
        #expect(try !Syscall.status(file).isPipe)
    }

    @Test("splice moves a file's bytes into a pipe and advances the offset; nil when the output is no pipe")
    func splice() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("in.bin").path
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        let input = try Syscall.openForReading(path)
        defer { Syscall.close(input) }
        let (readEnd, writeEnd) = try Syscall.makePipe()
        defer {
            Syscall.close(readEnd)
            Syscall.close(writeEnd)
        }
        var offset: Int64 = 2
        #if os(Linux)
            let moved = try Syscall.splice(from: input, offset: &offset, toPipe: writeEnd, count: 5)
            #expect(moved == 5)
            #expect(offset == 7)
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = try Syscall.read(readEnd, into: &buffer)
            #expect(String(decoding: buffer[..<count], as: UTF8.self) == "23456")
            let output = try Syscall.openForWriting(directory.appendingPathComponent("out.bin").path)
            defer { Syscall.close(output) }
            #expect(try Syscall.splice(from: input, offset: &offset, toPipe: output, count: 1) == nil)
            #expect(offset == 7)
        #else
            #expect(try Syscall.splice(from: input, offset: &offset, toPipe: writeEnd, count: 5) == nil)
        #endif
    }

    @Test(
        "splice without offsets moves a pipe's bytes to a file and a file's to a pipe at their positions; nil between files"
    )
    func spliceAtPositions() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputPath = directory.appendingPathComponent("in.bin").path
        let outputPath = directory.appendingPathComponent("out.bin").path
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: inputPath))
        let input = try Syscall.openForReading(inputPath)
        defer { Syscall.close(input) }
        let output = try Syscall.openForWriting(outputPath)
        defer { Syscall.close(output) }
        let (readEnd, writeEnd) = try Syscall.makePipe()
        defer {
            Syscall.close(readEnd)
            Syscall.close(writeEnd)
        }
        #if os(Linux)
            // File to pipe at the file's position, twice: the position advances.
            #expect(try Syscall.splice(from: input, to: writeEnd, count: 4) == 4)
            #expect(try Syscall.splice(from: input, to: writeEnd, count: 100) == 6)
            #expect(try Syscall.splice(from: input, to: writeEnd, count: 100) == 0)
            // Pipe to file, in two calls.
            #expect(try Syscall.splice(from: readEnd, to: output, count: 3) == 3)
            #expect(try Syscall.splice(from: readEnd, to: output, count: 100) == 7)
            #expect(try String(contentsOfFile: outputPath, encoding: .utf8) == "0123456789")
            // Neither end a pipe: splice cannot, and says so.
            #expect(try Syscall.splice(from: input, to: output, count: 1) == nil)
        #else
            #expect(try Syscall.splice(from: input, to: writeEnd, count: 4) == nil)
        #endif
    }
}
