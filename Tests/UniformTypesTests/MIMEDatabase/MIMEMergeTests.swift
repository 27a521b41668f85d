import Foundation
import Testing
import TransferKitTestSupport

@testable import UniformTypes

/// A fresh catalog with the built-in types and a database made of `globs2` and `aliases` lines, every type of the
/// globs listed in `types`.
private func importing(globs: String, aliases: String = "") -> (TypeCatalog, MIMEImportSummary) {
    let types = Set(globs.split(separator: "\n").map { $0.split(separator: ":")[1] }).sorted()
    let files = MIMEDirectoryFiles(
        types: Array(types.joined(separator: "\n").utf8), aliases: Array(aliases.utf8), globs2: Array(globs.utf8))
    let catalog = TypeCatalog()
    return (catalog, catalog.importMIMEDatabase(MIMEDatabase(files: [files])))
}

/// A temporary mime directory whose `types`, `globs2` and `aliases` files hold these lines; the caller removes it.
private func mimeDirectory(types: [String], globs: [String], aliases: [String] = []) throws -> URL {
    let directory = try makeTemporaryDirectory(prefix: "transferkit-merge")
    for (name, lines) in [("types", types), ("globs2", globs), ("aliases", aliases)] {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent(name))
    }
    return directory
}

@Suite("A database type and a declared type that claim one extension", .timeLimit(.minutes(5)))
struct MIMEMergeTests {
    @Test("merge into the declared type, which gains the MIME type and its aliases and keeps its conformance")
    func merge() throws {
        let before = TypeCatalog().supertypes(of: UniformType.cSource)
        let (catalog, summary) = importing(
            globs: "50:text/x-fixture-csrc:*.c:cs\n", aliases: "text/x-fixture-c text/x-fixture-csrc\n")
        #expect(summary.importedTypeCount == 0)
        #expect(summary.mappedToDeclaredTypeCount == 1)
        #expect(catalog.type(mimeType: "text/x-fixture-csrc") == UniformType.cSource)
        #expect(catalog.type(mimeType: "TEXT/X-FIXTURE-C") == UniformType.cSource)
        #expect(catalog.type(filenameExtension: "c") == UniformType.cSource)
        #expect(catalog.tags(of: UniformType.cSource)[.mimeType] == ["text/x-fixture-csrc", "text/x-fixture-c"])
        #expect(catalog.supertypes(of: UniformType.cSource) == before)
    }

    @Test("only the database's first answer for the extension merges")
    func firstAnswerOnly() throws {
        let (catalog, summary) = importing(globs: "60:text/x-fixture-first:*.c\n40:text/x-fixture-second:*.c\n")
        #expect(summary.importedTypeCount == 1)
        #expect(catalog.type(mimeType: "text/x-fixture-first") == UniformType.cSource)
        let second = try #require(catalog.type(mimeType: "text/x-fixture-second"))
        #expect(catalog.origin(of: second) == .mimeDatabase)
    }

    @Test("no merge when the declared type's own MIME type has the extension too: two meanings, two types")
    func twoMeanings() throws {
        let (catalog, summary) = importing(globs: "60:application/x-fixture-notpng:*.png\n50:image/png:*.png\n")
        #expect(summary.importedTypeCount == 1)
        #expect(summary.mappedToDeclaredTypeCount == 1)
        let other = try #require(catalog.type(mimeType: "application/x-fixture-notpng"))
        #expect(catalog.origin(of: other) == .mimeDatabase)
        #expect(catalog.type(filenameExtension: "png") == .png)
        #expect(catalog.tags(of: .png)[.mimeType] == ["image/png"])
    }

    @Test("an upper-case case-sensitive glob does not merge: declared extensions match in lower case")
    func upperCaseGlob() throws {
        let (catalog, summary) = importing(globs: "50:text/x-fixture-cxx:*.C:cs\n")
        #expect(summary.importedTypeCount == 1)
        let cxx = try #require(catalog.type(mimeType: "text/x-fixture-cxx"))
        #expect(cxx != UniformType.cSource)
        #expect(catalog.origin(of: cxx) == .mimeDatabase)
    }
}

