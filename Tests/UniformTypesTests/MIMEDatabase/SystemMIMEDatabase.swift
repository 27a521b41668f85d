import Foundation

/// Whether the Linux shared-mime-info database is installed, which the suites that check against it need; `.ci/run`
/// installs it and fails when they skip.
let systemMIMEDatabaseIsInstalled = FileManager.default.fileExists(atPath: "/usr/share/mime/globs2")
