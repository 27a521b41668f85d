package import TransferKitPlatform

/// What kind of file a path names, for the special-file rule of content sniffing: the one rule every API and
/// command that types or takes a file follows (``TypeCatalog/type(forFileAt:)``, `transferkit types --file`, and
/// `pack`, `copy` and `drag` through the CLI's input files).
///
/// Only a regular file's content is sniffed. A directory is `public.folder`. A character or block device, a FIFO
/// or a socket is typed by its kind, without being opened or read, as `gio info` types it: `inode/chardevice`
/// (`/dev/null`, `/dev/zero` and `/dev/urandom` alike), `inode/blockdevice`, `inode/fifo`, `inode/socket`. A
/// command that takes a file's content reads a FIFO as the stream it is, and refuses a device or a socket with
/// ``UniformTypeError`` code `unreadableFile` (``refusal(path:)``): it has no content of its own (`/dev/zero`
/// never ends, `/dev/null` is empty whatever was written to it).
package enum FileKind: Sendable, Equatable {
    case regularFile
    case directory
    case characterDevice
    case blockDevice
    case fifo
    case socket
    /// A kind the rule does not know (none on Linux once symbolic links are followed).
    case other

    /// The kind `status` (from `stat(2)` or `fstat(2)`) says.
    package init(_ status: FileStatus) {
        if status.isRegularFile {
            self = .regularFile
        } else if status.isDirectory {
            self = .directory
        } else if status.isCharacterDevice {
            self = .characterDevice
        } else if status.isBlockDevice {
            self = .blockDevice
        } else if status.isPipe {
            self = .fifo
        } else if status.isSocket {
            self = .socket
        } else {
            self = .other
        }
    }

    /// The kind of the file at `path`, following symbolic links, without opening it.
    /// - Throws: ``UniformTypeError`` with code `unreadableFile` when there is no such file or it cannot be
    ///   examined.
    package init(atPath path: String) throws(UniformTypeError) {
        do {
            self.init(try Syscall.status(atPath: path))
        } catch {
            let missing = error.errorNumber == ErrorNumber.noSuchFile || error.errorNumber == ErrorNumber.notADirectory
            throw UniformTypeError(
                code: .unreadableFile,
                message: "cannot read \(path) to find its type: \(missing ? "there is no such file" : "\(error)")",
                source: path)
        }
    }

    /// The MIME type of a file of this kind that is typed without being read, as gio gives it; `nil` for a
    /// regular file, whose content decides.
    package var mimeType: String? {
        switch self {
        case .regularFile: nil
        case .directory: "inode/directory"
        case .characterDevice: "inode/chardevice"
        case .blockDevice: "inode/blockdevice"
        case .fifo: "inode/fifo"
        case .socket: "inode/socket"
        case .other: "application/octet-stream"
        }
    }

    /// Whether a command may read the content: a regular file, or a FIFO (a stream that its writer ends).
    package var hasContent: Bool { self == .regularFile || self == .fifo }

    /// The kind in words, for messages.
    package var name: String {
        switch self {
        case .regularFile: "a regular file"
        case .directory: "a directory"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .other: "a special file"
        }
    }

    /// The error for taking the content of the file at `path`, of this kind, when it has none
    /// (``hasContent`` is false).
    package func refusal(path: String) -> UniformTypeError {
        UniformTypeError(
            code: .unreadableFile,
            message: "\(path) is \(name) (\(mimeType ?? "")), not a file with content of its own: it is typed by its "
                + "kind and never read; give a regular file, or its content on standard input (-)",
            source: path)
    }
}
