package import TransferKit
import TransferKitPlatform
package import UniformTypes

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// An open input: a file named on the command line, or standard input for `-`.
///
/// A regular file (also standard input redirected from one) has a known size and can be
/// peeked at without moving its offset; a pipe can only be read once, front to back.
package final class InputFile {
    /// The name used in messages: the path, or `standard input`.
    package let displayName: String
    /// The open descriptor.
    package let fileDescriptor: Int32
    /// The bytes left to read, when the input is a regular file.
    package let size: UInt64?
    /// What a path named on the command line is (a regular file, a FIFO, a device…), for the special-file rule;
    /// `nil` for standard input (read whatever it is) and for an input the tool made itself.
    package let kind: FileKind?
    /// Bytes already taken from a pipe to tell the archive's form (``readFirstBytes()``); every later read of the
    /// input starts with them.
    package private(set) var pending: [UInt8] = []
    private let ownsDescriptor: Bool

    /// Opens `path`, or standard input when it is `-`.
    /// - Throws: ``ToolIOError`` naming the file when it cannot be opened or is a directory.
    package init(path: String) throws(ToolIOError) {
        if path == "-" {
            displayName = "standard input"
            fileDescriptor = 0
            ownsDescriptor = false
        } else {
            displayName = path
            do {
                fileDescriptor = try Syscall.openForReading(path)
            } catch {
                throw .system(.openFailed, "cannot open \(path)", source: path, cause: error)
            }
            ownsDescriptor = true
        }
        let status = try? Syscall.status(fileDescriptor)
        kind = path == "-" ? nil : status.map(FileKind.init)
        if let status, status.isRegularFile {
            let offset = Syscall.currentOffset(fileDescriptor) ?? 0
            size = UInt64(max(0, status.size - offset))
        } else if let status, status.isDirectory {
            if ownsDescriptor { Syscall.close(fileDescriptor) }
            throw ToolIOError(
                code: .openFailed, message: "\(path) is a directory, not a file", source: path)
        } else {
            size = nil
            if let status, status.isPipe { Syscall.enlargePipe(fileDescriptor, toAtMost: Self.pipeCapacity) }
        }
    }

    /// The capacity asked for a pipe that the tool reads or writes: one archive chunk (1 MiB), so that a writer
    /// and a reader exchange whole chunks and take turns 16 times less often than through a default 64 KiB pipe.
    static let pipeCapacity = 1 << 20

    /// Wraps an already open descriptor, which the input then owns.
    init(adopting descriptor: Int32, displayName: String, size: UInt64?) {
        self.displayName = displayName
        self.fileDescriptor = descriptor
        self.size = size
        self.kind = nil
        self.ownsDescriptor = true
    }

    /// Refuses an input that has no content of its own to take: a device or a socket named on the command line,
    /// by the special-file rule (`FileKind`): `/dev/zero` would never end, `/dev/null` is always empty.
    /// - Throws: `UniformTypeError` with code `unreadableFile`.
    package func requireContent() throws(UniformTypeError) {
        if let kind, !kind.hasContent { throw kind.refusal(path: displayName) }
    }

    deinit {
        if ownsDescriptor { Syscall.close(fileDescriptor) }
    }

    /// The first bytes of a regular file, read without moving the offset; `nil` for a pipe.
    package func peek(_ count: Int) -> [UInt8]? {
        guard size != nil else { return nil }
        guard let offset = Syscall.currentOffset(fileDescriptor) else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try? buffer.withUnsafeMutableBytes { try Syscall.read(fileDescriptor, into: $0, atOffset: offset) }
        return read.map { Array(buffer[..<$0]) }
    }

    /// The first bytes of the input, enough to tell an archive's form (spec section 2): the first 3 bytes, and any
    /// JSON white space up to the first other byte (at most `limit` bytes in all). A regular file is peeked at; from
    /// a pipe the bytes are read and kept in ``pending``, so nothing is lost for the reader that follows.
    package func readFirstBytes(limit: Int) throws(ToolIOError) -> [UInt8] {
        if size != nil, let head = peek(64) {
            if TransferArchiveFormat.detect(head) != nil || head.count < 64 { return head }
        }
        while pending.count < limit,
            pending.count < 3 || !pending.contains(where: { ![0x20, 0x09, 0x0a, 0x0d].contains($0) })
        {
            var buffer = [UInt8](repeating: 0, count: min(4096, limit - pending.count))
            let count: Int
            do {
                count = try Syscall.read(fileDescriptor, into: &buffer)
            } catch {
                throw .system(.readFailed, "cannot read \(displayName)", source: displayName, cause: error)
            }
            if count == 0 { break }
            pending.append(contentsOf: buffer[..<count])
        }
        return pending
    }

    /// Reads an archive whole into memory, for the forms and commands that need it whole: at most
    /// `limits.maxJSONDocumentSize` bytes (counting every byte, trailing white space included), or
    /// `TransferArchiveError.Code.limitExceeded`, as the spec's reader limit says (section 7).
    package func readArchive(limits: TransferArchive.Limits = .default) throws -> Data {
        let limit = limits.maxJSONDocumentSize
        guard let data = try read(atMost: limit) else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message: "\(displayName) is larger than \(limit) bytes, the limit for an archive read whole "
                    + "(Limits.maxJSONDocumentSize); use the binary form for large payloads", source: displayName)
        }
        return data
    }

    /// The type of the input from its name and its first bytes, by the rule `gio` follows
    /// (`TypeCatalog.type(forFileNamed:contents:)`): a name whose globs give one type decides, otherwise the
    /// shared-mime-info magic does (`pack -` of a PNG is `public.png`), else text or binary; text of unknown encoding
    /// then becomes UTF-8 text where the bytes are (``refinedTextType(_:)``). A pipe that was not spooled to a file
    /// cannot be peeked at and is typed by its name alone.
    /// A device or a socket named on the command line is refused (``requireContent()``).
    /// - Parameter fileName: The input's name, or `nil` for standard input.
    /// - Throws: `UniformTypeError` with code `invalidMagic` when a magic file of the MIME database is malformed,
    ///   `unreadableFile` for a device or a socket.
    package func inferredType(fileName: String?, in catalog: TypeCatalog) throws(UniformTypeError) -> UniformType {
        try requireContent()
        guard let size else {
            return fileName.map { catalog.declaredType(forFileName: $0) } ?? .data
        }
        let bytes = size == 0 ? [] : (peek(max(1, try catalog.contentSniffingLength)) ?? [])
        return refinedTextType(try catalog.type(forFileNamed: fileName, contents: Data(bytes)))
    }

    /// The most bytes read to tell whether a `.txt` file is UTF-8.
    package static let sniffLimit: UInt64 = 16 << 20

    /// `type` made precise where the bytes tell: text of unknown encoding (`public.plain-text`, which `.txt`
    /// gives) is `public.utf8-plain-text` when the file is valid UTF-8 (files up to ``sniffLimit`` are read).
    package func refinedTextType(_ type: UniformType) -> UniformType {
        guard type == .plainText, let size, size <= Self.sniffLimit, let bytes = peek(Int(size)),
            bytes.count == Int(size), String(validating: bytes, as: UTF8.self) != nil
        else { return type }
        return .utf8PlainText
    }

    /// Reads the rest of the input into memory.
    /// - Throws: ``ToolIOError`` when reading fails or the input exceeds `limit` bytes.
    package func readAll(limit: Int) throws(ToolIOError) -> Data {
        guard let data = try read(atMost: limit) else {
            throw ToolIOError(
                code: .readFailed,
                message: "\(displayName) is larger than \(limit) bytes, the limit for reading it whole",
                source: displayName)
        }
        return data
    }

    /// The rest of the input (after ``pending``), or `nil` when it has more than `limit` bytes.
    private func read(atMost limit: Int) throws(ToolIOError) -> Data? {
        var data = Data(pending)
        pending = []
        guard data.count <= limit else { return nil }
        return try Syscall.withReadBuffer(byteCount: 1 << 20) { buffer throws(ToolIOError) -> Data? in
            while true {
                let count: Int
                do throws(SystemError) {
                    count = try Syscall.read(fileDescriptor, into: buffer)
                } catch {
                    throw .system(.readFailed, "cannot read \(displayName)", source: displayName, cause: error)
                }
                if count == 0 { return data }
                guard data.count + count <= limit else { return nil }
                data.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }
}
