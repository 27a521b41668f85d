import Foundation

/// A ```swift block of the README or a DocC article, with the hidden context an HTML comment before it gives.
///
/// A block compiles as written: it is compiled as a program of its own against the built modules, through the SIL
/// diagnostics a real build runs (Swift 6's region-based isolation among them), not type-checked only. A block that
/// continues an earlier one says what it assumes in a comment that GitHub and DocC do not show:
/// `<!-- context: let provider = TransferProvider() -->`, or, for code that cannot compile here (a Package.swift
/// fragment, Apple-only code), `<!-- not compiled: reason -->`.
public struct DocumentationSnippet: Sendable, CustomStringConvertible {
    /// The file, relative to the checkout.
    public var file: String
    /// The line of the block's first line of code.
    public var line: Int
    /// The block's code.
    public var code: String
    /// The code its `<!-- context: … -->` comment puts before it.
    public var context: String
    /// Why it is not compiled, from a `<!-- not compiled: … -->` comment.
    public var skipReason: String?

    /// `file:line`.
    public var description: String { "\(file):\(line)" }

    /// Every Swift block of README.md and of every DocC catalog under Sources/ but TransferGTK's (whose snippets
    /// compile only with the trait GTK: ``gtk``).
    public static let all: [DocumentationSnippet] = {
        var files = ["README.md"]
        let sources = repositoryFile("Sources")
        if let enumerator = FileManager.default.enumerator(atPath: sources.path) {
            for case let path as String in enumerator
            where path.contains(".docc/") && path.hasSuffix(".md") && !path.hasPrefix("TransferGTK/") {
                files.append("Sources/" + path)
            }
        }
        return files.sorted().flatMap { snippets(in: $0) }
    }()

    /// Every Swift block of TransferGTK's DocC catalog.
    public static let gtk: [DocumentationSnippet] = {
        let catalog = repositoryFile("Sources/TransferGTK/Documentation.docc")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        return files.filter { $0.hasSuffix(".md") }.sorted().flatMap {
            snippets(in: "Sources/TransferGTK/Documentation.docc/" + $0)
        }
    }()

    /// The Swift blocks of `file` (a path in the checkout).
    public static func snippets(in file: String) -> [DocumentationSnippet] {
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
