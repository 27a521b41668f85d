import Testing

@testable import UniformTypes

@Suite("MIMEDatabase subclassing", .timeLimit(.minutes(5)))
struct MIMEDatabaseSubclassingTests {
    @Test(
        "direct parents combine explicit entries with the implicit rules, without redundant edges",
        arguments: [
            ("application/x-tar-archive", ["application/x-archive"]),
            ("application/x-old-tar", ["application/x-archive"]),
            ("application/x-archive", ["application/octet-stream"]),
            ("text/x-doc", ["text/plain"]),
            ("text/x-child", ["text/x-doc"]),
            ("text/x-leaf", ["text/plain"]),
            ("TEXT/X-LEAF", ["text/plain"]),
            ("text/x-shared", ["application/x-fixture-high", "text/x-doc"]),
            ("text/plain", ["application/octet-stream"]),
            ("application/octet-stream", []),
            ("inode/x-folder", []),
            ("application/x-inode-child", ["inode/x-folder", "application/octet-stream"]),
            ("text/x-not-in-database", ["text/plain"]),
        ])
    func parents(type: String, expected: [String]) throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.parents(of: type) == expected)
    }

    @Test("explicit parents are the union over directories")
    func parentsUnion() throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.explicitParents["text/x-shared"] == ["application/x-fixture-high", "text/x-doc"])
        #expect(database.explicitSubclassCount == 6)
    }

    @Test("ancestors and subclass checks follow explicit and implicit parents")
    func ancestors() throws {
        let database = try MIMEDatabaseFixtures.layered()
        #expect(database.ancestors(of: "text/x-child") == ["text/x-doc", "text/plain", "application/octet-stream"])
        #expect(database.isSubclass("text/x-child", of: "TEXT/PLAIN"))
        #expect(database.isSubclass("application/x-old-tar", of: "application/x-archive"))
        #expect(database.isSubclass("text/x-leaf", of: "text/x-leaf"))
        #expect(database.isSubclass("application/x-inode-child", of: "application/octet-stream"))
        #expect(!database.isSubclass("inode/x-folder", of: "application/octet-stream"))
        #expect(!database.isSubclass("text/plain", of: "text/x-doc"))
    }
}
