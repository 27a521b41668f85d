public import Foundation
public import TransferKit
public import UniformTypes

/// Which display-server protocol a ``Clipboard`` speaks.
public enum ClipboardBackendChoice: Sendable, Hashable {
    /// Wayland when `WAYLAND_DISPLAY` is set, falling back to X11 when the compositor cannot be reached or has no
    /// data-control protocol (GNOME's Mutter, for one) and `DISPLAY` is set too (XWayland); X11 when only `DISPLAY`
    /// is set.
    case automatic
    /// X11 through `DISPLAY` (also under XWayland).
    case x11
    /// Wayland through `WAYLAND_DISPLAY` (absolute, or relative to `XDG_RUNTIME_DIR`), with the compositor's
    /// data-control protocol: `ext-data-control-v1`, or `zwlr_data_control_manager_v1` where only that exists. A
    /// compositor with neither fails with `protocolUnavailable`.
    case wayland
}

/// How a ``Clipboard/write(_:to:options:)`` offers its providers.
public struct ClipboardWriteOptions: Sendable, Hashable {
    /// Marks the content as secret (a password): clipboard managers that honour `x-kde-passwordManagerHint` or
    /// `application/x-nspasteboard-concealed-type` do not record it. A provider whose `isConcealed` is set is
    /// offered so without this option.
    public var isConcealed: Bool
    /// Offers file URLs as cut rather than copied (`x-special/gnome-copied-files`): the pasting file manager moves
    /// the files.
    public var isCut: Bool

    /// Options with the given settings.
    ///
    /// - Parameters:
    ///   - isConcealed: See ``isConcealed``.
    ///   - isCut: See ``isCut``.
    public init(isConcealed: Bool = false, isCut: Bool = false) {
        self.isConcealed = isConcealed
        self.isCut = isCut
    }

    /// Content marked as secret; see ``isConcealed``.
    public static var concealed: Self { Self(isConcealed: true) }
}

/// One name a selection offers, and the uniform type it stands for.
public struct ClipboardOfferedType: Sendable, Hashable, CustomStringConvertible {
    /// The name on the wire: a MIME type, an X11 target such as `UTF8_STRING`, or a uniform type identifier.
    public var name: String
    /// The uniform type it maps to (``ClipboardTypeMapping/type(forOffered:catalog:)``), if any.
    public var type: UniformType?

    /// An offered name and its type.
    public init(name: String, type: UniformType?) {
        self.name = name
        self.type = type
    }

    /// The name, and the type when it differs.
    public var description: String {
        guard let type, type.identifier != name else { return name }
        return "\(name) (\(type))"
    }
}

/// A change of a selection: who owns it now offers these types (none when it was cleared).
public struct ClipboardChange: Sendable, Hashable {
    /// The selection that changed.
    public var selection: ClipboardSelection
    /// What it offers now, in the owner's order.
    public var offeredTypes: [ClipboardOfferedType]
}

/// The desktop clipboard (and primary selection) of Linux, over Wayland's data-control protocol or X11, with
/// providers.
///
/// Writing offers every representation of the providers, each loaded only when some application asks for it;
/// reading gives a provider whose representations load only when you load them, with progress and cancellation.
///
/// ```swift
/// let clipboard = try await Clipboard()
/// let provider = TransferProvider()
/// provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("hello".utf8) }
/// let handle = try await clipboard.write([provider])
/// // … later, or in another process:
/// let items = try await clipboard.read()
/// let text = try await items.first?.loadObject(ofClass: String.self)
/// await handle.release()
/// ```
///
/// A `Clipboard` keeps one connection to the display server; it closes when the clipboard and every
/// ``ClipboardWriteHandle`` from it are gone, or on ``close()``.
public final class Clipboard: Sendable {
    let connection: ClipboardConnection
    /// The catalogue for type mapping and conformance.
    public let catalog: TypeCatalog

