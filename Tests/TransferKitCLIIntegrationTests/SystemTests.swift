import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferKitTestSupport

@Suite("The transferkit binary", .timeLimit(.minutes(5)))
struct BinaryTests {
    @Test func helpExitsZero() async throws {
        let run = try await runBinary(["--help"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("OVERVIEW: "))
    }

    @Test func unknownCommandExitsTwo() async throws {
        let run = try await runBinary(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.error == "transferkit: unknown command 'frobnicate' (usage: see 'transferkit --help')\n")
    }

    #if canImport(Glibc) && (arch(x86_64) || arch(arm64))
        /// `read`'s system call number, as `/proc/PID/task/TID/syscall` shows it.
        private static let readCall = {
            #if arch(x86_64)
                return 0
            #else
                return 63
            #endif
        }()

        /// glibc gives a thread that allocates an arena of its own unless the process limits them; each such arena is
        /// an anonymous heap aligned to its size, 64 MiB, that grows one `mprotect` at a time (14 000 calls, 5 % of
        /// loading 100 000 declared types). The tool limits them to the main arena (`ProcessAllocator.useOneArena`):
        /// while `pack -` waits on its standard input, its concurrency threads have worked and allocated, and its
        /// memory map shows no such heap. The build before the change showed three.
        @Test("the tool's threads allocate from the C library's main arena, not from heaps of their own")
        func oneAllocatorArena() async throws {
            // `$!` of a pipeline is its last command, the tool; `kill %1` ends the whole pipeline.
            let script = """
                sleep 120 </dev/null 2>/dev/null | "$0" pack - --type public.data >/dev/null 2>&1 &
                tool=$!
                for attempt in $(seq 600); do
                    if grep -qs "^$1 0x0 " /proc/$tool/task/*/syscall; then
                        cat /proc/$tool/maps; kill %1; exit 0
                    fi
                    sleep 0.1
                done
                kill %1; echo "the tool never waited on its standard input" >&2; exit 3
                """
            let run = try await ChildProcess.run(
                "/bin/bash", arguments: ["-c", script, transferkitPath, String(Self.readCall)])
            #expect(run.status == 0, "\(run.errorText)")
            let arenas = Self.threadArenaHeaps(inMaps: run.outputText)
            #expect(run.outputText.contains("[stack]"), "no memory map read")
            #expect(arenas.isEmpty, "heaps of thread arenas: \(arenas)")
        }

        /// The anonymous mappings of a `/proc/PID/maps` text that start on a 64 MiB boundary, readable and writable,
        /// and that span 64 MiB with the reserved (`---p`) mappings right after them: glibc's arena heaps.
        private static func threadArenaHeaps(inMaps maps: String) -> [String] {
            let heapSize: UInt64 = 64 << 20
            let lines = maps.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            func range(_ fields: [Substring]) -> (UInt64, UInt64)? {
                let bounds = fields[0].split(separator: "-")
                guard fields.count == 5, bounds.count == 2, let start = UInt64(bounds[0], radix: 16),
                    let end = UInt64(bounds[1], radix: 16)
                else { return nil }
                return (start, end)
            }
            var heaps: [String] = []
            for (index, fields) in lines.enumerated() {
                guard let (start, firstEnd) = range(fields), start % heapSize == 0, fields[1].hasPrefix("rw") else {
                    continue
                }
                var end = firstEnd
                for next in lines[(index + 1)...] {
                    guard let (nextStart, nextEnd) = range(next), nextStart == end, next[1].hasPrefix("---") else {
                        break
                    }
                    end = nextEnd
                }
                if end - start == heapSize {
                    heaps.append(String(fields[0]))
                }
            }
            return heaps
        }
    #endif
}

@Suite("Output to a closed pipe", .timeLimit(.minutes(5)))
struct ClosedPipeTests {
    @Test func writingAfterTheReaderLeftIsAWriteFailureNotADeath() throws {
        // The tool ignores SIGPIPE (TransferKitTool.main); do the same here so the write returns EPIPE.
        signal(SIGPIPE, SIG_IGN)
        // Close-on-exec ends: a child another test spawns meanwhile must not inherit the reading end, or the pipe
        // would still have a reader and the write would succeed (it failed so once under the whole suite's load).
        let ends = try Syscall.makePipe()
        Syscall.close(ends.read)
        defer { Syscall.close(ends.write) }
        let output = FileDescriptorOutput(fileDescriptor: ends.write)
        let error = #expect(throws: ToolIOError.self) { try output.write("lost") }
        #expect(error?.code == .writeFailed)
        #expect((error?.cause as? SystemError)?.errorNumber == EPIPE)
        #expect(error?.message == "cannot write output: Broken pipe")
    }
}

@Suite("Output closed early and a full spool folder", .timeLimit(.minutes(5)))
struct ClosedOutputTests {
    /// Runs `script` under bash with `$0` the built tool and `$1` a scratch folder; its standard output.
    func bash(_ script: String, folder: URL) async throws -> ChildProcess.Result {
        try await ChildProcess.run("/bin/bash", arguments: ["-c", script, transferkitPath, folder.path])
    }

    @Test("pack -o - | head ends quietly with status 141, as cat does under SIGPIPE")
    func closedPipeIsQuiet() async throws {
        let folder = try makeTemporaryDirectory(prefix: "closed-pipe")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 16 MiB: far more than the pipe holds, so the tool is still writing when head has gone.
        let run = try await bash(
            #"""
            head -c 16777216 /dev/zero > "$1/big.bin"
            "$0" pack "$1/big.bin" -o - 2> "$1/pack.err" | head -c 1 > /dev/null
            tool=${PIPESTATUS[0]}
            cat "$1/big.bin" 2> "$1/cat.err" | head -c 1 > /dev/null
            echo "$tool ${PIPESTATUS[0]}"
            cat "$1/pack.err"
            """#, folder: folder)
        #expect(run.outputText == "141 141\n", "tool and cat statuses, then the tool's standard error")
    }

    @Test("a spool that passes the file-size limit names the spool's folder and says it has no room")
    func fullSpoolFolder() async throws {
        let folder = try makeTemporaryDirectory(prefix: "spool-full")
        defer { try? FileManager.default.removeItem(at: folder) }
        // prlimit's file-size limit makes the spool's writes fail past 1 MiB (EFBIG, as a full disk fails with
        // ENOSPC); the tool ignores SIGXFSZ, so it reports the failure instead of dying of it.
        let run = try await bash(
            #"""
            head -c 3000000 /dev/zero | TMPDIR="$1" prlimit --fsize=1048576 "$0" pack - -o - > /dev/null
            echo "status $?"
            """#, folder: folder)
        let folderName = folder.path + "/"
        #expect(run.outputText == "status 2\n")
        #expect(
            run.errorText
                == "transferkit pack: cannot spool standard input to a temporary file in \(folderName): File too "
                + "large: the temporary folder \(folderName) has no room for it; set TMPDIR to a folder with more "
                + "space (writeFailed)\n")
    }
}
