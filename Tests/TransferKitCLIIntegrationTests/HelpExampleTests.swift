import Foundation
import Testing
import TransferKitCLI
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

@Suite("Help examples", .timeLimit(.minutes(5)))
struct HelpExampleTests {
    /// Every example line of every standard command's help, in the order `--help` lists the commands, without the
    /// explanation some put after three spaces.
    static let examples: [String] = TransferKitTool.standardCommands().flatMap { command in
        command.discussion.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("transferkit ") }
            .map { line in line.components(separatedBy: "   ").first ?? line }
    }

    @Test("there are examples to run")
    func examplesExist() {
        #expect(Self.examples.count >= 8)
    }

    @Test("every example in the help texts runs as written, in order, and exits 0")
    func examplesRun() async throws {
        let folder = try makeTemporaryDirectory(prefix: "help-examples")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The files the examples name.
        try Data(#"{"name":"Luke","character":"Jedi","favorite":"blue milk"}"#.utf8)
            .write(to: folder.appendingPathComponent("card.json"))
        try Data("May the Force be with you.\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).write(to: folder.appendingPathComponent("cover.png"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Examples"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryFile("Examples/ExampleTypes.json"),
            to: folder.appendingPathComponent("Examples/ExampleTypes.json"))
        let products = TransferKitExecutable.productsDirectory.path
        for example in Self.examples {
            let script = "cd '\(folder.path)' && PATH='\(products)':\"$PATH\" && \(example)"
            let run = try await ChildProcess.run("/bin/sh", arguments: ["-c", script])
            #expect(run.status == 0, "\(example)\n\(run.errorText)")
        }
        let copy = try Data(contentsOf: folder.appendingPathComponent("copy.png"))
        #expect(copy == (try Data(contentsOf: folder.appendingPathComponent("cover.png"))))
    }
}
