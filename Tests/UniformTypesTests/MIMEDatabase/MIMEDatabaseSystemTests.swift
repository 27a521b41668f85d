import Foundation
import Testing

@testable import UniformTypes

/// Checks against the shared-mime-info database installed on every machine of the project. The expected
/// answers were cross-checked with `gio info -a standard::content-type` (shared-mime-info 2.2); counts are
/// floors, because other versions of the database differ.
@Suite(
    "MIMEDatabase on /usr/share/mime", .timeLimit(.minutes(5)),
    .enabled(if: systemMIMEDatabaseIsInstalled, "needs shared-mime-info (Debian: shared-mime-info)"))
struct MIMEDatabaseSystemTests {
    static let database = MIMEDatabase(directories: ["/usr/share/mime"])

    @Test("the whole database loads without skipped lines")
    func counts() {
        let database = Self.database
        #expect(database.mimeTypes.count > 700)
        #expect(database.aliasCount > 250)
        #expect(database.explicitSubclassCount > 350)
        #expect(database.explicitParents.count > 350)
        #expect(database.globs.count > 1000)
        #expect(database.skippedLineCount == 0)
        #expect(database.unreadableFiles.isEmpty)
    }

    @Test("*.py gives text/x-python (weight 60, gio's answer) before text/x-python3 (weight 50)")
    func python() {
        let candidates = Self.database.mimeTypes(forFileName: "setup.py")
        #expect(candidates.first == "text/x-python")
        #expect(candidates.contains("text/x-python3"))
        #expect(Self.database.mimeTypes(forFileName: "SETUP.PY") == candidates)
    }

    @Test(
        "file names give gio's answer first",
        arguments: [
            ("archive.tar.gz", "application/x-compressed-tar"),
            ("ARCHIVE.TAR.GZ", "application/x-compressed-tar"),
            ("x.C", "text/x-c++src"),
            ("x.c", "text/x-csrc"),
            ("Makefile", "text/x-makefile"),
            ("README", "text/x-readme"),
            ("notes.md", "text/markdown"),
            ("backup~", "application/x-trash"),
            ("ticket.PKPASS", "application/vnd.apple.pkpass"),
        ])
    func fileNames(fileName: String, expected: String) {
        #expect(Self.database.mimeTypes(forFileName: fileName).first == expected)
    }

    @Test("aliases, extensions and parents of well-known types")
    func types() {
        let database = Self.database
        #expect(database.canonical(for: "text/x-markdown") == "text/markdown")
        #expect(database.aliases(of: "text/markdown").contains("text/x-markdown"))
        #expect(database.contains("application/vnd.apple.pkpass"))
        #expect(database.extensions(for: "application/vnd.apple.pkpass") == ["pkpass"])
        #expect(database.parents(of: "image/svg+xml") == ["application/xml"])
        #expect(database.isSubclass("image/svg+xml", of: "text/plain"))
        #expect(database.parents(of: "image/png") == ["application/octet-stream"])
        #expect(database.parents(of: "inode/directory").isEmpty)
        #expect(
            database.canonical(for: "application/vnd.ms-excel.sheet.macroenabled.12")
                == "application/vnd.ms-excel.sheet.macroEnabled.12")
    }

    @Test("descriptions are the unlocalized comments")
    func descriptions() {
        #expect(Self.database.description(for: "image/svg+xml") == "SVG image")
        #expect(Self.database.description(for: "application/vnd.ms-excel.sheet.macroEnabled.12") != nil)
        #expect(Self.database.description(for: "image/x-not-a-type") == nil)
    }
}
