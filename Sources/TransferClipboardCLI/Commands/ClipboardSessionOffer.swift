import CBOR
import TransferClipboard
import TransferDesktop
import TransferKit
import TransferKitPlatform
import TransferSessions
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `transferkit copy` of files offers its items as a session beside the display server's selection, so that a
/// TransferKit reader on the same machine (`paste`, the far side's `serve --stdio`) gets a file as an open descriptor
/// passed over a Unix socket and reads it directly, instead of having the bytes copied through the X server (an INCR
/// transfer costs the owner, the server and the reader a copy and a round trip per chunk) or the compositor.
///
/// The offer is the bytes of ``ClipboardTypeMapping/sessionOfferName`` (`Schemas/transfer-session.md`, section 7.1):
/// a CBOR map naming the session, its socket and which offered names are a representation's bytes unchanged. A
/// reader loads only those names through the session, the others through the display server as before.
///
/// **When.** Only a copy of a file of at least ``minimumFileSize`` (a smaller one costs less through the display
/// server than a connection to the session) whose every paste may be served alike offers it: none with a paste limit
/// (a session load would not count as a paste), none concealed or transient (a secret goes only where the display
/// server takes it); and it lists only the names served from a file as they are.
///
/// **Who can use it.** The socket is in `XDG_RUNTIME_DIR` (or the temporary folder), and the publication accepts only
/// processes of its own user (`SO_PEERCRED`). The offer's bytes come from whoever owns the selection, which on X11
/// may be any client of the display, so a reader connects only to a socket named for the offered session
/// (`transferkit-clipboard-SESSION.sock`) that its own user owns (no other user's program can serve it), and checks
/// that the session there is the one offered. An offer it cannot use (another machine's socket, a copy that ended,
/// another version) is ignored, and the names are read through the display server.
struct ClipboardSessionOffer: Codable, Sendable, Equatable {
    /// The version of the offer's fields.
    static let currentVersion = 1
    /// The most bytes a reader reads of an offer.
    static let maximumLength = 16 << 10
    /// The smallest file a copy offers a session for: 1 MiB (four X11 INCR chunks).
    static let minimumFileSize: UInt64 = 1 << 20

    /// Which item's representation of which type an offered name is, unchanged.
    struct Entry: Codable, Sendable, Equatable {
        /// The item's index in the session.
        var item: Int
        /// The representation's uniform type identifier.
        var type: String
    }

    /// The version of the fields (1).
    var version: Int
    /// The session's identity (`DragSession/ID`), which the publication's offer must repeat.
    var session: String
    /// The absolute path of the publication's Unix socket.
    var socket: String
    /// The owner's process identifier.
    var process: Int32
    /// The offered names served through the session, each with its item and type.
    var names: [String: Entry]

    /// The offer in `bytes`; `nil` for anything else (another version, a relative socket path or one with a NUL byte,
    /// no session or no names).
    static func decode(_ bytes: Data) -> ClipboardSessionOffer? {
        guard bytes.count <= maximumLength, let offer = try? CBORDecoder().decode(Self.self, from: bytes),
            offer.version == currentVersion, offer.socket.hasPrefix("/"), !offer.socket.utf8.contains(0),
            !offer.session.isEmpty, !offer.names.isEmpty
        else { return nil }
        return offer
    }

    /// The names among `offers` that `providers` serve from a file unchanged, with the item and type each is.
    static func fileNames(
        _ offers: [ClipboardTypeMapping.Offer], providers: [TransferProvider]
    ) -> [String: Entry] {
        var names: [String: Entry] = [:]
        for offer in offers where offer.conversion == .identity && providers.indices.contains(offer.providerIndex) {
            let provider = providers[offer.providerIndex]
            guard provider.representations.first(where: { $0.type == offer.type })?.kind == .file else { continue }
            names[offer.target] = Entry(item: offer.providerIndex, type: offer.type.identifier)
        }
        return names
    }

