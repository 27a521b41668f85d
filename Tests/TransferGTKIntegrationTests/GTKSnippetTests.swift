#if GTK
    import Foundation
    import Testing
    import TransferKitPlatform
    import TransferKitTestSupport
    import TransferKitTesting

    /// TransferGTK's DocC article compiles as written: its snippets are compiled against the built modules and GTK's
    /// headers (which only a build with the trait GTK has), as DocumentationTests compiles every other catalog's.
    @Suite("TransferGTK's documentation snippets", .timeLimit(.minutes(5)))
    struct GTKSnippetTests {
        @Test("TransferGTK's catalog has a snippet for the drag source, the drop target, the list and the clipboard")
        func snippetsFound() {
            let code = DocumentationSnippet.gtk.map(\.code).joined(separator: "\n")
            for name in ["GTKDragSource.attach", "GTKDropTarget.attach", "GTKListModel(", "GTKClipboard.default"] {
                #expect(code.contains(name), "no snippet uses \(name)")
            }
        }

        @Test(
            "every TransferGTK snippet compiles as written against the built modules and GTK 4's headers",
            .enabled(if: swiftCompiler != nil, "needs swiftc from the toolchain on the PATH"),
            arguments: DocumentationSnippet.gtk)
        func snippetCompiles(_ snippet: DocumentationSnippet) async throws {
            if let reason = snippet.skipReason {
                #expect(!reason.isEmpty, "a snippet that is not compiled must say why")
                return
            }
            let compiler = try #require(swiftCompiler)
            let flags = try await ChildProcess.run(SystemTool.path("pkg-config"), arguments: ["--cflags", "gtk4"])
            try #require(flags.status == 0, "pkg-config knows no gtk4: \(flags.errorText)")
            let headers = String(decoding: flags.standardOutput, as: UTF8.self).split(whereSeparator: \.isWhitespace)
                .flatMap { ["-Xcc", String($0)] }
            let folder = try makeTemporaryDirectory(prefix: "gtk-snippet")
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = folder.appendingPathComponent("main.swift")
            try Data((snippet.context + "\n" + snippet.code + "\n").utf8).write(to: source)
            let arguments =
                swiftTypeCheckArguments(
                    [source.path], products: TransferKitExecutable.productsDirectory, check: .build)
                + ["-Xcc", "-fmodule-map-file=" + repositoryFile("Sources/CGtk4/module.modulemap").path] + headers
            let run = try await ChildProcess.run(compiler, arguments: arguments)
            #expect(run.status == 0, "\(snippet) does not compile:\n\(run.errorText)")
        }
    }
#endif
