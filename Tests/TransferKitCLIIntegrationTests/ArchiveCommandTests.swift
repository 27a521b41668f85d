import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// Files in a fresh temporary directory, removed when the value goes away.
final class Workspace {
    let url: URL

    init() throws { url = try makeTemporaryDirectory() }
    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ bytes: some Sequence<UInt8>) throws -> String {
        try Data(bytes).write(to: url.appendingPathComponent(name))
        return path(name)
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    func writeArchive(
        _ name: String, _ archive: TransferArchive, as format: TransferArchiveFormat = .cbor
    ) throws
        -> String
    {
        try write(name, try archive.encoded(as: format))
    }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path).sorted()) ?? [] }
}

let tool = TransferKitTool(commands: TransferKitTool.standardCommands())

private func representation(_ type: UniformType, _ text: String) -> TransferArchive.Representation {
    TransferArchive.Representation(type: type, data: Data(text.utf8))
}

@Suite("transferkit pack, inspect and extract", .timeLimit(.minutes(5)))
struct PackInspectExtractTests {
    @Test func packsOneItemPerFileWithInferredTypes() async throws {
        let space = try Workspace()
        let notes = try space.write("notes.txt", Array("hello\n".utf8))
        let blob = try space.write("blob.unknownext", [0, 1, 2, 255])
        let run = await runInProcess(tool, ["pack", notes, blob, "-o", space.path("out.transferkit")])
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let archive = try TransferArchive(decoding: try space.read("out.transferkit"))
        #expect(archive.items.map(\.suggestedName) == ["notes.txt", "blob.unknownext"])
        // notes.txt is UTF-8, so it is packed as UTF-8 text rather than text of unknown encoding.
        #expect(archive.items.map { $0.representations.map(\.type) } == [[.utf8PlainText], [.data]])
        #expect(archive.items[1].representations[0].data == Data([0, 1, 2, 255]))
    }

    @Test func aTextFileThatIsNotUTF8StaysPlainTextAndAnExplicitTypeIsKept() async throws {
        let space = try Workspace()
        let latin1 = try space.write("latin1.txt", [0x63, 0x61, 0x66, 0xe9])
        let utf8 = try space.write("utf8.txt", Array("café".utf8))
        let run = await runInProcess(tool, ["pack", latin1, "-o", space.path("a.transferkit")])
        #expect(run.status == 0)
        let archive = try TransferArchive(decoding: try space.read("a.transferkit"))
        #expect(archive.items[0].representations[0].type == .plainText)
        let explicit = await runInProcess(
            tool, ["pack", utf8, "--type", "public.plain-text", "-o", space.path("b.transferkit")])
        #expect(explicit.status == 0)
        let typed = try TransferArchive(decoding: try space.read("b.transferkit"))
        #expect(typed.items[0].representations[0].type == .plainText)
    }

    @Test func explicitTypeAndNameAndJSONForm() async throws {
        let space = try Workspace()
        let input = try space.write("card", Array(#"{"a":1}"#.utf8))
        let run = await runInProcess(
            tool, ["pack", input, "--type", "public.json", "--name", "card.json", "-o", space.path("out.json")])
        #expect(run.status == 0)
        let bytes = try space.read("out.json")
        #expect(bytes.first == UInt8(ascii: "{"))
        let archive = try TransferArchive(decoding: bytes, format: .json)
        #expect(archive.items.first?.suggestedName == "card.json")
        #expect(archive.items.first?.representations.first?.type == .json)
    }

    @Test(
        "pack usage errors",
        arguments: [
            (["pack"], "transferkit pack: missing argument FILE (usage: see 'transferkit pack --help')\n"),
            (
                ["pack", "/etc/hostname", "/etc/hostname", "--name", "x"],
                "transferkit pack: --name needs a single input file (usage: see 'transferkit pack --help')\n"
            ),
            (
                ["pack", "/etc/hostname", "--type", "not valid"],
                "transferkit pack: 'not valid' is not a valid uniform type identifier (usage: see 'transferkit pack --help')\n"
            ),
            (
                ["pack", "/etc/hostname", "--format", "xml"],
                "transferkit pack: unknown format 'xml': use cbor or json (usage: see 'transferkit pack --help')\n"
            ),
        ] as [([String], String)])
    func packUsageErrors(arguments: [String], message: String) async {
        let run = await runInProcess(tool, arguments)
        #expect(run.status == 2)
        #expect(run.error == message)
    }

    @Test func inputAndOutputErrorsExitTwoWithoutAUsageHint() async throws {
        let space = try Workspace()
        let missing = await runInProcess(tool, ["inspect", space.path("missing.transferkit")])
        #expect(missing.status == 2)
        #expect(
            missing.error
                == "transferkit inspect: cannot open \(space.path("missing.transferkit")): No such file or directory "
                + "(openFailed)\n")
        let directory = await runInProcess(tool, ["inspect", space.url.path])
        #expect(directory.status == 2)
        #expect(directory.error == "transferkit inspect: \(space.url.path) is a directory, not a file (openFailed)\n")
        let input = try space.write("in.txt", Array("text".utf8))
        let unwritable = await runInProcess(tool, ["pack", input, "-o", "/nonexistent-dir/out.transferkit"])
        #expect(unwritable.status == 2)
        #expect(
            unwritable.error
                == "transferkit pack: cannot write /nonexistent-dir/out.transferkit: No such file or directory "
                + "(writeFailed)\n")
    }