@Suite("Merged MIME tags in a catalog that imports its database lazily", .timeLimit(.minutes(5)))
struct LazyMergedTagTests {
    @Test("a declared type without a MIME type of its own gets the merged one without an explicit import")
    func lazyMerge() throws {
        let directory = try mimeDirectory(
            types: ["text/x-fixture-csrc"], globs: ["50:text/x-fixture-csrc:*.c"],
            aliases: ["text/x-fixture-c text/x-fixture-csrc"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [directory])
        #expect(catalog.preferredTag(of: .png, tagClass: .mimeType) == "image/png")
        #expect(catalog.isMIMEImportPending)
        // Answered from the database by the import's rule, without importing it.
        #expect(catalog.tags(of: UniformType.cSource)[.mimeType] == ["text/x-fixture-csrc", "text/x-fixture-c"])
        #expect(catalog.isMIMEImportPending)
        // The import agrees.
        #expect(catalog.type(mimeType: "text/x-fixture-c") == .cSource)
        #expect(!catalog.isMIMEImportPending)
        #expect(catalog.tags(of: UniformType.cSource)[.mimeType] == ["text/x-fixture-csrc", "text/x-fixture-c"])
    }

    @Test("a declared type with MIME types of its own lists the database's name for its extension after them")
    func lazyMergeAfterOwnMIMETypes() throws {
        let directory = try mimeDirectory(
            types: ["application/x-fixture-php"], globs: ["50:application/x-fixture-php:*.php"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [directory])
        // The preferred MIME type is the declared one, and asking for it alone does not import the database.
        #expect(catalog.preferredTag(of: .phpScript, tagClass: .mimeType) == "text/php")
        #expect(catalog.isMIMEImportPending)
        #expect(
            catalog.tags(of: .phpScript)[.mimeType]
                == ["text/php", "text/x-php-script", "application/php", "application/x-fixture-php"])
        #expect(catalog.type(mimeType: "application/x-fixture-php") == .phpScript)
    }
}

/// Before a lazy catalog imports its database, `tags(of:)` works out what the import would merge into the one type it
/// is asked about; after the import it reads the import's index. Both must give the same lists.
@Suite("Merged MIME tags before the import and after it", .timeLimit(.minutes(5)))
struct MergedTagPreviewTests {
    /// Every built-in and `declared` type's tags from a catalog that has not imported `directories`, against one that
    /// has (both with `declared` registered first).
    static func expectPreviewMatchesImport(
        _ directories: [URL], declared: [UniformTypeDeclaration] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let preview = TypeCatalog(lazilyImportingMIMEDatabaseFrom: directories)
        let imported = TypeCatalog(lazilyImportingMIMEDatabaseFrom: directories)
        try preview.register(declared, as: .exported)
        try imported.register(declared, as: .exported)
        imported.importSystemMIMEDatabaseIfNeeded()
        #expect(!imported.isMIMEImportPending, sourceLocation: sourceLocation)
        var gained = 0
        for declaration in UniformType.systemDeclarations + declared {
            let type = declaration.identifier
            let tags = preview.tags(of: type)
            #expect(tags == imported.tags(of: type), "\(type)", sourceLocation: sourceLocation)
            if (tags[.mimeType] ?? []).count > (declaration.tags[.mimeType] ?? []).count { gained += 1 }
        }
        #expect(preview.isMIMEImportPending, "tags(of:) imported the database", sourceLocation: sourceLocation)
        #expect(gained > 0, "no built-in type gained a merged MIME type", sourceLocation: sourceLocation)
    }

    @Test(
        "the system's database: every built-in type's tags are the same before the import and after it",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/mime/globs2"),
            "needs the shared-mime-info database in /usr/share/mime (Debian: shared-mime-info)"))
    func systemDatabase() throws {
        // Besides the built-in types, one that claims an extension in upper case which the database globs in lower
        // case only, case-sensitively (`*.gs:cs`, Genie), as the import compares extensions lowercased.
        let genie = UniformTypeDeclaration(
            identifier: try #require(UniformType("com.example.preview.genie")), conformsTo: [.plainText],
            tags: [.filenameExtension: ["GS"]])
        try Self.expectPreviewMatchesImport([URL(fileURLWithPath: "/usr/share/mime")], declared: [genie])
    }

