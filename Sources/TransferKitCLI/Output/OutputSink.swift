/// A destination for a command's output: standard output, standard error, a file, or memory.
///
/// Commands write bytes (an archive, an extracted representation) and text through the same
/// sink, so tests can run a command in-process and read exactly what it printed.
public protocol OutputSink: Sendable {
    /// Writes all of `bytes`.
    /// - Throws: An error from the underlying file, such as a closed pipe.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension OutputSink {
    /// Writes the bytes of a collection (such as `Data` or `[UInt8]`).
    public func write(contentsOf bytes: some Collection<UInt8>) throws {
        if let done: Void = try bytes.withContiguousStorageIfAvailable({ try write(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        try Array(bytes).withUnsafeBytes { try write($0) }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `line` followed by a newline.
    public func writeLine(_ line: String = "") throws {
        try write(line + "\n")
    }
}
