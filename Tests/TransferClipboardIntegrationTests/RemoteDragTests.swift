import Foundation
import Testing
import TransferClipboard
import TransferDesktop
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions

/// `transferkit drag ssh://127.0.0.1/PATH` through a real loopback sshd, dropped on a GTK 4 target under a private
/// Xvfb with xdotool: the far file's bytes cross only at the drop, as its own type or as a local copy's URL.
@Suite(
    "drag ssh://: another machine's files, fetched when dropped", .serialized, .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && gtk4DragPeerPresent && LoopbackSSHD.isAvailable,
        """
        needs Xvfb, xclip, xdotool, GTK 4 for Python and OpenSSH (Debian: xvfb, xclip, xdotool, python3-gi, \
        gir1.2-gtk-4.0, openssh-server, openssh-client)
        """))
final class RemoteDragTests {
    let bed: DragAndDropBed
    let sshd: LoopbackSSHD
    let folder: URL
    static let card = Data(#"{"name":"Chewbacca","side":"light"}"#.utf8)

    init() async throws {
        bed = try await DragAndDropBed.start()
        folder = try makeTemporaryDirectory(prefix: "remote-drag")
        sshd = try await LoopbackSSHD(directory: folder)
    }

    deinit {
        bed.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The near side's environment: the bed's display, ssh to the loopback sshd, the far `transferkit`.
    var environment: [String: String] {
        var environment = bed.server.environment
        environment["TRANSFERKIT_SSH"] = sshd.sshCommand.joined(separator: " ")
        environment["TRANSFERKIT_REMOTE_PROGRAM"] = TransferKitExecutable.defaultPath
        return environment
    }

    /// Drags the far file `path` from `transferkit drag` onto a GTK 4 target accepting `mimeTypes`; returns the
    /// target's drop event and what the drag printed.
    func dragFar(_ path: String, accepting mimeTypes: [String], out: URL) async throws -> (DragPeerEvent, String) {
        let output = folder.appendingPathComponent("drag-\(UUID().uuidString).out").path
        let drag = try BackgroundProcess(
            [
                TransferKitExecutable.defaultPath, "drag", "--and-exit", "--backend", "x11",
                "ssh://\(sshd.user)@127.0.0.1:\(sshd.port)\(path)",
            ], environment: environment, outputFile: output)
        defer { drag.stop() }
        let target = try DragPeer.target(
            title: "gtk4 target of a far file", accepting: mimeTypes, out: out, environment: bed.peerEnvironment,
            directory: folder)
        defer { target.stop() }
        try await bed.pointer.place(
            try await bed.pointer.window(titled: "transferkit drag"), at: ScreenPoint(x: 0, y: 0))
        try await target.place(at: ScreenPoint(x: 300, y: 0), with: bed.pointer)
        try await bed.pointer.drag(
            from: ScreenPoint(x: 100, y: 60),
            to: ScreenPoint(x: 300 + DragPeer.windowSize.x / 2, y: DragPeer.windowSize.y / 2))
        let event = try await target.waitForEvent(["drop", "drop-failed"])
        _ = try await drag.exitStatus()
        return (event, String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self))
    }

    @Test(
        "a target that takes the file's type gets the far bytes, fetched at the drop (a name the far shell must not split)"
    )
    func dropFarFileAsItsType() async throws {
        let far = folder.appendingPathComponent("far card's $(touch pwned).json")
        try Self.card.write(to: far)
        let out = folder.appendingPathComponent("dropped.json")
        let (event, printed) = try await dragFar(far.path, accepting: ["application/json"], out: out)
        #expect(event.event == "drop", "\(event) \(printed)")
        #expect(FileManager.default.contents(atPath: out.path) == Self.card, "\(printed)")
        #expect(printed.hasPrefix("dropped copy"), "\(printed)")
        // The far shell starts in the home folder: a path it split would have run `touch pwned` there.
        let home = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("pwned").path
        #expect(!FileManager.default.fileExists(atPath: home), "the far shell ran part of the path")
    }

    @Test("a target that takes files gets the URL of a local copy, named as the far file")
    func dropFarFileAsLocalCopy() async throws {
        let far = folder.appendingPathComponent("far-notes.json")
        try Self.card.write(to: far)
        let out = folder.appendingPathComponent("dropped.uris")
        let (event, printed) = try await dragFar(far.path, accepting: ["text/uri-list"], out: out)
        #expect(event.event == "drop", "\(printed)")
        let list = String(decoding: FileManager.default.contents(atPath: out.path) ?? Data(), as: UTF8.self)
        let url = try #require(URL(string: list.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""))
        #expect(url.lastPathComponent == "far-notes.json")
        #expect(url.path != far.path, "a local copy, not the far path")
        #expect(FileManager.default.contents(atPath: url.path) == Self.card)
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    @Test("the far side refuses a path that goes up a folder, or a symbolic link: the drag fails, saying which")
    func farSideRefusesEscapes() async throws {
        let target = folder.appendingPathComponent("secret.txt")
        try Data("secret".utf8).write(to: target)
        let link = folder.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        for (path, reason) in [
            (folder.path + "/sub/../secret.txt", "goes up a folder"), (link.path, "is a symbolic link"),
        ] {
            let run = try await ChildProcess.run(
                TransferKitExecutable.defaultPath,
                arguments: ["drag", "--and-exit", "ssh://\(sshd.user)@127.0.0.1:\(sshd.port)\(path)"],
                environment: environment)
            #expect(run.status != 0)
            #expect(run.errorText.contains(reason), "\(path): \(run.errorText)")
        }
    }

    @Test("a target that asks for the promised file (XDS) gets the far bytes written into its folder, nothing spooled")
    func dropFarFileAsPromise() async throws {
        let far = folder.appendingPathComponent("far-promised.json")
        try Self.card.write(to: far)
        let saved = folder.appendingPathComponent("saved-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: saved, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("drag-\(UUID().uuidString).out").path
        // A temporary folder of the drag's own, where a spooled copy would go.
        let spool = folder.appendingPathComponent("tmp-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        var dragEnvironment = environment
        dragEnvironment["TMPDIR"] = spool.path
        let drag = try BackgroundProcess(
            [
                TransferKitExecutable.defaultPath, "drag", "--and-exit", "--backend", "x11",
                "ssh://\(sshd.user)@127.0.0.1:\(sshd.port)\(far.path)",
            ], environment: dragEnvironment, outputFile: output)
        defer { drag.stop() }
        // A TransferKit window as the target: it asks for the promised file in `saved`.
        let title = "promise target \(UUID().uuidString.prefix(8))"
        let target = try await DesktopWindow.open(
            DesktopWindow.Options(
                title: title, lines: ["drop here"], environment: bed.server.environment, timeout: .seconds(30)))
        defer { target.close() }
        let drops = target.drops { _ in DropProposal(operation: .copy) }
        let receiver = Task { () throws -> URL? in
            for try await drop in drops {
                let url = try await drop.receivePromisedFile(into: saved)
                _ = try await drop.perform { _, _ in }
                return url
            }
            return nil
        }
        defer { receiver.cancel() }
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(60))
            receiver.cancel()
        }
        defer { watchdog.cancel() }
        try await bed.pointer.place(
            try await bed.pointer.window(titled: "transferkit drag"), at: ScreenPoint(x: 0, y: 0))
        try await bed.pointer.place(try await bed.pointer.window(titled: title), at: ScreenPoint(x: 400, y: 100))
        try await bed.pointer.drag(from: ScreenPoint(x: 100, y: 60), to: ScreenPoint(x: 470, y: 160))
        let url = try #require(try await receiver.value)
        #expect(url == saved.appendingPathComponent("far-promised.json"))
        #expect(FileManager.default.contents(atPath: url.path) == Self.card)
        #expect(try await drag.exitStatus() == 0)
        let printed = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(printed.hasPrefix("dropped copy"), "\(printed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty, "a copy was spooled")
    }
}
