import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferSessions
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit sync ssh://host`: mirrors this machine's clipboard and another's while it runs, each type crossing
/// the link only when it is pasted.
struct SyncCommand: Command {
    /// The catalogue for type names.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"sync"`.
    var name: String { "sync" }
    /// One line of help.
    var abstract: String { "Mirror this clipboard and another machine's, through ssh, while it runs." }
    /// Rules and examples.
    var discussion: String {
        """
        While it runs, a copy on either machine is offered on the other with every type, and each type crosses the
        link only when an application pastes it: a copy here runs `transferkit serve --stdio --receive` there (as
        copy --to does), and a copy there, seen by `transferkit watch --json` there, is read through `transferkit
        serve --stdio` (as paste --from does). File URLs, URL lists and the file managers' lists of copied or cut
        files are left out: a path names nothing on the other machine. What either side received is marked mirrored
        (application/x-transferkit-mirrored), and a mirrored copy is never sent back, so the two never take turns.
        Concealed and transient copies (passwords, paste-once copies) are never sent. Nothing is sent at start: the
        first copy after it does. Nothing polls: an idle sync waits for the display servers' events.

        TRANSFERKIT_SSH and TRANSFERKIT_REMOTE_PROGRAM are as for paste --from; the ssh login must ask nothing (a key
        or an agent), since several run. The command ends with status 2 when the link to the far side ends; a copy
        here that it served stays until another application takes it, and pastes of it fail once the link is gone.
        A file manager's copied or cut files cross without their paths (file URLs and the managers' lists name files
        of one machine), so sync moves nothing between machines: `paste --from ssh://HOST --into DIR` takes the far
        clipboard's files, moving cut ones exactly once, and copy --to and drag ssh:// carry a file's bytes.

        EXAMPLES:
          transferkit sync ssh://build-server
          transferkit sync ssh://me@build-server:2222 --primary
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: ClipboardCommandOptions.options,
            positionals: .init(name: "ssh://[user@]HOST[:PORT]", help: "The other machine.", minimum: 1, maximum: 1))
    }

    /// Mirrors until the link ends.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        let location = try RemoteLocation(parsing: arguments.positionals[0], option: "sync")
        let selection = ClipboardCommandOptions.selection(arguments)
        let environment = ProcessInfo.processInfo.environment
        let primary = selection == .primary ? ["--primary"] : []
        let farWatch = try location.command(running: ["watch", "--json"] + primary, environment: environment)
        let farReceive = try location.command(
            running: ["serve", "--stdio", "--receive", "--mirrored"] + primary, environment: environment)
        let farServe = try location.command(running: ["serve", "--stdio"] + primary, environment: environment)
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        let watcher = try location.start(farWatch)
        defer { watcher.terminate() }
        let mirror = Mirror(clipboard: clipboard, selection: selection, location: location)
        defer { mirror.stop() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await mirror.pushLocalChanges(through: farReceive) }
            group.addTask { try await mirror.pullFarChanges(from: watcher, through: farServe) }
            // Either ends only with an error (the link, the display server): then the other stops too.
            try await group.next()
            group.cancelAll()
        }
        let said = watcher.errorTail
        throw TransferSessionError(
            code: .disconnected,
            message: "The link to \(location) ended" + (said.isEmpty ? "." : ": \(said)"), source: location.description)
    }
}

/// The two directions of one `sync`: what it serves to the far side, and what it holds from there.
private final class Mirror: Sendable {
    let clipboard: Clipboard
    let selection: ClipboardSelection
    let location: RemoteLocation
    /// The push under way (this side's copy, served to the far side) and the pull under way (the far side's copy,
    /// held here): each ends when the next one starts.
    private let current = SanitizedMutex(Current())

    private struct Current {
        var push: Task<Void, Never>?
        var pull: (remote: RemoteDragSession, handle: ClipboardWriteHandle)?
        var isStopped = false
    }

    init(clipboard: Clipboard, selection: ClipboardSelection, location: RemoteLocation) {
        self.clipboard = clipboard
        self.selection = selection
        self.location = location
    }

    /// Whether a change offering `hints` is sent to the other side: not a secret, a short-lived copy, or a mirror.
    static func isSent(_ hints: ClipboardHints, offersTypes: Bool) -> Bool {
        offersTypes && hints.isDisjoint(with: [.concealed, .transient, .mirrored])
    }

    /// The types that name files by their path on one machine (file URLs and URL lists, the file managers' copied
    /// and cut lists, the document portal's keys): on the other machine the paths name nothing, or other files.
    static let pathBoundTypes = [
        "org.transferkit.gnome-copied-files", "org.transferkit.nautilus-clipboard", "org.transferkit.kde-cut-selection",
        "org.transferkit.portal-files", "org.transferkit.portal-file-transfer",
    ].compactMap(UniformType.init)

    /// `provider` without its ``pathBoundTypes`` representations (nor any that conforms to a file URL), each other
    /// one loaded from `provider` when asked; `nil` when nothing is left.
    static func portable(_ provider: TransferProvider, catalog: TypeCatalog) -> TransferProvider? {
        let portable = TransferProvider(catalog: catalog)
        for type in provider.registeredTypes
        where !catalog.conforms(type, to: .fileURL) && !pathBoundTypes.contains(type) {
            portable.registerStreamRepresentation(for: type) { progress in
                try await provider.loadStream(for: type, progress: progress)
            }
        }
        portable.suggestedName = provider.suggestedName
        return portable.registeredTypes.isEmpty ? nil : portable
    }

    /// Offers each copy made here to the far side, served from here when pasted there.
    func pushLocalChanges(through command: [String]) async throws {
        for try await change in clipboard.changes(of: selection) {
            // The copy served over there loads from whoever owns this clipboard when it is pasted: once that is
            // another copy (a password, say), the old one must go, whether the new one is sent or not.
            let previous = current.withLock { current in
                defer { current.push = nil }
                return current.push
            }
            previous?.cancel()
            guard Self.isSent(change.hints, offersTypes: !change.offeredTypes.isEmpty) else { continue }
            guard let read = try await clipboard.read(from: selection).first,
                let provider = Self.portable(read, catalog: clipboard.catalog)
            else { continue }
            let child = try location.start(command)
            let session = DragSession(
                items: [DragItem(id: "0", provider: provider)], source: nil, allowsMoveOperation: false)
            let push = Task {
                // No silence limit: the far side holds the copy for as long as its clipboard does.
                await DragSessionPublication.serve(
                    session, over: child.socket, timeout: ClipboardCommandOptions.timeout, silenceLimit: nil)
                child.terminate()
            }
            let stopped = current.withLock { current in
                current.push = push
                return current.isStopped
            }
            if stopped { push.cancel() }
        }
    }

    /// Takes each copy made on the far side (as its `watch --json` reports) onto this clipboard, marked mirrored, its
    /// types loaded from there when pasted here.
    func pullFarChanges(from watcher: ChildStream, through command: [String]) async throws {
        for try await line in Self.lines(of: watcher) {
            guard let change = try? JSONDecoder().decode(FarChange.self, from: Data(line.utf8)) else { continue }
            // The hints are offered names, so the line's names carry every flag (its `concealed` and `transient` too).
            let hints = ClipboardTypeMapping.hints(offered: change.types.map(\.name))
            // What was pulled before is gone over there (its far side ends at this change too); a copy of ours
            // that still holds this clipboard is given up, unless the change is our own push arriving there.
            if !hints.contains(.mirrored) {
                let previous = current.withLock { current in
                    defer { current.pull = nil }
                    return current.pull
                }
                previous?.remote.close()
                await previous?.handle.release()
            }
            guard Self.isSent(hints, offersTypes: !change.types.isEmpty) else { continue }
            let remote: RemoteDragSession
            do {
                remote = try await RemoteDragSession.connect(
                    runningCommand: command, timeout: ClipboardCommandOptions.timeout)
            } catch {
                continue  // The far clipboard changed again, or is empty now: the next line says.
            }
            guard let read = remote.items.first?.provider,
                let provider = Self.portable(read, catalog: clipboard.catalog)
            else {
                remote.close()
                continue
            }
            var options = ClipboardWriteOptions()
            options.isMirrored = true
            let handle = try await clipboard.write([provider], to: selection, options: options)
            current.withLock { $0.pull = (remote, handle) }
            // The link stays while the copy here is ours; another application's copy ends it.
            Task {
                _ = try? await handle.ended()
                remote.close()
            }
        }
    }

    /// Ends the push and the pull under way.
    func stop() {
        let (push, pull) = current.withLock { current in
            current.isStopped = true
            return (current.push, current.pull)
        }
        push?.cancel()
        pull?.remote.close()
    }

    /// One line of the far side's `watch --json`.
    private struct FarChange: Decodable {
        struct Offered: Decodable {
            var name: String
        }
        var types: [Offered]
    }

    /// The lines `child` writes, read on a thread of their own; the sequence ends when its output ends.
    private static func lines(of child: ChildStream) -> AsyncThrowingStream<String, any Error> {
        AsyncThrowingStream { continuation in
            DedicatedThread.start {
                var pending: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                while true {
                    var descriptors: [Int32] = []
                    let received = buffer.withUnsafeMutableBytes { bytes in
                        Result { () throws(SystemError) in
                            try child.socket.receive(into: bytes, descriptors: &descriptors)
                        }
                    }
                    for descriptor in descriptors { Syscall.close(descriptor) }
                    guard case .success(let count) = received, count > 0 else { break }
                    pending += buffer[..<count]
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                        pending.removeSubrange(...newline)
                    }
                }
                continuation.finish()
            }
        }
    }
}
