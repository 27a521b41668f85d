import TransferClipboard
import TransferKitCLI
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit keep`: keeps what is copied after the application that copied it exits, and can keep a history.
struct KeepCommand: Command {
    /// The catalogue for type mapping.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"keep"`.
    var name: String { "keep" }
    /// One line of help.
    var abstract: String { "Keep the clipboard's content after the application that copied it exits." }
    /// Rules and examples.
    var discussion: String {
        """
        Runs in the foreground until interrupted. Each time an application copies, every type it offers is
        snapshot at once into a spool file ($XDG_RUNTIME_DIR/transferkit/keeper); when the clipboard empties
        because that application exited, the snapshot is offered again, every type of it, cut files still cut.
        Items marked concealed or transient (password managers) are never read nor kept. Payloads up to
        --memory-cap in all (16M by default; K, M and G suffixes) are served from memory, larger ones from the
        spool file. With --history N the last N snapshots stay as archive files, which `paste --from-history K`
        reads (0 is the newest) and `copy` restores; without it nothing is left behind when the keeper ends.
        A snapshot may take at most --max-snapshot bytes (256M by default) and --snapshot-timeout seconds (30 by
        default); an owner past either is skipped ("too large", "timed out") and nothing of it stays. A new copy
        never waits for a snapshot under way: it pre-empts it. Only the first 256 names an owner offers are read
        (ClipboardLimits.maximumOfferedTypes); the others are reported once ("ignored …").
        Prints one line per snapshot kept or skipped and per restore, at most 100 columns: the first offered names
        and how many others ('paste --list' lists them all).

        EXAMPLES:
          transferkit keep
          transferkit keep --history 20
          transferkit keep --primary --memory-cap 64M
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--history"], valueName: "N", help: "Keep the last N snapshots as files (default 0)."),
                .init(
                    names: ["--memory-cap"], valueName: "SIZE",
                    help: "The most bytes served from memory; the rest from the spool file (default 16M)."),
                .init(
                    names: ["--max-snapshot"], valueName: "SIZE",
                    help: "The most bytes one snapshot may take; a larger owner is skipped (default 256M)."),
                .init(
                    names: ["--snapshot-timeout"], valueName: "SECONDS",
                    help: "The longest one snapshot may take; a slower owner is skipped (default 30)."),
                DeclarationsOption.option,
            ] + ClipboardCommandOptions.options
        )
    }

    /// Keeps until interrupted.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let history = try arguments.value("--history").map { value throws(UsageError) in
            guard let count = Int(value), count >= 0 else { throw UsageError("--history needs a number (0 or more)") }
            return count
        }
        let memoryCap = try arguments.value("--memory-cap").map { value throws(UsageError) in
            try Self.byteCount(value, option: "--memory-cap")
        }
        let maximumSnapshotSize = try arguments.value("--max-snapshot").map { value throws(UsageError) in
            try Self.byteCount(value, option: "--max-snapshot")
        }
        let snapshotTimeout = try arguments.value("--snapshot-timeout").map { value throws(UsageError) in
            guard let seconds = Int(value), seconds > 0 else {
                throw UsageError("--snapshot-timeout needs a positive number of seconds")
            }
            return Duration.seconds(seconds)
        }
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        let options = ClipboardKeeper.Options(
            selections: [ClipboardCommandOptions.selection(arguments)],
            memoryCap: memoryCap ?? ClipboardKeeper.Options.defaultMemoryCap, historyLength: history ?? 0,
            maximumSnapshotSize: maximumSnapshotSize ?? ClipboardKeeper.Options.defaultMaximumSnapshotSize,
            snapshotTimeout: snapshotTimeout ?? ClipboardKeeper.Options.defaultSnapshotTimeout)
        let keeper = ClipboardKeeper(clipboard: clipboard, options: options)
        let (events, continuation) = AsyncStream<ClipboardKeeper.Event>.makeStream()
        let keeping = Task {
            defer { continuation.finish() }
            try await keeper.run { continuation.yield($0) }
        }
        for await event in events {
            try context.standardOutput.writeLine(Self.line(for: event))
        }
        try await keeping.value
        return .success
    }

    /// The most characters a line about a copy takes: one row of a terminal, however many names the owner offers.
    static let lineWidth = 100

    /// The line the keeper prints for `event`: a snapshot or a restore names as many of the offered names, in the
    /// owner's order (its best first), as fit in ``lineWidth`` and counts the others (`… 12 more`); every other event
    /// as the library describes it. `paste --list` shows every name.
    static func line(for event: ClipboardKeeper.Event) -> String {
        switch event {
        case .kept(let selection, let offered, let byteCount):
            let head = "kept \(selection.rawValue): \(offered.count) names, \(byteCount) bytes"
            return head + " (" + names(offered, fitting: lineWidth - head.count - 3) + ")"
        case .restored(let selection, let offered):
            let head = "restored \(selection.rawValue): \(offered.count) names"
            return head + " (" + names(offered, fitting: lineWidth - head.count - 3) + ")"
        default:
            return event.description
        }
    }

    /// The first of `names` that fit in `width` characters, then `… N more` for the rest (its length counted in).
    private static func names(_ names: [String], fitting width: Int) -> String {
        var shown: [String] = []
        var length = 0
        for (index, name) in names.enumerated() {
            let rest = names.count - index - 1
            let tail = rest > 0 ? " … \(rest) more".count : 0
            let added = (shown.isEmpty ? 0 : 1) + name.count
            guard length + added + tail <= width || shown.isEmpty && rest == 0 else {
                return (shown + ["… \(names.count - index) more"]).joined(separator: " ")
            }
            shown.append(name)
            length += added
        }
        return shown.joined(separator: " ")
    }

    /// The bytes a size value of `option` (`--memory-cap`, `--max-snapshot`) names: a number, optionally followed by
    /// K, M or G (powers of 1024).
    static func byteCount(_ value: String, option: String) throws(UsageError) -> Int {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(value)
        var unit = 1
        if let last = digits.last?.uppercased().first, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number >= 0, number <= Int.max / unit else {
            throw UsageError("\(option) needs a size such as 16M, 512K or 1048576")
        }
        return number * unit
    }
}
