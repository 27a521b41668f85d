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

/// `transferkit drop`: opens a small window that takes drops from any application and writes what they carry, one
/// file per item into a folder, or every offered type into one archive.
struct DropCommand: Command {
    /// The catalogue for type names and conformance.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"drop"`.
    var name: String { "drop" }
    /// One line of help.
    var abstract: String { "Open a window that takes drops, and write what they carry." }
    /// Rules and examples.
    var discussion: String {
        """
        The window, titled 'transferkit drop', accepts every drop, whatever it offers. Each dropped item is written
        into DIR (-o; the current folder by default) as one new file: the source's best (first) type, named as the
        source suggests or 'item', with that type's filename extension; a name already taken gets ' 2', ' 3', …
        before its extension, so no file is ever replaced. With --archive FILE every type each item offers is
        saved instead, as `paste --archive` snapshots the clipboard, and all items of all drops go into that one
        archive, written once the last drop has arrived (--format json for the text form; .transferkit.json says
        so too). A drag from `transferkit drag --move` (or another TransferKit window that allows a move) is moved,
        exactly once; a drag from any other program is copied, so its source never deletes anything because of a
        drop here.

        A drop of files from a file manager or another program (a list of file: URIs on this machine, read through
        the document portal's key first when the source offers one, as GTK 4 does) copies
        those files into DIR under their own names, one line each, with a progress bar on a terminal; the files
        are read as they are written, never whole into memory. A name taken in DIR gets ' 2', ' 3', … as above:
        the copy is created anew, never over a file, and only ever in DIR. A symbolic link is followed: its target's
        bytes are copied under the link's name. Only regular files are copied: a folder, a FIFO, a socket or a
        device is refused unread (named on standard error), and so are a file that would take the drop's copies past
        --max-size and a kernel file that reports no size (/proc, /sys); the other files of the drop are still
        copied, and the tool exits 2 (openFailed) once the drops are done. --uris writes the list itself instead, as
        one file.

        A dropped file's name is the one its source suggests, made safe by one rule: control characters (newlines,
        tabs) and '/' become '_', leading dots and spaces go (no hidden files such as .profile), an empty name is
        'item', and a name over 250 bytes is shortened before its extension.

        For each item it prints one line: the file written (or the item's name in the archive), its type and its
        size in bytes, separated by tabs. It exits 0 after --count drops (1 by default), and 1 when the window is
        closed before.

        A drop whose source fails (it dies, stays silent past 60 seconds, or carries more than --max-size, 1G by
        default, all its types together), or that offers nothing to write (only another program's file promise),
        fails alone: the tool prints why on standard error, removes the file it was writing, does not count it, and
        waits for the next drop.

        EXAMPLES:
          transferkit drop
          transferkit drop -o ~/Downloads --count 3
          transferkit drop -o ~/Downloads --uris
          transferkit drop --archive dropped.transferkit
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--count"], valueName: "N", help: "Exit after N drops (default 1)."),
                .init(names: ["-o", "--output"], valueName: "DIR", help: "The folder to write into (default: .)."),
                .init(names: ["--archive"], valueName: "FILE", help: "Save every offered type into one archive."),
                .init(
                    names: ["--uris"],
                    help: "Write a dropped list of file URIs as a file holding the list, not copies of the files."),
                .init(names: ["--format"], valueName: "cbor|json", help: "The archive's form (with --archive)."),
                .init(
                    names: ["--max-size"], valueName: "SIZE",
                    help: "The most one drop may carry, all its types together (default 1G; K, M, G suffixes)."),
                DesktopCommandOptions.backend,
                DeclarationsOption.option,
            ]
        )
    }

    /// Takes drops.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let (destination, count) = try destination(arguments)
        let choice = try DesktopCommandOptions.backendChoice(arguments)
        let maximumSize = try arguments.value("--max-size").map(Self.maximumSize)
        try await drop(
            count: count, into: destination, maximumSize: maximumSize ?? DesktopWindow.Options.defaultMaximumDropSize,
            choice: choice, context: context)
        return .success
    }

    /// The bytes a `--max-size` value names: a positive number, optionally followed by K, M or G (powers of 1024).
    static func maximumSize(_ value: String) throws(UsageError) -> Int64 {
        guard let bytes = try? KeepCommand.byteCount(value, option: "--max-size"), bytes > 0 else {
            throw UsageError("--max-size needs a positive size such as 512M, 2G or 1048576")
        }
        return Int64(bytes)
    }

    /// Where the drops go.
    enum Destination {
        /// One file per item in this folder (ending with `/`, or empty for the current one); with `copyingFiles`
        /// (unless `--uris`), the files a list of file URIs names.
        case folder(String, copyingFiles: Bool)
        /// One archive at this path, in this form.
        case archive(String, TransferArchiveFormat)
    }

    /// The drops' destination and count from the command line.
    /// - Throws: ``UsageError`` for a count that is not a positive number, both `-o` and `--archive`, `--format`
    ///   without `--archive`, and an output folder that is not one.
    func destination(_ arguments: ParsedArguments) throws -> (Destination, count: Int) {
        let count = try arguments.value("--count").map { value throws(UsageError) in
            guard let count = Int(value), count > 0 else { throw UsageError("--count needs a positive number") }
            return count
        }
        if let archive = arguments.value("--archive") {
            if arguments.value("--output") != nil {
                throw UsageError("-o names a folder for files, --archive one archive; give one of them")
            }
            if arguments.flag("--uris") { throw UsageError("--uris goes with -o, not --archive") }
            let format = try ArchiveFormatChoice.output(arguments.value("--format"), path: archive)
            return (.archive(archive, format), count ?? 1)
        }
        if arguments.value("--format") != nil { throw UsageError("--format goes with --archive") }
        let folder = arguments.value("--output") ?? "."
        guard Self.isFolder(folder) else {
            throw UsageError("\(folder) is not a folder (-o names the folder the dropped files go into)")
        }
        return (
            .folder(folder.hasSuffix("/") ? folder : folder + "/", copyingFiles: !arguments.flag("--uris")), count ?? 1
        )
    }

    /// Whether `path` is a folder (or a link to one).
    private static func isFolder(_ path: String) -> Bool {
        (try? Syscall.status(atPath: path))?.isDirectory == true
    }

    /// The line printed for an item: its name, type and size, separated by tabs.
    static func line(name: String, type: UniformType, size: Int64) -> String {
        "\(name)\t\(type.identifier)\t\(size)"
    }

    /// Writes each of `providers` (one drop's items) into `folder` as a new file of its best type, printing a line
    /// for each; with `copyingFiles`, an item of local `file:` URIs is the files they name, copied (see
    /// ``copy(_:into:allowance:context:)``), at most `maximumSize` bytes of them in all, and a file that is not copied
    /// is named on standard error.
    /// - Returns: How many dropped files were not copied.
    func write(
        _ providers: [TransferProvider], into folder: String, copyingFiles: Bool, maximumSize: Int64,
        context: CommandContext
    ) async throws -> Int {
        var refusedCount = 0
        var allowance = maximumSize
        for provider in providers {
            guard let type = provider.registeredTypes.first else { continue }
            if copyingFiles, let files = await localFiles(of: provider, best: type) {
                for file in files {
                    do {
                        let (path, size) = try await copy(file, into: folder, allowance: allowance, context: context)
                        allowance -= size
                        try context.standardOutput.writeLine(Self.line(name: path, type: .data, size: size))
                    } catch let refused as RefusedFile {
                        try context.standardError.writeLine(Self.refusalLine(refused))
                        refusedCount += 1
                    }
                }
                continue
            }
            var suggested = provider.suggestedName
            if suggested == nil { suggested = await fileName(inURLOf: provider, besides: type) }
            let names = TransferProvider.numberedFileNames(Self.fileName(suggested: suggested, for: type))
            var path = ""
            let size = try await PasteCommand.write(type, of: provider, context: context) { body in
                path = try await ArchiveOutput.writeNew(inDirectory: folder, firstFreeOf: names, body).path
            }
            try context.standardOutput.writeLine(Self.line(name: path, type: type, size: size))
        }
        return refusedCount
    }

    /// The file name in the URL that `provider` also offers (a TransferKit drag of a file offers its `public.file-url`
    /// beside its content, and a drop between processes carries no suggested name), when the best representation
    /// `type` is not itself that URL: `nil` when there is none, or it cannot be read.
    func fileName(inURLOf provider: TransferProvider, besides type: UniformType) async -> String? {
        guard !catalog.conforms(type, to: .fileURL),
            let urlType = provider.registeredTypes.first(where: { catalog.conforms($0, to: .fileURL) }),
            let data = try? await provider.loadDataRepresentation(for: urlType), data.count <= 64 << 10,
            let line = String(data: data, encoding: .utf8)?.split(whereSeparator: \.isNewline).first,
            let url = URL(string: String(line)), url.isFileURL
        else { return nil }
        let name = url.lastPathComponent
        return name.isEmpty || name == "/" ? nil : name
    }

    /// The longest name of a dropped file, in UTF-8 bytes: a file system's 255 less room for ` 1000`
    /// (`TransferProvider.numberedFileNames(_:)`).
    static let longestFileName = 250

    /// The name a dropped file gets from the name its source suggests, by one rule: every control character (a
    /// newline, a tab, …) and `/` becomes `_`; leading dots and spaces go (no hidden file such as `.profile`); an
    /// empty name becomes `item`; the type's extension is added when the name has none; a name longer than
    /// ``longestFileName`` bytes is shortened before its extension.
    static func fileName(suggested: String?, for type: UniformType) -> String {
        let printable = suggested.map(Self.printable) ?? ""
        let visible = String(printable.drop { $0 == "." || $0.isWhitespace })
        let name = TransferProvider.fileName(suggested: visible.isEmpty ? nil : visible, for: type)
        guard name.utf8.count > longestFileName else { return name }
        var pathExtension = name.filenameExtension
        if pathExtension.utf8.count > 16 { pathExtension = "" }
        let suffix = pathExtension.isEmpty ? "" : "." + pathExtension
        var stem = Substring(pathExtension.isEmpty ? name : name.deletingFilenameExtension)
        while stem.utf8.count + suffix.utf8.count > longestFileName { stem = stem.dropLast() }
        return String(stem) + suffix
    }

    /// `text` with every control character (C0, DEL, C1, and the Unicode line and paragraph separators) and `/` as
    /// `_`: a name that can neither forge a line of the tab-separated output nor name a folder.
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x2F: "_"
                    default: scalar
                    }
                }))
    }

    /// Every representation of each of `providers` (one drop's items), copied into one unlinked temporary file
    /// while the drop's source still serves them: a binary archive written as `paste --archive` writes one, read back
    /// as `copy` reads an archive. Prints a line for each item (its best type, and the bytes of all its types).
    /// Items without a name are called `item N`, counting from `firstNumber`.
    func snapshot(
        _ providers: [TransferProvider], firstNumber: Int, context: CommandContext
    ) async throws -> CommandLineItems {
        let spool = try Spool.emptyFile(for: "the dropped items")
        var writer = ArchiveOutput.writer(to: FileDescriptorOutput(fileDescriptor: spool.fileDescriptor))
        try await PasteCommand.reportingClipboardErrors { try await writer.write(providers: providers) }
        do {
            try Syscall.rewind(spool.fileDescriptor)
        } catch {
            throw Spool.failure(error, "cannot read back the temporary file that holds the dropped items")
        }
        let items = try CommandLineItems.restore(spool, catalog: catalog)
        var sizes: [Int64] = []
        for provider in items.providers {
            var total: Int64 = 0
            for type in provider.registeredTypes {
                total += Int64(clamping: try await provider.loadStream(for: type).length ?? 0)
            }
            sizes.append(total)
        }
        for (index, (provider, size)) in zip(items.providers, sizes).enumerated() {
            guard let type = provider.registeredTypes.first else { continue }
            try context.standardOutput.writeLine(
                Self.line(
                    name: provider.suggestedName.map(Self.printable) ?? "item \(firstNumber + index)", type: type,
                    size: size))
        }
        return items
    }
}
