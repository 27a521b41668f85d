import TransferDisplay
public import TransferKit
import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a UI toolkit offers for a drag or a copy of providers, and the bytes of each offered name when a peer asks:
/// the toolkit-neutral bridge that a toolkit binding (GTK, Qt, SDL, a UI framework's backend) is a thin layer over.
///
/// The names are those the clipboard and the desktop drag offer (see ``ClipboardTypeMapping``): each visible
/// representation in fidelity order, as its uniform type identifier and then its MIME types; the text and file-URL
/// names other programs ask for; the types the providers' converters derive after the derived marker; the
/// sensitivity and expiry hints last. Nothing is loaded until a name's bytes are asked for, and then only the
/// representation that serves that name.
///
/// ```swift
/// let provider = TransferProvider()
/// provider.registerDataRepresentation(for: .json) { _ in Data(#"{"name":"Luke"}"#.utf8) }
/// let offer = TransferOffer(providers: [provider])
/// // offer.names == ["public.json", "application/json", "application/x-transferkit-derived",
/// //                 "text/plain;charset=utf-8", "text/plain"]: JSON is text, so it is plain text too, checked
/// let bytes = try await offer.data(for: "application/json")
/// ```
///
/// The reverse, ``provider(offering:catalog:read:)``, turns the names a peer offers and a per-name reader into a
/// provider whose representations load lazily, as ``Clipboard/read(from:)`` does.
///
/// ## Threads
/// A `TransferOffer` is a value: call it from any task. Its loads run on the caller's task and the providers'
/// loaders; a toolkit that must be called on one thread hops there itself around these calls.
public struct TransferOffer: Sendable {
    /// The names to offer, in order: the peer's preference is the first name it knows.
    public let names: [String]

    private let providers: [TransferProvider]
    private let offers: [String: ClipboardTypeMapping.Offer]

    /// The offer of `providers`.
    ///
    /// - Parameters:
    ///   - providers: The items; a toolkit's clipboard and drag carry one item, so the first provider serves each
    ///     name, except file URLs, which are listed from every provider.
    ///   - options: Sensitivity and cut-or-copy (hints among the names), and the lifetime's expiry (the expiry
    ///     hint, counted from now, with the providers' `expirationDate`).
    ///   - includesX11Names: Whether to add X11's own text names (`UTF8_STRING`, `STRING`, `TEXT`): for a toolkit
    ///     that puts the names on an X11 selection as they are. GTK and Qt translate MIME types themselves.
    ///   - catalog: The catalogue of MIME types.
    public init(
        providers: [TransferProvider], options: ClipboardWriteOptions = ClipboardWriteOptions(),
        includesX11Names: Bool = false, catalog: TypeCatalog = .shared
    ) {
        let offers = ClipboardTypeMapping.offers(
            for: providers, options: options,
            expiration: Clipboard.expiration(of: providers, options: options, now: Date()),
            includeX11Names: includesX11Names, portalKeys: DocumentPortalTransfers.shared.offersKeys,
            catalog: catalog)
        self.names = offers.map(\.target)
        self.providers = providers
        self.offers = Dictionary(offers.map { ($0.target, $0) }) { first, _ in first }
    }

    /// The bytes of `name` as a stream: only the representation that serves `name` is loaded, when this is called.
    ///
    /// - Parameters:
    ///   - name: One of ``names``.
    ///   - progress: The caller's progress; cancelling it stops the load and the stream.
    /// - Returns: The stream; iterating it throws the providers' errors (`TransferError`), and ``ClipboardError``
    ///   `notText` when a text type served under a plain-text name is not UTF-8.
    /// - Throws: ``ClipboardError`` with `typeUnavailable` for a name not among ``names``; the provider's
    ///   `TransferError` when its loader fails.
    public func stream(for name: String, progress: TransferProgress? = nil) async throws -> TransferByteStream {
        guard let offer = offers[name] else {
            throw ClipboardError(
                code: .typeUnavailable, message: "\(name) is not offered; offer one of `names`.", source: name)
        }
        return try await ClipboardTypeMapping.stream(for: offer, providers: providers, progress: progress)
    }

