// The writer of the two-process clipboard tests (Tests/TransferClipboardIntegrationTests/TwoProcessClipboardTests.swift):
// puts one provider on the clipboard of the display server its environment names and reports, one line at a time
// on standard output, what the readers in other processes made its loaders do:
//   ready             the clipboard is this process's
//   loaded NAME       a loader ran (card, text, png, endless, stall: one that never returns)
//   stopped endless   the endless stream stopped being read (the reader cancelled)
//   lost              another client took the clipboard; the process exits 0
// Usage: transferkit-clipboard-probe x11|wayland [MODE]
// A MODE makes it a hostile owner instead, through the backend alone (no provider, so nothing of the reader's side
// runs in it), reporting `ready`, `loaded NAME` and `lost` the same way:
//   types N   offers N types, com.example.flood-0 … (each serves its own name)
//   endless   offers com.example.endless, an endless stream of 64 KiB chunks
//   drip      offers com.example.drip, 1 KiB a second for ever (an INCR transfer on X11 that never ends, each step
//             well within any per-step deadline)
import Foundation
import TransferClipboard
import TransferKit
import TransferKitTestSupport
import UniformTypes

/// Writes one line and flushes it at once: the test reads the lines while this process runs.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments.dropFirst()
let backend: ClipboardBackendChoice
switch arguments.first {
case "x11": backend = .x11
case "wayland": backend = .wayland
default:
    FileHandle.standardError.write(Data("usage: transferkit-clipboard-probe x11|wayland\n".utf8))
    exit(2)
}

/// Owns the clipboard with `targets` through the backend alone, serving each as `serve` says, until another client
/// takes it.
func ownHostile(_ targets: [String], serve: @escaping @Sendable (String) -> TransferByteStream) async throws -> Never {
    let environment = ProcessInfo.processInfo.environment
    let connection: any ClipboardBackend =
        switch backend {
        case .x11: try await X11Backend.connect(environment: environment, timeout: .seconds(60))
        default: try await WaylandBackend.connect(environment: environment, timeout: .seconds(60))
        }
    let ownership = try await connection.own(.clipboard, targets: targets) { name in
        report("loaded \(name)")
        return serve(name)
    }
    report("ready")
    await ownership.ended()
    report("lost")
    connection.close()
    exit(0)
}

/// 1 KiB a second, for ever.
struct DripChunks: AsyncSequence, Sendable {
    struct Iterator: AsyncIteratorProtocol {
        mutating func next() async throws -> Data? {
            try await Task.sleep(for: .seconds(1))
            return Data(repeating: 0x2E, count: 1024)
        }
    }
    func makeAsyncIterator() -> Iterator { Iterator() }
}

do {
    switch arguments.dropFirst().first {
    case "types":
        let count = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 30_000
        try await ownHostile((0..<count).map { "com.example.flood-\($0)" }) { TransferByteStream(data: Data($0.utf8)) }
    case "endless":
        try await ownHostile(["com.example.endless"]) { _ in TransferByteStream(EndlessChunks {}) }
    case "drip":
        try await ownHostile(["com.example.drip"]) { _ in TransferByteStream(DripChunks()) }
    default:
        break
    }
} catch {
    FileHandle.standardError.write(Data("transferkit-clipboard-probe: \(error)\n".utf8))
    exit(1)
}

let card = UniformType(exportedAs: "com.example.probe-card", conformingTo: .json)
let endless = UniformType(exportedAs: "com.example.probe-endless")
let provider = TransferProvider()
provider.registerDataRepresentation(for: card) { _ in
    report("loaded card")
    return Data(#"{"name":"Ada"}"#.utf8)
}
provider.registerDataRepresentation(for: .utf8PlainText) { _ in
    report("loaded text")
    return Data("Ada Lovelace ✓".utf8)
}
provider.registerDataRepresentation(for: .png) { _ in
    report("loaded png")
    return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
}
provider.registerStreamRepresentation(for: endless) { _ in
    report("loaded endless")
    return TransferByteStream(EndlessChunks { report("stopped endless") })
}
// Never ready: an X11 reader waits for this owner's answer (its SelectionNotify) until the owner dies.
provider.registerStreamRepresentation(for: UniformType(exportedAs: "com.example.probe-stall")) { _ in
    report("loaded stall")
    try await Task.sleep(for: .seconds(3600))
    return TransferByteStream(data: Data())
}

do {
    // The tests' limit on every wait: long enough for a busy machine, short enough to fail fast.
    let clipboard = try await Clipboard(backend: backend, timeout: .seconds(60))
    let handle = try await clipboard.write([provider])
    report("ready")
    await handle.ownershipLost()
    report("lost")
    clipboard.close()
} catch {
    FileHandle.standardError.write(Data("transferkit-clipboard-probe: \(error)\n".utf8))
    exit(1)
}
