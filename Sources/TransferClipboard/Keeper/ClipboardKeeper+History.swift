import TransferDisplay
public import TransferKit
import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension ClipboardKeeper {
    /// The snapshots of `selection` that a keeper with a history kept in `spoolFolder`, newest first: the archive
    /// files of ``Options/historyFolder(of:)``, which `transferkit copy` restores.
    ///
    /// ```swift
    /// let newest = try ClipboardKeeper.history(of: .clipboard).first
    /// ```
    ///
    /// The keeper's own checks apply: the spool folder and the history folders must be folders (not links) of this
    /// process's user that not every user may write, so that a history another user planted at the predictable
    /// default under `/tmp` (used when `XDG_RUNTIME_DIR` is unset) is refused rather than read.
    ///
    /// - Parameters:
    ///   - selection: The selection whose history to list.
    ///   - spoolFolder: The keeper's spool folder.
    /// - Returns: The files, newest first; empty when there is no history (no folder).
    /// - Throws: ``ClipboardError`` with `spoolUnavailable` when a folder on the way fails the keeper's checks.
    public static func history(
        of selection: ClipboardSelection, in spoolFolder: URL = defaultSpoolFolder()
    ) throws -> [URL] {
        let options = Options(spoolFolder: spoolFolder)
        let folder = options.historyFolder(of: selection)
        let chain = [spoolFolder, folder.deletingLastPathComponent(), folder]
        for step in chain {
            // A missing folder is no history; one that is there must be the user's own.
            guard (try? FileManager.default.attributesOfItem(atPath: step.path)) != nil else { return [] }
            try checkFolder(step)
        }
        return historyNames(in: folder).map { folder.appendingPathComponent($0) }
    }

    /// The item of a kept snapshot (an entry of ``history(of:in:)``), whose representations are read from the file
    /// only when loaded.
    ///
    /// - Parameters:
    ///   - url: The snapshot's file.
    ///   - catalog: The catalogue of the provider.
    /// - Returns: The provider.
    /// The file must be a regular file (not a link) of this process's user that neither its group nor every user may
    /// write, as the keeper writes them (mode 0600).
    ///
    /// - Throws: ``ClipboardError`` with `spoolUnavailable` when the file cannot be opened or fails those checks;
    ///   `TransferArchiveError` when it is not an intact binary archive (every checksum is checked).
    public static func snapshot(at url: URL, catalog: TypeCatalog = .shared) throws -> TransferProvider {
        try KeptSnapshot.provider(fromArchiveAt: url, catalog: catalog)
    }

    /// The name of a new snapshot in the history: the time in microseconds since 1970, 17 digits, so that names sort
    /// by age.
    static func historyName() -> String {
        let microseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
        let digits = String(microseconds)
        return String(repeating: "0", count: max(0, 17 - digits.count)) + digits + ".transferkit"
    }

    /// The snapshot files in `folder`, newest first.
    static func historyNames(in folder: URL) -> [String] {
        Syscall.directoryEntries(atPath: folder.path).filter {
            $0.hasSuffix(".transferkit") && $0.first?.isNumber == true
        }.sorted(by: >)
    }

    /// Removes the oldest snapshots in `folder` beyond `count`.
    static func trimHistory(_ folder: URL, keeping count: Int) {
        for name in historyNames(in: folder).dropFirst(max(0, count)) {
            Syscall.unlink(folder.appendingPathComponent(name).path)
        }
    }
}
