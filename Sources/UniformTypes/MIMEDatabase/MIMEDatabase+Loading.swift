#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MIMEDatabase {
    /// Loads the database from `directories`, highest precedence first.
    ///
    /// Missing directories and files are normal and contribute nothing (no directory at all gives an empty
    /// database). A file that exists but cannot be read is listed in ``unreadableFiles``; a malformed line
    /// is skipped and counted in ``skippedLineCount``. Loading never fails.
    init(directories: [String]) {
        var builder = MIMEDatabaseBuilder()
        for directory in directories { builder.addDirectory(directory) }
        self = builder.build(directories: directories)
    }

    /// Loads the database from the directories the XDG Base Directory variables of `environment` name.
    ///
    /// - Parameter environment: Usually `ProcessInfo.processInfo.environment`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(directories: Self.searchDirectories(environment: environment))
    }

    /// The mime directories to read, highest precedence first: `$XDG_DATA_HOME/mime` (default
    /// `$HOME/.local/share/mime`), then `<dir>/mime` for each directory of `$XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`).
    ///
    /// As the Base Directory spec says, an unset or empty variable takes its default and relative paths are
    /// ignored; a directory listed twice is read once, at its first position.
    ///
    /// ```swift
    /// MIMEDatabase.searchDirectories(environment: ["HOME": "/home/ada"])
    /// // ["/home/ada/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"]
    /// ```
    static func searchDirectories(environment: [String: String]) -> [String] {
        var result: [String] = []
        func append(_ base: Substring) {
            guard base.hasPrefix("/") else { return }
            var trimmed = base
            while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            let directory = String(trimmed) + "/mime"
            if !result.contains(directory) { result.append(directory) }
        }

        if let user = SharedMIMEInfoPackage.userMIMEDirectory(environment: environment) {
            result.append(user)
        }

        let dataDirectories = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
        for base in (dataDirectories ?? "/usr/local/share:/usr/share").split(separator: ":") {
            append(base)
        }
        return result
    }

    /// The system's mime directories: ``searchDirectories(environment:)`` without the user's own
    /// (`$XDG_DATA_HOME/mime`), unless `$XDG_DATA_DIRS` names it too.
    static func systemSearchDirectories(environment: [String: String]) -> [String] {
        let all = searchDirectories(environment: environment)
        var withoutUser = environment
        withoutUser["XDG_DATA_HOME"] = nil
        withoutUser["HOME"] = nil
        let system = searchDirectories(environment: withoutUser)
        return all.filter { system.contains($0) }
    }
}
