package import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TransferByteStream {
    /// The `length` bytes at `offset` of the open file `file`, read with `pread` in chunks of at most 1 MiB, so that
    /// any number of readers can read ranges of the one descriptor at once; each iteration reads the range anew.
    ///
    /// The spool files of restored archives and of the clipboard keeper's snapshots are served this way: the process
    /// holds one chunk per reader whatever the payloads' size.
    ///
    /// - Parameters:
    ///   - offset: Where the range starts in the file.
    ///   - length: The range's length: the stream's ``length``.
    ///   - file: The file, kept open while an iteration lives.
    ///   - name: What the range holds, for messages.
    package init(range offset: Int64, length: UInt64, of file: SharedDescriptor, name: String) {
        self.init(length: length, FileRangeChunks(file: file, offset: offset, length: length, name: name))
        fileBacking = .range(file, offset: offset)
    }
}

/// The chunks of a range of an open file; see ``TransferByteStream/init(range:length:of:name:)``.
private struct FileRangeChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let file: SharedDescriptor
    let offset: Int64
    let length: UInt64
    let name: String

    func makeAsyncIterator() -> Iterator { Iterator(range: self) }

    struct Iterator: AsyncIteratorProtocol {
        let range: FileRangeChunks
        var done: UInt64 = 0

        mutating func next() async throws -> Data? {
            guard done < range.length else { return nil }
            let count = Int(Swift.min(range.length - done, 1 << 20))
            var chunk = Data(count: count)
            let position = range.offset + Int64(done)
            let descriptor = range.file.descriptor
            let outcome = chunk.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try Syscall.read(descriptor, into: bytes, atOffset: position) }
            }
            let read: Int
            switch outcome {
            case .success(let count): read = count
            case .failure(let error):
                throw TransferError(
                    code: .loaderFailed, message: "Cannot read the spooled copy of \(range.name): \(error.reason).",
                    cause: error, source: range.name)
            }
            guard read > 0 else {
                throw TransferError(
                    code: .loaderFailed,
                    message: "The spooled copy of \(range.name) ended early: its file was truncated.",
                    source: range.name)
            }
            done += UInt64(read)
            return read == count ? chunk : chunk.prefix(read)
        }
    }
}
