import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

/// Runs the built tool with exactly `environment` (nothing inherited).
private func run(_ arguments: [String], environment: [String: String]) async throws -> ToolRun {
    let result = try await ChildProcess.run(transferkitPath, arguments: arguments, environment: environment)
    return ToolRun(
        status: result.status, output: result.outputText, error: result.errorText, outputBytes: result.standardOutput)
}

/// One magic line: `>offset=<length><value>[+range]`.
private func magicLine(value: [UInt8], range: Int? = nil) -> [UInt8] {
    Array(">0=".utf8) + [UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        + Array(((range.map { "+\($0)" } ?? "") + "\n").utf8)
}

/// A folder an attacker who sets `XDG_DATA_HOME` controls: `mime/types` and `mime/magic`, and a file named
/// `noextension` holding a megabyte of `A`s, what the hostile rules are worst at.
private struct HostileDataHome {
    let folder: URL
    var file: String { folder.appendingPathComponent("noextension").path }

    init(magic: [UInt8], types: [String]) throws {
        folder = try makeTemporaryDirectory(prefix: "transferkit-hostile-data-home")
        let mime = folder.appendingPathComponent("mime")
        try FileManager.default.createDirectory(at: mime, withIntermediateDirectories: true)
        try Data((types.joined(separator: "\n") + "\n").utf8).write(to: mime.appendingPathComponent("types"))
        try Data(magic).write(to: mime.appendingPathComponent("magic"))
        try Data(repeating: 0x41, count: 1 << 20).write(to: URL(fileURLWithPath: file))
    }

    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_DATA_DIRS": "/usr/share"]
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("types --file with a hostile MIME folder", .timeLimit(.minutes(5)))
struct HostileMIMEFolderTests {
    @Test("a 64 KB value over a 1 MiB range: the rule runs out of work, the next rule's type is printed")
    func hugeRule() async throws {
        var magic = Array("MIME-Magic\0\n[80:application/x-huge]\n".utf8)
        magic += magicLine(value: Array(repeating: 0x41, count: 65_534) + [0x42], range: 1 << 20)
        magic += Array("[50:application/x-after]\n".utf8) + magicLine(value: Array("AAAA".utf8))
        let home = try HostileDataHome(magic: magic, types: ["application/x-huge", "application/x-after"])
        defer { home.remove() }
        let result = try await run(["types", "--file", home.file], environment: home.environment)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(result.output.hasPrefix("org.freedesktop.shared-mime-info.application.x-after\n"))
        // pack sniffs a file without an extension through the same rule and limits.
        let archive = home.folder.appendingPathComponent("out.transferkit").path
        let pack = try await run(["pack", home.file, "-o", archive], environment: home.environment)
        #expect(pack.status == 0, "\(pack.error)")
        let inspect = try await run(["inspect", archive], environment: home.environment)
        #expect(inspect.output.contains("org.freedesktop.shared-mime-info.application.x-after"), "\(inspect.output)")
    }

    @Test("a 3.4 MB magic file is past the size limit: it is skipped, and the file is plain text")
    func floodedMagic() async throws {
        var magic = Array("MIME-Magic\0\n".utf8)
        let line = magicLine(value: Array(repeating: 0x41, count: 63) + [0x42], range: 1000)
        for index in 0..<34_000 { magic += Array("[50:application/x-flood-\(index)]\n".utf8) + line }
        #expect(magic.count > 3_400_000)
        let home = try HostileDataHome(magic: magic, types: ["application/x-flood-0"])
        defer { home.remove() }
        let result = try await run(["types", "--file", home.file], environment: home.environment)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("public.plain-text\n"))
    }
}

@Suite("Special files: one rule for every command that types a file", .timeLimit(.minutes(5)))
struct SpecialFileCommandTests {
    @Test("types --file: /dev/null, /dev/zero and /dev/urandom are all inode/chardevice, exit 0")
    func characterDevices() async throws {
        var outputs: [String] = []
        for path in ["/dev/null", "/dev/zero", "/dev/urandom"] {
            let result = try await runBinary(["types", "--file", path])
            #expect(result.status == 0, "\(path): \(result.error)")
            #expect(result.output.contains("inode/chardevice"), "\(path): \(result.output)")
            outputs.append(result.output)
        }
        #expect(Set(outputs).count == 1)
    }

    @Test("types --file of a FIFO answers inode/fifo at once, with no writer")
    func fifo() async throws {
        let folder = try makeTemporaryDirectory(prefix: "transferkit-special-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("notes.txt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await runBinary(["types", "--file", fifo])
        #expect(result.status == 0)
        #expect(result.output.contains("inode/fifo"))
    }

    @Test("pack refuses /dev/zero and /dev/null alike with unreadableFile, and still reads a FIFO")
    func packTakesContentOnly() async throws {
        let folder = try makeTemporaryDirectory(prefix: "transferkit-special-pack")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Under a 1 MiB file-size limit, so that a spool of /dev/zero cannot fill the disk if the rule is broken.
        let script = """
            cd "$1" || exit 90
            for device in /dev/zero /dev/null; do
              TMPDIR="$1" prlimit --fsize=1048576 "$0" pack "$device" -o out.transferkit 2> err.txt
              echo "$device $?"
              cat err.txt
            done
            mkfifo pipe || exit 91
            printf 'hello' > pipe &
            "$0" pack pipe -o fifo.transferkit
            echo "fifo $?"
            wait
            """
        let result = try await ChildProcess.run(
            "/bin/bash", arguments: ["-c", script, transferkitPath, folder.path])
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(lines.contains("/dev/zero 2"))
        #expect(lines.contains("/dev/null 2"))
        #expect(lines.contains("fifo 0"))
        #expect(
            lines.contains {
                $0.hasPrefix("transferkit pack: /dev/zero is a character device (inode/chardevice)")
                    && $0.hasSuffix("(unreadableFile)")
            }, "\(lines)")
        #expect(lines.filter { $0.hasSuffix("(unreadableFile)") }.count == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.transferkit").path))
    }
}

@Suite("types --export-mime refusals", .timeLimit(.minutes(5)))
struct MIMEExportRefusalTests {
    @Test("--install refuses declarations that claim application/pdf, text/plain or inode/directory")
    func systemTypesAreNotInstalled() async throws {
        let folder = try makeTemporaryDirectory(prefix: "transferkit-export-claims")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A stand-in for update-mime-database that leaves a mark when it runs.
        let marker = folder.appendingPathComponent("ran").path
        let (bin, _) = try makeFakeProgram(named: "update-mime-database", body: "touch '\(marker)'\n", in: folder)
        let declarations = folder.appendingPathComponent("Claims.json").path
        let entries = [
            ("com.example.fake-pdf", "application/pdf"), ("com.example.fake-text", "text/plain"),
            ("com.example.fake-folder", "inode/directory"), ("com.example.own", "application/vnd.example.own"),
        ].map {
            #"{"identifier": "\#($0.0)", "conformsTo": ["public.data"], "tags": {"public.mime-type": ["\#($0.1)"]}}"#
        }
        try Data(#"{"exported": [\#(entries.joined(separator: ", "))]}"#.utf8)
            .write(to: URL(fileURLWithPath: declarations))
        let data = folder.appendingPathComponent("data")
        let result = try await run(
            ["types", "--export-mime", "--install", "--declarations", declarations],
            environment: ["PATH": bin.path + ":/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": data.path])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        let lines = result.error.split(separator: "\n").map(String.init)
        for (identifier, mimeType) in [
            ("com.example.fake-folder", "inode/directory"), ("com.example.fake-pdf", "application/pdf"),
            ("com.example.fake-text", "text/plain"),
        ] {
            #expect(
                lines.contains {
                    $0.hasPrefix("transferkit types: left out \(identifier): its MIME type \(mimeType) is the system's")
                },
                "\(lines)")
        }
        let expected: String =
            "transferkit types: not installed: com.example.fake-folder, com.example.fake-pdf, "
            + "com.example.fake-text claim MIME types that are the system's (see the lines above); once "
            + "installed, the desktop would take the system's files for them. Give each a MIME type of its own "
            + "(application/vnd.<owner>.<name>) (claimsSystemMIMEType)"
        #expect(lines.last == expected)
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(!FileManager.default.fileExists(atPath: data.path))
        // Printing leaves them out too: only the type of its own is in the package.
        let printed = try await runBinary(["types", "--export-mime", "--declarations", declarations])
        #expect(printed.status == 0)
        #expect(printed.output.contains(#"<mime-type type="application/vnd.example.own">"#))
        for mimeType in ["application/pdf", "text/plain", "inode/directory"] {
            #expect(!printed.output.contains(#"type="\#(mimeType)""#))
        }
    }

    @Test("a 10 000-character identifier is named once, cut short, in the error")
    func longIdentifier() async throws {
        let folder = try makeTemporaryDirectory(prefix: "transferkit-export-long")
        defer { try? FileManager.default.removeItem(at: folder) }
        let declarations = folder.appendingPathComponent("Long.json").path
        let identifier = "com.example." + String(repeating: "x", count: 10_000)
        try Data(
            #"{"exported": [{"identifier": "\#(identifier)", "tags": {"public.mime-type": ["application/vnd.x"]}}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: declarations))
        let result = try await runBinary(["types", "--export-mime", "--declarations", declarations])
        #expect(result.status == 2)
        #expect(result.error.hasSuffix(" (invalidIdentifier)\n"))
        #expect(result.error.utf8.count < 1000)
        #expect(result.error.components(separatedBy: "com.example.xxxx").count == 2)
    }
}
