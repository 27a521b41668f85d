import ExampleSupport
import Foundation
import TransferKit
import TransferKitCLI
import TransferSessions
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

        print("5. The same drop as a session: the canvas builds its own view from the module (seed 001)")
        for line in try await canvasDrops() { print("   \(line)") }
    }

    /// What the canvas puts on screen for a module: a view of its own, not the palette's cell.
    static func canvasView(for module: CustomModule) -> String {
        switch module.type {
        case .button: "ButtonView(title: \"Button\", size: 120×44)"
        case .switch: "SwitchView(isOn: false, size: 51×31)"
        }
    }

    /// Seed 001 on sessions: the palette offers modules (it keeps them: a palette only lets you copy), the
    /// canvas's drop builds a view from each. In this process the canvas gets the palette's own object; from
    /// another application it decodes the bytes; a move is refused, since the palette allows none.
    static func canvasDrops() async throws -> [String] {
        var lines: [String] = []
        var canvas: [String] = []
        func paletteDrag(_ type: CustomModuleType) -> DragSession {
            let module = CustomModule(type: type)
            let item = DragItem(
                id: TransferItemID("\(type)"), provider: TransferProvider(object: module), localObject: module)
            return DragSession(items: [item], source: nil, allowsMoveOperation: false)
        }
        let otherApp = TransferSessionOrigin(applicationIdentifier: "com.example.canvas", processIdentifier: 2)
        for (type, origin, operation) in [
            (CustomModuleType.button, TransferSessionOrigin.current, DropOperation.copy),
            (.switch, otherApp, .copy),
            (.button, .current, .move),
        ] {
            let result = try await paletteDrag(type).drop(DropProposal(operation: operation), on: origin) { drop, _ in
                let local = drop.items.allSatisfy { $0.localObject != nil }
                let modules = try await drop.loadObjects(ofClass: CustomModule.self)
                canvas += modules.map(canvasView(for:))
                return local ? "the palette's own object" : "decoded from \(CustomModule.contentType.identifier)"
            }
            let place = origin == .current ? "this app" : "another app"
            lines.append(
                "\(operation) \(type) onto a canvas in \(place): \(result.operation)"
                    + (result.value.map { ", \($0)" } ?? " (the palette allows no move)"))
        }
        lines.append("canvas: \(canvas.joined(separator: ", "))")
        return lines
    }

    /// Sends `archive` (binary form) to a child `--drop-target` process and prints what it says.
    static func runDropTarget(_ archive: TransferArchive) async throws {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let child = try await ExampleProcess.run(
            executable, arguments: ["--drop-target"], input: try archive.encoded(as: .cbor))
        print("   $ ModulePalette --drop-target   (exit \(child.status))")
        for line in (child.outputText + child.errorText).split(separator: "\n") { print("     \(line)") }
    }
}