    @Test func missingInputLeavesNoOutput() async throws {
        let space = try Workspace()
        let run = await runInProcess(tool, ["pack", space.path("missing.txt"), "-o", space.path("out.transferkit")])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("transferkit pack: cannot open \(space.path("missing.txt")): No such file"))
        #expect(space.contents.isEmpty)
    }

    @Test func inspectListsItemsRepresentationsAndChecksums() async throws {
        let space = try Workspace()
        let archive = TransferArchive(items: [
            .init(
                suggestedName: "card", metadata: ["origin": "seed"],
                representations: [representation(.json, #"{"a":1}"#), representation(.utf8PlainText, "a")])
        ])
        let path = try space.writeArchive("a.transferkit", archive)
        let run = await runInProcess(tool, ["inspect", path])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): CBOR archive, version 1.0, 1 item")
        #expect(lines.count == 4)
        #expect(lines[1] == #"item 0  "card"  metadata {"origin":"seed"}"#)
        #expect(lines[2].hasPrefix("  0  public.json             7 B  crc32 "))
        #expect(lines[3].contains("public.utf8-plain-text  1 B  crc32 e8b7be43  conforms to "))

        let json = await runInProcess(tool, ["inspect", path, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        let representations = try #require(items.first?["representations"] as? [[String: Any]])
        #expect(representations.map { $0["type"] as? String } == ["public.json", "public.utf8-plain-text"])
        #expect(representations.last?["checksum"] as? Int == 0xe8b7_be43)
        #expect(object["format"] as? String == "cbor")
    }

    @Test func inspectRejectsAFileThatIsNotAnArchive() async throws {
        let space = try Workspace()
        let path = try space.write("x.bin", Array("plain words".utf8))
        let run = await runInProcess(tool, ["inspect", path])
        #expect(run.status == 2)
        #expect(
            run.error
                == "transferkit inspect: not a TransferKit archive: it starts with neither the binary form's d9 d9 f7 "
                + "nor a JSON object (in \(path)) (notAnArchive)\n")
    }

    @Test(
        "extract and check --type choose the representation the shared table names",
        arguments: singleTypeRepresentationChoiceTable)
    func choiceTable(_ row: RepresentationChoiceCase) async throws {
        let space = try Workspace()
        let archive = TransferArchive(items: [
            .init(
                // Each payload names its type, as a JSON string so that it is valid for every type checked.
                representations: try row.offered.map { identifier in
                    representation(try #require(UniformType(identifier)), "\"\(identifier)\"")
                })
        ])
        let path = try space.writeArchive("a.transferkit", archive)
        let extract = await runInProcess(tool, ["extract", path, "--type", row.requested[0]])
        let check = await runInProcess(tool, ["check", path, "--type", row.requested[0], "--json"])
        if let expected = row.expectedType {
            #expect(extract.status == 0)
            #expect(extract.output == "\"\(expected)\"")
            #expect(check.status == 0)
            #expect(check.output.contains(#""type":"\#(expected)""#))
            #expect(check.output.components(separatedBy: #""type":"#).count == 2, "one representation checked")
        } else {
            #expect(extract.status == 1)
            #expect(extract.error.contains("has no representation conforming to \(row.requested[0])"))
            #expect(check.status == 1)
            #expect(check.output.contains("no representation conforms to it"))
        }
    }

    @Test func extractFromTheJSONFormAndASecondItem() async throws {
        let space = try Workspace()
        let archive = TransferArchive(items: [
            .init(representations: [representation(.json, "[1]")]),
            .init(representations: [representation(.json, "[2]")]),
        ])
        let path = try space.writeArchive("a.json", archive, as: .json)
        let run = await runInProcess(tool, ["extract", path, "--type", "public.json", "--item", "1"])
        #expect(run.output == "[2]")
    }

    @Test("extract --exact and --index reach a public.data representation listed after a text one")
    func extractReachesEveryRepresentation() async throws {
        let space = try Workspace()
        let archive = TransferArchive(items: [
            .init(representations: [representation(.utf8PlainText, "text"), representation(.data, "bytes")])
        ])
        let path = try space.writeArchive("a.transferkit", archive)
        // The choice rule: text conforms to public.data, so it is the first representation that conforms.
        #expect(await runInProcess(tool, ["extract", path, "--type", "public.data"]).output == "text")
        let exact = await runInProcess(tool, ["extract", path, "--type", "public.data", "--exact"])
        #expect(exact.status == 0, "\(exact.error)")
        #expect(exact.output == "bytes")
        let byIndex = await runInProcess(tool, ["extract", path, "--index", "1", "-o", "-"])
        #expect(byIndex.status == 0, "\(byIndex.error)")
        #expect(byIndex.output == "bytes")
        #expect(await runInProcess(tool, ["extract", path, "--index", "0", "-o", "-"]).output == "text")
        // Not there: exit 1, naming what is.
        let notExact = await runInProcess(tool, ["extract", path, "--type", "public.text", "--exact"])
        #expect(notExact.status == 1)
        #expect(
            notExact.error
                == "transferkit extract: item 0 has no representation of type public.text (it has: "
                + "0 public.utf8-plain-text, 1 public.data) (typeNotOffered)\n")
        // By index the type is not known before the copy: binary output rules apply.
        let terminal = await runInProcess(tool, ["extract", path, "--index", "1"], outputTerminal: true)
        #expect(terminal.status == 2)
        let both = await runInProcess(tool, ["extract", path, "--index", "1", "--type", "public.data"])
        #expect(both.status == 2)
        #expect(both.error.hasPrefix("transferkit extract: give --type or --index, not both (usage: "))
    }

    @Test func extractErrorsNameWhatIsThere() async throws {
        let space = try Workspace()
        let archive = TransferArchive(items: [.init(representations: [representation(.json, "[1]")])])
        let path = try space.writeArchive("a.transferkit", archive)
        let missingType = await runInProcess(tool, ["extract", path, "--type", "public.png"])
        #expect(missingType.status == 1)
        #expect(
            missingType.error
                == "transferkit extract: item 0 has no representation conforming to public.png (it has: 0 public.json) "
                + "(typeNotOffered)\n")
        let missingItem = await runInProcess(tool, ["extract", path, "--type", "public.json", "--item", "3"])
        #expect(missingItem.status == 1)
        #expect(missingItem.error == "transferkit extract: the archive has no item 3 (notFound)\n")
        let missingIndex = await runInProcess(tool, ["extract", path, "--index", "1", "-o", "-"])
        #expect(missingIndex.status == 1)
        #expect(
            missingIndex.error
                == "transferkit extract: item 0 has no representation 1 (it has: 0 public.json) (notFound)\n")
        let noType = await runInProcess(tool, ["extract", path])
        #expect(noType.status == 2)
        #expect(
            noType.error
                == "transferkit extract: give --type TYPE or --index N (usage: see 'transferkit extract --help')\n")
    }

    @Test func standardInputRoundTripsThroughPipes() async throws {
        let payload = [UInt8]((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let packed = try await runBinary(["pack", "-", "--type", "public.png"], input: payload)
        #expect(packed.status == 0)
        let extracted = try await runBinary(["extract", "-", "--type", "public.image"], input: packed.outputBytes)
        #expect(extracted.status == 0)
        #expect(extracted.outputBytes == payload)
    }

    @Test func largePayloadsStreamWithConstantMemory() async throws {
        let space = try Workspace()
        var generator = SystemRandomNumberGenerator()
        let block = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let handle = try #require(FileHandle(forWritingAtPath: try space.write("big.bin", [])))
        for _ in 0..<64 { handle.write(Data(block)) }
        try handle.close()
        // The probe is the tool with a peak-memory report at exit; the shipping binary has no such hook.
        let probe = TransferKitExecutable.product(named: "transferkit-memory-probe")
        let pack = try await ChildProcess.run(
            probe, arguments: ["pack", space.path("big.bin"), "-o", space.path("big.transferkit")])
        #expect(pack.status == 0)
        let extract = try await ChildProcess.run(
            probe,
            arguments: ["extract", space.path("big.transferkit"), "--type", "public.data", "-o", space.path("out")])
        #expect(extract.status == 0)
        #expect(try space.read("out") == space.read("big.bin"))
        // The same binary's peak for a trivial command is the baseline (sanitizer builds have a
        // much larger one). Holding the 64 MiB payload would add at least 64 MiB to it.
        let baseline = try await ChildProcess.run(probe, arguments: ["types", "public.png"])
        let baselinePeak = try peakKiB(baseline)
        for run in [pack, extract] {
            #expect(try peakKiB(run) < baselinePeak + (32 << 10))
        }
    }
}

/// The peak memory a run of `transferkit-memory-probe` reported.
private func peakKiB(_ run: ChildProcess.Result) throws -> Int {
    #expect(run.errorText.hasPrefix("transferkit: peak memory "))
    let peak = try #require(Int(run.errorText.split(separator: " ").dropLast().last ?? ""))
    #expect(peak > 0)
    return peak
}

@Suite("Interrupted output", .timeLimit(.minutes(5)))
struct InterruptTests {
    /// A shell script that starts `extract` on a FIFO whose writer sends the archive's first 60 bytes and then
    /// waits for a file `go` before sending the rest, so extract has created its temporary output and waits; the
    /// script then runs `action` (with `$tool` the extract's pid), creates `go` only after extract has ended unless
    /// `release` (so a signal handled late cannot lose the race against the rest of the input), reports extract's
    /// status and lists the folder.
    private func script(in space: Workspace, action: String, release: Bool = false) throws -> String {
        let archive = TransferArchive(items: [
            .init(representations: [TransferArchive.Representation(type: .data, data: Data(count: 4096))])
        ])
        _ = try space.writeArchive("whole.transferkit", archive)
        return """
            cd "\(space.url.path)" || exit 90
            mkfifo pipe || exit 91
            ( head -c 60 whole.transferkit; until [ -e go ]; do sleep 0.01; done; tail -c +61 whole.transferkit ) \
                > pipe 2>/dev/null &
            writer=$!
            "\(transferkitPath)" extract pipe --type public.data -o out.bin &
            tool=$!
            tries=0
            until ls -a | grep -q '^[.]transferkit-tmp-'"$tool"'-out[.]bin[.]'; do
              tries=$((tries + 1)); [ $tries -gt 500 ] && exit 92; sleep 0.01
            done
            \(action)
            \(release ? "touch go" : ":")
            wait $tool
            status=$?
            touch go
            wait $writer
            rm go
            echo "status $status"
            ls -a
            """
    }

    @Test(arguments: [("HUP", 1), ("INT", 2), ("QUIT", 3), ("USR1", 10), ("USR2", 12), ("ALRM", 14), ("TERM", 15)])
    func aSignalledCommandLeavesNoFileBehind(signal: String, number: Int32) async throws {
        let space = try Workspace()
        let run = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", try script(in: space, action: "kill -\(signal) $tool")])
        #expect(run.status == 0, "\(run.errorText)")
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first == "status \(128 + number)", "\(run.outputText)\n\(run.errorText)")
        #expect(lines.dropFirst().sorted() == [".", "..", "pipe", "whole.transferkit"])
    }

    @Test func aSIGPIPEFromKillIsIgnoredAndTheCommandFinishes() async throws {
        // The tool ignores SIGPIPE (a closed output pipe is an EPIPE error it reports), so the command goes on.
        let space = try Workspace()
        let run = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", try script(in: space, action: "kill -PIPE $tool", release: true)])
        #expect(run.status == 0, "\(run.errorText)")
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first == "status 0")
        #expect(lines.dropFirst().sorted() == [".", "..", "out.bin", "pipe", "whole.transferkit"])
        #expect(try space.read("out.bin") == Data(count: 4096))
    }

    @Test func aKilledCommandsTemporaryFileIsRemovedByTheNextRun() async throws {
        // SIGKILL cannot be caught: the temporary file stays, named with the dead process's pid, until the next
        // write into the same folder removes it.
        let space = try Workspace()
        let run = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", try script(in: space, action: "kill -KILL $tool; wait $tool")])
        #expect(run.status == 0, "\(run.errorText)")
        let left = space.contents.filter { $0.hasPrefix(".transferkit-tmp-") }
        #expect(left.count == 1)
        let next = await runInProcess(
            tool, ["extract", space.path("whole.transferkit"), "--type", "public.data", "-o", space.path("again.bin")])
        #expect(next.status == 0)
        #expect(space.contents == ["again.bin", "pipe", "whole.transferkit"])
    }
}

