import TransferDisplay
import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// XDS, the X Direct Save protocol (version 0), TransferKit's file promises on X11: the source lists
/// `XdndDirectSave0` among its types and puts the file name it suggests in its window's `XdndDirectSave0` property
/// (type `text/plain`); on the drop the target replaces that property's value with the file's URI
/// (`file://host/path`) and converts `XdndSelection` to `XdndDirectSave0`; the source writes the file there and
/// answers `S` (saved), `F` (failed: the target may fall back to a type's bytes) or `E` (error).
enum XdndDirectSave {
    /// The target and property name.
    static let name = "XdndDirectSave0"
    /// The type of the property's value.
    static let propertyType = "text/plain"

    /// The longest property value read (a file name or URI), in 4-byte units.
    static let longestValue: UInt32 = 4096

    /// Whether `name` is a plain file name: not empty, no `/`, no NUL, not `.` or `..`.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    /// The URI a target writes for `url`: `file://` with this machine's host name (as GLib's `g_get_host_name`
    /// gives it, the peers' own), then the percent-encoded path.
    static func uri(for url: URL) -> String {
        let host = Syscall.hostName() ?? ""
        let path = url.path.percentEncodedURLPath
        return "file://\(host)\(path)"
    }

    /// The decoded path of the local file a target's URI names (percent escapes such as `%2e%2e` decoded, nothing
    /// resolved), or `nil` when it is not a `file:` URI of this machine (its host empty, `localhost`, or this host's
    /// name) with an absolute path.
    static func localPath(fromURI text: String) -> String? {
        guard let components = URLComponents(string: text.trimming(.whitespacesAndNewlines)),
            components.scheme?.lowercased() == "file"
        else { return nil }
        let host = (components.host ?? "").lowercased()
        // This host's name as the kernel has it (what GLib peers write), or resolved, as TransferKit wrote it before.
        guard
            host.isEmpty || host == "localhost" || host == Syscall.hostName()?.lowercased()
                || host == ProcessInfo.processInfo.hostName.lowercased()
        else {
            return nil
        }
        let path = components.path
        guard path.hasPrefix("/"), !path.contains("\0") else { return nil }
        return path
    }

    /// Reads `property` of `window` on `backend`'s connection as text (empty when unset).
    static func readText(_ property: X11.ID, of window: X11.ID, on backend: X11Backend) async throws -> String {
        let reply = try await backend.connection.request(
            X11RequestEncoder.getProperty(window, property: property, delete: false, length: longestValue))
        do {
            return String(decoding: try X11Reply.property(reply).value, as: UTF8.self)
        } catch {
            throw ClipboardError(code: .protocolViolation, message: "Malformed GetProperty reply: \(error.reason).")
        }
    }

    /// Sets `property` of `window` to `text`, typed `text/plain`.
    static func writeText(_ text: String, to property: X11.ID, of window: X11.ID, on backend: X11Backend) async throws {
        let type = try await backend.atom(propertyType)
        try backend.connection.send(
            X11RequestEncoder.changeProperty(window, property: property, type: type, format: 8, data: Array(text.utf8)))
    }
}

extension X11DesktopWindow {
    /// `offer` as XDS adds to it when it promises a file: `XdndDirectSave0` among its targets, the suggested name
    /// in the window's property, and the conversion to `XdndDirectSave0` served by writing the promised file where
    /// the target's URI says and answering `S`, or `E` when the URI is not a local file, breaks
    /// ``XdndDirectSaveDestination``'s rule (then the promise never runs), or the write failed.
    /// - Returns: The offer, and the property written (`nil`: the offer promises nothing, or serves
    ///   `XdndDirectSave0` itself), which the drag deletes when it ends.
    func offeringDirectSave(_ offer: DesktopDragOffer) async throws -> (DesktopDragOffer, X11.ID?) {
        guard let promise = offer.filePromise, !offer.targets.contains(XdndDirectSave.name) else { return (offer, nil) }
        let backend = self.backend
        let window = self.window
        let property = try await backend.atom(XdndDirectSave.name)
        try await XdndDirectSave.writeText(promise.suggestedName, to: property, of: window, on: backend)
        var promising = offer
        promising.targets.append(XdndDirectSave.name)
        promising.serve = { target in
            guard target == XdndDirectSave.name else { return try await offer.serve(target) }
            let uri = try await XdndDirectSave.readText(property, of: window, on: backend)
            // Only a new file, in a folder reached without a link, ever runs the promise (see
            // ``XdndDirectSaveDestination``); anything else is the spec's `E`.
            guard let path = XdndDirectSave.localPath(fromURI: uri),
                let destination = try? XdndDirectSaveDestination(path: path, suggestedName: promise.suggestedName)
            else {
                return TransferByteStream(data: Data("E".utf8))
            }
            do {
                try await destination.create { url in try await promise.write(url, TransferProgress()) }
                return TransferByteStream(data: Data("S".utf8))
            } catch {
                return TransferByteStream(data: Data("E".utf8))
            }
        }
        return (promising, property)
    }
}

