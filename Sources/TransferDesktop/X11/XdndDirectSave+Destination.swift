import TransferDisplay
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where an XDS target asked for a promised file, checked before the promise may run, and the write that only ever
/// creates a new file there.
///
/// XDS lets the target name any `file://` URI; the spec's own rule is that it names a new file in a folder it owns,
/// and that the source refuses anything else. A hostile target could otherwise make the dragging app overwrite
/// `~/.bashrc`, or create files wherever it likes. The rule, each part checked on the decoded path:
///
/// - The path is absolute, at most 4 096 bytes, and every component is a plain name: not empty, not starting with
///   `.` (so no `.`, no `..`, no hidden file or folder), no control character, at most 255 bytes.
/// - The file's extension is the suggested name's (compared without case): a target may rename the file, not make
///   it another kind of file.
/// - No component is a symbolic link: each folder is opened from `/` with `O_NOFOLLOW`, and the file is linked
///   into the last one by its open descriptor, so a folder swapped for a link meanwhile is not followed either.
/// - Nothing has the file's name yet (a file, a link, a dangling link): checked before the promise runs, and again
///   by `linkat(2)`, which fails rather than replace.
///
/// The promise writes into a private folder (mode `0700`) made inside the target's folder, reached through the
/// open descriptor (`/proc/self/fd/N/NAME` on Linux); the file is then linked under its name and the private folder
/// removed. A refused path never reaches the promise's `write`.
struct XdndDirectSaveDestination: Sendable, Equatable {
    /// The folders from the root down to the file's, each a plain name.
    let folders: [String]
    /// The file's name.
    let name: String

    /// The longest path accepted, in bytes (Linux's `PATH_MAX`).
    static let longestPath = 4096
    /// The longest component accepted, in bytes (Linux's `NAME_MAX`).
    static let longestComponent = 255

    /// The destination `path` names, when the rule allows it for a promise that suggested `suggestedName`.
    ///
    /// - Throws: ``ClipboardError`` `invalidOptions`, saying which part of the rule `path` breaks.
    init(path: String, suggestedName: String) throws(ClipboardError) {
        func refuse(_ why: String) -> ClipboardError {
            ClipboardError(
                code: .invalidOptions,
                message: "The drop target asked for the promised file at \(Self.quoted(path)), which \(why); it was "
                    + "not written.")
        }
        guard path.hasPrefix("/") else { throw refuse("is not an absolute path") }
        guard path.utf8.count <= Self.longestPath else { throw refuse("is longer than \(Self.longestPath) bytes") }
        let components = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for component in components {
            if let why = Self.refusal(ofComponent: component) { throw refuse(why) }
        }
        guard let name = components.last else { throw refuse("names no file") }
        let pathExtension = name.filenameExtension.lowercased()
        let suggestedExtension = suggestedName.filenameExtension.lowercased()
        guard pathExtension == suggestedExtension else {
            throw refuse(
                "does not keep the suggested name's extension (\(suggestedExtension.isEmpty ? "none" : suggestedExtension))"
            )
        }
        self.folders = Array(components.dropLast())
        self.name = name
    }

