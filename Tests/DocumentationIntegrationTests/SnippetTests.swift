import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

@Suite("Documentation snippets", .timeLimit(.minutes(5)))
struct SnippetTests {
    @Test("the README and the DocC catalogs have Swift snippets")
    func snippetsFound() {
        #expect(DocumentationSnippet.all.count >= 15)
        #expect(DocumentationSnippet.all.contains { $0.file == "README.md" })
        #expect(DocumentationSnippet.gtk.count >= 4)
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
