import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions
import UniformTypes

/// Sessions over a command's standard input and output: `transferkit serve --stdio FILE` (no display server needed),
/// and commands that fail in each way a transport does.
@Suite("Sessions over a command's standard streams", .timeLimit(.minutes(2)))
struct CommandSessionTests {
    @Test("transferkit serve --stdio FILE offers the file's types; its bytes cross when loaded, in chunks")
    func serveFile() async throws {
        let folder = try makeTemporaryDirectory(prefix: "serve-stdio")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.json")
        let bytes = Data(("[" + (0..<40_000).map(String.init).joined(separator: ",") + "]").utf8)
        try bytes.write(to: file)
        let remote = try await RemoteDragSession.connect(
            runningCommand: [TransferKitExecutable.defaultPath, "serve", "--stdio", file.path])
        defer { remote.close() }
        #expect(remote.items.count == 1)
        let provider = try #require(remote.items.first?.provider)
        #expect(provider.registeredTypes.contains(.json), "\(provider.registeredTypes)")
        #expect(try await provider.loadDataRepresentation(for: .json) == bytes)
        #expect(remote.allowsMoveOperation == false)
    }

    @Test("a program that cannot start is disconnected, and says so")
    func programMissing() async throws {
        let error = await #expect(throws: TransferSessionError.self) {
            try await RemoteDragSession.connect(runningCommand: ["/nonexistent/transferkit-far", "serve", "--stdio"])
        }
        #expect(error?.code == .disconnected)
        #expect(error?.message.contains("cannot run") == true, "\(error?.message ?? "")")
    }

    @Test("a command that fails before its offer is disconnected, with its status and its last words")
    func commandFails() async throws {
        let error = await #expect(throws: TransferSessionError.self) {
            try await RemoteDragSession.connect(
                runningCommand: [
                    "/bin/sh", "-c", "echo 'ssh: connect to host far port 22: Connection refused' >&2; exit 255",
                ])
        }
        #expect(error?.code == .disconnected)
        #expect(
            error?.message.contains("exited with status 255: ssh: connect to host far port 22: Connection refused")
                == true, "\(error?.message ?? "")")
    }

    @Test("a command that writes something else than frames is a protocolViolation")
    func commandSpeaksOtherwise() async throws {
        let error = await #expect(throws: TransferSessionError.self) {
            try await RemoteDragSession.connect(runningCommand: ["/bin/echo", "Welcome to the build server!"])
        }
        #expect(error?.code == .protocolViolation, "\(error?.message ?? "")")
    }
}
