import Foundation
import Testing

@testable import UniformTypes

@Suite("MIMEDatabase loading", .timeLimit(.minutes(5)))
struct MIMEDatabaseLoadingTests {
    @Test("types are the union of all directories, first spelling wins")
    func typesUnion() throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.mimeTypes.count == 20)
        #expect(database.mimeTypes.prefix(3) == ["application/x-fixture-high", "text/X-Shared", "image/x-base"])
        #expect(database.canonical(for: "TEXT/x-shared") == "text/X-Shared")
        #expect(database.skippedLineCount == 0)
        #expect(database.unreadableFiles.isEmpty)
        #expect(!database.isEmpty)
    }

    @Test("aliases resolve case-insensitively; the higher-precedence directory wins")
    func aliases() throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.aliasCount == 3)
        #expect(database.canonical(for: "application/x-old") == "application/x-fixture-high")
        #expect(database.canonical(for: "IMAGE/X-B") == "image/x-base")
        #expect(database.canonical(for: "application/x-old-tar") == "application/x-tar-archive")
        #expect(database.canonical(for: "image/x-base") == "image/x-base")
        #expect(database.canonical(for: "image/x-unknown") == nil)
        #expect(database.contains("Application/X-Old"))
        #expect(!database.contains("image/x-unknown"))
        #expect(database.aliases(of: "application/x-fixture-high") == ["application/x-old"])
        #expect(database.aliases(of: "image/x-b") == ["image/x-b"])
        #expect(database.aliases(of: "application/x-low").isEmpty)
    }

    @Test("a name's table key is its canonical name lowercased, or the name lowercased when it is unknown")
    func canonicalKeys() throws {
        let database = try MIMEDatabaseFixtures.layered()
        let names =
            database.mimeTypes + database.mimeTypes.flatMap { database.aliases(of: $0) }
            + ["image/x-unknown", "IMAGE/X-B", "Application/X-Old", "TEXT/x-shared", "application/x-old-tar"]
        for name in names {
            #expect(database.canonicalKey(for: name) == (database.canonical(for: name) ?? name).asciiLowercased)
        }
        #expect(database.canonicalKey(for: "IMAGE/X-B") == "image/x-base")
        #expect(database.canonicalKey(for: "TEXT/x-shared") == "text/x-shared")
        #expect(database.canonicalKey(for: "Image/X-Unknown") == "image/x-unknown")
    }

    @Test("the subclasses files are parsed once, on first use, and the tables shared by copies of the database")
    func reachOnFirstUse() throws {
        let database = try MIMEDatabaseFixtures.layered()
        let copy = database
        let parents = copy.parents(of: "application/x-old-tar")
        #expect(database.explicitReachSteps > 0)
        #expect(database.explicitReach == copy.explicitReach)
        #expect(database.parents(of: "application/x-old-tar") == parents)
        #expect(copy.subclassCache === database.subclassCache)
        #expect(database.explicitParents == copy.explicitParents)
    }

    @Test("__NOGLOBS__ drops a type's globs from lower-precedence directories only")
    func noGlobs() throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.mimeTypes(forFileName: "picture.base").isEmpty)
        #expect(database.mimeTypes(forFileName: "picture.basenew") == ["image/x-base"])
        #expect(database.extensions(for: "image/x-base") == ["basenew"])
        #expect(database.extensions(for: "text/x-shared") == ["shared", "lowshared"])
        #expect(database.mimeTypes(forFileName: "a.lowshared") == ["text/X-Shared"])
    }

    @Test("without __NOGLOBS__ the lower directory's globs stay")
    func lowerGlobsWithoutHigh() throws {
        let database = MIMEDatabase(directories: [try MIMEDatabaseFixtures.directory("low")])
        #expect(database.mimeTypes(forFileName: "picture.base") == ["image/x-base"])
    }

    @Test("a missing directory or file contributes nothing; no directory gives an empty database")
    func missingDirectories() throws {
        let empty = MIMEDatabase(directories: ["/nonexistent/mime", "/also/not/here"])
        #expect(empty.isEmpty)
        #expect(empty.mimeTypes.isEmpty)
        #expect(empty.globs.isEmpty)
        #expect(empty.unreadableFiles.isEmpty)
        #expect(empty.mimeTypes(forFileName: "a.txt").isEmpty)
        #expect(empty.description(for: "text/plain") == nil)
        #expect(MIMEDatabase(directories: []).isEmpty)

        let withMissing = MIMEDatabase(directories: ["/nonexistent/mime", try MIMEDatabaseFixtures.directory("low")])
        #expect(withMissing.mimeTypes.count == 19)
    }

    @Test("malformed lines are skipped and counted; the valid lines around them load")
    func malformedLines() throws {
        let database = MIMEDatabase(directories: [try MIMEDatabaseFixtures.directory("malformed")])
        #expect(database.skippedLineCount == 15)
        #expect(database.mimeTypes == ["application/x-good", "text/x-also-good"])
        #expect(database.canonical(for: "application/x-alias") == "application/x-good")
        // A text/* type whose explicit parents lead to no text/* type also gets text/plain.
        #expect(database.parents(of: "text/x-also-good") == ["application/x-good", "text/plain"])
        #expect(database.globs.map(\.pattern) == ["*.good", "*.crlf", "*.OK"])
        #expect(database.mimeTypes(forFileName: "a.crlf") == ["application/x-good"])
        #expect(database.mimeTypes(forFileName: "a.OK") == ["application/x-good"])
        #expect(database.mimeTypes(forFileName: "a.ok").isEmpty)
    }

    @Test("a file that exists but cannot be read is reported and the rest still loads")
    func unreadableFile() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mimedb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A directory where `types` should be: present, but not a readable file (works as root too).
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("types"), withIntermediateDirectories: true)
        try Data("50:text/x-temp:*.temp\n".utf8).write(to: directory.appendingPathComponent("globs2"))

        let database = MIMEDatabase(directories: [directory.path])
        #expect(database.unreadableFiles == [directory.path + "/types"])
        #expect(database.mimeTypes.isEmpty)
        #expect(database.mimeTypes(forFileName: "a.temp") == ["text/x-temp"])
    }

    @Test("the older globs file is read when globs2 is missing")
    func legacyGlobs() throws {
        let database = MIMEDatabase(directories: [try MIMEDatabaseFixtures.directory("legacy")])
        #expect(database.globs.map(\.weight) == [50])
        #expect(database.mimeTypes(forFileName: "a.legacy") == ["text/x-legacy"])
    }

    @Test("descriptions are read on demand from the first directory with an unlocalized comment")
    func descriptions() throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.description(for: "application/x-fixture-high") == "Fixture & friends \u{2013} high")
        #expect(database.description(for: "application/x-old") == "Fixture & friends \u{2013} high")
        #expect(database.description(for: "image/x-base") == "Base image")
        #expect(database.description(for: "application/x-low") == nil)
        #expect(database.description(for: "../../etc/passwd") == nil)
    }

    @Test(
        "the unlocalized comment is extracted from XML bytes",
        arguments: [
            ("<comment>Plain</comment>", "Plain"),
            ("<comment xml:lang=\"de\">Nein</comment>\n<comment> Spaced </comment>", "Spaced"),
            (
                "<comment>a &lt;b&gt; &quot;c&quot; &apos;d&apos; &#65;&#x42; &bogus; &</comment>",
                "a <b> \"c\" 'd' AB &bogus; &"
            ),
            ("<comment></comment>", nil),
            ("<comment>unterminated", nil),
            ("no comment at all", nil),
        ] as [(String, String?)])
    func commentExtraction(xml: String, expected: String?) {
        #expect(MIMEDatabase.unlocalizedComment(in: Array(xml.utf8)) == expected)
    }
}