    @Test(
        "the import's rules: an alias claimed, an extension shared, an extension with two meanings, a case-sensitive glob"
    )
    func rules() throws {
        let types = [
            "text/x-fixture-csrc", "application/x-fixture-jar", "application/x-fixture-otf-template", "font/otf",
            "text/x-fixture-cxx", "application/x-fixture-php", "text/x-fixture-plain",
        ]
        let globs = [
            "50:text/x-fixture-csrc:*.c", "50:application/x-fixture-jar:*.jar",
            "60:application/x-fixture-otf-template:*.otf",
            "50:font/otf:*.otf", "50:text/x-fixture-cxx:*.C:cs", "50:application/x-fixture-php:*.php",
            "50:text/x-fixture-plain:*.txt",
        ]
        let aliases = ["text/x-fixture-c text/x-fixture-csrc", "application/java-archive application/x-fixture-jar"]
        let directory = try mimeDirectory(types: types, globs: globs, aliases: aliases)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.expectPreviewMatchesImport([directory])
        let preview = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [directory])
        // The Java archive claims the alias, and so gains the database's name; the font keeps its extension alone.
        let javaArchive = try #require(UniformType("com.sun.java-archive"))
        let font = try #require(UniformType("public.opentype-font"))
        #expect(preview.tags(of: javaArchive)[.mimeType]?.contains("application/x-fixture-jar") == true)
        #expect(preview.tags(of: font)[.mimeType] == ["font/otf"])
        #expect(preview.isMIMEImportPending)
    }
}

extension MergedTagPreviewTests {
    @Test("a database name with parameters matches no declared claim by itself, only through a bare alias")
    func namesWithParameters() throws {
        // shared-mime-info names carry no parameters, but a directory's `types` file can list any visible ASCII.
        let directory = try mimeDirectory(
            types: ["text/plain;charset=utf-8", "text/plain;format=flowed", "text/plain", "text/x-fixture-tab;x=1"],
            globs: ["50:text/plain:*.txt"],
            aliases: [
                "text/x-fixture-utf8 text/plain;charset=utf-8", "text/tab-separated-values text/x-fixture-tab;x=1",
            ])
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.expectPreviewMatchesImport([directory])
        let imported = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [directory])
        imported.importSystemMIMEDatabaseIfNeeded()
        #expect(!imported.isMIMEImportPending)
        // The UTF-8 type claims `text/plain` only with its charset: it keeps its own name and gains none, and so does
        // the plain-text type, which claims `text/plain` without parameters.
        #expect(imported.tags(of: .utf8PlainText)[.mimeType] == ["text/plain;charset=utf-8"])
        #expect(imported.tags(of: .plainText)[.mimeType] == ["text/plain"])
        let flowed = try #require(imported.type(mimeType: "text/plain;format=flowed"))
        #expect(imported.origin(of: flowed) == .mimeDatabase)
        // A name with parameters whose alias a declared type claims merges through the alias.
        let tabs = try #require(UniformType("public.tab-separated-values-text"))
        #expect(imported.tags(of: tabs)[.mimeType] == ["text/tab-separated-values", "text/x-fixture-tab;x=1"])
        // Lookups by the declared parameterized name still find the UTF-8 type, by its own claim.
        #expect(imported.type(mimeType: "text/plain;charset=utf-8") == .utf8PlainText)
    }

    @Test("the tags of a type whose MIME types all require parameters are answered without parsing the database")
    func parameterizedTypeNeedsNoDatabase() throws {
        let directory = try mimeDirectory(
            types: ["text/x-fixture-csrc"], globs: ["50:text/x-fixture-csrc:*.c"],
            aliases: ["text/x-fixture-c text/x-fixture-csrc"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [directory])
        let lazy = try #require(catalog.lazyMIMEImport)
        #expect(catalog.tags(of: .utf8PlainText)[.mimeType] == ["text/plain;charset=utf-8"])
        #expect(catalog.tags(of: .utf16PlainText)[.mimeType] == ["text/plain;charset=utf-16"])
        #expect(!lazy.hasParsedDatabase)
        // A type that claims an extension may gain names: its tags read the database (and still do not import it).
        #expect(catalog.tags(of: .cSource)[.mimeType] == ["text/x-fixture-csrc", "text/x-fixture-c"])
        #expect(lazy.hasParsedDatabase)
        #expect(catalog.isMIMEImportPending)
    }

    @Test("a parent named with parameters in subclasses still maps to the declared type its parameters select")
    func parentWithParameters() throws {
        let directory = try mimeDirectory(
            types: ["text/x-fixture-notes"], globs: ["50:text/x-fixture-notes:*.fixnotes"])
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("text/x-fixture-notes text/plain;charset=utf-8\n".utf8)
            .write(to: directory.appendingPathComponent("subclasses"))
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [directory])
        let notes = try #require(catalog.type(mimeType: "text/x-fixture-notes"))
        #expect(catalog.origin(of: notes) == .mimeDatabase)
        #expect(catalog.conforms(notes, to: .utf8PlainText))
    }
}