    /// Publishes `providers` as a session for readers of a copy with `options` whose largest input file has
    /// `largestFileSize` bytes, and returns the publication and the offer's bytes; `nil` when the copy may not offer
    /// one (see the type's "When") or it cannot be made (no folder for the socket, a socket that cannot be made): the
    /// copy then serves through the display server alone.
    static func publish(
        _ providers: [TransferProvider], options: ClipboardWriteOptions, largestFileSize: UInt64,
        catalog: TypeCatalog, environment: [String: String], timeout: Duration
    ) -> (publication: DragSessionPublication, bytes: Data)? {
        let isSecret =
            options.isConcealed || options.isTransient || providers.contains { $0.isConcealed || $0.isTransient }
        guard largestFileSize >= minimumFileSize, options.lifetime.pasteLimit == nil, !isSecret else { return nil }
        // Every name either display protocol may offer: one never offered is never asked for.
        let offers = ClipboardTypeMapping.offers(
            for: providers, options: options, includeX11Names: true, catalog: catalog)
        let names = fileNames(offers, providers: providers)
        guard !names.isEmpty else { return nil }
        let items = providers.enumerated().map { index, provider in
            DragItem(id: TransferItemID(String(index)), provider: provider)
        }
        // No source: a reader copies; nothing here can be moved away.
        let session = DragSession(items: items, source: nil, allowsMoveOperation: false)
        guard
            let path = DesktopSessionOffer.socketPath(
                named: "transferkit-clipboard-\(session.id.rawValue).sock", environment: environment),
            let publication = try? DragSessionPublication(publishing: session, atPath: path, timeout: timeout)
        else { return nil }
        let offer = ClipboardSessionOffer(
            version: currentVersion, session: session.id.rawValue, socket: path,
            process: session.origin.processIdentifier, names: names)
        guard let bytes = try? CBOREncoder().encode(offer) else {
            publication.close()
            return nil
        }
        return (publication, bytes)
    }

    /// What `Clipboard.read` is given to read a TransferKit owner's files through its session offer: for the offered
    /// names, when the offer is among them and readable, a load of the names it lists from the session; `nil`
    /// otherwise. Each load connects anew (a connection left idle would reach the publication's silence limit) and
    /// gives `nil`, so the name is read through the display server, when the socket does not answer within `timeout`,
    /// the session there is not the one offered or its item does not offer the type.
    static func directLoads(
        from clipboard: Clipboard, selection: ClipboardSelection, timeout: Duration
    ) -> @Sendable ([String]) async -> Clipboard.DirectLoad? {
        { offered in
            let name = ClipboardTypeMapping.sessionOfferName
            guard offered.contains(name),
                let bytes = try? await ClipboardTypeMapping.hintBytes(
                    limit: maximumLength, { try await clipboard.stream(of: name, from: selection) }),
                let offer = decode(bytes)
            else { return nil }
            guard isOwnSocket(offer) else { return nil }
            return { name, progress in
                guard let entry = offer.names[name], let type = UniformType(entry.type),
                    let session = try? await RemoteDragSession.connect(toPath: offer.socket, timeout: timeout)
                else { return nil }
                guard session.id.rawValue == offer.session, session.items.indices.contains(entry.item),
                    session.items[entry.item].provider.registeredTypes.contains(type)
                else {
                    session.close()
                    return nil
                }
                let stream = try await session.items[entry.item].provider.loadStream(for: type, progress: progress)
                // The session stays connected while its bytes are read.
                return TransferByteStream(
                    length: stream.length, ReceivedChunks(stream: stream, progress: progress, keep: session))
            }
        }
    }

    /// Whether `offer`'s socket is one a copy of this user would publish for its session: named
    /// `transferkit-clipboard-SESSION.sock`, a socket (not a link to one), owned by this process's user.
    static func isOwnSocket(_ offer: ClipboardSessionOffer) -> Bool {
        let name = offer.socket.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init)
        guard name == "transferkit-clipboard-\(offer.session).sock",
            let status = Syscall.linkStatus(atPath: offer.socket)
        else { return false }
        return status.isSocket && status.owner == Syscall.userID
    }
}
