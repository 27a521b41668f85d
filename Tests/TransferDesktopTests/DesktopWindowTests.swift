import Foundation
import Testing
import TransferClipboard
import TransferDesktop
import TransferKit
import TransferKitPlatform
import TransferSessions
import UniformTypes

extension UniformType {
    static let desktopTestCard = UniformType(exportedAs: "com.example.desktop.card", conformingTo: .json)
}

/// A card as the seeds' lists hold them.
struct Card: TransferCodable, Identifiable, Hashable {
    var id: String
    var title: String

    static var contentType: UniformType { .desktopTestCard }
}

private func cards(_ ids: String...) -> TransferList<Card> {
    TransferList(ids.map { Card(id: $0, title: "card \($0)") })
}

/// A window on a fresh fake desktop, and the fake window behind it.
private func openWindow(
    _ title: String, on desktop: FakeDesktop = FakeDesktop()
) async throws -> (
    DesktopWindow, FakeWindow
) {
    let window = try await DesktopWindow.open(
        DesktopWindow.Options(title: title, lines: ["a"], timeout: .seconds(120)), on: desktop, closeConnection: {})
    return (window, try #require(desktop.windows.last))
}

/// Collects a stream's bytes.
private func bytes(of stream: TransferByteStream) async throws -> Data {
    var data = Data()
    for try await chunk in stream { data += chunk }
    return data
}

/// Makes `window` a drop target that proposes a move, and takes its first drop into `destination`: the drop must
/// come from a TransferKit drag and be performed as `operation`; `check` looks at its context and session first.
/// The window is a drop target from this call on, before any drag starts.
private func takeFirstDrop(
    on window: DesktopWindow, into destination: TransferList<Card>, performing operation: DropOperation,
    check: @escaping @Sendable (DesktopDropContext, DropSession) -> Void = { _, _ in }
) -> Task<DropResult<Void>, any Error> {
    let drops = window.drops { _ in DropProposal(operation: .move) }
    return Task {
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        #expect(drop.context.isFromTransferKit)
        return try await drop.perform { session, performed in
            #expect(performed == operation)
            check(drop.context, session)
            let dropped = try await session.loadObjects(ofClass: Card.self)
            _ = try destination.edit { $0.append(contentsOf: dropped) }
        }
    }
}

@Suite("Desktop windows: drags as sessions, drops as drop sessions", .timeLimit(.minutes(5)))
struct DesktopWindowTests {
    @Test("a window shows its title and lines, and show(lines:) replaces them")
    func showsLines() async throws {
        let (window, fake) = try await openWindow("cards")
        #expect(fake.title == "cards" && fake.lines == ["a"])
        #expect(window.identifier == fake.identifier)
        #expect(window.protocolName == "Fake (in memory)")
        try await window.show(lines: ["x", "y"])
        #expect(fake.lines == ["x", "y"])
        window.close()
        #expect(fake.isClosed)
    }

    @Test("a drag offers the clipboard's names and the session offer, each served when asked")
    func dragOffersTheClipboardMapping() async throws {
        let (window, fake) = try await openWindow("offer")
        let list = cards("1", "2")
        let seen = OfferRecorder()
        fake.whenDragged { offer in
            let card = try JSONDecoder().decode(
                Card.self, from: try await bytes(of: try await offer.serve("application/json")))
            await seen.record(offer, card)
            return .dropped(performed: .copy, target: "0x77")
        }
        let result = try await window.drag(try list.beginDrag(["2"]))
        #expect(result == DesktopDragResult(operation: .copy, target: "0x77", exactlyOnce: false))
        let (offer, card) = try #require(await seen.value)
        #expect(card == Card(id: "2", title: "card 2"))
        #expect(offer.targets.starts(with: ["com.example.desktop.card", "application/json"]))
        #expect(offer.targets.suffix(2) == ["application/x-transferkit-drag-session", "org.transferkit.drag-session"])
        #expect(offer.actions == [.copy])
        #expect(list.elements.map(\.id) == ["1", "2"])
    }

    @Test("a move performed by another program removes the items, only when the session allows moves to others")
    func moveToAnotherProgram() async throws {
        let (window, fake) = try await openWindow("move")
        fake.whenDragged { offer in
            #expect(offer.actions == [.copy, .move])
            _ = try await bytes(of: try await offer.serve("application/json"))
            return .dropped(performed: .move, target: "0x9")
        }
        let list = cards("1", "2", "3")
        let session = try list.beginDrag(["2"], allowsMoveToOtherApplications: true)
        let result = try await window.drag(session)
        #expect(result == DesktopDragResult(operation: .move, target: "0x9", exactlyOnce: false))
        #expect(list.elements.map(\.id) == ["1", "3"])
        #expect(session.phase == .ended(.move))
    }

    @Test(
        "a move another program claims without reading an item's data (or reading only part of it) is a copy",
        arguments: [0, 1, 2])
    func moveWithoutReadingIsACopy(readAll: Int) async throws {
        let (window, fake) = try await openWindow("move unread \(readAll)")
        fake.whenDragged { offer in
            // Nothing; the first chunk only of an item's data; a whole representation of the first item only.
            if readAll == 1 {
                var iterator = try await offer.serve("application/json").makeAsyncIterator()
                _ = try await iterator.next()
            } else if readAll == 2 {
                _ = try await bytes(of: try await offer.serve("application/json"))
            }
            return .dropped(performed: .move, target: "0x9")
        }
        let list = cards("1", "2", "3")
        let session = try list.beginDrag(readAll == 2 ? ["1", "2"] : ["2"], allowsMoveToOtherApplications: true)
        let result = try await window.drag(session)
        #expect(result.operation == .copy)
        #expect(result.reason?.contains("read none of the data of item(s) \(readAll == 2 ? "2" : "1")") == true)
        #expect(list.elements.map(\.id) == ["1", "2", "3"])
        #expect(session.phase == .ended(.copy))
    }

    @Test("a move another program claims without being offered one is a copy: the source keeps its items")
    func unofferedMoveIsACopy() async throws {
        let (window, fake) = try await openWindow("unoffered")
        fake.whenDragged { _ in .dropped(performed: .move, target: "0x9") }
        let list = cards("1", "2")
        let result = try await window.drag(try list.beginDrag(["1"]))
        #expect(result.operation == .copy)
        #expect(list.elements.map(\.id) == ["1", "2"])
    }

    @Test("a refused or cancelled drag ends the session with cancel and the source keeps its items")
    func refusedAndCancelled() async throws {
        let (window, fake) = try await openWindow("refused")
        let list = cards("1")
        fake.whenDragged { _ in .refused(target: "0x3") }
        let session = try list.beginDrag(["1"], allowsMoveToOtherApplications: true)
        let refused = try await window.drag(session)
        #expect(refused.operation == .cancel && refused.target == "0x3" && refused.reason != nil)
        #expect(session.phase == .ended(.cancel))
        fake.whenDragged { _ in .cancelled(reason: "Escape") }
        let cancelled = try await window.drag(try list.beginDrag(["1"]))
        #expect(cancelled == DesktopDragResult(operation: .cancel, target: nil, exactlyOnce: false, reason: "Escape"))
        #expect(list.elements.map(\.id) == ["1"])
    }

    @Test("dragging a session that already ended throws sessionEnded")
    func endedSession() async throws {
        let (window, _) = try await openWindow("ended")
        let session = try cards("1").beginDrag(["1"])
        await session.cancel()
        let error = await #expect(throws: TransferSessionError.self) { try await window.drag(session) }
        #expect(error?.code == .sessionEnded)
    }

    @Test("a display error during the drag cancels the session and is thrown")
    func displayErrorCancels() async throws {
        let (window, fake) = try await openWindow("broken")
        fake.whenDragged { _ in throw ClipboardError(code: .timedOut, message: "The target never finished.") }
        let list = cards("1")
        let session = try list.beginDrag(["1"])
        let error = await #expect(throws: ClipboardError.self) { try await window.drag(session) }
        #expect(error?.code == .timedOut)
        #expect(session.phase == .ended(.cancel))
        #expect(list.elements.map(\.id) == ["1"])
    }

    @Test("a drop from another program delivers one item of the offered types, loaded lazily, and finishes once")
    func dropFromAnotherProgram() async throws {
        let (window, fake) = try await openWindow("target")
        let asked = SanitizedNames()
        let offer = DesktopDragOffer(targets: ["text/plain;charset=utf-8", "UTF8_STRING"], actions: [.copy, .move]) {
            name in
            asked.append(name)
            return TransferByteStream(data: Data("hello".utf8))
        }
        let drops = window.drops()
        async let outcome = fake.receiveDrop(offer)
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        #expect(drop.location == DesktopDropLocation(x: 10, y: 20))
        #expect(drop.source == "0x5")
        #expect(!drop.context.isFromTransferKit)
        #expect(drop.context.allowedOperations == [.copy, .move])
        #expect(drop.context.offers(conformingTo: .plainText))
        #expect(asked.names.isEmpty)
        let result = try await drop.perform { session, operation in
            #expect(operation == .copy)
            #expect(session.items.count == 1)
            return try await session.loadObjects(ofClass: String.self)
        }
        #expect(result.value == ["hello"])
        #expect(result.operation == .copy)
        #expect(asked.names == ["text/plain;charset=utf-8"])
        #expect(await outcome == .dropped(performed: .copy, target: fake.identifier))
        let again = await #expect(throws: TransferSessionError.self) { try await drop.perform { _, _ in } }
        #expect(again?.code == .sessionEnded)
    }

    @Test("a commit that throws fails the drop with commitFailed and finishes the protocol without success")
    func failedCommit() async throws {
        let (window, fake) = try await openWindow("failing")
        let offer = DesktopDragOffer(targets: ["text/plain"], actions: [.copy]) { _ in
            TransferByteStream(data: Data("x".utf8))
        }
        let drops = window.drops()
        async let outcome = fake.receiveDrop(offer)
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        struct Full: Error {}
        let error = await #expect(throws: TransferSessionError.self) {
            try await drop.perform { _, _ in throw Full() }
        }
        #expect(error?.code == .commitFailed)
        #expect(await outcome == .cancelled(reason: "The target failed the drop."))
    }

    @Test("a proposal that refuses, and a move the source does not allow, refuse the drag before any drop")
    func proposalsRefuse() async throws {
        let (window, fake) = try await openWindow("refusing")
        let offer = DesktopDragOffer(targets: ["text/plain"], actions: [.copy]) { _ in TransferByteStream(data: Data())
        }
        _ = window.drops { _ in nil }
        #expect(await fake.receiveDrop(offer) == .refused(target: fake.identifier))
        _ = window.drops { _ in DropProposal(operation: .move) }
        #expect(await fake.receiveDrop(offer) == .refused(target: fake.identifier))
    }

    @Test("a drag between two windows of one process moves through the session itself, with its local objects")
    func moveBetweenWindowsOfOneProcess() async throws {
        let desktop = FakeDesktop()
        let (left, leftFake) = try await openWindow("left", on: desktop)
        let (right, rightFake) = try await openWindow("right", on: desktop)
        leftFake.whenDragged { offer in await rightFake.receiveDrop(offer) }
        let source = cards("1", "2")
        let destination = cards("9")
        let target = takeFirstDrop(on: right, into: destination, performing: .move) { context, session in
            #expect(context.allowedOperations == [.copy])
            #expect(session.items.first?.localObject as? Card == Card(id: "2", title: "card 2"))
        }
        let result = try await left.drag(try source.beginDrag(["2"]))
        // A refused drag never reaches the target: end its wait rather than the suite's time limit.
        if result.operation == .cancel { right.close() }
        #expect(result.operation == .move)
        #expect(result.exactlyOnce)
        #expect(try await target.value.operation == .move)
        #expect(source.elements.map(\.id) == ["1"])
        #expect(destination.elements.map(\.id) == ["9", "2"])
    }

    @Test(
        "a TransferKit drag whose session cannot be reached is taken as a copy: the source keeps its item",
        arguments: ["/nonexistent-transferkit-test/transferkit-drag-gone.sock", "transferkit-drag-relative.sock"])
    func unreachableSessionCopies(socket: String) async throws {
        let desktop = FakeDesktop()
        let (left, leftFake) = try await openWindow("left", on: desktop)
        let (right, rightFake) = try await openWindow("right", on: desktop)
        // The drag's session offer names another process's socket that cannot be reached (another runtime
        // folder, another user, or, before decoding refused them, a relative path).
        let forged = try DesktopSessionOffer(
            session: "unreachable", socket: socket, application: "elsewhere", process: Int32.max
        ).encoded()
        leftFake.whenDragged { offer in
            await rightFake.receiveDrop(
                DesktopDragOffer(targets: offer.targets, actions: offer.actions) { name in
                    DesktopSessionOffer.isOfferName(name)
                        ? TransferByteStream(data: forged) : try await offer.serve(name)
                })
        }
        let source = cards("1", "2")
        let destination = cards("9")
        let target = takeFirstDrop(on: right, into: destination, performing: .copy)
        let result = try await left.drag(try source.beginDrag(["2"], allowsMoveToOtherApplications: true))
        if result.operation == .cancel { right.close() }
        #expect(try await target.value.operation == .copy)
        #expect(result.operation == .copy)
        #expect(!result.exactlyOnce)
        #expect(source.elements.map(\.id) == ["1", "2"])
        #expect(destination.elements.map(\.id) == ["9", "2"])
    }

    @Test(
        "a drop read through the display protocol converts a TransferKit source's derived types itself: only HTML crosses"
    )
    func dropDerivesWhatTheSourceDerives() async throws {
        let desktop = FakeDesktop()
        let (left, leftFake) = try await openWindow("left", on: desktop)
        let (right, rightFake) = try await openWindow("right", on: desktop)
        let asked = SanitizedMutex<[String]>([])
        let offered = SanitizedMutex<[String]>([])
        leftFake.whenDragged { offer in
            offered.withLock { $0 = offer.targets }
            // Without the session offer, as from a TransferKit drag whose session cannot be published.
            return await rightFake.receiveDrop(
                DesktopDragOffer(
                    targets: offer.targets.filter { !DesktopSessionOffer.isOfferName($0) }, actions: offer.actions
                ) { name in
                    asked.withLock { $0.append(name) }
                    return try await offer.serve(name)
                })
        }
        let drops = right.drops { _ in DropProposal(operation: .copy) }
        let target = Task {
            var iterator = drops.makeAsyncIterator()
            let drop = try #require(try await iterator.next())
            return try await drop.perform { session, _ in
                let item = try #require(session.items.first).provider
                return (item.registeredTypes, try await item.loadObject(ofClass: String.self))
            }
        }
        let html = TransferProvider(data: Data("<p>Caf&eacute; &amp; bar</p>".utf8), type: .html)
        let result = try await left.drag(DragSession(items: [DragItem(id: "1", provider: html)], source: nil))
        if result.operation == .cancel { right.close() }
        let (registered, text) = try #require(try await target.value.value)
        #expect(result.operation == .copy)
        #expect(registered == [.html])
        #expect(text == "Café & bar")
        let names = asked.withLock { $0 }
        #expect(names.contains("public.html"), "\(names)")
        #expect(offered.withLock { $0 }.contains(ClipboardTypeMapping.derivedName))
        #expect(!names.contains("public.utf8-plain-text") && !names.contains("text/plain"), "\(names)")
    }

    @Test(
        "a session offer whose socket is not an absolute path is no offer",
        arguments: ["transferkit-drag-relative.sock", "\0transferkit-drag-abstract", "", "/run/user/1000/a\0b.sock"])
    func offerNeedsAnAbsoluteSocket(socket: String) throws {
        let bytes = try DesktopSessionOffer(session: "s", socket: socket, application: "a", process: 1).encoded()
        #expect(DesktopSessionOffer.decode(bytes) == nil)
        let absolute = try DesktopSessionOffer(
            session: "s", socket: "/run/user/1000/transferkit-drag-s.sock", application: "a", process: 1
        ).encoded()
        #expect(DesktopSessionOffer.decode(absolute)?.socket == "/run/user/1000/transferkit-drag-s.sock")
    }
}