extension XdndDropHandle {
    /// The suggested file name in the source window's `XdndDirectSave0` property, when the drop offers XDS.
    var promisedFileName: String? {
        get async {
            guard drop.targets.contains(XdndDirectSave.name),
                let property = try? await session.backend.atom(XdndDirectSave.name),
                let name = try? await XdndDirectSave.readText(property, of: drop.source, on: session.backend),
                !name.isEmpty
            else { return nil }
            return name
        }
    }

    /// XDS's target side: reads the suggested name, puts the file's URI in the source window's property, converts
    /// `XdndSelection` to `XdndDirectSave0` and reads the source's answer; on `F` it takes the first other offered
    /// type's bytes and streams them into a new file itself, at most `limit` bytes.
    func receivePromisedFile(into directory: URL, limit: Int64) async throws -> URL {
        guard drop.targets.contains(XdndDirectSave.name) else {
            throw ClipboardError(
                code: .typeUnavailable,
                message: "The drop from \(source ?? "?") promises no file (no XdndDirectSave0); receive one of its "
                    + "types instead.")
        }
        let backend = session.backend
        let property = try await backend.atom(XdndDirectSave.name)
        let name = try await XdndDirectSave.readText(property, of: drop.source, on: backend)
        guard XdndDirectSave.isPlainFileName(name) else {
            throw ClipboardError(
                code: .invalidOptions,
                message: "The drop's source suggests \(name.debugDescription) for its file, which is not a plain file "
                    + "name; the file was not asked for.", source: name)
        }
        let url = directory.appendingPathComponent(name)
        try await XdndDirectSave.writeText(XdndDirectSave.uri(for: url), to: property, of: drop.source, on: backend)
        var answer = Data()
        for try await chunk in try await receive(XdndDirectSave.name) {
            answer.append(chunk)
            guard answer.count <= 16 else { break }
        }
        switch answer.first {
        case UInt8(ascii: "S"):
            return url
        case UInt8(ascii: "F"):
            guard let fallback = drop.targets.first(where: { $0 != XdndDirectSave.name }) else {
                throw ClipboardError(
                    code: .transferFailed, message: "The drop's source could not save \(name) and offers nothing else.")
            }
            try await XdndDirectSave.stream(try await receive(fallback), toNewFile: url, limit: limit)
            return url
        default:
            throw ClipboardError(
                code: .transferFailed,
                message: "The drop's source reported an error saving \(name) to \(directory.path) (XDS answer "
                    + "\(String(decoding: answer.prefix(8), as: UTF8.self).debugDescription)).", source: name)
        }
    }
}

extension XdndDirectSave {
    /// Writes `stream` into `url` as a new file (never replacing one, not following a link there), chunk by chunk;
    /// removes it when the stream fails or passes `limit` bytes.
    ///
    /// - Throws: ``ClipboardError``: `limitExceeded` past `limit`, `transferFailed` when the file cannot be created
    ///   or written, or the stream's own error.
    static func stream(_ stream: TransferByteStream, toNewFile url: URL, limit: Int64) async throws {
        let path = url.path
        let descriptor: Int32
        do {
            descriptor = try Syscall.createNewFile(atPath: path)
        } catch {
            throw ClipboardError(
                code: .transferFailed, message: "Cannot create \(path) for the dropped file: \(error.reason).",
                cause: error, source: path)
        }
        var complete = false
        defer {
            Syscall.close(descriptor)
            if !complete { Syscall.unlink(path) }
        }
        var written: Int64 = 0
        for try await chunk in stream {
            written += Int64(chunk.count)
            guard written <= limit else {
                throw ClipboardError(
                    code: .limitExceeded,
                    message: "The dropped file passed the limit of \(limit) bytes (DesktopWindow.Options."
                        + "maximumDropSize); it was removed.", source: path)
            }
            let written = chunk.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try Syscall.write(descriptor, bytes) }
            }
            do throws(SystemError) {
                try written.get()
            } catch {
                throw ClipboardError(
                    code: .transferFailed, message: "Cannot write \(path): \(error.reason).", cause: error, source: path
                )
            }
        }
        complete = true
    }
}