@Suite("Progress bars", .timeLimit(.minutes(5)))
struct ProgressBarTests {
    @Test func largePayloadsDrawABarOnATerminalOnly() async throws {
        let space = try Workspace()
        let big = try space.write("big.bin", [UInt8](repeating: 7, count: 64 << 20))
        let small = try space.write("small.bin", [UInt8](repeating: 7, count: 1 << 20))

        let packed = await runInProcess(tool, ["pack", big, "-o", space.path("big.transferkit")], terminal: true)
        #expect(packed.status == 0)
        #expect(packed.error.hasPrefix("\r["))
        #expect(packed.error.contains("% of 64.0 MiB"))
        #expect(packed.error.hasSuffix("\r\u{1B}[K"))

        let extracted = await runInProcess(
            tool, ["extract", space.path("big.transferkit"), "--type", "public.data", "-o", space.path("out")],
            terminal: true)
        #expect(extracted.status == 0)
        #expect(extracted.error.hasPrefix("\r["))
        #expect(extracted.error.hasSuffix("\r\u{1B}[K"))

        let notTerminal = await runInProcess(tool, ["pack", big, "-o", space.path("again.transferkit")])
        #expect(notTerminal.error.isEmpty)
        let smallPayload = await runInProcess(
            tool, ["pack", small, "-o", space.path("small.transferkit")], terminal: true)
        #expect(smallPayload.error.isEmpty)
    }
}

