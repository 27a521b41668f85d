import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// A ```swift block of the README or a DocC article, with the hidden context an HTML comment before it gives.
///
/// A block compiles as written: it is compiled as a program of its own against the built modules, through the SIL
/// diagnostics a real build runs (Swift 6's region-based isolation among them), not type-checked only. A block that
/// continues an earlier one says what it assumes in a comment that GitHub and DocC do not show:
/// `<!-- context: let provider = TransferProvider() -->`, or, for code that cannot compile here (a Package.swift
/// fragment, Apple-only code), `<!-- not compiled: reason -->`.
struct DocumentationSnippet: Sendable, CustomStringConvertible {
    var file: String
    var line: Int
    var code: String
    var context: String
    var skipReason: String?

    var description: String { "\(file):\(line)" }

    /// Every Swift block of README.md and of every DocC catalog under Sources/.
    static let all: [DocumentationSnippet] = {
        var files = ["README.md"]
        let sources = repositoryFile("Sources")
        if let enumerator = FileManager.default.enumerator(atPath: sources.path) {
            for case let path as String in enumerator where path.contains(".docc/") && path.hasSuffix(".md") {
                files.append("Sources/" + path)
            }
        }
        return files.sorted().flatMap { snippets(in: $0) }
    }()

    static func snippets(in file: String) -> [DocumentationSnippet] {
        guard let text = try? String(contentsOf: repositoryFile(file), encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var result: [DocumentationSnippet] = []
        var index = 0
        var comment: [String] = []
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("<!--") {
                comment = []
                var current = line
                while true {
                    comment.append(current)
                    if current.contains("-->") || index + 1 >= lines.count { break }
                    index += 1
                    current = lines[index]
                }
                index += 1
                continue
            }
            if line == "```swift" {
                let start = index + 1
                var end = start
                while end < lines.count, lines[end] != "```" { end += 1 }
                let joined = comment.joined(separator: "\n")
                var snippet = DocumentationSnippet(
                    file: file, line: start, code: lines[start..<min(end, lines.count)].joined(separator: "\n"),
                    context: "", skipReason: nil)
                if let range = joined.range(of: "<!-- context:") {
                    snippet.context = String(joined[range.upperBound...]).replacingOccurrences(of: "-->", with: "")
                } else if let range = joined.range(of: "<!-- not compiled:") {
                    snippet.skipReason = String(joined[range.upperBound...]).replacingOccurrences(of: "-->", with: "")
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                }
                result.append(snippet)
                comment = []
                index = end + 1
                continue
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { comment = [] }
            index += 1
        }
        return result
    }
}

@Suite("Documentation snippets", .timeLimit(.minutes(5)))
struct SnippetTests {
    @Test("the README and the DocC catalogs have Swift snippets")
    func snippetsFound() {
        #expect(DocumentationSnippet.all.count >= 15)
        #expect(DocumentationSnippet.all.contains { $0.file == "README.md" })
    }

    @Test(
        "every snippet compiles as written against the built modules, SIL diagnostics included",
        .enabled(if: swiftCompiler != nil, "needs swiftc from the toolchain on the PATH"),
        arguments: DocumentationSnippet.all)
    func snippetCompiles(_ snippet: DocumentationSnippet) async throws {
        if let reason = snippet.skipReason {
            #expect(!reason.isEmpty, "a snippet that is not compiled must say why")
            return
        }
        let compiler = try #require(swiftCompiler)
        let products = TransferKitExecutable.productsDirectory
        let folder = try makeTemporaryDirectory(prefix: "snippet")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("main.swift")
        try Data((snippet.context + "\n" + snippet.code + "\n").utf8).write(to: source)
        let run = try await ChildProcess.run(
            compiler, arguments: swiftTypeCheckArguments([source.path], products: products, check: .build))
        #expect(run.status == 0, "\(snippet) does not compile:\n\(run.errorText)")
    }
}
