import TransferClipboard
import TransferDesktop
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

/// `drag ssh://host/PATH…`: files of another machine in the drag window, fetched only when dropped.
extension DragCommand {
    /// Opens the drag window with the files `paths` name on one other machine: `transferkit serve --stdio -- PATH…`
    /// there offers them, and a drop fetches the type it takes over ssh. A target that takes files (a file
    /// manager's `text/uri-list`) gets a copy spooled into a new folder of the temporary directory when it asks for
    /// it, named as the far file. A drag of one file also promises it (XDS on X11): a target that asks for the file
    /// in a folder of its own gets the far bytes written there, and nothing is spooled.
    /// - Throws: ``UsageError`` for locations of several machines, or a malformed one; ``TransferSessionError`` when
    ///   the far side cannot be reached or refuses a path (its message says which).
    func dragRemote(
        _ paths: [String], andExit: Bool, choice: ClipboardBackendChoice, context: CommandContext
    ) async throws -> ExitCode {
        let locations = try paths.map { try RemoteLocation(parsing: $0, option: "drag", allowsPath: true) }
        guard let machine = locations.first, locations.allSatisfy({ $0.isSameMachine(as: machine) }) else {
            throw UsageError("drag takes the files of one machine (ssh://…) at a time")
        }
        let farPaths = locations.compactMap(\.path)
        let command = try machine.command(
            running: ["serve", "--stdio", "--"] + farPaths, environment: ProcessInfo.processInfo.environment)
        let remote = try await RemoteDragSession.connect(
            runningCommand: command, timeout: ClipboardCommandOptions.timeout)
        defer { remote.close() }
        let spool = RemoteDragSpool()
        let entries = remote.items.enumerated().map { index, item in
            let provider = item.provider
            let name =
                remote.items.count == farPaths.count
                ? String(farPaths[index].split(separator: "/").last ?? "item") : "item \(index + 1)"
            provider.suggestedName = name
            if let type = provider.registeredTypes.first {
                provider.registerDataRepresentation(for: .fileURL) { _ in
                    Data(try await spool.file(named: name, of: provider, type: type).absoluteString.utf8)
                }
            }
            return DraggedEntry(
                id: item.id, provider: provider, path: nil, label: Self.label(provider, index: index))
        }
        // One file per drag can be promised (XDS names one file): written straight where the target asks.
        let promise = entries.first.flatMap { entry -> DesktopFilePromise? in
            guard entries.count == 1, let type = entry.provider.registeredTypes.first else { return nil }
            let provider = entry.provider
            return DesktopFilePromise(suggestedName: provider.suggestedName ?? "item") { url, _ in
                let descriptor = try Syscall.createNewFile(atPath: url.path)
                defer { Syscall.close(descriptor) }
                for try await chunk in try await provider.loadStream(for: type) {
                    try chunk.withUnsafeBytes { try Syscall.write(descriptor, $0) }
                }
            }
        }
        return try await drag(
            entries, move: false, andExit: andExit, choice: choice, context: context, filePromise: promise)
    }
}

/// The local copies of a remote drag's files, made when a drop target asks for a file: one new folder (mode 0700)
/// in the temporary directory per drag, each file written once whatever the number of drops.
///
/// The folder stays after the command ends: a file manager copies a dropped file after the drop has ended.
final class RemoteDragSpool: Sendable {
    private let files = SanitizedMutex([String: Task<URL, any Error>]())
    private let folder = SanitizedMutex<URL?>(nil)

    /// The local copy of `provider`'s `type` named `name`, fetched on the first call.
    func file(named name: String, of provider: TransferProvider, type: UniformType) async throws -> URL {
        let task = files.withLock { files in
            if let task = files[name] { return task }
            let task = Task { try await self.write(name: name, of: provider, type: type) }
            files[name] = task
            return task
        }
        return try await task.value
    }

    private func write(name: String, of provider: TransferProvider, type: UniformType) async throws -> URL {
        let folder = try self.folder.withLock { folder in
            if let folder { return folder }
            let made = FileManager.default.temporaryDirectory.appendingPathComponent(
                "transferkit-drag-\(UUID().uuidString.prefix(12))", isDirectory: true)
            try FileManager.default.createDirectory(
                at: made, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            folder = made
            return made
        }
        let url = folder.appendingPathComponent(name)
        let descriptor = try Syscall.openForWriting(url.path)
        defer { Syscall.close(descriptor) }
        for try await chunk in try await provider.loadStream(for: type) {
            try chunk.withUnsafeBytes { try Syscall.write(descriptor, $0) }
        }
        return url
    }
}
