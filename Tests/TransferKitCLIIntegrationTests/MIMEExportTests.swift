import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

private let exampleTypes = repositoryFile("Examples/ExampleTypes.json").path

/// Runs the built tool with exactly `environment` (nothing inherited).
private func runBinary(_ arguments: [String], environment: [String: String]) async throws -> ToolRun {
    let result = try await ChildProcess.run(transferkitPath, arguments: arguments, environment: environment)
    return ToolRun(
        status: result.status, output: result.outputText, error: result.errorText, outputBytes: result.standardOutput)
}

/// The package `types --export-mime` makes of `Examples/ExampleTypes.json`.
private let examplePackage = """
    <?xml version="1.0" encoding="UTF-8"?>
    <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
      <mime-type type="application/vnd.example.book-cover+json">
        <comment>Book cover (BookShelf example)</comment>
        <glob pattern="*.bookcover"/>
        <sub-class-of type="application/json"/>
      </mime-type>
      <mime-type type="application/vnd.example.book-shelf+json">
        <comment>Book shelf order (BookShelf example)</comment>
        <glob pattern="*.bookshelf"/>
        <sub-class-of type="application/json"/>
      </mime-type>
      <mime-type type="application/vnd.example.character-card+json">
        <comment>Character card (CharacterCards example)</comment>
        <glob pattern="*.charcard"/>
        <sub-class-of type="application/json"/>
      </mime-type>
      <mime-type type="application/vnd.example.custom-module+json">
        <comment>Palette module (ModulePalette example)</comment>
        <glob pattern="*.palettemodule"/>
        <sub-class-of type="application/json"/>
      </mime-type>
    </mime-info>

    """

@Suite("transferkit types --export-mime", .timeLimit(.minutes(5)))
struct MIMEExportTests {
    @Test func printsThePackageOfTheDeclaredTypes() async throws {
        let run = try await runBinary(["types", "--export-mime", "--declarations", exampleTypes])
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        #expect(run.output == examplePackage)
    }

    @Test func writesThePackageToAFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("types.xml").path
        let run = try await runBinary(["types", "--export-mime", "--declarations", exampleTypes, "-o", path])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == examplePackage)
    }

    @Test func nothingToExportWithoutDeclarations() async throws {
        let run = try await runBinary(["types", "--export-mime"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(
            run.error
                == "transferkit types: nothing to export: no exported type is declared; give --declarations FILE "
                + "(nothingToExport)\n")
    }

    @Test func nothingToExportWhenNoDeclaredTypeHasAMIMEType() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Plain.json").path
        try Data(#"{"exported": [{"identifier": "com.example.plain", "conformsTo": ["public.json"]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let run = try await runBinary(["types", "--export-mime", "--declarations", path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(
            run.error.hasPrefix(
                "transferkit types: left out com.example.plain: it declares no MIME type; add a public.mime-type tag"))
        #expect(run.error.hasSuffix("(see the lines above) (nothingToExport)\n"))
    }

    @Test(
        "a bad declarations file is an input error with its code",
        arguments: [
            (
                #"{"exported": [{"identifier": "com.example.x", "conformsTo": ["com.example.nowhere"]}]}"#,
                "unknownParent"
            ),
            (#"{"exported": [,]}"#, "invalidJSON"),
            (#"{"exported": [{"identifier": "com.example.x", "colour": "red"}]}"#, "invalidDeclaration"),
        ])
    func badDeclarations(contents: String, code: String) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Bad.json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let run = try await runBinary(["types", "--export-mime", "--declarations", path])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.hasSuffix(" (\(code))\n"), "\(run.error)")
        #expect(run.error.contains("Bad.json"))
    }

    @Test(
        "usage errors",
        arguments: [
            (["types", "--install"], "--install and -o go with --export-mime"),
            (["types", "public.data", "-o", "x.xml"], "--install and -o go with --export-mime"),
            (["types", "--export-mime", "--install", "-o", "x.xml"], "give --install or -o FILE, not both"),
            (
                ["types", "--export-mime", "public.data"],
                "--export-mime takes no TYPE, --extension, --mime, --file, --conforms or --json"
            ),
        ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) async throws {
        let run = try await runBinary(arguments + ["--declarations", exampleTypes])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error == "transferkit types: \(message) (usage: see 'transferkit types --help')\n")
    }

    @Test func installWithoutUpdateMIMEDatabaseOnThePathWritesNothing() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let data = directory.appendingPathComponent("data")
        let run = try await runBinary(
            ["types", "--export-mime", "--install", "--declarations", exampleTypes],
            environment: ["PATH": empty.path, "XDG_DATA_HOME": data.path, "HOME": directory.path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.error.hasPrefix("transferkit types: update-mime-database is not on the PATH"))
        #expect(run.error.hasSuffix(" (programMissing)\n"))
        #expect(!FileManager.default.fileExists(atPath: data.path))
    }

    @Test func aFailingUpdateMIMEDatabaseIsReported() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bin, fake) = try makeFakeProgram(
            named: "update-mime-database", body: "echo \"cannot update $1\" >&2\nexit 3\n", in: directory)
        let data = directory.appendingPathComponent("data")
        let run = try await runBinary(
            ["types", "--export-mime", "--install", "--declarations", exampleTypes],
            environment: ["PATH": bin.path + ":/usr/bin:/bin", "XDG_DATA_HOME": data.path, "HOME": directory.path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        let mime = data.appendingPathComponent("mime").path
        #expect(
            run.error
                == "transferkit types: \(fake) \(mime) exited with status 3 (cannot update \(mime)); "
                + "\(mime)/packages/transferkit-exampletypes.xml is written but the database is not rebuilt "
                + "(programFailed)\n")
    }
}

