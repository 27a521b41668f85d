import Foundation
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import UniformTypes

/// Drags the seeds' palette modules onto a canvas as data, in this process and in another one, and shows what a
/// value the canvas does not know ("slider") does: a clear error, not a crash.
///
/// - `swift run ModulePalette` prints each step.
/// - `swift run ModulePalette --write-archive DIR` writes `module-palette.transferkit` and `module-palette.json`.
/// - `ModulePalette --drop-target` is the other process: it reads an archive on standard input and draws a view
///   per module.
@main
enum ModulePaletteExample {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch (arguments.first, arguments.count) {
            case (nil, _):
                try await demonstrate()
            case ("--write-archive", 2):
                try await writeArchives(to: URL(fileURLWithPath: arguments[1], isDirectory: true))
            case ("--drop-target", 1):
                exit(await dropTarget(try FileHandle.standardInput.readToEnd() ?? Data()))
            default:
                print("usage: ModulePalette [--write-archive DIR | --drop-target]")
                exit(2)
            }
        } catch {
            print("ModulePalette: error: \(error)")
            exit(1)
        }
    }

    /// The palette as an archive: one item per module.
    static func makeArchive() async throws -> TransferArchive {
        try await TransferArchive(providers: CustomModule.palette.map { TransferProvider(object: $0) })
    }

    /// Writes the archive in both forms; the bytes are the same on every run.
    static func writeArchives(to directory: URL) async throws {
        let archive = try await makeArchive()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for format in TransferArchiveFormat.allCases {
            let url = directory.appendingPathComponent("module-palette.\(format.pathExtension)")
            try archive.encoded(as: format).write(to: url)
            print("wrote \(url.path)")
        }
    }

    /// Drops an item on the canvas: rebuilds the module and draws it, or explains why it cannot.
    ///
    /// - Returns: The line to print, and whether a module was drawn.
    static func draw(_ provider: TransferProvider) async -> (line: String, drawn: Bool) {
        do {
            return ("drew \(try await provider.loadObject(ofClass: CustomModule.self))", true)
        } catch let error as TransferError {
            return ("cannot draw: TransferError.\(error.code): \(error.message)", false)
        } catch {
            return ("cannot draw: \(error)", false)
        }
    }

    /// The other process: draws every module of the archive in `bytes`.
    ///
    /// - Returns: The exit status: 0 when every module was drawn, 1 otherwise.
    static func dropTarget(_ bytes: Data) async -> Int32 {
        let archive: TransferArchive
        do {
            archive = try TransferArchive(decoding: bytes)
        } catch {
            print("cannot read the archive: \(error)")
            return 1
        }
        var status: Int32 = 0
        for provider in archive.makeProviders() {
            let result = await draw(provider)
            print(result.line)
            status = result.drawn ? status : 1
        }
        return status
    }

    static func demonstrate() async throws {
        print("ModulePalette: the seeds' CustomModule, dragged from a palette and dropped on a canvas\n")

        print("1. Drag the button from the palette")
        let provider = TransferProvider(object: CustomModule(type: .button))
        let bytes = try await provider.loadDataRepresentation(for: .customModule)
        print("   representations: \(provider.registeredTypes.map(\.identifier).joined(separator: ", "))")
        print("   the bytes that travel: \(String(decoding: bytes, as: UTF8.self))")

        print("2. Drop as data: the canvas rebuilds the module from those bytes")
        print("   \(await draw(TransferProvider(data: bytes, type: .customModule)).line)")

        print("3. Drop in another process: the palette's archive goes to `ModulePalette --drop-target`")
        let archive = try await makeArchive()
        try await runDropTarget(archive)

        print("4. A module from a newer app: the enum value \"slider\" is unknown here")
        let slider = Data(#"{"type":"slider"}"#.utf8)
        print("   in this process: \(await draw(TransferProvider(data: slider, type: .customModule)).line)")
        let bad = TransferArchive(items: [.init(representations: [.init(type: .customModule, data: slider)])])
        try await runDropTarget(bad)
    }

    /// Sends `archive` (binary form) to a child `--drop-target` process and prints what it says.
    static func runDropTarget(_ archive: TransferArchive) async throws {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let child = try await ChildProcess.run(
            executable, arguments: ["--drop-target"], input: Array(try archive.encoded(as: .cbor)))
        print("   $ ModulePalette --drop-target   (exit \(child.status))")
        for line in (child.outputText + child.errorText).split(separator: "\n") { print("     \(line)") }
    }
}