    /// Why `component` is not a plain name, or `nil` when it is.
    static func refusal(ofComponent component: String) -> String? {
        if component.isEmpty { return "has an empty component (//, or a trailing /)" }
        if component.hasPrefix(".") { return "has a component starting with a dot (., .., or a hidden name)" }
        if component.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "has a control character in it"
        }
        if component.utf8.count > longestComponent { return "has a component longer than \(longestComponent) bytes" }
        return nil
    }

    /// `text` quoted for a message, at most 200 characters of it.
    static func quoted(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)).debugDescription + "…" : text.debugDescription
    }

    /// Runs `write` to make the file, then links it under ``name`` in the target's folder: never replacing
    /// anything, never following a symbolic link.
    ///
    /// - Parameter write: Writes the file at the URL it is given (in a private folder); runs only when the folder
    ///   exists, holds no link, and nothing has the name yet.
    /// - Throws: ``ClipboardError``: `invalidOptions` when a folder is a link or no folder, or the name exists
    ///   (`write` did not run); `transferFailed` when `write` threw or made no regular file, or the file could not
    ///   be linked (something took the name meanwhile: nothing was replaced).
    func create(with write: (URL) async throws -> Void) async throws(ClipboardError) {
        let display = "/" + (folders + [name]).joined(separator: "/")
        let folder = try openFolder(display)
        defer { Syscall.close(folder) }
        switch Syscall.linkStatus(name, in: folder) {
        case .success:
            throw ClipboardError(
                code: .invalidOptions,
                message: "The drop target asked for the promised file at \(Self.quoted(display)), which exists "
                    + "already; a promise only creates a new file, so it was not written.")
        case .failure(let error) where error.errorNumber == ErrorNumber.noSuchFile:
            break
        case .failure(let error):
            throw ClipboardError(
                code: .invalidOptions,
                message: "The drop target asked for the promised file at \(Self.quoted(display)), which cannot be "
                    + "checked (\(error.reason)); it was not written.", cause: error)
        }
        let privateName = ".transferkit-save-" + String(UInt64.random(in: .min ... .max), radix: 16)
        let privateFolder: Int32
        do {
            try Syscall.makeFolder(privateName, in: folder, mode: 0o700)
            privateFolder = try Syscall.openFolderWithoutFollowing(privateName, in: folder)
        } catch {
            Syscall.remove(privateName, in: folder, isFolder: true)
            throw ClipboardError(
                code: .transferFailed,
                message: "Cannot make a private folder for the promised file in the target's folder "
                    + "\(Self.quoted(display)): \(error.reason).", cause: error)
        }
        let privatePath = Self.path(of: privateFolder, fallback: "/" + (folders + [privateName]).joined(separator: "/"))
        defer {
            for entry in Syscall.directoryEntries(atPath: privatePath) { Syscall.remove(entry, in: privateFolder) }
            Syscall.close(privateFolder)
            Syscall.remove(privateName, in: folder, isFolder: true)
        }
        do {
            try await write(URL(fileURLWithPath: privatePath).appendingPathComponent(name))
        } catch {
            throw ClipboardError(
                code: .transferFailed, message: "The promise could not write \(Self.quoted(display)): \(error).",
                cause: error)
        }
        guard case .success(let status) = Syscall.linkStatus(name, in: privateFolder), status.isRegularFile else {
            throw ClipboardError(
                code: .transferFailed,
                message: "The promise wrote no regular file for \(Self.quoted(display)); nothing was saved.")
        }
        do {
            try Syscall.link(name, in: privateFolder, to: name, in: folder)
        } catch {
            throw ClipboardError(
                code: .transferFailed,
                message: "The promised file could not be saved as \(Self.quoted(display)) (\(error.reason)); "
                    + "nothing there was replaced.", cause: error)
        }
    }

    /// The target's folder, opened from `/` one component at a time without following a link.
    private func openFolder(_ display: String) throws(ClipboardError) -> Int32 {
        do {
            return try Self.openWithoutLinks(folders)
        } catch {
            throw ClipboardError(
                code: .invalidOptions,
                message: "The drop target asked for the promised file at \(Self.quoted(display)), whose folder is a "
                    + "symbolic link, no folder, or cannot be opened (\(error.reason) at "
                    + "\(Self.quoted(error.path ?? "/"))); it was not written.", cause: error)
        }
    }

    /// The folder `/` + `folders`, each opened inside the one before without following a link.
    private static func openWithoutLinks(_ folders: [String]) throws(SystemError) -> Int32 {
        var folder = try Syscall.openFolderWithoutFollowing("/", in: nil)
        for component in folders {
            let parent = folder
            defer { Syscall.close(parent) }
            folder = try Syscall.openFolderWithoutFollowing(component, in: parent)
        }
        return folder
    }

    /// A path that reaches the open folder `descriptor` itself, whatever happens to its name: `/proc/self/fd/N` on
    /// Linux; `fallback` elsewhere.
    private static func path(of descriptor: Int32, fallback: String) -> String {
        #if os(Linux)
            return "/proc/self/fd/\(descriptor)"
        #else
            return fallback
        #endif
    }
}