@Suite("Exported types on the desktop", .serialized, .timeLimit(.minutes(5)))
struct MIMEExportDesktopTests {
    static let tools = ["update-mime-database", "gio", "xdg-mime", "mimetype"]
    static let toolsPresent = tools.allSatisfy { executableOnPath(named: $0) != nil }

    /// What `gio info` and `xdg-mime query filetype` (as a generic desktop runs it, through `mimetype`, and as
    /// GNOME runs it, through `gio`) report for `file`.
    static func reports(for file: String, environment: [String: String]) async throws -> [String] {
        let gio = try #require(executableOnPath(named: "gio"))
        let xdgMIME = try #require(executableOnPath(named: "xdg-mime"))
        let info = try await ChildProcess.run(
            gio, arguments: ["info", "-a", "standard::content-type", file], environment: environment)
        let gioType = info.outputText.split(separator: "\n")
            .first { $0.contains("standard::content-type:") }
            .map { String($0.split(separator: " ").last ?? "") }
        var answers = [gioType ?? "gio: \(info.errorText)"]
        for desktop in [nil, "GNOME"] as [String?] {
            var environment = environment
            environment["XDG_CURRENT_DESKTOP"] = desktop
            let query = try await ChildProcess.run(
                xdgMIME, arguments: ["query", "filetype", file], environment: environment)
            answers.append(query.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return answers
    }

    @Test(
        "after --install, gio and xdg-mime report the declared MIME type of a file with the declared extension",
        .enabled(
            if: toolsPresent,
            """
            needs update-mime-database (shared-mime-info), gio (libglib2.0-bin), xdg-mime (xdg-utils) and mimetype \
            (libfile-mimeinfo-perl, what xdg-mime runs outside GNOME and KDE)
            """))
    func installedTypesAreSeenByTheDesktop() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        // Only what the tools need: no desktop session variables, so xdg-mime takes its generic path (mimetype),
        // except where XDG_CURRENT_DESKTOP is set below; the system database stays in XDG_DATA_DIRS.
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path,
            "XDG_DATA_HOME": data, "XDG_DATA_DIRS": "/usr/local/share:/usr/share",
        ]
        let card = directory.appendingPathComponent("Luke.charcard").path
        try Data(#"{"name":"Luke","character":"Jedi"}"#.utf8).write(to: URL(fileURLWithPath: card))
        let declared = "application/vnd.example.character-card+json"

        let before = try await Self.reports(for: card, environment: environment)
        #expect(!before.contains(declared), "the desktop knew the type before the install: \(before)")

        let run = try await runBinary(
            ["types", "--export-mime", "--install", "--declarations", exampleTypes], environment: environment)
        #expect(run.status == 0, "\(run.error)")
        let package = data + "/mime/packages/transferkit-exampletypes.xml"
        #expect(run.output.hasPrefix("installed \(package) (application/vnd.example.book-cover+json, "))
        #expect(try String(contentsOfFile: package, encoding: .utf8) == examplePackage)

        let after = try await Self.reports(for: card, environment: environment)
        #expect(after == [declared, declared, declared])
        // The declared supertype is the database's too: gio answers from the installed sub-class-of.
        let subclasses = try String(contentsOfFile: data + "/mime/subclasses", encoding: .utf8)
        #expect(subclasses.contains("\(declared) application/json"))
        // TransferKit reads the user's database too: without the declarations, .charcard is a database type now.
        let lookup = try await runBinary(["types", "--extension", "charcard", "--json"], environment: environment)
        #expect(lookup.status == 0, "\(lookup.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lookup.output.utf8)) as? [String: Any])
        #expect(object["mimeTypes"] as? [String] == [declared])
        #expect((object["supertypes"] as? [String])?.contains("public.json") == true)
        print("desktop export: gio, xdg-mime (generic) and xdg-mime (GNOME) report \(after.joined(separator: ", "))")
    }
}
