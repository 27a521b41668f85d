import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// A model an adopter registers for `check`, to see the tool's line for bytes it cannot decode.
private struct Ticket: TransferCodable, Equatable {
    static let contentType = UniformType(exportedAs: "com.example.ticket")
    var seat: String
}

/// What stock tools do and the tool did not: name the nearest command, option or type for a slip of the keyboard,
/// end every `--help` with examples, and keep Swift out of its messages.
@Suite("Command-line manners", .timeLimit(.minutes(5)))
struct CommandLineMannersTests {
    let tool = TransferKitTool(commands: TransferKitTool.standardCommands())

    @Test(
        "a mistyped command names the nearest one, a word far from all names none",
        arguments: [
            ("tpyes", "unknown command 'tpyes'; did you mean 'types'?"),
            ("inspcet", "unknown command 'inspcet'; did you mean 'inspect'?"),
            ("Check", "unknown command 'Check'; did you mean 'check'?"),
            ("halp", "unknown command 'halp'; did you mean 'help'?"),
            ("frobnicate", "unknown command 'frobnicate'"),
        ])
    func mistypedCommand(_ typed: String, _ message: String) async {
        let run = await runInProcess(tool, [typed])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error == "transferkit: \(message) (usage: see 'transferkit --help')\n")
    }

    @Test(
        "a mistyped option names the nearest option of that command",
        arguments: [
            (["types", "--extention", "png"], "unknown option '--extention'; did you mean '--extension'?"),
            (["extract", "x", "--tpye", "public.png"], "unknown option '--tpye'; did you mean '--type'?"),
            (["check", "--cross-proces", "x"], "unknown option '--cross-proces'; did you mean '--cross-process'?"),
            (["inspect", "--jsn", "x"], "unknown option '--jsn'; did you mean '--json'?"),
            (["pack", "--hepl"], "unknown option '--hepl'; did you mean '--help'?"),
            (["types", "--everything"], "unknown option '--everything'"),
        ])
    func mistypedOption(_ arguments: [String], _ message: String) async {
        let run = await runInProcess(tool, arguments)
        #expect(run.status == 2)
        #expect(
            run.error
                == "transferkit \(arguments[0]): \(message) (usage: see 'transferkit \(arguments[0]) --help')\n")
    }

    @Test(
        "paste, copy and convert-type refuse a type name nobody declares, naming the type it most likely means",
        arguments: [
            (["paste", "--type", "bmp"], "'bmp' is not a known type; did you mean com.microsoft.bmp (image/bmp)?"),
            (["paste", "--type", ".png"], "'.png' is not a known type; did you mean public.png (image/png)?"),
            (["paste", "--type", "JPG"], "'JPG' is not a known type; did you mean public.jpeg (image/jpeg)?"),
            (
                ["copy", "--type", "txt", "-"],
                "'txt' is not a known type; did you mean public.plain-text (text/plain)?"
            ),
            (
                ["convert-type", "--to", "zzq", "-"],
                "'zzq' is not a known type (give an identifier such as public.png, or a MIME type)"
            ),
        ])
    func unknownTypeName(_ arguments: [String], _ message: String) async throws {
        // No display is needed: the type is checked before the clipboard is opened.
        let run = try await runBinary(arguments)
        #expect(run.status == 2)
        #expect(
            run.error == "transferkit \(arguments[0]): \(message) (usage: see 'transferkit \(arguments[0]) --help')\n")
    }

    @Test("extension-like and MIME-like names still resolve as before: a MIME type, a declared or dotted identifier")
    func knownTypeNamesResolve() throws {
        let catalog = TypeCatalog.shared
        #expect(try TypeArgument.type("image/bmp", catalog: catalog).identifier == "com.microsoft.bmp")
        #expect(try TypeArgument.type("public.png", catalog: catalog) == .png)
        // An archive or another application may use a type this catalogue does not declare.
        #expect(try TypeArgument.type("com.example.card", catalog: catalog).identifier == "com.example.card")
    }

    @Test("types with an extension for TYPE says which type the extension names (exit 1 as before)")
    func typesSuggestsTheExtensionsType() async throws {
        let run = try await runBinary(["types", "bmp"])
        #expect(run.status == 1)
        #expect(
            run.error
                == "transferkit types: bmp is not a declared type; did you mean com.microsoft.bmp (image/bmp)? "
                + "(--declarations FILE declares it) (notDeclared)\n")
    }

    @Test("every command's --help ends with examples, each a transferkit command line")
    func everyHelpEndsWithExamples() async throws {
        let overview = try await runBinary(["--help"])
        let commandLines =
            overview.output.components(separatedBy: "COMMANDS:\n").last?
            .components(separatedBy: "\n\n").first?.split(separator: "\n") ?? []
        let names = commandLines.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count >= 15, "\(names)")
        for name in names {
            let help = try await runBinary([name, "--help"])
            #expect(help.status == 0)
            let sections = help.output.components(separatedBy: "\nEXAMPLES:\n")
            let examples = sections.count > 1 ? sections[sections.count - 1] : ""
            let lines = examples.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(!lines.isEmpty, "\(name) --help has no examples at its end")
            #expect(help.output.hasSuffix("\n"))
            for line in lines {
                #expect(
                    line.hasPrefix("  transferkit ") && line.contains("transferkit \(name)"),
                    "\(name) --help ends with '\(line)'")
            }
        }
    }

    @Test("a representation that does not decode is reported without Swift type names and without doubled periods")
    func decodingFailureReadsAsWords() async throws {
        let folder = try makeTemporaryDirectory(prefix: "manners")
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: Ticket.contentType) { _ in Data(#"{"seat": "#.utf8) }
        let path = folder.appendingPathComponent("ticket.transferkit").path
        try await TransferArchive(providers: [provider]).encoded(as: .cbor).write(to: URL(fileURLWithPath: path))
        let registry = TransferKitTool.standardRegistry()
        try registry.register(Ticket.self)
        let run = await runInProcess(
            TransferKitTool(commands: TransferKitTool.standardCommands(registry: registry)), ["check", path])
        #expect(run.status == 1)
        let line = run.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.contains("Cannot read 9 bytes of com.example.ticket: "), "\(line)")
        #expect(line.contains("Check that the sender wrote this type and version. (decodingFailed)"), "\(line)")
        #expect(!line.contains("Ticket"), "\(line)")
        #expect(!line.contains(".."), "\(line)")
    }

    @Test("the library's message for bytes a model cannot decode names no Swift type and has no doubled period")
    func decodingFailureMessage() async throws {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: Ticket.contentType) { _ in Data("not json".utf8) }
        let error = await #expect(throws: TransferError.self) {
            _ = try await provider.loadObject(ofClass: Ticket.self)
        }
        #expect(error?.code == .decodingFailed)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("Cannot read 8 bytes of com.example.ticket: "), "\(message)")
        #expect(!message.contains("Ticket") && !message.contains(".."), "\(message)")
    }

    @Test(
        "the documented way to write providers with a TransferArchiveWriter compiles at the top level of a main.swift",
        .enabled(if: swiftCompiler != nil, "needs swiftc from the toolchain on the PATH"))
    func archiveWriterExampleCompilesAtTopLevel() async throws {
        // The example of `write(providers:progress:)`'s documentation, as an adopter pastes it into a main.swift.
        let source = try String(
            contentsOf: repositoryFile("Sources/TransferKit/Archive/TransferArchiveWriter+Providers.swift"),
            encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex(of: "/// ```swift"))
        let end = try #require(lines[(start + 1)...].firstIndex(of: "/// ```"))
        let example = lines[(start + 1)..<end].map { String($0.dropFirst(4)) }.joined(separator: "\n")
        #expect(example.contains("writer.write(providers: [provider])"))
        let folder = try makeTemporaryDirectory(prefix: "writer-main")
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = folder.appendingPathComponent("main.swift")
        let program = "import TransferKit\nlet output: Int32 = 1\nlet provider = TransferProvider()\n" + example + "\n"
        try Data(program.utf8).write(to: main)
        let run = try await ChildProcess.run(
            try #require(swiftCompiler),
            arguments: swiftTypeCheckArguments(
                [main.path], products: TransferKitExecutable.productsDirectory, check: .build))
        #expect(run.status == 0, "\(program)\n\(run.errorText)")
    }

    @Test("-o names a device or a FIFO: written in place as 'cat >' writes, the node itself never replaced by a file")
    func outputToADeviceOrAFIFO() async throws {
        let folder = try makeTemporaryDirectory(prefix: "manners-device")
        defer { try? FileManager.default.removeItem(at: folder) }
        let card = folder.appendingPathComponent("card.json")
        try Data(#"{"name":"Luke"}"#.utf8).write(to: card)
        // A link to /dev/null: the device is written, and the link stays a link (not the tool's file).
        let link = folder.appendingPathComponent("discard")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/null")
        let toNull = try await runBinary(["pack", card.path, "-o", link.path])
        #expect(toNull.status == 0, "\(toNull.error)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "/dev/null")
        // A FIFO: its reader gets the archive, and the FIFO is still one.
        let fifo = folder.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let received = folder.appendingPathComponent("received.transferkit")
        // Each side gives up after a minute: a writer whose reader never came (or, before, a reader of a FIFO that the
        // tool had replaced with a file) would wait for ever.
        let script =
            "timeout 60 cat '\(fifo.path)' > '\(received.path)' & "
            + "timeout 60 '\(transferkitPath)' pack '\(card.path)' -o '\(fifo.path)'; wait"
        let run = try await ChildProcess.run("/bin/sh", arguments: ["-c", script])
        #expect(run.status == 0, "\(run.errorText)")
        let archive = try TransferArchive(decoding: Data(contentsOf: received))
        #expect(archive.items.first?.suggestedName == "card.json")
        #expect(try Syscall.status(atPath: fifo.path).isPipe)
    }
}
