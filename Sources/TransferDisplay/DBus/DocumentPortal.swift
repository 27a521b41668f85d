import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The document portal's `org.freedesktop.portal.FileTransfer` interface (`xdg-document-portal`): how files cross
/// into and out of sandboxed (Flatpak) applications. A source registers its files under a key and offers the key as
/// ``keyMIMEType`` (and the older ``legacyKeyMIMEType``) beside `text/uri-list`; a receiver trades the key for paths
/// it can open — inside a sandbox, under the portal's FUSE mount (`$XDG_RUNTIME_DIR/doc/…`).
package struct DocumentPortal: Sendable {
    /// The MIME type whose content is a transfer's key, as text.
    package static let keyMIMEType = "application/vnd.portal.filetransfer"
    /// The name GTK 4 and Qt 6 used before `application/vnd.portal.filetransfer`.
    package static let legacyKeyMIMEType = "application/vnd.portal.files"
    /// Both names of the key, in the order a source offers them.
    package static let keyMIMETypes = [keyMIMEType, legacyKeyMIMEType]

    /// The portal's name on the bus.
    package static let busName = "org.freedesktop.portal.Documents"
    static let destination = busName
    static let path = "/org/freedesktop/portal/documents"
    static let interface = "org.freedesktop.portal.FileTransfer"

    /// The bus connection the portal is reached through.
    package let connection: DBusConnection
    /// How long each call may wait for the portal.
    package let timeout: Duration

    /// The portal on `connection`.
    package init(connection: DBusConnection, timeout: Duration = .seconds(10)) {
        self.connection = connection
        self.timeout = timeout
    }

    /// Registers `paths` for a transfer and returns its key (`StartTransfer`, then `AddFiles` with a descriptor of
    /// each file, opened here).
    /// - Parameters:
    ///   - paths: Absolute paths of regular files or folders.
    ///   - writable: Whether receivers may change the files.
    ///   - autostop: Whether the transfer ends after the first `RetrieveFiles` (the portal's default); a clipboard
    ///     that may be pasted many times passes `false`. A transfer also ends when this connection leaves the bus.
    /// - Returns: The key, to offer as ``keyMIMEType``.
    /// - Throws: ``ClipboardError``: `protocolUnavailable` when no document portal answers on the bus;
    ///   `transferFailed` when a file cannot be opened or the portal refuses it; `timedOut`; `connectionFailed`.
    package func startTransfer(
        paths: [String], writable: Bool = false, autostop: Bool = false
    ) async throws(ClipboardError) -> String {
        let options = DBusValue.options([("writable", .boolean(writable)), ("autostop", .boolean(autostop))])
        let started = try await call("StartTransfer", [options])
        guard case .string(let key)? = started.body.first, !key.isEmpty else {
            throw DBusWire.violation("the document portal's StartTransfer returned no key")
        }
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { Syscall.close(descriptor) } }
        for path in paths {
            do {
                descriptors.append(try Syscall.openPath(path))
            } catch {
                throw ClipboardError(
                    code: .transferFailed, message: "\(path) cannot be offered through the document portal.",
                    cause: error, source: path)
            }
        }
        let indexes = DBusValue.array(element: .unixFD, (0..<UInt32(descriptors.count)).map(DBusValue.unixFD))
        _ = try await call("AddFiles", [.string(key), indexes, .options([])], descriptors: descriptors)
        return key
    }

    /// The paths a transfer's key stands for, as this process may open them (`RetrieveFiles`).
    /// - Throws: ``ClipboardError``: `protocolUnavailable` when no document portal answers; `transferFailed` when the
    ///   portal does not know the key (never registered, ended, or its source left the bus); `protocolViolation` for
    ///   an answer that is not a list of absolute paths; `timedOut`; `connectionFailed`.
    package func retrieveFiles(key: String) async throws(ClipboardError) -> [String] {
        let reply = try await call("RetrieveFiles", [.string(key), .options([])])
        guard case .array(_, let values)? = reply.body.first else {
            throw DBusWire.violation("the document portal's RetrieveFiles returned no list")
        }
        var paths: [String] = []
        for value in values {
            guard case .string(let path) = value, path.hasPrefix("/") else {
                throw DBusWire.violation("the document portal's RetrieveFiles returned a path that is not absolute")
            }
            paths.append(path)
        }
        return paths
    }

    /// Ends a transfer this process started (`StopTransfer`).
    package func stopTransfer(key: String) async throws(ClipboardError) {
        _ = try await call("StopTransfer", [.string(key)])
    }

    private func call(
        _ member: String, _ body: [DBusValue], descriptors: [Int32] = []
    ) async throws(ClipboardError) -> DBusMessage {
        let message = DBusMessage.call(
            destination: Self.destination, path: Self.path, interface: Self.interface, member: member, body: body)
        return try await connection.call(message, descriptors: descriptors, timeout: timeout).returned()
    }
}
