package import TransferDisplay
import TransferKit
import TransferKitPlatform
package import TransferSessions
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A drag of a session's items, from its start to its result, whatever carries it on the desktop: a
/// ``DesktopWindow`` of TransferKit's own, or a toolkit's drag source (TransferGTK's). The one home of the rules
/// a drag from TransferKit keeps with every target.
///
/// Made when the drag starts: it checks the session is active, computes the offer (every representation as the
/// clipboard offers it, each served only when asked, and the session offer), publishes the session for
/// TransferKit targets in other processes and lists it for this process's. The carrier then runs the display
/// protocol's drag with ``offer`` and hands its outcome to ``finish(_:)``, which ends the session: through the
/// session when a TransferKit target dropped through it (exactly once), by the display protocol's rule otherwise,
/// a move removing the items only when the target read each one's data.
package final class PreparedDrag: Sendable {
    /// The session being dragged.
    package let session: DragSession
    /// What the drag offers the display protocol.
    package let offer: DesktopDragOffer

    private let providers: [TransferProvider]
    private let publication: DragSessionPublication?
    private let delivered: DeliveredItems
    private let movesToOthers: Bool
    private let timeout: Duration

    /// Starts a drag of `session`.
    ///
    /// - Parameters:
    ///   - session: An active session.
    ///   - filePromise: A file to promise besides the representations, or `nil`.
    ///   - includeX11Names: Whether to offer X11's text names (`UTF8_STRING`, …) too.
    ///   - catalog: The catalogue that maps uniform types to the offered names.
    ///   - environment: Where to publish the session (`XDG_RUNTIME_DIR`, `TMPDIR`).
    ///   - timeout: The session protocol's deadline at each step, and the wait for a target's end of the session.
    ///   - observer: Told of the source's steps of a drop between TransferKit processes.
    /// - Throws: `TransferSessionError` `sessionEnded` when the session is not active.
    package init(
        _ session: DragSession, filePromise: DesktopFilePromise?, includeX11Names: Bool, catalog: TypeCatalog,
        environment: [String: String], timeout: Duration,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    ) throws(TransferSessionError) {
        guard session.phase == .active else {
            throw TransferSessionError(
                code: .sessionEnded,
                message: "This drag session was already dropped or cancelled (\(session.phase)); start a new drag.",
                source: session.id.rawValue)
        }
        let providers = session.items.map(\.provider)
        let portal = DocumentPortalTransfers.serving(environment)
        let offers = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(), includeX11Names: includeX11Names,
            portalKeys: portal.offersKeys, catalog: catalog)
        let byName = Dictionary(offers.map { ($0.target, $0) }) { first, _ in first }
        let published = Self.publish(session, environment: environment, timeout: timeout, observer: observer)
        LocalDragSessions.shared.insert(session)

        let movesToOthers =
            session.allowsMoveOperation && session.source != nil && session.allowsMoveToOtherApplications
        let offerBytes = published?.bytes
        let delivered = DeliveredItems()
        self.session = session
        self.providers = providers
        self.publication = published?.publication
        self.delivered = delivered
        self.movesToOthers = movesToOthers
        self.timeout = timeout
        self.offer = DesktopDragOffer(
            targets: offers.map(\.target) + (offerBytes == nil ? [] : DesktopSessionOffer.names),
            actions: movesToOthers ? [.copy, .move] : [.copy],
            filePromise: filePromise?.promisedFile
        ) { target in
            if DesktopSessionOffer.isOfferName(target), let offerBytes {
                return TransferByteStream(data: offerBytes)
            }
            guard let offer = byName[target] else {
                throw ClipboardError(code: .typeUnavailable, message: "\(target) is not offered.", source: target)
            }
            let stream = try await ClipboardTypeMapping.stream(for: offer, providers: providers, portal: portal)
            return TransferByteStream(
                length: stream.length,
                DeliveredItems.Noting(base: stream, items: Self.items(servedBy: offer, providers), delivered: delivered)
            )
        }
    }

    /// Ends the drag with the display protocol's outcome (or its failure) and returns what the drop did.
    ///
    /// - Parameter outcome: How the display protocol's drag ended, or the error that stopped it.
    /// - Returns: What the drop did, and where.
    /// - Throws: `outcome`'s error (the session is cancelled first, unless a TransferKit target dropped through it
    ///   already), `TransferSessionError` `timedOut` when a TransferKit target began its drop and did not end it
    ///   within the timeout, or the session's drop error.
    package func finish(_ outcome: Result<DesktopDragOutcome, any Error>) async throws -> DesktopDragResult {
        defer {
            publication?.close()
            LocalDragSessions.shared.remove(session)
        }
        let ending: DesktopDragOutcome
        switch outcome {
        case .success(let value):
            ending = value
        case .failure(let error):
            if session.phase != .active, let publication {
                // A TransferKit target dropped through the session before the display protocol failed: the
                // session's outcome is the truth.
                return try await ended(publication, target: nil)
            }
            await session.cancel()
            throw error
        }
        if session.phase != .active, let publication {
            return try await ended(publication, target: ending.target)
        }
        switch ending {
        case .dropped(let performed, let target):
            // A target that says it moved the items but read none of some item's representations (to its end) took
            // nothing of it: deleting would lose it, so the drop counts as a copy and the source keeps every item.
            let unread = delivered.missing(from: providers.count)
            let moved = performed == .move && movesToOthers && unread.isEmpty
            let keptReason =
                performed == .move && movesToOthers && !unread.isEmpty
                ? "The target \(target ?? "") reported a move but read none of the data of item(s) "
                    + "\(unread.map { String($0 + 1) }.joined(separator: ", ")); nothing was removed." : nil
            let origin = TransferSessionOrigin(
                applicationIdentifier: "desktop:\(target ?? "unknown")", processIdentifier: 0)
            let operation: DropOperation
            do {
                operation = try await session.drop(DropProposal(operation: moved ? .move : .copy), on: origin) {
                    _, _ in
                }.operation
            } catch {
                // A TransferKit target raced the display protocol's finish through the session.
                guard error.code == .sessionEnded, let publication else { throw error }
                return try await ended(publication, target: target)
            }
            return DesktopDragResult(
                operation: operation, target: target, exactlyOnce: false,
                reason: operation == .copy ? keptReason : nil)
        case .refused(let target):
            await session.cancel()
            return DesktopDragResult(
                operation: .cancel, target: target, exactlyOnce: false, reason: "The drop target refused the drop.")
        case .cancelled(let reason):
            await session.cancel()
            return DesktopDragResult(operation: .cancel, target: nil, exactlyOnce: false, reason: reason)
        }
    }

    /// The result of a session that a TransferKit target dropped through `publication`, once its destination has
    /// heard how it ended.
    private func ended(_ publication: DragSessionPublication, target: String?) async throws -> DesktopDragResult {
        let operation = try await publication.ended(within: timeout)
        return DesktopDragResult(
            operation: operation, target: target, exactlyOnce: operation.transfersItems,
            reason: operation.transfersItems ? nil : publication.session.endRefusal?.description)
    }

    /// `session` published for TransferKit targets, and the session offer's bytes; `nil` when it cannot be (no
    /// folder for the socket, or the socket cannot be made): the drag then goes on for other programs only.
    private static func publish(
        _ session: DragSession, environment: [String: String], timeout: Duration,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    ) -> (publication: DragSessionPublication, bytes: Data)? {
        guard let path = DesktopSessionOffer.socketPath(for: session.id, environment: environment),
            let publication = try? DragSessionPublication(
                publishing: session, atPath: path, timeout: timeout, observer: observer)
        else { return nil }
        let offer = DesktopSessionOffer(
            session: session.id.rawValue, socket: path, application: session.origin.applicationIdentifier,
            process: session.origin.processIdentifier)
        guard let bytes = try? offer.encoded() else {
            publication.close()
            return nil
        }
        return (publication, bytes)
    }

    /// The items (indices into `providers`) whose data `offer` carries: its provider's, or every file URL's for a
    /// URL list or the document portal's key; none for a constant (the hints).
    static func items(servedBy offer: ClipboardTypeMapping.Offer, _ providers: [TransferProvider]) -> [Int] {
        switch offer.conversion {
        case .identity, .latin1, .utf8Text: [offer.providerIndex]
        case .uriList, .gnomeCopiedFiles, .portalKey:
            providers.indices.filter { providers[$0].hasRepresentation(conformingTo: .fileURL) }
        case .constant: []
        }
    }
}

extension DesktopDragOutcome {
    /// The window the drag ended on, where the protocol names it.
    fileprivate var target: String? {
        switch self {
        case .dropped(_, let target), .refused(let target): target
        case .cancelled: nil
        }
    }
}