@Suite("transferkit convert and check", .timeLimit(.minutes(5)))
struct ConvertCheckTests {
    let archive = TransferArchive(items: [
        .init(
            suggestedName: "card", metadata: ["n": 1],
            representations: [
                TransferArchive.Representation(type: .json, data: Data(#"{"b":2, "a":1}"#.utf8)),
                TransferArchive.Representation(type: .utf8PlainText, data: Data("text ✓\n".utf8)),
                TransferArchive.Representation(type: .png, data: Data([0x89, 0x50, 0, 0xff])),
            ])
    ])

    @Test func convertsBothWaysBitForBit() async throws {
        let space = try Workspace()
        let original = try space.writeArchive("a.transferkit", archive)
        #expect(await runInProcess(tool, ["convert", original, "-o", space.path("a.json")]).status == 0)
        #expect(
            await runInProcess(tool, ["convert", space.path("a.json"), "-o", space.path("b.transferkit")]).status == 0)
        #expect(try space.read("b.transferkit") == space.read("a.transferkit"))
        #expect(try TransferArchive(decoding: try space.read("a.json"), format: .json) == archive)
    }

    @Test func convertNeedsAnOutput() async throws {
        let space = try Workspace()
        let run = await runInProcess(tool, ["convert", try space.writeArchive("a.transferkit", archive)])
        #expect(run.status == 2)
        #expect(
            run.error == "transferkit convert: missing option --output OUT (usage: see 'transferkit convert --help')\n")
    }

