import Foundation
import Testing

@testable import UniformTypes

@Suite(
    "Lazy MIME import under concurrency", .timeLimit(.minutes(5)),
    .enabled(if: systemMIMEDatabaseIsInstalled, "needs shared-mime-info (Debian: shared-mime-info)"))
struct MIMEImportConcurrencyTests {
    @Test("queries racing the lazy import all see consistent answers, and the import runs once")
    func racingQueries() async throws {
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [URL(fileURLWithPath: "/usr/share/mime")])
        let python3 = try #require(UniformType(MIMEImporter.identifierPrefix + "text.x-python3"))
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<12 {
                group.addTask {
                    var failures = 0
                    for round in 0..<200 {
                        switch (task + round) % 4 {
                        case 0:
                            // Needs no import: a declared type answers.
                            if catalog.type(filenameExtension: "png") != .png { failures += 1 }
                            if !catalog.conforms(.png, to: .image) { failures += 1 }
                        case 1:
                            if catalog.type(mimeType: "text/x-markdown") != .markdown { failures += 1 }
                        case 2:
                            if !catalog.conforms(python3, to: .plainText) { failures += 1 }
                        default:
                            if catalog.type(filenameExtension: "blend")?.isDynamic != false { failures += 1 }
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        let imported = catalog.declarations.filter { catalog.origin(of: $0.identifier) == .mimeDatabase }
        // Imported once: a second import would have added nothing, and the first added them all.
        #expect(imported.count > 500)
        #expect(
            catalog.importMIMEDatabase(directories: [URL(fileURLWithPath: "/usr/share/mime")]).importedTypeCount == 0)
    }

    @Test("a lazy catalog answers declared lookups without importing")
    func noImportWhenNotNeeded() throws {
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [URL(fileURLWithPath: "/usr/share/mime")])
        #expect(catalog.type(filenameExtension: "py") == .pythonScript)
        #expect(catalog.conforms(.markdown, to: .text))
        #expect(catalog.snapshot.mimeIndex == nil)
        #expect(catalog.type(filenameExtension: "blend")?.isDynamic == false)
        #expect(catalog.snapshot.mimeIndex != nil)
    }
}
