import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform

@testable import TransferClipboard
@testable import TransferDisplay

/// Takes the drops on one of TransferKit's own windows on a task of its own, as an application would: accepts what
/// `decide` says, reads the first of `wanted` that a drop offers to its end, finishes with the accepted action (or
/// `nil` when the read failed), and records each drop for the test to poll.
final class DesktopDropRecorder: Sendable {
    /// One drop as the window saw it.
    struct Drop: Sendable {
        var targets: [String]
        var sourceActions: [DesktopDragAction]
        var action: DesktopDragAction
        var source: String?
        /// The target read, and its bytes (or why reading failed).
        var target: String?
        var bytes: Data?
        var error: ClipboardError?
    }

    private let drops = SanitizedMutex<[Drop]>([])
    /// The bytes of the drop being read so far (to kill a peer mid-transfer).
    private let progress = SanitizedMutex<Int>(0)
    private let ending = SanitizedMutex<(any Error)?>(nil)
    private let task = SanitizedMutex<Task<Void, Never>?>(nil)

    /// Starts taking `window`'s drops.
    init(
        window: any DesktopWindowHandle, wanted: [String],
        decide: @escaping @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?
    ) {
        let stream = window.drops(decide: decide)
        let reader = Task { [weak self] in
            do {
                for try await handle in stream {
                    var drop = Drop(
                        targets: handle.targets, sourceActions: handle.sourceActions, action: handle.action,
                        source: handle.source)
                    drop.target = wanted.first { handle.targets.contains($0) }
                    self?.progress.withLock { $0 = 0 }
                    if let target = drop.target {
                        do {
                            var bytes = Data()
                            for try await chunk in try await handle.receive(target) {
                                bytes.append(chunk)
                                self?.progress.withLock { $0 = bytes.count }
                            }
                            drop.bytes = bytes
                        } catch {
                            drop.error = error as? ClipboardError
                        }
                    }
                    await handle.finish(performed: drop.bytes == nil ? nil : handle.action)
                    self?.drops.withLock { $0.append(drop) }
                }
            } catch {
                self?.ending.withLock { $0 = error }
            }
        }
        task.withLock { $0 = reader }
    }

    deinit {
        task.withLock { $0 }?.cancel()
    }

    /// The drops finished so far.
    var finished: [Drop] { drops.withLock { $0 } }

    /// The bytes read so far of the drop being read.
    var bytesSoFar: Int { progress.withLock { $0 } }

    /// The first `count` drops, polled until they are finished.
    ///
    /// The deadline is for silence, not for the whole transfer: it starts again whenever more bytes arrived (a large
    /// drop on a loaded machine may take longer than `limit` and still be moving).
    /// - Throws: when the stream ended, or `limit` passed without a new byte (with what `peer` printed).
    func waitForDrops(
        _ count: Int = 1, within limit: Duration = .seconds(45), from peer: DragPeer? = nil
    ) async throws -> [Drop] {
        var deadline = ContinuousClock.now + limit
        var seen = bytesSoFar
        while true {
            let drops = finished
            if drops.count >= count { return Array(drops.prefix(count)) }
            if let error = ending.withLock({ $0 }) { throw error }
            let now = bytesSoFar
            if now != seen {
                seen = now
                deadline = ContinuousClock.now + limit
            }
            guard ContinuousClock.now < deadline else {
                throw DragPeerError(
                    message: "\(drops.count) of \(count) drops arrived (\(now) bytes of the next read)"
                        + (peer.map { "; the peer printed:\n\($0.transcript)" } ?? ""))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Polls until `condition` holds of the bytes read so far.
    func waitForProgress(within limit: Duration = .seconds(45), _ condition: (Int) -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition(bytesSoFar) {
            guard ContinuousClock.now < deadline else {
                throw DragPeerError(message: "the drop's read stayed at \(bytesSoFar) bytes for \(limit)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
