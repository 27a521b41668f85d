import TransferKitPlatform

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TypeCatalog {
    /// The type that bytes stand for by their content alone: the shared-mime-info database's `magic` rules, then
    /// the text-or-binary rule.
    ///
    /// The highest-priority rule of the imported databases' `magic` files that matches wins (`\u{89}PNG\r\n…` is
    /// `public.png`, `%PDF-` is `com.adobe.pdf`, an ELF header an executable or shared library), within the work
    /// ``contentSniffingLimits`` allow: a rule that reaches its limit counts as not matching, and once the whole
    /// sniff reaches its limit no further rule is tried. When none matches,
    /// bytes without control characters (other than white space, and after the first 128 bytes as GLib decides)
    /// are `public.plain-text` (so empty data is text too), anything else `public.data`. A catalog without an imported database
    /// (``shared`` imports the system one by itself) only has that last rule.
    ///
    /// The magic files are read and parsed the first time anything sniffs, never at start-up.
    ///
    /// ```swift
    /// let type = try TypeCatalog.shared.type(forContentsOf: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    /// // public.png
    /// ```
    /// - Parameter data: The content, or its first ``contentSniffingLength`` bytes (more are not looked at).
    /// - Returns: The type of the matching rule's MIME type, `public.plain-text` or `public.data`.
    /// - Throws: ``UniformTypeError`` with code `invalidMagic` when a database's magic file is malformed.
    public func type(forContentsOf data: Data) throws(UniformTypeError) -> UniformType {
        let index = sniffingIndex()
        return type(forMIMEType: try sniff(Array(data.prefix(MIMEMagic.maximumPrefix)), in: index).mimeType)
    }

    /// The type of a file by its content alone, reading at most ``contentSniffingLength`` bytes of it; see
    /// ``type(forContentsOf:)-(Data)``. Only a regular file is read: a directory is `public.folder`, and a device,
    /// FIFO or socket is typed by its kind as ``type(forFileAt:)`` says.
    /// - Throws: ``UniformTypeError`` with code `unreadableFile` when the file is missing or cannot be read;
    ///   `invalidMagic` when a database's magic file is malformed.
    public func type(forContentsOf file: URL) throws(UniformTypeError) -> UniformType {
        let index = sniffingIndex()
        if let special = try specialFileType(file) { return special }
        switch try Self.prefix(of: file, count: try prefixLength(in: index)) {
        case .directory: return directoryType
        case .regularFile(_, let bytes): return type(forMIMEType: try sniff(bytes, in: index).mimeType)
        }
    }

    /// The type of a file from its name and its content, by the freedesktop.org rule as `gio` applies it.
    ///
    /// The rule (shared-mime-info spec, "Recommended checking order", as GLib's `g_content_type_guess` and a local
    /// file's `standard::content-type` apply it):
    /// 1. Empty content is `public.plain-text`, whatever the name (a new file is opened as text).
    /// 2. When the name's globs (literal names first, then the longest suffix, then other patterns; glob weights
    ///    order them) give exactly one MIME type, that is the answer: the content is not looked at. A name that
    ///    the database does not know but a declared type claims (`note.cardx` with `--declarations`) answers the
    ///    same way.
    /// 3. Otherwise the content is sniffed (``type(forContentsOf:)-(Data)``). With no glob match, the sniffed type
    ///    is the answer. With several, a magic match of priority 80 or more wins; a weaker one picks the first
    ///    glob type that is the sniffed type or a subclass of it; else the first glob type stands.
    ///
    /// A sniffed `application/x-desktop` counts as `text/plain` unless the name ends in `.desktop`, as in GLib: a
    /// launcher must not pass for something else.
    ///
    /// ```swift
    /// let header = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    /// try TypeCatalog.shared.type(forFileNamed: "photo", contents: header)       // public.png
    /// try TypeCatalog.shared.type(forFileNamed: "photo.txt", contents: header)   // public.plain-text
    /// ```
    /// - Parameters:
    ///   - fileName: The file's name (anything up to the last `/` is ignored), or `nil` when it has none
    ///     (standard input).
    ///   - contents: The content, or its first ``contentSniffingLength`` bytes.
    /// - Throws: ``UniformTypeError`` with code `invalidMagic` when a database's magic file is malformed.
    public func type(forFileNamed fileName: String?, contents: Data) throws(UniformTypeError) -> UniformType {
        let index = sniffingIndex()
        if contents.isEmpty { return .plainText }
        let names = fileName.map { globMIMETypes(for: $0, in: index) } ?? .none
        if case .decided(let type) = names { return type }
        let bytes = Array(contents.prefix(MIMEMagic.maximumPrefix))
        return type(forMIMEType: try decide(names, fileName: fileName, bytes: bytes, in: index))
    }

    /// The type of the file at `file` from its name and content, by the rule of
    /// ``type(forFileNamed:contents:)``, reading at most ``contentSniffingLength`` bytes, and none when the name
    /// decides. `transferkit types --file PATH` prints it.
    ///
    /// Only a regular file's content is sniffed (the special-file rule, which `pack`, `copy` and `drag` follow
    /// too): a directory is `public.folder`, and a character or block device, a FIFO or a socket is typed by its
    /// kind, whatever its name, without being opened, as `gio info` types it: the types of `inode/chardevice`
    /// (`/dev/null`, `/dev/zero` and `/dev/urandom` alike), `inode/blockdevice`, `inode/fifo` and `inode/socket`.
    /// - Throws: ``UniformTypeError`` with code `unreadableFile` when the file is missing or cannot be read;
    ///   `invalidMagic` when a database's magic file is malformed.
    public func type(forFileAt file: URL) throws(UniformTypeError) -> UniformType {
        let index = sniffingIndex()
        if let special = try specialFileType(file) { return special }
        let names = globMIMETypes(for: file.lastPathComponent, in: index)
        let count: Int
        if case .decided = names { count = 1 } else { count = try prefixLength(in: index) }
        switch try Self.prefix(of: file, count: count) {
        case .directory:
            return directoryType
        case .regularFile(let size, let bytes):
            if size == 0 { return .plainText }
            if case .decided(let type) = names { return type }
            return type(forMIMEType: try decide(names, fileName: file.lastPathComponent, bytes: bytes, in: index))
        }
    }

    /// How many leading bytes of a file sniffing looks at: the largest extent of the imported databases' magic
    /// rules (18 729 bytes for Debian 12's system database), at most 1 MiB. 0 when there is no database.
    ///
    /// The magic rules are matched within ``contentSniffingLimits``.
    /// - Throws: ``UniformTypeError`` with code `invalidMagic` when a database's magic file is malformed.
    public var contentSniffingLength: Int {
        get throws(UniformTypeError) { try prefixLength(in: sniffingIndex()) }
    }

    // MARK: - The rule

    /// What a file name's globs say.
    enum NameAnswer {
        /// One MIME type (or a declared type that claims the extension): the answer.
        case decided(UniformType)
        /// No glob, or several MIME types, best first: the content decides.
        case candidates([String])

        static var none: Self { .candidates([]) }
    }

    /// The work limits of content sniffing with this catalogue's magic rules; ``ContentSniffingLimits/default``
    /// unless set. Every sniff after a change uses the new limits.
    ///
    /// ```swift
    /// TypeCatalog.shared.contentSniffingLimits.maximumRuleWork = 1 << 16
    /// ```
    public var contentSniffingLimits: ContentSniffingLimits {
        get { sniffingLimits.withLock { $0 } }
        set { sniffingLimits.withLock { $0 = newValue } }
    }

    /// The type of `file` by the special-file rule (see ``type(forFileAt:)``), or `nil` for a regular file.
    private func specialFileType(_ file: URL) throws(UniformTypeError) -> UniformType? {
        let kind = try FileKind(atPath: file.path)
        switch kind {
        case .regularFile: return nil
        case .directory: return directoryType
        default: return kind.mimeType.map { type(forMIMEType: $0) }
        }
    }

    /// The MIME databases that sniffing reads: the imported ones, or, while ``shared`` has not yet imported the
    /// system database, that database parsed without the import.
    ///
    /// Sniffing reads only the databases' globs, aliases, subclasses and magic, which the import does not change;
    /// the import makes a uniform type of every MIME type of the database (about half of a `transferkit copy -`
    /// of a short text). The sniffed MIME type becomes a uniform type through ``type(tag:tagClass:conformingTo:)``,
    /// which imports the database only when no declared type claims that MIME type, so the answers are those the
    /// imported catalogue gives.
    private func sniffingIndex() -> MIMEIndex? {
        if isMIMEImportPending, let lazy = lazyMIMEImport {
            return lazy.sniffingIndex()
        }
        return snapshot.mimeIndex
    }

    private func prefixLength(in index: MIMEIndex?) throws(UniformTypeError) -> Int {
        try index?.magic(maximumSize: contentSniffingLimits.maximumMagicSize).maximumExtent ?? 0
    }

    private var directoryType: UniformType {
        type(tag: "inode/directory", tagClass: .mimeType, conformingTo: nil).flatMap { $0.isDynamic ? nil : $0 }
            ?? .folder
    }

    private func type(forMIMEType mimeType: String) -> UniformType {
        type(tag: mimeType, tagClass: .mimeType, conformingTo: nil) ?? .data
    }

    private func globMIMETypes(for fileName: String, in index: MIMEIndex?) -> NameAnswer {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let globs = index?.mimeTypes(forFileName: name) ?? []
        if globs.count == 1 { return .decided(type(forMIMEType: globs[0])) }
        if globs.isEmpty {
            let declared = declaredType(forFileName: name, fallback: .data)
            if declared != .data { return .decided(declared) }
        }
        return .candidates(globs)
    }

    /// Steps 3 and 4 of the rule, in MIME types.
    private func decide(
        _ names: NameAnswer, fileName: String?, bytes: [UInt8], in index: MIMEIndex?
    ) throws(UniformTypeError) -> String {
        var sniffed = try sniff(bytes, in: index)
        if sniffed.mimeType.asciiLowercased == "application/x-desktop",
            !(fileName?.asciiLowercased.hasSuffix(".desktop") ?? false)
        {
            sniffed = (Self.textPlain, 0, false)
        }
        guard case .candidates(let candidates) = names, let first = candidates.first else {
            return sniffed.mimeType
        }
        if !sniffed.isFallback {
            if sniffed.priority >= 80 { return sniffed.mimeType }
            if let index,
                let derived = candidates.first(where: { index.isSubclass($0, of: sniffed.mimeType) })
            {
                return derived
            }
        }
        return first
    }

    private static let textPlain = "text/plain"
    private static let octetStream = "application/octet-stream"

    /// The magic rules' answer for `bytes`, else `text/plain` for text-like bytes (priority 0), else
    /// `application/octet-stream` (marked as a fallback: it never overrides a name).
    private func sniff(
        _ bytes: [UInt8], in index: MIMEIndex?
    ) throws(UniformTypeError) -> (mimeType: String, priority: Int, isFallback: Bool) {
        let limits = contentSniffingLimits
        if let magic = try index?.magic(maximumSize: limits.maximumMagicSize),
            let match = magic.match(bytes, limits: limits)
        {
            let canonical = index?.canonical(for: match.mimeType) ?? match.mimeType
            return (canonical, match.priority, false)
        }
        if Self.looksLikeText(bytes) { return (Self.textPlain, 0, false) }
        return (Self.octetStream, 0, true)
    }

    /// GLib's text test, in its two steps: xdgmime's fallback takes bytes as text when their first 128 hold no
    /// control character but tab, line feed and carriage return; failing that, GLib's own test takes them as text
    /// when none of them is an ASCII control character but backspace, tab, line feed, form feed and carriage return
    /// (a vertical tab or an escape early on makes binary data; an escape after 128 bytes does not).
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        if !bytes.prefix(128).contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            return true
        }
        return !bytes.contains { ($0 < 0x20 || $0 == 0x7F) && ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains($0) }
    }

    private static func prefix(of file: URL, count: Int) throws(UniformTypeError) -> RegularFile.Prefix {
        let path = file.path
        switch RegularFile.readPrefix(atPath: path, count: count) {
        case .success(let prefix):
            return prefix
        case .failure(let failure):
            let reason: String
            switch failure {
            case .missing: reason = "there is no such file"
            case .notRegular: reason = "it is neither a regular file nor a directory"
            case .tooLarge: reason = "it is too large"
            case .system(let error): reason = "\(error)"
            }
            throw UniformTypeError(
                code: .unreadableFile, message: "cannot read \(path) to find its type: \(reason)", source: path)
        }
    }
}