    @Test func checkPassesAndSaysHowEachRepresentationWasChecked() async throws {
        let space = try Workspace()
        let path = try space.writeArchive("a.transferkit", archive)
        let run = await runInProcess(tool, ["check", path])
        #expect(run.status == 0)
        #expect(
            run.output == """
                ✓ \(path) item 0 "card": public.json ✓ value, public.utf8-plain-text ✓ bytes, public.png ✓ checksum
                1 passed, 0 failed

                """)
    }

    @Test func checkAcrossProcesses() async throws {
        let space = try Workspace()
        let cbor = try space.writeArchive("a.transferkit", archive)
        let json = try space.writeArchive("a.json", archive, as: .json)
        let run = try await runBinary(["check", "--cross-process", cbor, json])
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("2 passed, 0 failed\n"))
        #expect(run.output.split(separator: "\n").filter { $0.hasPrefix("✓") }.count == 2)
    }

    @Test func aDamagedArchiveIsAnInputErrorOnStandardError() async throws {
        let space = try Workspace()
        var bytes = [UInt8](try archive.encoded(as: .cbor))
        let marker = try #require(bytes.firstRange(of: Array("text ✓".utf8)))
        bytes[marker.lowerBound] ^= 0x20
        let path = try space.write("bad.transferkit", bytes)
        let run = await runInProcess(tool, ["check", path])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("transferkit check: \(path): The public.utf8-plain-text representation of item 0"))
        #expect(run.error.hasSuffix(" (checksumMismatch)\n"))
        #expect(!run.error.contains("TransferArchiveError"))
        #expect(run.output == "0 passed, 1 failed\n")
    }

    @Test func checkReportsUnreadableFilesAsInputErrors() async throws {
        let run = await runInProcess(tool, ["check", "/nonexistent/archive.transferkit"])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("transferkit check: cannot open /nonexistent/archive.transferkit"))
    }

    @Test func everyCommandHasHelp() async {
        for command in ["types", "pack", "inspect", "extract", "convert", "check", "reencode"] {
            let run = await runInProcess(tool, [command, "--help"])
            #expect(run.status == 0)
            #expect(run.output.contains("USAGE: transferkit \(command)"))
        }
    }
}

