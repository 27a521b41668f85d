import Foundation
import Testing
import UniformTypes

private func type(_ identifier: String) throws -> UniformType {
    try #require(UniformType(identifier))
}

/// The hand-written mime directory `Resources/mime/<name>`.
private func mimeDirectory(_ name: String) throws -> URL {
    let resources = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
    return resources.appendingPathComponent("mime").appendingPathComponent(name)
}

/// A catalog with the system types and the `catalog` fixture database.
private func fixtureCatalog() throws -> (TypeCatalog, MIMEImportSummary) {
    let catalog = TypeCatalog()
    let summary = catalog.importMIMEDatabase(directories: [try mimeDirectory("catalog")])
    return (catalog, summary)
}

private let prefix = "org.freedesktop.shared-mime-info."

@Suite("Importing a MIME database into a catalog", .timeLimit(.minutes(5)))
struct MIMEImportTests {
    @Test("the summary counts what was read, added and mapped")
    func summary() throws {
        let (catalog, summary) = try fixtureCatalog()
        #expect(summary.mimeTypeCount == 14)
        // text/markdown, image/png and application/json map to the built-in types; the other 11 are added.
        #expect(summary.mappedToDeclaredTypeCount == 3)
        #expect(summary.importedTypeCount == 11)
        #expect(summary.aliasCount == 2)
        #expect(summary.globCount == 14)
        #expect(summary.skippedLineCount == 0)
        #expect(summary.unreadableFiles.isEmpty)
        #expect(summary.problem == nil)
        #expect(!summary.isEmpty)
        #expect(catalog.declarations.count == UniformType.systemDeclarations.count + 11)
        let doc = try type(prefix + "text.x-fixture-doc")
        #expect(catalog.origin(of: doc) == .mimeDatabase)
    }

    @Test(
        "identifiers are derived from the MIME type",
        arguments: [
            ("text/x-fixture-doc", "text.x-fixture-doc"),
            ("application/x-fixture-bin", "application.x-fixture-bin"),
            ("application/x-fixture-old-bin", "application.x-fixture-bin"),
            ("TEXT/X-FIXTURE-UPPER", "text.x-fixture-upper"),
            ("inode/x-fixture-dir", "inode.x-fixture-dir"),
        ])
    func identifiers(mimeType: String, suffix: String) throws {
        let (catalog, _) = try fixtureCatalog()
        #expect(catalog.type(mimeType: mimeType, conformingTo: .item) == (try type(prefix + suffix)))
    }

    @Test("declared types keep their MIME types; aliases of them resolve to them")
    func mappedToDeclared() throws {
        let (catalog, _) = try fixtureCatalog()
        #expect(catalog.type(mimeType: "image/png") == .png)
        #expect(catalog.type(mimeType: "text/x-fixture-md") == .markdown)
        #expect(catalog.type(mimeType: "text/x-fixture-md; charset=utf-8") == .markdown)
        #expect(catalog.type(filenameExtension: "fmd") == .markdown)
        #expect(!catalog.isDeclared(try type(prefix + "text.markdown")))
        // The declared type's own tags come first, then the database's aliases of its MIME type.
        let declared = try #require(catalog.declaration(for: .markdown)?.tags)
        #expect(catalog.tags(of: .markdown)[.mimeType] == (declared[.mimeType] ?? []) + ["text/x-fixture-md"])
        #expect(catalog.tags(of: .markdown)[.filenameExtension] == declared[.filenameExtension])
    }

    @Test("conformance follows sub-class-of and the implicit rules, mapped to declared types")
    func conformance() throws {
        let (catalog, _) = try fixtureCatalog()
        let doc = try type(prefix + "text.x-fixture-doc")
        let child = try type(prefix + "text.x-fixture-child")
        let bin = try type(prefix + "application.x-fixture-bin")
        let tarz = try type(prefix + "application.x-fixture-tarz")
        let picture = try type(prefix + "image.x-fixture-picture")
        let directory = try type(prefix + "inode.x-fixture-dir")
        // text/* under text/plain
        #expect(catalog.declaration(for: doc)?.conformsTo == [.plainText])
        #expect(catalog.conforms(child, to: doc))
        #expect(catalog.conforms(child, to: .plainText))
        // application/xml (not in this database) maps to the declared public.xml.
        #expect(catalog.declaration(for: bin)?.conformsTo == [.xml])
        #expect(catalog.conforms(bin, to: .text))
        // everything but inode/* under application/octet-stream, which is public.data
        #expect(catalog.conforms(tarz, to: try type(prefix + "application.x-fixture-z")))
        #expect(catalog.conforms(tarz, to: .data))
        #expect(catalog.conforms(picture, to: .image))
        #expect(catalog.declaration(for: picture)?.conformsTo == [.image])
        #expect(!catalog.conforms(directory, to: .data))
        #expect(catalog.conforms(directory, to: .item))
        // A sub-class-of cycle is broken rather than rejecting the database.
        let cycleA = try type(prefix + "application.x-cycle-a")
        let cycleB = try type(prefix + "application.x-cycle-b")
        #expect(catalog.isDeclared(cycleA) && catalog.isDeclared(cycleB))
        #expect(catalog.conforms(cycleA, to: cycleB) != catalog.conforms(cycleB, to: cycleA))
    }

    @Test("tags: the MIME type and its aliases, extensions in weight order")
    func tags() throws {
        let (catalog, _) = try fixtureCatalog()
        let bin = try type(prefix + "application.x-fixture-bin")
        #expect(catalog.tags(of: bin)[.mimeType] == ["application/x-fixture-bin", "application/x-fixture-old-bin"])
        #expect(catalog.tags(of: bin)[.filenameExtension] == ["json", "fbin", "bin2", "fdoc"])
        #expect(catalog.declaration(for: try type(prefix + "text.x-fixture-doc"))?.description == "Fixture document")
        #expect(catalog.declaration(for: bin)?.description == nil)
    }