    /// Connects to the display server that `environment` names.
    ///
    /// - Parameters:
    ///   - backend: The protocol; `.automatic` picks Wayland, then X11 (see ``ClipboardBackendChoice``).
    ///   - environment: The variables to read (`WAYLAND_DISPLAY`, `DISPLAY`, `XAUTHORITY`, `XDG_RUNTIME_DIR`).
    ///   - timeout: The longest wait for the display server or another client at each step.
    ///   - catalog: The catalogue for type mapping.
    /// - Throws: ``ClipboardError``: `noDisplay` when neither variable is set, `connectionFailed`,
    ///   `protocolUnavailable`, `timedOut`, `protocolViolation`.
    public init(
        backend: ClipboardBackendChoice = .automatic,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        timeout: Duration = .seconds(10),
        catalog: TypeCatalog = .shared
    ) async throws {
        let backend = try await makeClipboardBackend(choice: backend, environment: environment, timeout: timeout)
        self.connection = ClipboardConnection(backend: backend)
        self.catalog = catalog
    }

    /// A clipboard over `backend` (tests use it with a backend connected to a fake or given server).
    package init(backend: any ClipboardBackend, catalog: TypeCatalog = .shared) {
        self.connection = ClipboardConnection(backend: backend)
        self.catalog = catalog
    }

    /// The protocol in use: `X11`, `Wayland (ext-data-control-v1)` or `Wayland (zwlr-data-control)`.
    public var protocolName: String { connection.backend.protocolName }

    /// Closes the connection: ownerships end and transfers in progress fail.
    public func close() {
        connection.backend.close()
    }

    /// Puts `providers` on `selection`, offering all their representations (see ``ClipboardTypeMapping``).
    ///
    /// Nothing is loaded now: each time an application pastes, the representation it asks for is loaded through
    /// the provider (`loadStream(for:progress:)`) and streamed to it. The selection stays this process's until
    /// another application takes it (``ClipboardWriteHandle/ownershipLost()``) or the handle is released.
    ///
    /// - Parameters:
    ///   - providers: The items; X11 and Wayland carry one item, so the first provider serves each type, except
    ///     file URLs, which are listed from every provider.
    ///   - selection: The clipboard or the primary selection.
    ///   - options: Sensitivity and cut-or-copy.
    /// - Returns: The handle of the ownership.
    /// - Throws: ``ClipboardError``.
    public func write(
        _ providers: [TransferProvider], to selection: ClipboardSelection = .clipboard,
        options: ClipboardWriteOptions = ClipboardWriteOptions()
    ) async throws -> ClipboardWriteHandle {
        let offers = ClipboardTypeMapping.offers(
            for: providers, options: options, includeX11Names: connection.backend.protocolName == "X11",
            catalog: catalog)
        let byName = Dictionary(offers.map { ($0.target, $0) }) { first, _ in first }
        let ownership = try await connection.backend.own(selection, targets: offers.map(\.target)) { target in
            guard let offer = byName[target] else {
                throw ClipboardError(code: .typeUnavailable, message: "\(target) is not offered.", source: target)
            }
            return try await ClipboardTypeMapping.stream(for: offer, providers: providers)
        }
        return ClipboardWriteHandle(connection: connection, ownership: ownership, selection: selection)
    }

    /// The types `selection` offers now, in its owner's order; empty when nobody owns it.
    ///
    /// - Throws: ``ClipboardError``.
    public func offeredTypes(on selection: ClipboardSelection = .clipboard) async throws -> [ClipboardOfferedType] {
        try await connection.backend.targets(of: selection).map {
            ClipboardOfferedType(name: $0, type: ClipboardTypeMapping.type(forOffered: $0, catalog: catalog))
        }
    }

    /// The item on `selection` as a provider whose representations load from the owner only when loaded.
    ///
    /// Each offered name becomes a representation of its uniform type (the first name of a type wins: the
    /// owner's order is its preference), registered as a stream, so `loadStream(for:)`, `loadData…`,
    /// `loadObject(ofClass:)` and `loadFileRepresentation(for:)` all work, with progress and cancellation. The
    /// password managers' hints are no representations: an item offered with them is `isConcealed`.
    ///
    /// ```swift
    /// let items = try await clipboard.read()
    /// let png = try await items.first?.loadDataRepresentation(for: .image)
    /// ```
    ///
    /// - Returns: One provider, or none when the selection is empty.
    /// - Throws: ``ClipboardError``.
    public func read(from selection: ClipboardSelection = .clipboard) async throws -> [TransferProvider] {
        try await read(from: selection, wrappingStreams: { $0 })
    }