@Suite("Command-line conventions", .timeLimit(.minutes(5)))
struct ConventionTests {
    @Test func versionPrintsTheToolAndFormatVersions() async {
        let run = await runInProcess(tool, ["--version"])
        #expect(run.status == 0)
        #expect(run.output == "transferkit \(TransferKitTool.transferKitVersion)\n")
        #expect(run.output.contains("archive format 1.1"))
    }

    @Test func usageLinesShowRequiredOptionsWithoutBrackets() async {
        let extract = await runInProcess(tool, ["extract", "--help"])
        #expect(extract.output.contains("USAGE: transferkit extract [--type TYPE] [--exact] [--index N] [--item N]"))
        let convert = await runInProcess(tool, ["convert", "--help"])
        #expect(convert.output.contains(" --output OUT"))
        #expect(!convert.output.contains("[--output OUT]"))
        let types = await runInProcess(tool, ["types", "--help"])
        #expect(types.output.contains("[--conforms TYPE PARENT]"))
    }

    @Test func binaryOutputIsRefusedOnATerminalUnlessAskedFor() async throws {
        let space = try Workspace()
        let picture = try space.write("x.png", [0x89, 0x50, 0x4e, 0x47])
        let refused = await runInProcess(tool, ["pack", picture], outputTerminal: true)
        #expect(refused.status == 2)
        #expect(
            refused.error
                == "transferkit pack: refusing to write binary data to a terminal; give -o FILE, pipe the output, "
                + "or -o - to write it anyway (usage: see 'transferkit pack --help')\n")
        #expect(refused.outputBytes.isEmpty)
        let forced = await runInProcess(tool, ["pack", picture, "-o", "-"], outputTerminal: true)
        #expect(forced.status == 0)
        #expect(forced.outputBytes.starts(with: [0xd9, 0xd9, 0xf7]))
        let json = await runInProcess(tool, ["pack", picture, "--format", "json"], outputTerminal: true)
        #expect(json.status == 0, "the JSON form is text")

        let archive = try space.writeArchive(
            "a.transferkit",
            TransferArchive(items: [
                .init(representations: [representation(.png, "\u{89}PNG"), representation(.utf8PlainText, "hi")])
            ]))
        let png = await runInProcess(tool, ["extract", archive, "--type", "public.png"], outputTerminal: true)
        #expect(png.status == 2)
        #expect(png.error.contains("refusing to write binary data to a terminal"))
        let text = await runInProcess(tool, ["extract", archive, "--type", "public.text"], outputTerminal: true)
        #expect(text.status == 0)
        #expect(text.output == "hi")
    }
}
