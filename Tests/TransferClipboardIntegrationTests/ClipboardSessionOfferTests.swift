import CBOR
import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions
import UniformTypes

/// The clipboard session offer as a stranger reads it (`Schemas/transfer-session.md` section 7.1).
private struct SessionOfferFields: Codable, Equatable {
    struct Entry: Codable, Equatable {
        var item: Int
        var type: String
    }
    var version: Int
    var session: String
    var socket: String
    var process: Int32
    var names: [String: Entry]
}

/// A `transferkit copy` of files offers them as a session too, and `transferkit paste` reads them through it (a
/// passed descriptor instead of the X server); an offer it cannot use is ignored.
@Suite(
    "The clipboard session offer between two TransferKit processes on X11", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent && SystemTool.exists("python3"), "needs Xvfb, xclip and python3"))
final class ClipboardSessionOfferTests {
    static let offerName = "application/x-transferkit-clipboard-session"

    let server: XvfbServer
    let folder: URL
    /// A folder with a short path for the test's own sockets: a socket's path has at most 107 bytes, and a session's
    /// socket name alone takes 63.
    let sockets: URL

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-session-offer")
        sockets = URL(fileURLWithPath: "/tmp/cs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: sockets, withIntermediateDirectories: false)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.removeItem(at: sockets)
    }

    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: arguments, environment: server.environment)
    }

    func targets() async throws -> [String] {
        let result = try await server.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(
        "copy FILE offers its file as a session; paste reads it whole; the offer matches the CDDL; it ends with the copy"
    )
    func copyOffersItsFile() async throws {
        let path = folder.appendingPathComponent("payload.bin").path
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let copy = try await transferkit(["copy", path, "--type", "application/octet-stream"])
        #expect(copy.status == 0, "\(copy.errorText)")
        #expect(try await targets().contains(Self.offerName))

        let offerBytes = try await server.xclip(["-o", "-selection", "clipboard", "-t", Self.offerName]).output
        #expect(
            try await checkSessionOfferAgainstCDDL(Array(offerBytes), rule: "clipboard")
                == "valid clipboard-session-offer ['names', 'process', 'session', 'socket', 'version']")
        let offer = try CBORDecoder().decode(SessionOfferFields.self, from: offerBytes)
        #expect(offer.names["application/octet-stream"] == .init(item: 0, type: "public.data"))
        #expect(FileManager.default.fileExists(atPath: offer.socket))

        let pasted = try await transferkit(["paste", "--type", "application/octet-stream"])
        #expect(pasted.status == 0, "\(pasted.errorText)")
        #expect(Data(pasted.standardOutput) == bytes)
        // A hint, not a type of the item.
        let listed = try await transferkit(["paste", "--list"])
        #expect(String(decoding: listed.standardOutput, as: UTF8.self).contains("\(Self.offerName)\thint: session"))

        // xclip takes the clipboard: the copy ends, and its socket goes with it.
        let other = folder.appendingPathComponent("other.txt").path
        try Data("other".utf8).write(to: URL(fileURLWithPath: other))
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: other)
        defer { xclip.stop() }
        for _ in 0..<1000 where FileManager.default.fileExists(atPath: offer.socket) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!FileManager.default.fileExists(atPath: offer.socket))
    }

    @Test(
        "a copy of under 1 MiB, one whose pastes are counted or a secret offers no session",
        arguments: [["small"], ["--paste-once"], ["--loops", "3"], ["--concealed"], ["--transient"], ["-"]])
    func noSession(arguments: [String]) async throws {
        // 2 MiB of text, or a few bytes: only the size or the option leaves the session out.
        let small = arguments == ["small"] || arguments == ["-"]
        let path = folder.appendingPathComponent("text.txt").path
        try Data(String(repeating: "some text ", count: small ? 1 : 200_000).utf8).write(to: URL(fileURLWithPath: path))
        let inputs = arguments == ["-"] ? ["-"] : small ? [path] : [path] + arguments
        let copy = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy"] + inputs, input: Array("some text".utf8),
            environment: server.environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        let offered = try await targets()
        #expect(offered.contains("text/plain"))
        #expect(!offered.contains(Self.offerName))
        _ = try await transferkit(["clear"])
    }

    /// Owns the clipboard from this process with `displayed` as `application/octet-stream` and `offer` as the session
    /// offer's bytes, and returns what `transferkit paste --type application/octet-stream` prints.
    func pasteWithOffer(displayed: Data, offer: Data) async throws -> Data {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: displayed, type: .data)], to: .clipboard, options: ClipboardWriteOptions(),
            sessionOffer: offer)
        defer { Task { await handle.release() } }
        let pasted = try await transferkit(["paste", "--type", "application/octet-stream"])
        #expect(pasted.status == 0, "\(pasted.errorText)")
        return Data(pasted.standardOutput)
    }

    @Test(
        "paste loads an offer's names from its session; another session or name, no socket, no offer: the X server",
        arguments: ["same session", "another session", "another name", "no socket", "garbage"])
    func readerChecksTheOffer(_ variant: String) async throws {
        // A session serving other bytes than the display server: what paste prints says which way it read.
        let provider = TransferProvider(data: Data("from the session".utf8), type: .data)
        let session = DragSession(items: [DragItem(id: "0", provider: provider)], source: nil)
        let socket = sockets.appendingPathComponent(
            variant == "another name" ? "session.sock" : "transferkit-clipboard-\(session.id.rawValue).sock"
        ).path
        let publication = try DragSessionPublication(publishing: session, atPath: socket)
        defer { publication.close() }
        var fields = SessionOfferFields(
            version: 1, session: session.id.rawValue, socket: socket, process: getpid(),
            names: [
                "application/octet-stream": .init(item: 0, type: "public.data"),
                "public.data": .init(item: 0, type: "public.data"),
            ])
        switch variant {
        case "another session": fields.session = UUID().uuidString
        case "no socket":
            fields.socket =
                sockets.appendingPathComponent("gone").appendingPathComponent(
                    "transferkit-clipboard-\(session.id.rawValue).sock"
                ).path
        default: break
        }
        let offer = variant == "garbage" ? Data("not CBOR".utf8) : try CBOREncoder().encode(fields)
        let pasted = try await pasteWithOffer(displayed: Data("from the X server".utf8), offer: offer)
        #expect(
            String(decoding: pasted, as: UTF8.self)
                == (variant == "same session" ? "from the session" : "from the X server"))
    }

    @Test(
        "an offer naming a socket that another user owns is ignored: paste reads through the X server",
        .enabled(if: getuid() == 0, "giving the socket to another user (chown) needs root"))
    func anotherUsersSocket() async throws {
        let provider = TransferProvider(data: Data("from the session".utf8), type: .data)
        let session = DragSession(items: [DragItem(id: "0", provider: provider)], source: nil)
        let socket = sockets.appendingPathComponent("transferkit-clipboard-\(session.id.rawValue).sock").path
        let publication = try DragSessionPublication(publishing: session, atPath: socket)
        defer { publication.close() }
        #expect(lchown(socket, 65534, 65534) == 0)
        let fields = SessionOfferFields(
            version: 1, session: session.id.rawValue, socket: socket, process: getpid(),
            names: [
                "application/octet-stream": .init(item: 0, type: "public.data"),
                "public.data": .init(item: 0, type: "public.data"),
            ])
        let pasted = try await pasteWithOffer(
            displayed: Data("from the X server".utf8), offer: try CBOREncoder().encode(fields))
        #expect(String(decoding: pasted, as: UTF8.self) == "from the X server")
    }
}
