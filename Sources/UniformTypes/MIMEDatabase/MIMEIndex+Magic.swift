import TransferKitPlatform

extension MIMEIndex {
    /// The content rules of every imported database's `magic` files, highest-precedence directory first, read and
    /// parsed once, the first time a caller sniffs: catalogue start-up and lookups by tag never read them.
    /// A missing `magic` file contributes nothing; one that exists but cannot be read is skipped, as the other
    /// files of a mime directory are, and so is one that would take the bytes read past `maximumSize`
    /// (``ContentSniffingLimits/maximumMagicSize``). A call with another `maximumSize` than the last reads them again.
    /// - Throws: ``UniformTypeError`` with code `invalidMagic` when a magic file is malformed (every later call
    ///   throws the same error).
    func magic(maximumSize: Int = ContentSniffingLimits.default.maximumMagicSize) throws(UniformTypeError) -> MIMEMagic
    {
        let result = parsedMagic.withLock { cached in
            if let cached, cached.maximumSize == maximumSize { return cached.result }
            var files: [(name: String, bytes: [UInt8])] = []
            var total = 0
            for database in databases {
                for directory in database.directories {
                    let path = (directory.hasSuffix("/") ? directory : directory + "/") + "magic"
                    let remaining = max(0, maximumSize - total)
                    if case .success(let bytes) = RegularFile.read(atPath: path, limit: remaining) {
                        files.append((path, bytes))
                        total += bytes.count
                    }
                }
            }
            let parsed = Result { () throws(UniformTypeError) in try MIMEMagic(files: files) }
            cached = (maximumSize, parsed)
            return parsed
        }
        return try result.get()
    }
}

extension MIMEIndex {
    /// Whether a database says that `mimeType` is `ancestor` or one of its subclasses (the implicit `text/plain` and
    /// `application/octet-stream` parents included).
    func isSubclass(_ mimeType: String, of ancestor: String) -> Bool {
        databases.contains { $0.isSubclass(mimeType, of: ancestor) }
    }
}
