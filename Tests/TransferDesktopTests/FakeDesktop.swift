import Foundation
import TransferClipboard
import TransferKit
import TransferKitPlatform

/// A desktop in memory: windows whose drags are scripted by the test, or carried to another window's drops as a
/// display server would carry them (enter and position ask `decide`, the drop waits for the target's finish).
final class FakeDesktop: DragAndDropBackend {
    let dragAndDropProtocolName = "Fake (in memory)"
    private let opened = SanitizedMutex([FakeWindow]())

    func openWindow(title: String, lines: [String]) async throws -> any DesktopWindowHandle {
        let window = FakeWindow(identifier: "fake@\(opened.withLock { $0.count } + 1)", title: title, lines: lines)
        opened.withLock { $0.append(window) }
        return window
    }

    /// The windows opened so far, in order.
    var windows: [FakeWindow] { opened.withLock { $0 } }
}

/// A window of the fake desktop.
final class FakeWindow: DesktopWindowHandle {
    let identifier: String
    let title: String
    private let state: SanitizedMutex<State>

    private struct State {
        var lines: [String]
        var drag: (@Sendable (DesktopDragOffer) async throws -> DesktopDragOutcome)?
        var decide: (@Sendable ([String], [DesktopDragAction]) -> DesktopDragAction?)?
        var drops: AsyncThrowingStream<any DesktopDropHandle, any Error>.Continuation?
        var isClosed = false
    }

    init(identifier: String, title: String, lines: [String]) {
        self.identifier = identifier
        self.title = title
        self.state = SanitizedMutex(State(lines: lines))
    }

    var lines: [String] { state.withLock { $0.lines } }
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// What the next drag from this window does with its offer (the user and the target, together).
    func whenDragged(_ script: @escaping @Sendable (DesktopDragOffer) async throws -> DesktopDragOutcome) {
        state.withLock { $0.drag = script }
    }

    func show(lines: [String]) async throws {
        state.withLock { $0.lines = lines }
    }

    func drag(_ offer: DesktopDragOffer) async throws -> DesktopDragOutcome {
        guard let script = state.withLock({ $0.drag }) else {
            return .cancelled(reason: "Nobody dragged.")
        }
        return try await script(offer)
    }

    func drops(
        decide: @escaping @Sendable ([String], [DesktopDragAction]) -> DesktopDragAction?
    ) -> AsyncThrowingStream<any DesktopDropHandle, any Error> {
        let (stream, continuation) = AsyncThrowingStream<any DesktopDropHandle, any Error>.makeStream()
        state.withLock {
            $0.decide = decide
            $0.drops = continuation
        }
        return stream
    }

    func close() {
        let drops = state.withLock { state in
            state.isClosed = true
            return state.drops
        }
        drops?.finish()
    }

    /// Carries `offer` onto this window as a display server would: refused when the window is no target or
    /// `decide` refuses, else delivered and finished by the target.
    func receiveDrop(
        _ offer: DesktopDragOffer, at location: DesktopPoint = DesktopPoint(x: 10, y: 20), source: String? = "0x5"
    ) async -> DesktopDragOutcome {
        let (decide, drops) = state.withLock { ($0.decide, $0.drops) }
        guard let decide, let drops, let action = decide(offer.targets, offer.actions) else {
            return .refused(target: identifier)
        }
        let finished = Mailbox<DesktopDragAction?, Never>(capacity: 1)
        let handle = FakeDropHandle(
            targets: offer.targets, sourceActions: offer.actions, action: action, location: location, source: source,
            serve: offer.serve, finished: finished)
        drops.yield(handle)
        let finish: DesktopDragAction?
        do {
            // As long as a test may run: a whole-suite run under the thread sanitizer keeps every task of the pool busy
            // for a minute at times, and a shorter wait took a drop that was on its way for one that never finished.
            finish = try await finished.receive(until: .after(.seconds(300)))
        } catch {
            return .cancelled(reason: "The target never finished.")
        }
        guard let performed = finish else { return .cancelled(reason: "The target failed the drop.") }
        return .dropped(performed: performed, target: identifier)
    }
}

/// A drop delivered by a ``FakeWindow``: its bytes come from the source's offer.
final class FakeDropHandle: DesktopDropHandle {
    let targets: [String]
    let sourceActions: [DesktopDragAction]
    let action: DesktopDragAction
    let location: DesktopPoint
    let source: String?
    private let serve: @Sendable (String) async throws -> TransferByteStream
    private let finished: Mailbox<DesktopDragAction?, Never>
    private let finishes = SanitizedMutex([DesktopDragAction?]())

    init(
        targets: [String], sourceActions: [DesktopDragAction], action: DesktopDragAction, location: DesktopPoint,
        source: String?, serve: @escaping @Sendable (String) async throws -> TransferByteStream,
        finished: Mailbox<DesktopDragAction?, Never>
    ) {
        self.targets = targets
        self.sourceActions = sourceActions
        self.action = action
        self.location = location
        self.source = source
        self.serve = serve
        self.finished = finished
    }

    /// Every `finish` call, in order (exactly one is right).
    var finishCalls: [DesktopDragAction?] { finishes.withLock { $0 } }

    func receive(_ target: String) async throws -> TransferByteStream {
        guard targets.contains(target) else {
            throw ClipboardError(code: .typeUnavailable, message: "\(target) is not offered.", source: target)
        }
        return try await serve(target)
    }

    func finish(performed: DesktopDragAction?) async {
        finishes.withLock { $0.append(performed) }
        _ = finished.post(performed)
    }
}
