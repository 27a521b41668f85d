import Testing

@testable import UniformTypes

@Suite("MIMEDatabase filename lookup", .timeLimit(.minutes(5)))
struct MIMEDatabaseGlobTests {
    @Test(
        "file names map to candidates in the spec's order",
        arguments: [
            // Weights order candidates of the same suffix.
            ("report.doc", ["application/x-worddoc", "text/x-doc"]),
            // The longest suffix wins, whatever the case of a case-insensitive glob.
            ("backup.tar.gz", ["application/x-tar-archive"]),
            ("BACKUP.TAR.GZ", ["application/x-tar-archive"]),
            ("backup.gz", ["application/x-archive"]),
            // Case-sensitive globs match only the exact case; their case-insensitive twin lines are ignored.
            ("main.c", ["text/x-csrc-f"]),
            ("main.C", ["text/x-cxx-f"]),
            ("core", ["application/x-core-f"]),
            ("Core", []),
            // A case-insensitive pattern written with capitals still matches any case.
            ("clip.Multi", ["application/x-multi"]),
            // Literal names come before suffixes, suffixes before other patterns.
            ("README", ["text/x-readme-f"]),
            ("readme.doc", ["application/x-worddoc", "text/x-doc"]),
            ("readme.md", ["text/x-readme-f"]),
            ("libz.so.1", ["application/x-lib-f", "application/x-man-f"]),
            ("page.3", ["application/x-man-f"]),
            ("notes~", ["application/x-backup-f"]),
            // Directories are ignored; aliases never appear.
            ("some/dir/backup.tar.gz", ["application/x-tar-archive"]),
            ("", []),
            ("dir/", []),
            ("nothing.zzz", []),
        ])
    func lookup(fileName: String, expected: [String]) throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.mimeTypes(forFileName: fileName) == expected)
    }

    @Test(
        "extensions come from *.ext globs in weight order",
        arguments: [
            ("application/x-multi", ["multi", "mlt"]),
            ("application/x-worddoc", ["doc", "docx"]),
            ("APPLICATION/X-OLD-TAR", ["tar.gz"]),
            ("text/x-cxx-f", ["C"]),
            ("application/x-backup-f", []),
            ("text/x-readme-f", []),
            ("image/x-unknown", []),
        ])
    func extensions(type: String, expected: [String]) throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.extensions(for: type) == expected)
    }

    @Test("globs are classified and case-insensitive patterns lowercased")
    func classification() {
        let literal = MIMEGlob(pattern: "Makefile", mimeType: "text/x-makefile", weight: 50, isCaseSensitive: false)
        #expect(literal.kind == .literal)
        #expect(literal.pattern == "makefile")
        let suffix = MIMEGlob(pattern: "*.TXT", mimeType: "text/plain", weight: 50, isCaseSensitive: false)
        #expect(suffix.kind == .suffix)
        #expect(suffix.filenameExtension == "txt")
        #expect(suffix.matches(name: "A.TXT", lowercasedName: "a.txt"))
        let tilde = MIMEGlob(pattern: "*~", mimeType: "application/x-trash", weight: 50, isCaseSensitive: false)
        #expect(tilde.kind == .suffix)
        #expect(tilde.filenameExtension == nil)
        let sensitive = MIMEGlob(pattern: "*.C", mimeType: "text/x-c++src", weight: 50, isCaseSensitive: true)
        #expect(sensitive.pattern == "*.C")
        #expect(!sensitive.matches(name: "a.c", lowercasedName: "a.c"))
        let pattern = MIMEGlob(pattern: "*.so.[0-9]*", mimeType: "x/y", weight: 60, isCaseSensitive: false)
        #expect(pattern.kind == .pattern)
        #expect(pattern.filenameExtension == nil)
    }

    @Test(
        "fnmatch-style matching",
        arguments: [
            ("*.so.[0-9]*", "libz.so.1.2", true),
            ("*.so.[0-9]*", "libz.so.x", false),
            ("a?c", "abc", true),
            ("a?c", "ac", false),
            ("[!a]bc", "xbc", true),
            ("[!a]bc", "abc", false),
            ("[^a]bc", "abc", false),
            ("[a-c]x", "bx", true),
            ("[a-c]x", "dx", false),
            ("[]]x", "]x", true),
            ("[abc", "[abc", true),
            ("\\*x", "*x", true),
            ("\\*x", "ax", false),
            ("*a*b", "xaxxb", true),
            ("*a*b", "xaxxc", false),
            ("*", "", true),
            ("readme*", "readme", true),
            ("[0-9][0-9][0-9].vdr", "001.vdr", true),
            ("*.anim[1-9j]", "x.animj", true),
            ("é?", "éa", true),
        ])
    func fnmatch(pattern: String, name: String, expected: Bool) {
        #expect(MIMEGlob.fnmatch(Array(pattern.unicodeScalars), Array(name.unicodeScalars)) == expected)
    }

    @Test("a glob repeated in another case counts once, and the database written back parses to itself")
    func repeatedGlobInAnotherCase() {
        let files = MIMEDirectoryFiles(
            globs2: Array("50:text/x-a:*.X\n50:text/x-a:*.x\n50:text/x-b:*.C:cs\n50:text/x-b:*.C\n".utf8))
        let database = MIMEDatabase(files: [files])
        #expect(database.globs.map(\.pattern) == ["*.x", "*.C"])
        let again = MIMEDatabase(files: [database.files])
        #expect(again.skippedLineCount == 0)
        #expect(again.hasSameContents(as: database))
    }

    /// ASCII patterns and names are lowercased without the Unicode case mapping; the others still take it, and both
    /// must give what `lowercased()` gives.
    @Test("patterns and names outside ASCII are lowercased as Unicode says, ASCII ones as before")
    func lowercasingOutsideASCII() {
        let files = MIMEDirectoryFiles(
            globs2: Array(
                "50:text/x-u:*.ÄRZ\n50:text/x-u:*.ärz\n50:text/x-v:*.AbC\n50:text/x-w:ŞEHİR\n50:text/x-x:*.ÉTÉ:cs\n"
                    .utf8))
        let database = MIMEDatabase(files: [files])
        #expect(database.globs.map(\.pattern) == ["*.ärz", "*.abc", "şehi̇r", "*.ÉTÉ"])
        #expect(database.mimeTypes(forFileName: "Datei.ÄRZ") == ["text/x-u"])
        #expect(database.mimeTypes(forFileName: "datei.Ärz") == ["text/x-u"])
        #expect(database.mimeTypes(forFileName: "x.aBc") == ["text/x-v"])
        #expect(database.mimeTypes(forFileName: "ŞEHİR") == ["text/x-w"])
        #expect(database.mimeTypes(forFileName: "x.ÉTÉ") == ["text/x-x"])
        #expect(database.mimeTypes(forFileName: "x.été").isEmpty)
    }
}