    /// ``read(from:)`` with each representation's stream passed through `wrap` as it is loaded (the tool counts the
    /// bytes of all of them together, to stop a snapshot that outgrows what its archive form can hold).
    package func read(
        from selection: ClipboardSelection,
        wrappingStreams wrap: @escaping @Sendable (TransferByteStream) -> TransferByteStream
    ) async throws -> [TransferProvider] {
        let offered = try await offeredTypes(on: selection)
        guard !offered.isEmpty else { return [] }
        let provider = TransferProvider(catalog: catalog)
        let backend = connection.backend
        let connection = connection
        for offer in offered {
            if ClipboardTypeMapping.concealedHints.contains(offer.name) {
                provider.isConcealed = true
                continue
            }
            guard let type = offer.type else { continue }
            let name = offer.name
            provider.registerStreamRepresentation(for: type) { progress in
                let stream = try await backend.receive(name, from: selection)
                return wrap(
                    TransferByteStream(
                        length: nil, ReceivedChunks(stream: stream, progress: progress, keep: connection)))
            }
        }
        return [provider]
    }

    /// The raw bytes of one offered name, such as `UTF8_STRING` or `x-special/gnome-copied-files`, streamed from
    /// the owner as they are read (once: the stream is single-pass). The connection stays open while it is read.
    ///
    /// - Throws: ``ClipboardError`` with `typeUnavailable` when it is not offered.
    public func stream(
        of name: String, from selection: ClipboardSelection = .clipboard
    ) async throws
        -> TransferByteStream
    {
        let stream = try await connection.backend.receive(name, from: selection)
        return TransferByteStream(
            length: nil, ReceivedChunks(stream: stream, progress: TransferProgress(), keep: connection))
    }

    /// Every change of `selection`'s owner, with what the new owner offers.
    ///
    /// ```swift
    /// for try await change in clipboard.changes(of: .clipboard) {
    ///     print(change.offeredTypes.map(\.name))
    /// }
    /// ```
    ///
    /// - Returns: A sequence that ends when the task iterating it is cancelled, or throws ``ClipboardError``
    ///   (`protocolUnavailable` on an X server without XFIXES).
    public func changes(
        of selection: ClipboardSelection = .clipboard
    ) -> AsyncThrowingStream<ClipboardChange, any Error> {
        let changes = connection.backend.changes(of: selection)
        let catalog = catalog
        let connection = connection
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await targets in changes {
                        _ = connection
                        let types = targets.map {
                            ClipboardOfferedType(
                                name: $0, type: ClipboardTypeMapping.type(forOffered: $0, catalog: catalog))
                        }
                        continuation.yield(ClipboardChange(selection: selection, offeredTypes: types))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A selection this process owns: wait for its loss, or give it up.
public final class ClipboardWriteHandle: Sendable {
    let connection: ClipboardConnection
    let ownership: any ClipboardOwnership
    /// The selection written.
    public let selection: ClipboardSelection

    init(connection: ClipboardConnection, ownership: any ClipboardOwnership, selection: ClipboardSelection) {
        self.connection = connection
        self.ownership = ownership
        self.selection = selection
    }

    /// Waits until another application takes the selection (or ``release()`` was called, or the connection
    /// ended). Until then the providers keep serving pastes.
    public func ownershipLost() async {
        await ownership.ended()
    }

    /// Gives the selection up; it is cleared if this process still owns it.
    public func release() async {
        await ownership.release()
    }
}

/// The backend of a ``Clipboard`` and its handles; the connection closes when the last of them goes.
final class ClipboardConnection: Sendable {
    let backend: any ClipboardBackend

    init(backend: any ClipboardBackend) {
        self.backend = backend
    }

    deinit {
        backend.close()
    }
}

/// A received stream that stops when its load's progress is cancelled and keeps the connection open while read.
struct ReceivedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let stream: TransferByteStream
    let progress: TransferProgress
    let keep: ClipboardConnection

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), progress: progress, keep: keep) }

    struct Iterator: AsyncIteratorProtocol {
        var base: TransferByteStream.AsyncIterator
        let progress: TransferProgress
        let keep: ClipboardConnection

        mutating func next() async throws -> Data? {
            // The provider counts the chunks (when it collects them into data) or leaves that to the consumer of
            // `loadStream`; this only stops a cancelled load between chunks.
            try progress.checkCancellation()
            return try await base.next()
        }
    }
}

