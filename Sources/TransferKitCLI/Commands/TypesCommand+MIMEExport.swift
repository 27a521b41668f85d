import TransferKit
import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TypesCommand {
    /// The program that rebuilds a MIME directory's database from its packages (Debian's `shared-mime-info`).
    static let updateMIMEDatabase = "update-mime-database"

    /// `types --export-mime`: prints, writes (`-o`) or installs (`--install`) the shared-mime-info package of the
    /// catalogue's exported types.
    func exportMIME(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        let conflicting = ["--extension", "--mime", "--file", "--conforms"].filter { arguments.value($0) != nil }
        if !arguments.positionals.isEmpty || !conflicting.isEmpty || arguments.flag("--json") {
            throw UsageError("--export-mime takes no TYPE, --extension, --mime, --file, --conforms or --json")
        }
        let install = arguments.flag("--install")
        if install, arguments.value("--output") != nil {
            throw UsageError("give --install or -o FILE, not both")
        }
        let package = catalog.sharedMIMEInfoPackage()
        for omission in package.omissions {
            try context.standardError.writeLine(
                "\(context.toolName) \(name): left out \(omission.uniformType.identifier): \(omission.reason)")
        }
        let claims = package.omissions.filter { $0.claimsSystemMIMEType }.map(\.uniformType.identifier)
        if install, !claims.isEmpty {
            let named = claims.prefix(3).map { MessageExcerpt.escaped($0) }.joined(separator: ", ")
            let more = claims.count > 3 ? " and \(claims.count - 3) more" : ""
            throw UniformTypeError(
                code: .claimsSystemMIMEType,
                message: "not installed: \(named)\(more) claim\(claims.count == 1 ? "s" : "") MIME types that are the "
                    + "system's (see the lines above); once installed, the desktop would take the system's files for "
                    + "them. Give each a MIME type of its own (application/vnd.<owner>.<name>)")
        }
        guard !package.entries.isEmpty else {
            let hint =
                arguments.allValues(DeclarationsOption.option.key).isEmpty
                ? "no exported type is declared; give --declarations FILE"
                : "no exported type of the declarations has a MIME type that can be exported (see the lines above)"
            throw CommandFailure(code: .nothingToExport, message: "nothing to export: \(hint)")
        }
        let xml = Array(package.xml.utf8)
        guard install else {
            try await ArchiveOutput.write(toPath: arguments.value("--output"), isBinary: false, context: context) {
                try $0.write(contentsOf: xml)
            }
            return .success
        }
        let environment = ProcessInfo.processInfo.environment
        guard let program = ExecutablePath.search(named: Self.updateMIMEDatabase, in: environment["PATH"]) else {
            throw CommandFailure(
                code: .programMissing,
                message: "\(Self.updateMIMEDatabase) is not on the PATH, so the desktop would not see a package; "
                    + "install it (Debian: apt-get install shared-mime-info) or write the package with -o FILE")
        }
        guard let mimeDirectory = SharedMIMEInfoPackage.userMIMEDirectory(environment: environment) else {
            throw UsageError("neither XDG_DATA_HOME nor HOME is an absolute path: set one to install for this user")
        }
        let packages = mimeDirectory + "/packages"
        do {
            try FileManager.default.createDirectory(atPath: packages, withIntermediateDirectories: true)
        } catch {
            throw ToolIOError(
                code: .writeFailed, message: "cannot create \(packages): \(FoundationErrorDescription.of(error))",
                cause: error, source: packages)
        }
        let path =
            packages + "/" + Self.packageFileName(declarationFiles: arguments.allValues(DeclarationsOption.option.key))
        try await ArchiveOutput.write(toPath: path, isBinary: false, context: context) {
            try $0.write(contentsOf: xml)
        }
        let run = try await ChildProcess.run(program, arguments: [mimeDirectory])
        guard run.status == 0 else {
            let output = run.errorText.split(separator: "\n").suffix(3).joined(separator: " / ")
            throw CommandFailure(
                code: .programFailed,
                message: "\(program) \(mimeDirectory) exited with status \(run.status) (\(output)); \(path) is "
                    + "written but the database is not rebuilt")
        }
        try context.standardOutput.writeLine(
            "installed \(path) (\(package.entries.map(\.mimeType).joined(separator: ", "))); "
                + "\(Self.updateMIMEDatabase) \(mimeDirectory) ran")
        return .success
    }

    /// The name of the installed package: `transferkit-<name>.xml`, `<name>` made of the declaration files'
    /// names without their extensions (lowercased; other characters than letters, digits, `.`, `_` and `-` as
    /// `-`), joined by `-`; `transferkit-types.xml` without a file. Installing the same files again replaces it.
    static func packageFileName(declarationFiles: [String]) -> String {
        let stems = declarationFiles.map { path in
            let file = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.lowercased()
            return String(
                file.unicodeScalars.map { scalar in
                    scalar.isASCII
                        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                            || "._-".unicodeScalars.contains(scalar))
                        ? Character(scalar) : "-"
                })
        }
        return "transferkit-" + (stems.isEmpty ? "types" : stems.joined(separator: "-")) + ".xml"
    }
}
