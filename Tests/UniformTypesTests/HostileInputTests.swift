import Foundation
import Testing
import TransferKitTestSupport

@testable import UniformTypes

/// The hardening audit's reproducers (issue 14, `Resources/hostile`): each must load with a correct answer after
/// a bounded amount of work, or be refused at once. No test here measures time: a FIFO test would hang if the
/// open blocked, and the work of the subclass pass is counted.
@Suite("Hostile declaration files and mime directories", .timeLimit(.minutes(5)))
struct HostileInputTests {
    private func hostile(_ name: String) throws -> URL {
        let resources = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
        return resources.appendingPathComponent("hostile").appendingPathComponent(name)
    }

    @Test("one declared type with 200 000 extensions loads, every extension answering")
    func manyExtensions() throws {
        let catalog = TypeCatalog()
        try catalog.loadDeclarations(from: hostile("ManyExtensions-200k.json"))
        let type = try #require(UniformType("com.example.many-extensions"))
        let extensions = try #require(catalog.tags(of: type)[.filenameExtension])
        #expect(extensions.count == 200_000)
        #expect(Set(extensions).count == 200_000)
        #expect(catalog.type(filenameExtension: "x0") == type)
        #expect(catalog.type(filenameExtension: "X4ABJ") == type)
    }

    @Test("repeated tags and parents are dropped once each, keeping the first")
    func repeatsAreDropped() throws {
        let catalog = TypeCatalog()
        let type = try #require(UniformType("com.example.repeats"))
        let tags = (0..<1000).map { "r\($0 % 10)" }
        try catalog.register(
            [
                UniformTypeDeclaration(
                    identifier: type, conformsTo: [.json, .data, .json], tags: [.filenameExtension: tags])
            ],
            as: .exported)
        #expect(catalog.declaration(for: type)?.conformsTo == [.json, .data])
        #expect(catalog.type(filenameExtension: "r9") == type)
        #expect(catalog.types(tag: "r3", tagClass: .filenameExtension, conformingTo: nil) == [type])
    }

    @Test("a sub-class-of chain of 10 000 types is walked once, in linear work")
    func subclassChain() throws {
        let directory = try hostile("mime-chain-10k")
        let database = MIMEDatabase(directories: [directory.path])
        #expect(database.mimeTypes.count == 10_000)
        #expect(database.explicitSubclassCount == 9_999)
        // Each type entered once, each subclasses line followed once: 19 999 steps. Recomputing every type's
        // closure took 50 million.
        #expect(database.explicitReachSteps == 19_999)
        #expect(database.parents(of: "application/x-chain9999") == ["application/x-chain9998"])
        #expect(database.parents(of: "application/x-chain0") == ["application/octet-stream"])
        let ancestors = database.ancestors(of: "application/x-chain9999")
        #expect(ancestors.count == 10_000)
        #expect(ancestors.last == "application/octet-stream")

        let catalog = TypeCatalog()
        let summary = catalog.importMIMEDatabase(directories: [directory])
        #expect(summary.problem == nil)
        #expect(summary.importedTypeCount == 10_000)
        let end = try #require(catalog.type(filenameExtension: "chainend"))
        let root = try #require(catalog.type(mimeType: "application/x-chain0"))
        #expect(catalog.conforms(end, to: root))
        #expect(catalog.conforms(end, to: .data))
    }

    @Test("a cycle of subclasses reaches the same kinds from every member")
    func subclassCycle() throws {
        let files = MIMEDirectoryFiles(
            types: Array("text/x-a\ninode/x-b\ninode/x-c\n".utf8),
            subclasses: Array("text/x-a inode/x-b\ninode/x-b inode/x-c\ninode/x-c inode/x-b\ninode/x-c text/x-a\n".utf8)
        )
        let database = MIMEDatabase(files: [files])
        // Every member of the cycle leads to text/x-a, so none needs an implicit parent.
        #expect(database.parents(of: "inode/x-b") == ["inode/x-c"])
        #expect(database.parents(of: "text/x-a") == ["inode/x-b"])
        #expect(database.parents(of: "inode/x-c") == ["inode/x-b", "text/x-a"])
        #expect(database.explicitReach["inode/x-b"] == [.text, .nonInode])
    }

    @Test("a FIFO as a mime directory's globs2 is skipped as unreadable, without waiting for a writer")
    func fifoGlobs() throws {
        let directory = try makeMIMEDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let globs = directory.appendingPathComponent("globs2").path
        #expect(mkfifo(globs, 0o600) == 0)
        let catalog = TypeCatalog()
        let summary = catalog.importMIMEDatabase(directories: [directory])
        #expect(summary.unreadableFiles == [globs])
        #expect(summary.mimeTypeCount == 1)
    }

    @Test("a FIFO as a declarations file is an unreadableFile error, without waiting for a writer")
    func fifoDeclarations() throws {
        let directory = try makeMIMEDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("types.json")
        #expect(mkfifo(path.path, 0o600) == 0)
        let error = #expect(throws: UniformTypeError.self) { try TypeCatalog().loadDeclarations(from: path) }
        #expect(error?.code == .unreadableFile)
    }

    @Test("deep nesting in a declarations file is invalidJSON saying how deep, not a generic parse failure")
    func deepNesting() {
        let text =
            #"{"exported": "# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        let error = #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: Data(text.utf8), source: "deep.json")
        }
        #expect(error?.code == .invalidJSON)
        #expect(error?.message.contains("nest deeper than 32 levels") == true)
    }

    /// A temporary mime directory with a one-line `types` file.
    private func makeMIMEDirectory() throws -> URL {
        let directory = try makeTemporaryDirectory()
        try Data("application/x-fifo-test\n".utf8).write(to: directory.appendingPathComponent("types"))
        return directory
    }
}
