import Foundation
import Testing

@testable import UniformTypes

/// A database answers its first look-ups by reading its globs in turn and makes its tables only after
/// ``MIMEGlobTables/scanLimit`` of them: both ways must give the same answers.
@Suite("MIMEDatabase look-ups without and with the glob tables", .timeLimit(.minutes(5)))
struct MIMEGlobScanTests {
    /// Names for `database`: each glob's pattern made a name (its text after a leading `*`, behind `x`), in two
    /// cases, with the fixtures' names and some that match nothing.
    static func names(for database: MIMEDatabase) -> [String] {
        var names = ["README", "Makefile", "core", "Core", "libz.so.1", "page.3", "notes~", "x", ".", "a.b.c", ""]
        for glob in database.globs {
            let text = glob.kind == .suffix ? "x" + glob.suffix : glob.pattern
            names += [text, text.uppercased(), "dir/" + text, "x." + text]
        }
        return names
    }

    /// Every name's MIME types and every type's globs, through the tables and by reading the globs, as pairs.
    static func compare(_ database: MIMEDatabase) -> (checked: Int, differing: [String]) {
        let tables = database.globTables
        var differing: [String] = []
        let names = Self.names(for: database)
        for name in names where name.utf8.allSatisfy({ $0 < 0x80 }) {
            let scanned = database.mimeTypes(forFileName: name, in: nil)
            let indexed = database.mimeTypes(forFileName: name, in: tables)
            if scanned != indexed { differing.append("\(name): \(scanned) against \(indexed)") }
        }
        let types = database.mimeTypes + database.aliasTargets.keys.sorted() + ["image/x-unknown"]
        for type in types + types.map({ $0.uppercased() }) {
            let scanned = database.globs(for: type, in: nil)
            let indexed = database.globs(for: type, in: tables)
            if scanned != indexed { differing.append("globs of \(type): \(scanned) against \(indexed)") }
        }
        return (names.count + 2 * types.count, differing)
    }

    @Test("the layered fixture answers the same both ways")
    func fixture() throws {
        let result = Self.compare(try MIMEDatabaseFixtures.layered())
        #expect(result.checked > 50)
        #expect(result.differing == [])
    }

    @Test("globs of both cases with suffixes of one length, literal names, patterns and aliases: the same both ways")
    func edgeCases() {
        let files = MIMEDirectoryFiles(
            types: Array("text/x-a\ntext/x-b\ntext/x-c\ntext/x-d\ntext/x-e\n".utf8),
            aliases: Array("text/x-alias text/x-a\ntext/x-chain text/x-alias\ntext/x-self text/x-self\n".utf8),
            globs2: Array(
                ("60:text/x-a:*.ab\n50:text/x-b:*.AB:cs\n50:text/x-c:*.b\n40:text/x-alias:*.al\n50:text/x-chain:*.ch\n"
                    + "50:text/x-self:*.se\n50:text/x-d:Makefile\n50:text/x-e:makefile:cs\n50:text/x-d:*.[0-9]\n"
                    + "50:text/x-e:\u{212A}elvin\n70:text/x-a:*.al\n").utf8))
        let database = MIMEDatabase(files: [files])
        #expect(database.mimeTypes(forFileName: "y.AB", in: nil) == ["text/x-a", "text/x-b"])
        #expect(database.mimeTypes(forFileName: "y.ab", in: nil) == ["text/x-a"])
        #expect(database.mimeTypes(forFileName: "makefile", in: nil) == ["text/x-d", "text/x-e"])
        #expect(database.mimeTypes(forFileName: "Kelvin", in: nil) == ["text/x-e"])
        #expect(database.mimeTypes(forFileName: "page.7", in: nil) == ["text/x-d"])
        #expect(database.globs(for: "text/x-a", in: nil).map(\.pattern) == ["*.al", "*.ab", "*.al"])
        let result = Self.compare(database)
        #expect(result.differing == [])
    }

    @Test(
        "the system database answers the same both ways",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/mime/globs2"),
            "needs the shared-mime-info database (Debian: shared-mime-info)"))
    func system() {
        let result = Self.compare(MIMEDatabase(directories: ["/usr/share/mime"]))
        #expect(result.checked > 2_000)
        #expect(result.differing == [])
    }

    @Test("a database makes its tables after the limit of look-ups, and the answers do not change")
    func tablesAfterLimit() throws {
        let database = try MIMEDatabaseFixtures.layered()
        var answers: [[String]] = []
        for _ in 0..<(MIMEGlobTables.scanLimit + 3) {
            #expect(database.globTableCache.isMade == (answers.count > MIMEGlobTables.scanLimit))
            answers.append(database.mimeTypes(forFileName: "backup.tar.gz"))
        }
        #expect(database.globTableCache.isMade)
        #expect(Set(answers) == [["application/x-tar-archive"]])
    }
}
