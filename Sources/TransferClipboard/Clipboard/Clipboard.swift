import TransferDisplay
public import TransferKit
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A change of a selection: who owns it now offers these types (none when it was cleared).
public struct ClipboardChange: Sendable, Hashable {
    /// The selection that changed.
    public var selection: ClipboardSelection
    /// What it offers now, in the owner's order.
    public var offeredTypes: [ClipboardOfferedType]
    /// The new owner's identity where the protocol gives one: on X11 its window, as `0x…` in hexadecimal; `nil`
    /// on Wayland (data control names no client) and when the selection was cleared.
    public var owner: String?
    /// How many names the owner offered beyond ``ClipboardLimits/maximumOfferedTypes``, which ``offeredTypes``
    /// leaves out; 0 for any offer within the cap.
    public var omittedTypeCount: Int = 0

    /// The flags that hint names among ``offeredTypes`` set (concealed, transient, auto-generated).
    public var hints: ClipboardHints { ClipboardTypeMapping.hints(offered: offeredTypes.map(\.name)) }
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
    /// The document portal of the session bus of the environment this clipboard was made with.
    let portal: DocumentPortalTransfers

    /// Connects to the display server that `environment` names.
    ///
    /// - Parameters:
    ///   - backend: The protocol; `.automatic` picks Wayland, then X11 (see ``ClipboardBackendChoice``).
    ///   - environment: The variables to read (`WAYLAND_DISPLAY`, `DISPLAY`, `XAUTHORITY`, `XDG_RUNTIME_DIR`, and
    ///     `DBUS_SESSION_BUS_ADDRESS` for the document portal that file lists use: see ``ClipboardTypeMapping``).
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
        let backend = try await chooseClipboardBackend(
            choice: backend, environment: environment, timeout: timeout
        ).backend
        self.connection = ClipboardConnection(backend: backend)
        self.catalog = catalog
        self.portal = .serving(environment)
    }

    /// A clipboard over `backend` (tests use it with a backend connected to a fake or given server).
    package init(backend: any ClipboardBackend, catalog: TypeCatalog = .shared) {
        self.connection = ClipboardConnection(backend: backend)
        self.catalog = catalog
        self.portal = .shared
    }

    /// The protocol in use: `X11`, `Wayland (ext-data-control-v1)` or `Wayland (zwlr-data-control)`.
    public var protocolName: String { connection.backend.protocolName }

    /// Closes the connection: ownerships end and transfers in progress fail.
    ///
    /// On X11 the requests already sent (an answer to a paste, an ownership's end) are written to the server first;
    /// the call waits for that at most 2 seconds, or the clipboard's `timeout` if shorter, when the server reads
    /// nothing.
    public func close() {
        connection.backend.close()
    }

    /// Puts `providers` on `selection`, offering all their representations (see ``ClipboardTypeMapping``).
    ///
    /// Nothing is loaded now: each time an application pastes, the representation it asks for is loaded through
    /// the provider (`loadStream(for:progress:)`) and streamed to it. The selection stays this process's until
    /// another application takes it (``ClipboardWriteHandle/ownershipLost()``), the handle is released, or the
    /// options' ``ClipboardLifetime`` ends it (a paste limit, an expiry); ``ClipboardWriteHandle/ended()`` says
    /// which. A provider's `expirationDate` expires the write too, when it comes before the lifetime's expiry.
    ///
    /// ```swift
    /// let once = try await clipboard.write(
    ///     [provider], options: ClipboardWriteOptions(isConcealed: true, lifetime: .pastes(1)))
    /// let end = try await once.ended()  // .pastesUsedUp after one paste
    /// ```
    ///
    /// - Parameters:
    ///   - providers: The items; X11 and Wayland carry one item, so the first provider serves each type, except
    ///     file URLs, which are listed from every provider.
    ///   - selection: The clipboard or the primary selection.
    ///   - options: Sensitivity, cut-or-copy and lifetime.
    /// - Returns: The handle of the ownership.
    /// - Throws: ``ClipboardError``: `invalidOptions` for a paste limit below 1; what the backend throws.
    public func write(
        _ providers: [TransferProvider], to selection: ClipboardSelection = .clipboard,
        options: ClipboardWriteOptions = ClipboardWriteOptions()
    ) async throws -> ClipboardWriteHandle {
        try await write(providers, to: selection, options: options, sessionOffer: nil)
    }

    /// ``write(_:to:options:)``, offering `sessionOffer` too when given: the bytes of
    /// ``ClipboardTypeMapping/sessionOfferName``, which name where this process serves the same items as a session
    /// (the tool's `copy` of files publishes one). Asking for it counts as no paste, as for the hints.
    package func write(
        _ providers: [TransferProvider], to selection: ClipboardSelection, options: ClipboardWriteOptions,
        sessionOffer: Data?
    ) async throws -> ClipboardWriteHandle {
        if let limit = options.lifetime.pasteLimit, limit < 1 {
            throw ClipboardError(
                code: .invalidOptions,
                message: "A paste limit of \(limit) serves nothing; give at least 1, or no limit.")
        }
        let start = ContinuousClock.now
        let now = Date()
        let expiration = Self.expiration(of: providers, options: options, now: now)
        let offers =
            ClipboardTypeMapping.offers(
                for: providers, options: options, expiration: expiration,
                includeX11Names: connection.backend.protocolName == "X11",
                portalKeys: portal.offersKeys, catalog: catalog)
            + (sessionOffer.map {
                [ClipboardTypeMapping.constantOffer(ClipboardTypeMapping.sessionOfferName, bytes: $0)]
            }
                ?? [])
        let byName = Dictionary(offers.map { ($0.target, $0) }) { first, _ in first }
        let serving = ClipboardServing(pasteLimit: options.lifetime.pasteLimit)
        let portal = portal
        let ownership = try await connection.backend.own(selection, targets: offers.map(\.target)) { target in
            guard let offer = byName[target] else {
                throw ClipboardError(code: .typeUnavailable, message: "\(target) is not offered.", source: target)
            }
            let isHint: Bool
            if case .constant = offer.conversion { isHint = true } else { isHint = false }
            let ticket = try serving.admit(countsAsPaste: !isHint)
            let stream = try await ClipboardTypeMapping.stream(for: offer, providers: providers, portal: portal)
            return TransferByteStream(length: stream.length, TicketedChunks(base: stream, ticket: ticket))
                .keepingFileBacking(of: stream)
        }
        // The expiry counts from the write's start, so the time taken to own the selection is part of it.
        let expiry = expiration.map { start + .seconds(max(0, $0.timeIntervalSince(now))) - ContinuousClock.now }
        serving.attach(ownership, expiry: expiry)
        let isSecret =
            options.isConcealed || options.isTransient || providers.contains { $0.isConcealed || $0.isTransient }
        return ClipboardWriteHandle(
            connection: connection, ownership: ownership, selection: selection, serving: serving,
            handsOverOnRelease: options.lifetime.handsOverOnRelease && !isSecret)
    }

    /// When a write of `providers` made at `now` expires: the earlier of the lifetime's expiry and the providers'
    /// `expirationDate`; `nil` for never.
    static func expiration(
        of providers: [TransferProvider], options: ClipboardWriteOptions, now: Date
    ) -> Date? {
        let deadlines =
            providers.compactMap(\.expirationDate)
            + [options.lifetime.expiry.map { now.addingTimeInterval(Self.seconds($0)) }].compactMap { $0 }
        // A lifetime of Int64.max seconds is allowed; the hint's clock and the sleep are not that long.
        let latest = Date(timeIntervalSince1970: TransferProvider.expirationDateLimit)
        return deadlines.min().map { min($0, latest) }
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The types `selection` offers now, in its owner's order; empty when nobody owns it.
    ///
    /// At most ``ClipboardLimits/maximumOfferedTypes`` of them: the owner's first ones (see ``ClipboardLimits``).
    ///
    /// - Throws: ``ClipboardError``.
    public func offeredTypes(on selection: ClipboardSelection = .clipboard) async throws -> [ClipboardOfferedType] {
        try await offer(on: selection).types
    }

    /// ``offeredTypes(on:)``, and how many names beyond ``ClipboardLimits/maximumOfferedTypes`` the owner offered
    /// (left out), for the tool to report once.
    package func offer(
        on selection: ClipboardSelection = .clipboard
    ) async throws -> (types: [ClipboardOfferedType], omittedCount: Int) {
        let offer = try await connection.backend.offer(of: selection)
        let types = offer.targets.map {
            ClipboardOfferedType(name: $0, type: ClipboardTypeMapping.type(forOffered: $0, catalog: catalog))
        }
        return (types, offer.omittedCount)
    }

    /// The item on `selection` as a provider whose representations load from the owner only when loaded.
    ///
    /// Each offered name becomes a representation of its uniform type (the first name of a type wins: the
    /// owner's order is its preference), registered as a stream, so `loadStream(for:)`, `loadData…`,
    /// `loadObject(ofClass:)` and `loadFileRepresentation(for:)` all work, with progress and cancellation. The
    /// hints are no representations (see ``ClipboardTypeMapping``): an item offered with them is `isConcealed`,
    /// `isTransient` or `isAutoGenerated`, and one offered with TransferKit's expiry has its `expirationDate`
    /// (read from the owner here); one whose files were cut (KDE's or GNOME's cut mark, see ``ClipboardTypeMapping``)
    /// is `isCut`. The names that a TransferKit owner offers after its derived marker (converted
    /// copies, such as the BMP of a PNG) are left out when this process's converters derive their types too: the
    /// provider offers them through its `converters` and converts when they are loaded (see "Derived types" in
    /// ``ClipboardTypeMapping``).
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

    /// Where a read may load an offered name from instead of the display server: given the name and the load's
    /// progress, its bytes, or `nil` to read them from the owner through the display server.
    package typealias DirectLoad =
        @Sendable (_ name: String, _ progress: TransferProgress) async throws
        -> TransferByteStream?

    /// ``read(from:)`` with each representation's stream passed through `wrap` as it is loaded (the tool counts the
    /// bytes of all of them together, to stop a snapshot that outgrows what its archive form can hold), and, when
    /// `direct` gives one for the names the owner offers, each name tried there first (the tool reads a TransferKit
    /// owner's files through its session offer).
    package func read(
        from selection: ClipboardSelection,
        wrappingStreams wrap: @escaping @Sendable (TransferByteStream) -> TransferByteStream,
        direct: (@Sendable (_ offered: [String]) async -> DirectLoad?)? = nil
    ) async throws -> [TransferProvider] {
        let offered = try await offeredTypes(on: selection)
        guard !offered.isEmpty else { return [] }
        let backend = connection.backend
        let connection = connection
        let load = await direct?(offered.map(\.name))
        let provider = ClipboardTypeMapping.provider(offering: offered.map(\.name), catalog: catalog, portal: portal) {
            name, progress in
            if let load, let stream = try await load(name, progress) { return wrap(stream) }
            let stream = try await backend.receive(name, from: selection)
            return wrap(
                TransferByteStream(length: nil, ReceivedChunks(stream: stream, progress: progress, keep: connection)))
        }
        try await ClipboardTypeMapping.applyHints(to: provider, offered: offered.map(\.name)) { name in
            try await stream(of: name, from: selection)
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
        let catalog = catalog
        let connection = connection
        return mapStream(connection.backend.ownedChanges(of: selection)) { change in
            // The stream keeps the connection open while it is iterated.
            _ = connection
            let types = change.targets.map {
                ClipboardOfferedType(name: $0, type: ClipboardTypeMapping.type(forOffered: $0, catalog: catalog))
            }
            return ClipboardChange(
                selection: selection, offeredTypes: types, owner: change.owner, omittedTypeCount: change.omittedCount)
        }
    }
}

/// A selection this process owns: wait for its end (and learn why), or give it up.
public final class ClipboardWriteHandle: Sendable {
    let connection: ClipboardConnection
    let ownership: any ClipboardOwnership
    let serving: ClipboardServing
    /// Whether ``release()`` hands the contents to the clipboard manager first.
    let handsOverOnRelease: Bool
    /// The selection written.
    public let selection: ClipboardSelection

    init(
        connection: ClipboardConnection, ownership: any ClipboardOwnership, selection: ClipboardSelection,
        serving: ClipboardServing, handsOverOnRelease: Bool = false
    ) {
        self.connection = connection
        self.ownership = ownership
        self.selection = selection
        self.serving = serving
        self.handsOverOnRelease = handsOverOnRelease
    }

    /// Waits until another application takes the selection (or ``release()`` was called, the lifetime ended it,
    /// or the connection ended). Until then the providers keep serving pastes.
    public func ownershipLost() async {
        await ownership.ended()
    }

    /// Waits until the write has ended and every paste under way was served to its end; why it ended.
    ///
    /// A process that should exit once its write is over (a paste-once copy) waits for this rather than
    /// ``ownershipLost()``, which returns while the last paste may still be streaming.
    ///
    /// - Returns: ``ClipboardWriteEnd``: replaced, pastes used up, expired, or released.
    /// - Throws: ``ClipboardError`` with `cancelled` when the waiting task is cancelled.
    public func ended() async throws -> ClipboardWriteEnd {
        guard let end = await serving.finished() else {
            throw ClipboardError(code: .cancelled, message: "The wait for the end of the write was cancelled.")
        }
        return end
    }

    /// Gives the selection up; it is cleared if this process still owns it. ``ended()`` then reports
    /// ``ClipboardWriteEnd/released`` (unless the write had already ended otherwise).
    ///
    /// A write whose lifetime ``ClipboardLifetime/handsOverOnRelease`` first hands its contents to the clipboard
    /// manager on X11 (when it is neither concealed nor transient), waiting for the manager's answer; the
    /// selection is given up whatever that answer is.
    public func release() async {
        if handsOverOnRelease, connection.backend.protocolName == "X11" {
            _ = try? await saveToClipboardManager()
        }
        await serving.end(.released)
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
