import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import UniformTypes

/// The `gio` executable on `PATH`, if GLib's tools (Debian's `libglib2.0-bin`) are installed.
let gioPath: String? = executableOnPath(named: "gio")

/// The installed shared-mime-info database that `gio` reads too.
let systemMIMEDirectory = "/usr/share/mime"

/// What `gio` and the catalog say about one `*.ext` glob.
struct GioVerdict: Sendable {
    var filenameExtension: String
    var gioMIMEType: String
    /// The catalog's type for the extension.
    var byExtension: UniformType?
    /// The catalog's type for gio's MIME type.
    var byGioMIMEType: UniformType?
    /// The MIME tags of the extension's type (those of its declaration and those a database merged into it).
    var mimeTags: [String] = []

    var agrees: Bool { byExtension != nil && byExtension == byGioMIMEType }
    /// The stricter measure: the types agree and the type carries gio's MIME type as a tag.
    var agreesWithTag: Bool { agrees && mimeTags.contains { $0.asciiLowercased == gioMIMEType.asciiLowercased } }
}

/// Runs `gio info -a standard::content-type` over one file per `*.ext` glob of the installed database (each holding
/// one NUL byte, so that content sniffing defers to the name) and compares with the catalog.
func gioVerdicts() async throws -> [GioVerdict] {
    let gio = try #require(gioPath)
    let database = MIMEDatabase(directories: [systemMIMEDirectory])
    var extensions: [String] = []
    var seen: Set<String> = []
    for filenameExtension in database.globExtensions where seen.insert(filenameExtension).inserted {
        extensions.append(filenameExtension)
    }
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for (index, filenameExtension) in extensions.enumerated() {
        let path = directory.appendingPathComponent("f\(index).\(filenameExtension)").path
        try Data([0]).write(to: URL(fileURLWithPath: path))
        paths.append(path)
    }
    // gio reads the same directory only: no user or /usr/local database.
    let environment = [
        "XDG_DATA_HOME": directory.appendingPathComponent("no-home").path, "XDG_DATA_DIRS": "/usr/share",
        "PATH": "/usr/bin:/bin",
    ]
    let run = try await ChildProcess.run(
        gio, arguments: ["info", "-a", "standard::content-type"] + paths, environment: environment)
    #expect(run.status == 0, "\(run.errorText)")
    // Output per file: "uri: file:///…/f<index>.<ext>" then "  standard::content-type: <type>".
    var gioTypes: [Int: String] = [:]
    var current: Int?
    for line in run.outputText.split(separator: "\n") {
        if line.hasPrefix("uri: ") {
            let name = line.split(separator: "/").last ?? ""
            current = Int(name.dropFirst().prefix { $0 != "." })
        } else if let index = current, let range = line.range(of: "standard::content-type: ") {
            gioTypes[index] = String(line[range.upperBound...])
        }
    }
    #expect(gioTypes.count == extensions.count)

    // Seconds of work, minutes under the thread sanitizer: off the test pool, whose two threads other suites'
    // sessions and deadlines need meanwhile.
    return try await onThreadOfItsOwn { [extensions, gioTypes] in
        let catalog = TypeCatalog()
        catalog.importMIMEDatabase(directories: [URL(fileURLWithPath: systemMIMEDirectory)])
        return extensions.enumerated().compactMap { index, filenameExtension in
            guard let gioType = gioTypes[index] else { return nil }
            let byExtension = catalog.type(filenameExtension: filenameExtension, conformingTo: .item)
            return GioVerdict(
                filenameExtension: filenameExtension, gioMIMEType: gioType, byExtension: byExtension,
                byGioMIMEType: catalog.type(mimeType: gioType, conformingTo: .item),
                mimeTags: byExtension.map { catalog.tags(of: $0)[.mimeType] ?? [] } ?? [])
        }
    }
}

@Suite("Agreement with gio", .timeLimit(.minutes(5)))
struct GioAgreementTests {
    @Test(
        "the type of each *.ext glob's extension is the type of gio's MIME type for it, in at least 99 % of globs",
        .enabled(if: gioPath != nil, "needs gio (Debian: libglib2.0-bin)"),
        .enabled(if: FileManager.default.fileExists(atPath: systemMIMEDirectory + "/globs2"), "needs shared-mime-info"))
    func agreement() async throws {
        let verdicts = try await gioVerdicts()
        let agreeing = verdicts.filter(\.agrees).count
        let share = Double(agreeing) / Double(max(1, verdicts.count))
        let disagreements = verdicts.filter { !$0.agrees }.map {
            "*.\($0.filenameExtension): gio \($0.gioMIMEType) → \($0.byGioMIMEType?.identifier ?? "nil"), "
                + "by extension \($0.byExtension?.identifier ?? "nil")"
        }
        print("gio agreement: \(agreeing) of \(verdicts.count) *.ext globs (\(String(format: "%.2f", share * 100)) %)")
        for line in disagreements { print("  " + line) }
        #expect(verdicts.count > 500)
        #expect(share >= 0.99, "\(disagreements.joined(separator: "\n"))")
    }

    @Test(
        "the type of each *.ext glob's extension also carries gio's MIME type as a tag, in at least 99 % of globs",
        .enabled(if: gioPath != nil, "needs gio (Debian: libglib2.0-bin)"),
        .enabled(if: FileManager.default.fileExists(atPath: systemMIMEDirectory + "/globs2"), "needs shared-mime-info"))
    func tagAgreement() async throws {
        let verdicts = try await gioVerdicts()
        let agreeing = verdicts.filter(\.agreesWithTag).count
        let share = Double(agreeing) / Double(max(1, verdicts.count))
        let misses = verdicts.filter { $0.agrees && !$0.agreesWithTag }.map {
            "*.\($0.filenameExtension): \($0.byExtension?.identifier ?? "nil") lacks \($0.gioMIMEType) "
                + "(has \($0.mimeTags.joined(separator: " ")))"
        }
        print(
            "gio tag agreement: \(agreeing) of \(verdicts.count) *.ext globs (\(String(format: "%.2f", share * 100)) %)"
        )
        for line in misses { print("  " + line) }
        #expect(share >= 0.99, "\(misses.joined(separator: "\n"))")
    }
}
