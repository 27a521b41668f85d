import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DropCommand {
    /// The local files a dropped item's `file:` URIs name, when its best representation `type` is a URL list or a
    /// file URL (a file manager's or a GTK application's drag of files; a drag that offers the document portal's key
    /// is read through the portal, see `ClipboardTypeMapping`) and every URL in it names a file on this machine
    /// (`file:` with no host, or `localhost`); `nil` otherwise (a web link, a list that cannot be read), and the item
    /// is written as its bytes.
    func localFiles(of provider: TransferProvider, best type: UniformType) async -> [URL]? {
        guard catalog.conforms(type, to: .fileURL),
            provider.registeredTypes.contains(where: { catalog.conforms($0, to: .fileURL) }),
            let urls = try? await provider.loadObject(ofClass: [URL].self), !urls.isEmpty,
            urls.allSatisfy({ $0.isFileURL && [nil, "", "localhost"].contains($0.host) })
        else { return nil }
        return urls
    }

    /// A dropped file that was not copied, and why.
    struct RefusedFile: Error {
        /// The file's path, as its URI named it.
        var path: String
        /// Why it was not copied, for the line on standard error.
        var reason: String
    }

    /// Copies the file at `url` into `folder` under its own name, made safe by ``fileName(suggested:for:)`` (a
    /// name taken there gets ` 2`, ` 3`, …; nothing is replaced), streaming its bytes with a progress bar on a
    /// terminal. A symbolic link is followed: its target's bytes are copied under the link's name. Only a regular file
    /// is copied: a folder, a FIFO, a socket or a device is refused without being read (a FIFO is opened without
    /// waiting for a writer, and only to check what it is), and so is a file that cannot be opened.
    ///
    /// A file larger than `allowance` (what is left of the drop's `--max-size` after the files before it) is refused,
    /// and so is a kernel file that reports no size but has content (`/proc`, `/sys`), which would be copied empty.
    ///
    /// - Returns: The path written and its size.
    /// - Throws: ``RefusedFile`` for a file not copied; ``ToolIOError`` when the copy cannot be written.
    func copy(
        _ url: URL, into folder: String, allowance: Int64, context: CommandContext
    ) async throws -> (path: String, size: Int64) {
        let path = url.path
        let descriptor: Int32
        do {
            descriptor = try Syscall.openForReading(path, nonBlocking: true)
        } catch {
            throw RefusedFile(path: path, reason: "cannot be opened (\(error.reason))")
        }
        let file = SharedDescriptor(adopting: descriptor)
        let status: FileStatus
        do {
            status = try Syscall.status(descriptor)
        } catch {
            throw RefusedFile(path: path, reason: "cannot be examined (\(error.reason))")
        }
        guard status.isRegularFile else {
            let kind =
                status.isDirectory ? "a folder" : status.isPipe ? "a FIFO" : "no regular file (a socket or a device)"
            throw RefusedFile(path: path, reason: "is \(kind); only regular files are copied")
        }
        guard status.size <= allowance else {
            throw RefusedFile(
                path: path,
                reason: "has \(status.size) bytes, more than the \(allowance) this drop may still carry (--max-size)")
        }
        if status.size == 0 {
            var probe = [UInt8](repeating: 0, count: 1)
            let read = probe.withUnsafeMutableBytes { try? Syscall.read(descriptor, into: $0, atOffset: 0) }
            guard read == 0 else {
                throw RefusedFile(path: path, reason: "reports no size but has content (a kernel file)")
            }
        }
        let provider = TransferProvider(catalog: catalog)
        let length = UInt64(max(0, status.size))
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(range: 0, length: length, of: file, name: path)
        }
        let names = TransferProvider.numberedFileNames(Self.fileName(suggested: url.lastPathComponent, for: .data))
        var written = ""
        let size = try await PasteCommand.write(.data, of: provider, context: context) { body in
            written = try await ArchiveOutput.writeNew(inDirectory: folder, firstFreeOf: names, body).path
        }
        return (written, size)
    }

    /// The line printed on standard error for a dropped file that was not copied.
    static func refusalLine(_ refused: RefusedFile) -> String {
        let path = refused.path.split(separator: "/", omittingEmptySubsequences: false).map {
            printable(String($0))
        }
        return "transferkit drop: \(path.joined(separator: "/")) was not copied: \(refused.reason)"
    }
}