    /// All the bytes of `name`, for toolkits that take a whole buffer. Prefer ``write(_:to:progress:timeout:)`` or
    /// ``stream(for:progress:)`` for representations that may be large.
    ///
    /// - Throws: As ``stream(for:progress:)``, and the stream's errors.
    public func data(for name: String, progress: TransferProgress? = nil) async throws -> Data {
        var data = Data()
        for try await chunk in try await stream(for: name, progress: progress) {
            data += chunk
        }
        return data
    }

    /// Writes the bytes of `name` to `descriptor` (a pipe or socket a peer reads), one chunk at a time, so memory
    /// stays bounded whatever the size; the descriptor stays open (the caller closes it, which tells the reader).
    ///
    /// `progress` counts the bytes written (its total is the representation's length when the stream knows it) and
    /// finishes at the end; cancelling it, or the calling task, stops the write.
    ///
    /// - Parameters:
    ///   - name: One of ``names``.
    ///   - descriptor: Where the bytes go.
    ///   - progress: The caller's progress.
    ///   - timeout: The longest wait for the reader to make room; `nil` waits without limit.
    /// - Throws: ``ClipboardError``: `typeUnavailable` for a name not offered, `cancelled`, `transferFailed` when
    ///   the reader went away, stalled past `timeout` or the descriptor failed (the `SystemError` is the cause);
    ///   `notText` when a text type served under a plain-text name is not UTF-8; the provider's `TransferError` when
    ///   its loader or stream fails.
    public func write(
        _ name: String, to descriptor: Int32, progress: TransferProgress? = nil, timeout: Duration? = .seconds(30)
    ) async throws {
        do {
            // The load reports into a child that counts for nothing here (the bytes written are the progress), and
            // that the caller's cancellation reaches.
            let stream = try await stream(for: name, progress: progress?.makeChild(withPendingUnitCount: 0))
            if let length = stream.length, let progress { progress.totalUnitCount = Int64(clamping: length) }
            try await DescriptorWriting.write(stream, to: descriptor, timeout: timeout) { count in
                try progress?.checkCancellation()
                progress?.advance(by: Int64(count))
            }
            progress?.finish()
        } catch is CancellationError {
            throw ClipboardError(code: .cancelled, message: "The write of \(name) was cancelled.", source: name)
        } catch let error as TransferError where error.code == .cancelled {
            throw ClipboardError(
                code: .cancelled, message: "The write of \(name) was cancelled.", cause: error, source: name)
        } catch let error as SystemError {
            throw ClipboardError(
                code: .transferFailed,
                message: "Writing \(name) failed: \(error). The reader went away or stopped reading.", cause: error,
                source: name)
        }
    }

    /// A provider whose representations are the offered `names` (a drop's or a clipboard's, as a toolkit lists
    /// them), each read through `read` only when it is loaded: what ``Clipboard/read(from:)`` returns, for any
    /// toolkit.
    ///
    /// Each name becomes a stream representation of its uniform type by the rules of
    /// ``ClipboardTypeMapping/type(forOffered:catalog:)`` (the first name of a type wins); the hints set the
    /// provider's flags, its `expirationDate` from the expiry hint and `isCut` from KDE's or GNOME's cut mark (these
    /// read here, through `read`, when offered, as ``Clipboard/read(from:)`` reads them); a
    /// TransferKit peer's derived names are left out when this process derives their types itself.
    ///
    /// ```swift
    /// let provider = await TransferOffer.provider(offering: ["text/plain;charset=utf-8"]) { name, _ in
    ///     TransferByteStream(data: Data("hello".utf8))
    /// }
    /// let text = try await provider.loadObject(ofClass: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - names: The offered names, in the peer's order.
    ///   - catalog: The catalogue of MIME types.
    ///   - read: Reads one name's bytes from the peer. Its errors, and a stream that fails or whose bytes do not
    ///     decode, reach the loader as `TransferError`s (`loaderFailed` with the error as `cause`, and so on).
    /// - Returns: The provider.
    public static func provider(
        offering names: [String], catalog: TypeCatalog = .shared,
        read: @escaping @Sendable (_ name: String, _ progress: TransferProgress) async throws -> TransferByteStream
    ) async -> TransferProvider {
        let provider = ClipboardTypeMapping.provider(offering: names, catalog: catalog, load: read)
        // A hint whose bytes the peer cannot give is no hint: the provider stands without it.
        try? await ClipboardTypeMapping.applyHints(to: provider, offered: names) { name in
            try await read(name, TransferProgress())
        }
        return provider
    }
}