/// The backend for `choice`: the one place that knows which backends this build has.
///
/// `.automatic` tries Wayland when `WAYLAND_DISPLAY` is set and falls back to X11 (XWayland) when the compositor
/// cannot be reached or lacks data control and `DISPLAY` is set too; it takes X11 when only `DISPLAY` is set.
///
/// - Throws: ``ClipboardError`` with `noDisplay` when `.automatic` finds neither `WAYLAND_DISPLAY` nor `DISPLAY`;
///   when both were tried and failed, X11's error, with Wayland's in its message.
func makeClipboardBackend(
    choice: ClipboardBackendChoice, environment: [String: String], timeout: Duration
) async throws -> any ClipboardBackend {
    try await chooseClipboardBackend(choice: choice, environment: environment, timeout: timeout).backend
}

/// The backend for `choice`, and why it is that one (for `transferkit doctor`); see
/// `makeClipboardBackend(choice:environment:timeout:)`, which is this without the reason.
package func chooseClipboardBackend(
    choice: ClipboardBackendChoice, environment: [String: String], timeout: Duration
) async throws -> (backend: any ClipboardBackend, reason: String) {
    func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
    switch choice {
    case .x11:
        return (try await X11Backend.connect(environment: environment, timeout: timeout), "X11 was asked for")
    case .wayland:
        return (try await WaylandBackend.connect(environment: environment, timeout: timeout), "Wayland was asked for")
    case .automatic:
        guard isSet("WAYLAND_DISPLAY") || isSet("DISPLAY") else {
            throw ClipboardError(
                code: .noDisplay,
                message: "Neither WAYLAND_DISPLAY nor DISPLAY is set, so there is no clipboard to use; run inside a "
                    + "desktop session, or set one of them (for example DISPLAY=:0).")
        }
        guard isSet("WAYLAND_DISPLAY") else {
            return (
                try await X11Backend.connect(environment: environment, timeout: timeout),
                "only DISPLAY is set"
            )
        }
        let waylandError: ClipboardError
        do {
            let backend = try await WaylandBackend.connect(environment: environment, timeout: timeout)
            return (backend, "WAYLAND_DISPLAY names a compositor with data control")
        } catch let error as ClipboardError
            where isSet("DISPLAY") && [.noDisplay, .connectionFailed, .protocolUnavailable].contains(error.code)
        {
            waylandError = error
        }
        let display = environment["DISPLAY"] ?? ""
        do {
            let backend = try await X11Backend.connect(environment: environment, timeout: timeout)
            let compositor =
                waylandError.code == .protocolUnavailable
                ? "has no data-control protocol" : "cannot be used (\(waylandError.code))"
            return (backend, "the Wayland compositor \(compositor), and DISPLAY=\(display) answers: X11 (XWayland)")
        } catch let error as ClipboardError {
            // The compositor's X server (XWayland) may start on demand and fail to, or DISPLAY may be left over
            // from another session: the two messages together say which.
            throw ClipboardError(
                code: error.code,
                message: "\(error.message) (Wayland was tried first and failed: \(waylandError.message)) X11 at "
                    + "DISPLAY=\(display) was the fallback: if the compositor starts XWayland on demand, it did not "
                    + "start or answer (see the compositor's log); otherwise DISPLAY is stale.",
                cause: error, source: error.source)
        }
    }
}
