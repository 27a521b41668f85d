import Testing

@testable import UniformTypes

@Suite("MIMEDatabase search directories", .timeLimit(.minutes(5)))
struct MIMEDatabaseDirectoryTests {
    @Test(
        "directories follow the XDG Base Directory rules",
        arguments: [
            ([:], ["/usr/local/share/mime", "/usr/share/mime"]),
            (["HOME": "/home/ada"], ["/home/ada/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"]),
            (["HOME": "/home/ada/"], ["/home/ada/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"]),
            (
                ["HOME": "/home/ada", "XDG_DATA_HOME": "/data/home", "XDG_DATA_DIRS": "/opt/share:/usr/share/"],
                ["/data/home/mime", "/opt/share/mime", "/usr/share/mime"]
            ),
            // Empty values take the defaults; relative paths are ignored; duplicates are read once.
            (
                ["HOME": "/h", "XDG_DATA_HOME": "", "XDG_DATA_DIRS": ""],
                ["/h/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"]
            ),
            (
                ["HOME": "/h", "XDG_DATA_HOME": "relative", "XDG_DATA_DIRS": "rel:/a::/a/:/b"],
                ["/h/.local/share/mime", "/a/mime", "/b/mime"]
            ),
            (["HOME": "relative", "XDG_DATA_DIRS": "/usr/share"], ["/usr/share/mime"]),
            (["XDG_DATA_HOME": "/usr/share", "XDG_DATA_DIRS": "/usr/share"], ["/usr/share/mime"]),
        ] as [([String: String], [String])])
    func searchDirectories(environment: [String: String], expected: [String]) {
        #expect(MIMEDatabase.searchDirectories(environment: environment) == expected)
    }

    @Test("loading from an environment reads its directories")
    func loadFromEnvironment() throws {
        let low = try MIMEDatabaseFixtures.directory("low")
        let base = String(low.dropLast("/mime/low".count))
        // `<base>/mime` is the fixtures' `mime` folder, which has no database files of its own.
        let database = MIMEDatabase(environment: ["XDG_DATA_HOME": base, "XDG_DATA_DIRS": "/nonexistent"])
        #expect(database.directories == [base + "/mime", "/nonexistent/mime"])
        #expect(database.isEmpty)
    }
}
