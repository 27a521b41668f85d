import Foundation
import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferSessions
import UniformTypes

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

        For each item it prints one line: the file written (or the item's name in the archive), its type and its
        size in bytes, separated by tabs. It exits 0 after --count drops (1 by default), and 1 when the window is
        closed before.

        EXAMPLES:
          transferkit drop
          transferkit drop -o ~/Downloads --count 3
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
                .init(names: ["--format"], valueName: "cbor|json", help: "The archive's form (with --archive)."),
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
        try await drop(count: count, into: destination, choice: choice, context: context)
        return .success
    }

    /// Where the drops go.
    enum Destination {
        /// One file per item in this folder (ending with `/`, or empty for the current one).
        case folder(String)
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
            let format = try ArchiveFormatChoice.output(arguments.value("--format"), path: archive)
            return (.archive(archive, format), count ?? 1)
        }
        if arguments.value("--format") != nil { throw UsageError("--format goes with --archive") }
        let folder = arguments.value("--output") ?? "."
        guard Self.isFolder(folder) else {
            throw UsageError("\(folder) is not a folder (-o names the folder the dropped files go into)")
        }
        return (.folder(folder.hasSuffix("/") ? folder : folder + "/"), count ?? 1)
    }

    /// Whether `path` is a folder (or a link to one).
    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The line printed for an item: its name, type and size, separated by tabs.
    static func line(name: String, type: UniformType, size: Int64) -> String {
        "\(name)\t\(type.identifier)\t\(size)"
    }

    /// Writes each of `providers` (one drop's items) into `folder` as a new file of its best type, printing a line
    /// for each.
    func write(_ providers: [TransferProvider], into folder: String, context: CommandContext) async throws {
        for provider in providers {
            guard let type = provider.registeredTypes.first else { continue }
            var suggested = provider.suggestedName
            if suggested == nil { suggested = await fileName(inURLOf: provider, besides: type) }
            let names = Self.candidateNames(TransferProvider.fileName(suggested: suggested, for: type))
            var path = ""
            let size = try await PasteCommand.write(type, of: provider, context: context) { body in
                path = try await ArchiveOutput.writeNew(inDirectory: folder, firstFreeOf: names, body).path
            }
            try context.standardOutput.writeLine(Self.line(name: path, type: type, size: size))
        }
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

    /// `name`, then `name` with ` 2`, ` 3`, … before its extension: the names a dropped file may take, in order.
    static func candidateNames(_ name: String) -> [String] {
        let stem = (name as NSString).deletingPathExtension
        let pathExtension = (name as NSString).pathExtension
        let suffix = pathExtension.isEmpty || stem.isEmpty ? "" : "." + pathExtension
        let base = suffix.isEmpty ? name : stem
        return [name] + (2...1000).map { "\(base) \($0)\(suffix)" }
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
                Self.line(name: provider.suggestedName ?? "item \(firstNumber + index)", type: type, size: size))
        }
        return items
    }
}
