import Foundation
import Testing
import TransferKitCLI
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// The version as `transferkit --version`, the README's installation snippet and the changelog give it.
@Suite("Release", .timeLimit(.minutes(5)))
struct ReleaseTests {
    /// `X.Y.Z` from the start of `TransferKitTool.transferKitVersion` (`0.3.0 (archive format 1.1)`).
    func toolVersion() throws -> String {
        try #require(TransferKitTool.transferKitVersion.split(separator: " ").first.map(String.init))
    }

    @Test("the README, the changelog's top version and transferkit --version name one version")
    func oneVersion() async throws {
        let version = try toolVersion()
        #expect(version.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+/) != nil, "\(version) is not X.Y.Z")
        let changelog = try String(contentsOf: repositoryFile("CHANGELOG.md"), encoding: .utf8)
        let top = try #require(changelog.firstMatch(of: /\n## \[([0-9]+\.[0-9]+\.[0-9]+)\] - ([0-9-]+|Unreleased)\n/))
        #expect(String(top.1) == version, "the changelog's top version")
        #expect(changelog.contains("\n[\(version)]: "), "the changelog links its top version")
        let readme = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
        let froms = readme.matches(of: /from: "([0-9.]+)"/).map { String($0.1) }
        #expect(!froms.isEmpty && froms.allSatisfy { $0 == version }, "the README says from: \(froms)")
        let run = try await ChildProcess.run(
            TransferKitExecutable.product(named: "transferkit"), arguments: ["--version"])
        #expect(run.status == 0)
        #expect(run.outputText.hasPrefix("transferkit \(version) "), "\(run.outputText)")
    }

    @Test("the package carries the Apache License 2.0, whole, and the README names it")
    func licence() throws {
        let text = try String(contentsOf: repositoryFile("LICENSE"), encoding: .utf8)
        #expect(text.contains("Apache License\n                           Version 2.0, January 2004"))
        // The full text: its nine sections and the appendix, not a pointer to it.
        for section in 1...9 { #expect(text.contains("\n   \(section). "), "section \(section)") }
        #expect(text.contains("END OF TERMS AND CONDITIONS"))
        let readme = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
        #expect(readme.contains("[Apache License 2.0](LICENSE)"))
    }

    @Test("CONTRIBUTING.md has the release checklist, with tagging at release")
    func checklist() throws {
        let text = try String(contentsOf: repositoryFile("CONTRIBUTING.md"), encoding: .utf8)
        #expect(text.contains("\n## Releasing\n"))
        #expect(text.contains("git tag -a X.Y.Z"))
    }
}

@Suite("The exit statuses", .timeLimit(.minutes(5)))
struct ExitStatusTableTests {
    @Test("the README's table of exit statuses is the one transferkit --help prints")
    func readmeTableMatchesHelp() async throws {
        let run = try await ChildProcess.run(TransferKitExecutable.product(named: "transferkit"), arguments: ["--help"])
        #expect(run.status == 0)
        let help = try #require(run.outputText.components(separatedBy: "EXIT STATUS (every command):\n").last)
        let rows = help.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^  ([0-9]+) +(.+)$/).map { "| \($0.1) | \($0.2) |" }
        }
        #expect(rows.count == 4)
        let readme = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
        for row in rows { #expect(readme.contains("\n" + row + "\n"), "the README lacks \(row)") }
    }
}
