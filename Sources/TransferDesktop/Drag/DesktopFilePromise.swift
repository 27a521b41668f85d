import TransferDisplay
public import TransferKit

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A file that a drag promises instead of bytes, written only when and where a target asks: Apple's
/// `NSFilePromiseProvider`, X11's direct save (XDS, `XdndDirectSave0`).
///
/// Give one to ``DesktopWindow/drag(_:filePromise:)``; a target takes it with
/// ``DesktopDrop/receivePromisedFile(into:)``.
///
/// ```swift
/// let promise = DesktopFilePromise(suggestedName: "report.pdf") { url, progress in
///     try await renderReport(to: url, progress: progress)
/// }
/// ```
public struct DesktopFilePromise: Sendable {
    /// The file name the source suggests (a plain name, no folder); the target chooses the folder.
    public var suggestedName: String
    /// Writes the file at `url`, which does not exist yet, reporting to `progress`. It runs only when a target asks
    /// for a new file in a plain folder (never for a path with `..`, a link, a hidden name or an existing file);
    /// `url` is in a private folder inside the target's, and the file is moved to the name the target asked for once
    /// this returns (it must write one regular file there). When it throws, the target learns that the file could
    /// not be written. Cancelling the drag cancels the task it runs on: it should then remove what it wrote and
    /// throw.
    public var write: @Sendable (_ url: URL, _ progress: TransferProgress) async throws -> Void

    /// A promise of a file named `suggestedName`, written by `write` when a target asks.
    ///
    /// - Parameters:
    ///   - suggestedName: The file name to suggest, without a folder.
    ///   - write: Writes the file at the URL it is given.
    public init(
        suggestedName: String,
        write: @escaping @Sendable (_ url: URL, _ progress: TransferProgress) async throws -> Void
    ) {
        self.suggestedName = suggestedName
        self.write = write
    }
}

extension DesktopFilePromise {
    /// The promise as the display protocols carry it.
    var promisedFile: PromisedFile {
        PromisedFile(suggestedName: suggestedName, write: write)
    }
}