    @Test(
        "extensions: declared types win, then glob weight, the longest glob and case-sensitive globs",
        arguments: [
            ("json", "public.json"),
            (".png", "public.png"),
            ("fdoc", prefix + "text.x-fixture-doc"),
            ("FDOC", prefix + "text.x-fixture-doc"),
            ("fz", prefix + "application.x-fixture-z"),
            ("tar.fz", prefix + "application.x-fixture-tarz"),
            ("FC", prefix + "text.x-fixture-upper"),
            ("fc", prefix + "text.x-fixture-lower"),
            ("Fc", prefix + "text.x-fixture-lower"),
            ("fmd", "net.daringfireball.markdown"),
        ])
    func extensions(fileExtension: String, expected: String) throws {
        let (catalog, _) = try fixtureCatalog()
        #expect(catalog.type(filenameExtension: fileExtension) == (try type(expected)))
    }

    @Test("all candidates are listed, declared first; conformingTo filters; unclaimed ones stay dynamic")
    func candidates() throws {
        let (catalog, _) = try fixtureCatalog()
        let doc = try type(prefix + "text.x-fixture-doc")
        let bin = try type(prefix + "application.x-fixture-bin")
        #expect(catalog.types(tag: "fdoc", tagClass: .filenameExtension, conformingTo: nil) == [doc, bin])
        #expect(catalog.types(tag: "json", tagClass: .filenameExtension, conformingTo: nil) == [.json, bin])
        #expect(catalog.type(filenameExtension: "fdoc", conformingTo: .xml) == bin)
        #expect(catalog.type(filenameExtension: "nothing-claims-this")?.isDynamic == true)
        #expect(catalog.type(mimeType: "application/x-nothing-claims-this")?.isDynamic == true)
        #expect(catalog.types(tag: "image/*", tagClass: .mimeType, conformingTo: nil).contains(.png))
        #expect(
            catalog.types(tag: "image/*", tagClass: .mimeType, conformingTo: nil)
                .contains(try type(prefix + "image.x-fixture-picture")))
    }

    @Test("declared types outrank the database, whenever they are registered")
    func precedence() throws {
        let (catalog, _) = try fixtureCatalog()
        let json = #"""
            {"imported": [{"identifier": "com.example.fbin", "conformsTo": ["public.data"],
              "tags": {"public.filename-extension": ["fbin"], "public.mime-type": ["application/x-fixture-bin"]}}]}
            """#
        try catalog.loadDeclarations(from: Data(json.utf8), source: "inline")
        let declared = try type("com.example.fbin")
        #expect(catalog.type(filenameExtension: "fbin") == declared)
        #expect(catalog.type(mimeType: "application/x-fixture-bin") == declared)
        #expect(
            catalog.types(tag: "fbin", tagClass: .filenameExtension, conformingTo: nil)
                == [declared, try type(prefix + "application.x-fixture-bin")])

        // Declared before the import: the database maps the MIME type to it.
        let early = TypeCatalog()
        try early.loadDeclarations(from: Data(json.utf8), source: "inline")
        let summary = early.importMIMEDatabase(directories: [try mimeDirectory("catalog")])
        #expect(summary.mappedToDeclaredTypeCount == 4)
        #expect(early.type(mimeType: "application/x-fixture-old-bin") == declared)
        #expect(!early.isDeclared(try type(prefix + "application.x-fixture-bin")))
    }

    @Test("importing again adds only what is new; the earlier import wins")
    func importTwice() throws {
        let catalog = TypeCatalog()
        let first = catalog.importMIMEDatabase(directories: [try mimeDirectory("catalog")])
        let second = catalog.importMIMEDatabase(directories: [try mimeDirectory("low")])
        #expect(first.importedTypeCount == 11)
        #expect(second.alreadyImportedCount == 0)
        // x-worddoc, x-archive and x-csrc-f share *.doc, *.gz and *.c with built-in types and merge into them.
        #expect(second.mappedToDeclaredTypeCount == 3)
        #expect(second.importedTypeCount + second.mappedToDeclaredTypeCount == second.mimeTypeCount)
        let again = catalog.importMIMEDatabase(directories: [try mimeDirectory("catalog")])
        #expect(again.importedTypeCount == 0)
        #expect(again.alreadyImportedCount == 14)
        #expect(catalog.type(filenameExtension: "fdoc") == (try type(prefix + "text.x-fixture-doc")))
        #expect(catalog.type(filenameExtension: "lowshared") == (try type(prefix + "text.x-shared")))
    }

    @Test("no database: the catalog keeps the built-in types alone, without an error")
    func noDatabase() throws {
        let catalog = TypeCatalog()
        let summary = catalog.importMIMEDatabase(directories: [URL(fileURLWithPath: "/nonexistent/mime")])
        #expect(summary.isEmpty)
        #expect(summary.importedTypeCount == 0)
        #expect(summary.problem == nil)
        #expect(catalog.declarations.count == UniformType.systemDeclarations.count)
        #expect(catalog.type(filenameExtension: "py") == .pythonScript)
        #expect(catalog.type(filenameExtension: "blend")?.isDynamic == true)
    }

    @Test("an isolated catalog imports nothing unless asked")
    func isolated() {
        let catalog = TypeCatalog()
        #expect(catalog.declarations.count == UniformType.systemDeclarations.count)
        #expect(catalog.type(mimeType: "text/x-markdown")?.isDynamic == true)
    }
}