@Suite("Desktop drops on TransferLists", .timeLimit(.minutes(5)))
struct DesktopListDropTests {
    @Test("a list takes a drag from another window of the process as its own drop: a move, exactly once")
    func listTakesAMove() async throws {
        let desktop = FakeDesktop()
        let (left, leftFake) = try await openWindow("left list", on: desktop)
        let (right, rightFake) = try await openWindow("right list", on: desktop)
        leftFake.whenDragged { offer in await rightFake.receiveDrop(offer) }
        let source = cards("1", "2", "3")
        let destination = cards("8", "9")
        let drops = right.drops { _ in DropProposal(operation: .move) }
        let target = Task {
            var iterator = drops.makeAsyncIterator()
            let drop = try #require(try await iterator.next())
            return try await destination.drop(drop, at: 1)
        }
        let result = try await left.drag(try source.beginDrag(["3"]))
        if result.operation == .cancel { right.close() }
        #expect(result.operation == .move && result.exactlyOnce)
        #expect(try await target.value.operation == .move)
        #expect(source.elements.map(\.id) == ["1", "2"])
        #expect(destination.elements.map(\.id) == ["8", "3", "9"])
    }

    @Test("another program's item that the list cannot read fails the drop with commitFailed, the list unchanged")
    func unreadableItem() async throws {
        let (window, fake) = try await openWindow("strict list")
        let offer = DesktopDragOffer(targets: ["image/png"], actions: [.copy]) { _ in TransferByteStream(data: Data()) }
        let list = cards("1")
        let drops = window.drops()
        async let outcome = fake.receiveDrop(offer)
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        let error = await #expect(throws: TransferSessionError.self) { try await list.drop(drop, at: 0) }
        #expect(error?.code == .commitFailed)
        #expect(list.elements.map(\.id) == ["1"])
        #expect(await outcome == .cancelled(reason: "The target failed the drop."))
    }
}

/// The offer and card a scripted drag saw.
private actor OfferRecorder {
    var value: (DesktopDragOffer, Card)?
    func record(_ offer: DesktopDragOffer, _ card: Card) { value = (offer, card) }
}

/// The names a source was asked for.
private final class SanitizedNames: Sendable {
    private let storage = SanitizedMutex([String]())
    func append(_ name: String) { storage.withLock { $0.append(name) } }
    var names: [String] { storage.withLock { $0 } }
}
