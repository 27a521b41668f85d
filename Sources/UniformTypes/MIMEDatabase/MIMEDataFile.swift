import TransferKitPlatform

/// The bytes of one file of a mime directory, read with a single `read(2)` where the file allows.
///
/// The loader needs to tell a missing file (normal: most directories lack most files) from one that is
/// present but cannot be read (worth reporting), which `FileManager.contents(atPath:)` does not.
enum MIMEDataFile: Equatable, Sendable {
    /// The file was read completely.
    case contents([UInt8])
    /// No such file (or a path component is missing or not a directory).
    case missing
    /// The file exists but could not be read: permissions, not a regular file, too large, I/O error.
    case unreadable

    /// Files larger than this are refused: the system's largest text file is ~40 KiB and each type's XML
    /// file a few KiB, so anything this big is not a mime database file and must not exhaust memory.
    static let maximumSize = 16 * 1024 * 1024

    /// Reads the whole file at `path`; a FIFO or anything else that is not a regular file is ``unreadable``.
    static func read(atPath path: String) -> MIMEDataFile {
        switch RegularFile.read(atPath: path, limit: maximumSize) {
        case .success(let bytes): .contents(bytes)
        case .failure(.missing): .missing
        case .failure: .unreadable
        }
    }
}