extension MergedTagPreviewTests {
    @Test("declared tags as the import compares them: a MIME type with spaces, a name that is a type and an alias")
    func oddTags() throws {
        // `text/x-fixture-x` is a type of its own and also an alias of `text/x-fixture-y`, as a user's directory layered
        // over the system's can make it.
        let directory = try mimeDirectory(
            types: ["text/x-fixture-ws", "text/x-fixture-x", "text/x-fixture-y"],
            globs: ["50:text/x-fixture-ws:*.fixws"],
            aliases: [
                "text/x-fixture-ws-alias text/x-fixture-ws", "text/x-fixture-x text/x-fixture-y",
                "text/x-fixture-z text/x-fixture-y",
            ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let declared = [
            UniformTypeDeclaration(
                identifier: try #require(UniformType("com.example.preview.ws")), conformsTo: [.plainText],
                tags: [.mimeType: [" text/x-fixture-ws-alias\t"]]),
            UniformTypeDeclaration(
                identifier: try #require(UniformType("com.example.preview.x")), conformsTo: [.plainText],
                tags: [.mimeType: ["TEXT/X-FIXTURE-X"]]),
            UniformTypeDeclaration(
                identifier: try #require(UniformType("com.example.preview.y")), conformsTo: [.plainText],
                tags: [.mimeType: ["text/x-fixture-y"]]),
        ]
        try Self.expectPreviewMatchesImport([directory], declared: declared)
    }
}

extension MergedTagPreviewTests {
    @Test("the merges follow the catalog's declarations: one registered after a first answer changes the next")
    func followsRegistrations() throws {
        let directory = try mimeDirectory(types: ["text/x-fixture-q"], globs: ["50:text/x-fixture-q:*.fixq"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [directory])
        let byExtension = try #require(UniformType("com.example.preview.q-by-extension"))
        let byName = try #require(UniformType("com.example.preview.q-by-name"))
        try catalog.register(
            [
                UniformTypeDeclaration(
                    identifier: byExtension, conformsTo: [.plainText], tags: [.filenameExtension: ["fixq"]])
            ],
            as: .exported)
        #expect(catalog.tags(of: byExtension)[.mimeType] == ["text/x-fixture-q"])
        #expect(catalog.tags(of: byExtension)[.mimeType] == ["text/x-fixture-q"])
        // A type that claims the MIME type by name takes it: a claim comes before a shared extension.
        try catalog.register(
            [
                UniformTypeDeclaration(
                    identifier: byName, conformsTo: [.plainText], tags: [.mimeType: ["text/x-fixture-q"]])
            ],
            as: .exported)
        #expect(catalog.tags(of: byExtension)[.mimeType] == nil)
        #expect(catalog.isMIMEImportPending)
        // The import agrees.
        catalog.importSystemMIMEDatabaseIfNeeded()
        #expect(!catalog.isMIMEImportPending)
        #expect(catalog.type(mimeType: "text/x-fixture-q") == byName)
        #expect(catalog.tags(of: byExtension)[.mimeType] == nil)
    }
}
