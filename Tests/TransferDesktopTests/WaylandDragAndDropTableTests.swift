import Testing
import TransferKit
import TransferKitPlatform

@testable import TransferDesktop
@testable import TransferDisplay

/// The drag-and-drop machine's decisions as tables of (state, events) → requests and outcomes, without a compositor.
@Suite("Wayland state machine: drag and drop decisions", .timeLimit(.minutes(5)))
struct WaylandDragAndDropTableTests {
    static let offer: UInt32 = 0xff00_0001

    /// A bound core and drag and drop's machine with its pointer and one configured window (`window`, on
    /// `surface`).
    struct Rig {
        var machine: WaylandState
        var dnd: WaylandDragAndDropState
        var window: UInt64
        var surface: UInt32

        init() throws {
            (machine, dnd, _) = try WaylandDragAndDropStateTests.bound()
            _ = dnd.feed(.dragAndDrop(.seatCapabilities(seat: machine.seat, 1)), from: machine.seat, core: &machine)
            let (window, surface, _) = try dnd.openWindow(
                title: "w", bufferFD: 70, width: 320, height: 48, core: &machine)
            self.window = window
            self.surface = surface
            let xdgSurface = try #require(dnd.windows[window]).toplevel.xdgSurface
            _ = dnd.feed(.configure(xdgSurface: xdgSurface, serial: 1), from: xdgSurface, core: &machine)
        }

        /// Feeds `event` from the object the decoder would name for it, through the core.
        mutating func event(_ event: WaylandDragAndDropEvent) -> [WaylandDragAndDropAction] {
            let object: UInt32
            switch event {
            case .seatCapabilities(let seat, _): object = seat
            case .pointerEnter, .pointerLeave, .pointerMotion, .pointerButton: object = dnd.pointer
            case .dragEnter, .dragMotion: object = machine.device
            case .dragLeave(let device), .dragDrop(let device): object = device
            case .sourceActions(let offer, _), .offerAction(let offer, _): object = offer
            case .dragTarget(let source, _), .dropPerformed(let source), .dragFinished(let source),
                .dragAction(let source, _):
                object = source
            case .windowClosed(let toplevel): object = toplevel
            }
            return dnd.feed(.dragAndDrop(event), from: object, core: &machine)
        }

        /// Feeds one of the core's events from `object`.
        mutating func feed(_ event: WaylandEvent, from object: UInt32) -> [WaylandDragAndDropAction] {
            dnd.feed(event, from: object, core: &machine)
        }

        /// A drag from another client offering `text/plain` and `image/png` with the actions of `mask` enters the
        /// window at (5, 6) with serial 30.
        mutating func enter(mask: UInt32) -> [WaylandDragAndDropAction] {
            _ = feed(.dataOffer(device: machine.device, offer: offer), from: machine.device)
            _ = feed(.offerType(offer: offer, mimeType: "text/plain"), from: offer)
            _ = feed(.offerType(offer: offer, mimeType: "image/png"), from: offer)
            _ = event(.sourceActions(offer: offer, mask))
            return event(.dragEnter(serial: 30, surface: surface, x: 5 << 8, y: 6 << 8, offer: offer))
        }
    }

    static func requests(_ actions: [WaylandDragAndDropAction]) -> [WaylandMessage] {
        WaylandDragAndDropStateTests.requests(actions)
    }

    static func accept(_ mimeType: String?, bit: UInt32) -> [WaylandMessage] {
        [
            WaylandMessage(objectID: offer, opcode: 0, arguments: [.uint(30), .string(mimeType)]),
            WaylandMessage(objectID: offer, opcode: 4, arguments: [.uint(bit), .uint(bit)]),
        ]
    }

    // MARK: - Target

    struct Decision: Sendable, CustomTestStringConvertible {
        var sourceMask: UInt32
        var answer: DesktopDragAction?
        var accepted: String?
        var bit: UInt32
        var testDescription: String { "source \(sourceMask), decide \(answer?.rawValue ?? "nil")" }
    }

    static let decisions = [
        Decision(sourceMask: 3, answer: .copy, accepted: "text/plain", bit: 1),
        Decision(sourceMask: 3, answer: .move, accepted: "text/plain", bit: 2),
        Decision(sourceMask: 7, answer: .ask, accepted: "text/plain", bit: 4),
        Decision(sourceMask: 1, answer: .move, accepted: nil, bit: 0),  // the source does not allow it
        Decision(sourceMask: 3, answer: .link, accepted: nil, bit: 0),  // Wayland has no link
        Decision(sourceMask: 3, answer: nil, accepted: nil, bit: 0),
    ]

    @Test("decide's answer becomes accept(serial, first type or nil) and set_actions", arguments: decisions)
    func decision(_ row: Decision) throws {
        var rig = try Rig()
        try rig.dnd.setDropTarget(rig.window, true, core: rig.machine)
        let entered = rig.enter(mask: row.sourceMask)
        #expect(
            entered == [
                .decide(
                    window: rig.window, offer: Self.offer, targets: ["text/plain", "image/png"],
                    actions: DesktopDragAction.fromWayland(mask: row.sourceMask))
            ])
        let answered = rig.dnd.decided(offer: Self.offer, action: row.answer, core: rig.machine)
        #expect(Self.requests(answered) == Self.accept(row.accepted, bit: row.bit))
        #expect(
            rig.dnd.decided(offer: Self.offer, action: row.answer, core: rig.machine).isEmpty,
            "the same answer is not repeated")
        #expect(
            rig.dnd.decided(offer: Self.offer + 1, action: row.answer, core: rig.machine).isEmpty,
            "another offer's is ignored")
    }

    @Test("A window that is no drop target refuses at once; a drag without data is ignored")
    func notATarget() throws {
        var rig = try Rig()
        #expect(Self.requests(rig.enter(mask: 3)) == Self.accept(nil, bit: 0))
        var other = try Rig()
        try other.dnd.setDropTarget(other.window, true, core: other.machine)
        #expect(other.event(.dragEnter(serial: 30, surface: other.surface, x: 0, y: 0, offer: 0)).isEmpty)
    }

    @Test("Motion asks again and moves the location; leave destroys the offer")
    func motionAndLeave() throws {
        var rig = try Rig()
        try rig.dnd.setDropTarget(rig.window, true, core: rig.machine)
        _ = rig.enter(mask: 1)
        let moved = rig.event(.dragMotion(time: 1, x: 40 << 8, y: 41 << 8))
        #expect(moved.count == 1)
        #expect(rig.dnd.visit?.location == DesktopPoint(x: 40, y: 41))
        let left = rig.event(.dragLeave(device: rig.machine.device))
        #expect(Self.requests(left) == [WaylandMessage(objectID: Self.offer, opcode: 2)])
        #expect(rig.machine.offers[Self.offer] == nil && rig.dnd.visit == nil)
    }

    struct Drop: Sendable, CustomTestStringConvertible {
        var answer: DesktopDragAction?
        var compositorChoice: UInt32?
        var delivered: DesktopDragAction?
        var testDescription: String { "decide \(answer?.rawValue ?? "nil"), compositor \(compositorChoice ?? 0)" }
    }

    static let drops = [
        Drop(answer: .copy, compositorChoice: nil, delivered: .copy),
        Drop(answer: .move, compositorChoice: 2, delivered: .move),
        Drop(answer: .ask, compositorChoice: 4, delivered: .ask),
        Drop(answer: nil, compositorChoice: nil, delivered: nil),
    ]

    @Test("A drop is delivered with the compositor's action when accepted, and destroyed when not", arguments: drops)
    func drop(_ row: Drop) throws {
        var rig = try Rig()
        try rig.dnd.setDropTarget(rig.window, true, core: rig.machine)
        _ = rig.enter(mask: 7)
        _ = rig.dnd.decided(offer: Self.offer, action: row.answer, core: rig.machine)
        if let choice = row.compositorChoice { _ = rig.event(.offerAction(offer: Self.offer, choice)) }
        let dropped = rig.event(.dragDrop(device: rig.machine.device))
        guard let delivered = row.delivered else {
            #expect(Self.requests(dropped) == [WaylandMessage(objectID: Self.offer, opcode: 2)])
            return
        }
        #expect(
            dropped == [
                .deliver(
                    window: rig.window,
                    WaylandDrop(
                        offer: Self.offer, targets: ["text/plain", "image/png"],
                        sourceActions: [.copy, .move, .ask],
                        action: delivered, location: DesktopPoint(x: 5, y: 6)))
            ])
        // The leave that follows a drop keeps the offer for the target; so does a selection change.
        #expect(rig.event(.dragLeave(device: rig.machine.device)).isEmpty)
        #expect(
            Self.requests(
                rig.feed(.selection(device: rig.machine.device, offer: 0, primary: false), from: rig.machine.device)
            ).isEmpty)
        #expect(rig.machine.offers[Self.offer] != nil)
    }

    struct Finish: Sendable, CustomTestStringConvertible {
        var accepted: DesktopDragAction
        var performed: DesktopDragAction?
        var sourceMask: UInt32
        var requests: [WaylandMessage]
        var testDescription: String { "accepted \(accepted), performed \(performed?.rawValue ?? "nil")" }
    }

    static let destroy = WaylandMessage(objectID: offer, opcode: 2)
    static let finish = WaylandMessage(objectID: offer, opcode: 3)
    static func setActions(_ bit: UInt32) -> WaylandMessage {
        WaylandMessage(objectID: offer, opcode: 4, arguments: [.uint(bit), .uint(bit)])
    }

    static let finishes = [
        Finish(accepted: .copy, performed: .copy, sourceMask: 3, requests: [finish, destroy]),
        Finish(accepted: .move, performed: .move, sourceMask: 3, requests: [finish, destroy]),
        Finish(accepted: .ask, performed: .move, sourceMask: 7, requests: [setActions(2), finish, destroy]),
        Finish(accepted: .move, performed: .copy, sourceMask: 3, requests: [setActions(1), finish, destroy]),
        Finish(accepted: .copy, performed: .move, sourceMask: 1, requests: [destroy]),  // not allowed: declined
        Finish(accepted: .copy, performed: .ask, sourceMask: 7, requests: [destroy]),  // ask is no final action
        Finish(accepted: .copy, performed: nil, sourceMask: 3, requests: [destroy]),
    ]

    @Test(
        "finish(performed:) finishes only a performed action the source allows; otherwise only destroys",
        arguments: finishes)
    func finishing(_ row: Finish) throws {
        var rig = try Rig()
        try rig.dnd.setDropTarget(rig.window, true, core: rig.machine)
        _ = rig.enter(mask: row.sourceMask)
        _ = rig.dnd.decided(offer: Self.offer, action: row.accepted, core: rig.machine)
        _ = rig.event(.dragDrop(device: rig.machine.device))
        let receiving = try rig.dnd.receiveDrop(Self.offer, "image/png", into: 80, core: rig.machine)
        #expect(
            Self.requests(receiving) == [
                WaylandMessage(objectID: Self.offer, opcode: 1, arguments: [.string("image/png"), .fd(80)])
            ])
        let unoffered = #expect(throws: ClipboardError.self) {
            _ = try rig.dnd.receiveDrop(Self.offer, "x/y", into: 81, core: rig.machine)
        }
        #expect(unoffered?.code == .typeUnavailable)
        #expect(
            Self.requests(
                rig.dnd.finishDrop(Self.offer, performed: row.performed, accepted: row.accepted, core: &rig.machine))
                == row.requests)
        #expect(
            rig.dnd.finishDrop(Self.offer, performed: row.performed, accepted: row.accepted, core: &rig.machine)
                .isEmpty, "once")
        let late = #expect(throws: ClipboardError.self) {
            _ = try rig.dnd.receiveDrop(Self.offer, "image/png", into: 82, core: rig.machine)
        }
        #expect(late?.code == .cancelled)
    }

    // MARK: - Source

    /// A rig whose window is armed and whose pointer pressed at (10, 10) with serial 50 and moved to (`x`, 10).
    static func pressed(
        button: UInt32 = 0x110, armed: Bool = true, movedTo x: Int32
    ) throws -> (Rig, [WaylandDragAndDropAction]) {
        var rig = try Rig()
        if armed {
            try rig.dnd.armDrag(
                rig.window, targets: ["text/plain", "com.example.card"], actions: [.copy, .move], core: rig.machine)
        }
        _ = rig.event(.pointerEnter(serial: 40, surface: rig.surface, x: 10 << 8, y: 10 << 8))
        _ = rig.event(.pointerButton(serial: 50, time: 1, button: button, state: 1))
        let moved = rig.event(.pointerMotion(time: 2, x: x << 8, y: 10 << 8))
        return (rig, moved)
    }

    @Test("A press and a move past the threshold start the drag with the press's serial")
    func startDrag() throws {
        let (rig, started) = try Self.pressed(movedTo: 18)
        let source = try #require(rig.dnd.drag?.source)
        #expect(
            Self.requests(started) == [
                WaylandMessage(objectID: rig.machine.manager, opcode: 0, arguments: [.newID(source)]),
                WaylandMessage(objectID: source, opcode: 0, arguments: [.string("text/plain")]),
                WaylandMessage(objectID: source, opcode: 0, arguments: [.string("com.example.card")]),
                WaylandMessage(objectID: source, opcode: 2, arguments: [.uint(3)]),
                WaylandMessage(
                    objectID: rig.machine.device, opcode: 0,
                    arguments: [.object(source), .object(rig.surface), .object(0), .uint(50)]),
            ])
    }

    struct NoStart: Sendable, CustomTestStringConvertible {
        var name: String
        var button: UInt32 = 0x110
        var armed = true
        var x: Int32 = 18
        var testDescription: String { name }
    }

    @Test(
        "No drag without an armed window, with another button, or below the threshold",
        arguments: [
            NoStart(name: "not armed", armed: false), NoStart(name: "right button", button: 0x111),
            NoStart(name: "below the threshold", x: 17),
        ])
    func noStart(_ row: NoStart) throws {
        let (rig, moved) = try Self.pressed(button: row.button, armed: row.armed, movedTo: row.x)
        #expect(moved.isEmpty && rig.dnd.drag == nil)
    }

    @Test("A release before the threshold forgets the press")
    func releaseBeforeThreshold() throws {
        var (rig, _) = try Self.pressed(movedTo: 12)
        _ = rig.event(.pointerButton(serial: 51, time: 3, button: 0x110, state: 0))
        #expect(rig.event(.pointerMotion(time: 4, x: 30 << 8, y: 10 << 8)).isEmpty)
        #expect(rig.dnd.drag == nil)
    }

    struct Ending: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [String]
        var outcome: DesktopDragOutcome?
        var testDescription: String { name }
    }

    static let endings = [
        Ending(
            name: "finished after move", events: ["target text/plain", "action 2", "performed", "finished"],
            outcome: .dropped(performed: .move, target: "text/plain")),
        Ending(
            name: "finished after copy", events: ["action 1", "performed", "finished"],
            outcome: .dropped(performed: .copy, target: nil)),
        Ending(
            name: "the last action counts", events: ["action 2", "action 1", "performed", "finished"],
            outcome: .dropped(performed: .copy, target: nil)),
        Ending(
            name: "refused", events: ["target text/plain", "target nil", "cancelled"], outcome: .refused(target: nil)),
        Ending(name: "no target at all", events: ["cancelled"], outcome: .refused(target: nil)),
        Ending(
            name: "the target failed after the drop", events: ["action 2", "performed", "cancelled"],
            outcome: .cancelled(reason: "The drop target gave up before it finished (it may have exited).")),
        Ending(name: "still under way", events: ["action 2", "performed"], outcome: nil),
    ]

    @Test(
        "The source's events end the drag so; a move only after dnd_finished with the last action move",
        arguments: endings)
    func ending(_ row: Ending) throws {
        var (rig, _) = try Self.pressed(movedTo: 20)
        let drag = try #require(rig.dnd.drag)
        var actions: [WaylandDragAndDropAction] = []
        for event in row.events {
            let words = event.split(separator: " ").map(String.init)
            switch words[0] {
            case "target":
                actions += rig.event(.dragTarget(source: drag.source, mimeType: words[1] == "nil" ? nil : words[1]))
            case "action": actions += rig.event(.dragAction(source: drag.source, UInt32(words[1]) ?? 0))
            case "performed": actions += rig.event(.dropPerformed(source: drag.source))
            case "finished": actions += rig.event(.dragFinished(source: drag.source))
            default: actions += rig.feed(.cancelled(source: drag.source), from: drag.source)
            }
        }
        let ended = actions.compactMap { action -> DesktopDragOutcome? in
            if case .dragEnded(_, let outcome) = action { outcome } else { nil }
        }
        #expect(ended == (row.outcome.map { [$0] } ?? []))
        if row.outcome != nil {
            #expect(
                Self.requests(actions).last == WaylandMessage(objectID: drag.source, opcode: 1),
                "the source is destroyed")
            #expect(rig.dnd.drag == nil)
        }
    }

    @Test("A dropped drag whose target never finishes is abandoned at the time limit; a finished one is not")
    func timeLimit() throws {
        var (rig, _) = try Self.pressed(movedTo: 20)
        let drag = try #require(rig.dnd.drag)
        #expect(
            rig.dnd.dragTimedOut(rig.window, source: drag.source, core: &rig.machine).abandoned == false,
            "not dropped yet")
        let performed = rig.event(.dropPerformed(source: drag.source))
        #expect(performed == [.dropPerformed(window: rig.window, source: drag.source)])
        let (abandoned, actions) = rig.dnd.dragTimedOut(rig.window, source: drag.source, core: &rig.machine)
        #expect(abandoned && Self.requests(actions) == [WaylandMessage(objectID: drag.source, opcode: 1)])
        #expect(rig.dnd.dragTimedOut(rig.window, source: drag.source, core: &rig.machine).abandoned == false, "once")
    }

    @Test("send is served for the drag's source; closing the window cancels the drag")
    func serveAndClose() throws {
        var (rig, _) = try Self.pressed(movedTo: 20)
        let drag = try #require(rig.dnd.drag)
        let sent = rig.feed(.send(source: drag.source, mimeType: "text/plain", fd: 90), from: drag.source)
        #expect(sent == [.serve(window: rig.window, mimeType: "text/plain", fd: 90)])
        let closed = rig.dnd.closeWindow(rig.window, core: &rig.machine)
        #expect(
            closed.contains(
                .dragEnded(window: rig.window, .cancelled(reason: "the window was closed"))))
        #expect(closed.last == .windowClosed(window: rig.window))
    }

    @Test("Arming refuses a link-only drag, a second drag and a closed window")
    func arming() throws {
        var rig = try Rig()
        let link = #expect(throws: ClipboardError.self) {
            try rig.dnd.armDrag(rig.window, targets: [], actions: [.link], core: rig.machine)
        }
        #expect(link?.code == .protocolUnavailable)
        try rig.dnd.armDrag(rig.window, targets: [], actions: [.copy], core: rig.machine)
        let twice = #expect(throws: ClipboardError.self) {
            try rig.dnd.armDrag(rig.window, targets: [], actions: [.copy], core: rig.machine)
        }
        #expect(twice?.code == .protocolUnavailable)
        let closed = #expect(throws: ClipboardError.self) {
            try rig.dnd.armDrag(rig.window + 1, targets: [], actions: [.copy], core: rig.machine)
        }
        #expect(closed?.code == .cancelled)
    }
}

/// The picture of TransferKit's own Wayland windows: the built-in font.
@Suite("Wayland window picture", .timeLimit(.minutes(5)))
struct WaylandWindowPictureTests {
    /// The pixel at (`x`, `y`) of `picture`.
    static func pixel(_ picture: WaylandWindowPicture, x: Int32, y: Int32) -> UInt32 {
        let offset = Int((y * picture.width + x) * 4)
        return picture.pixels[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Whether the glyph pixel (`column`, `row`) of the character at `index` on line `line` is inked.
    static func inked(_ picture: WaylandWindowPicture, line: Int32, index: Int32, column: Int32, row: Int32) -> Bool {
        let x = WaylandWindowPicture.margin + index * WaylandWindowPicture.advance + column * WaylandWindowPicture.scale
        let y =
            WaylandWindowPicture.margin + 4 + line * WaylandWindowPicture.lineHeight + row * WaylandWindowPicture.scale
        return pixel(picture, x: x, y: y) == WaylandWindowPicture.ink
    }

    @Test("Lines are drawn in the font: each glyph's pixels, in place; lower case as capitals")
    func text() {
        let picture = WaylandWindowPicture(lines: ["A1", "ok"])
        #expect(picture.pixels.count == Int(picture.width * picture.height * 4))
        for (line, text) in [(Int32(0), "A1"), (1, "OK")] {
            for (index, character) in text.enumerated() {
                let glyph = WaylandWindowPicture.glyph(character)
                for row in 0..<7 {
                    for column in 0..<5 {
                        let expected = glyph[row] & (0b10000 >> column) != 0
                        #expect(
                            Self.inked(picture, line: line, index: Int32(index), column: Int32(column), row: Int32(row))
                                == expected, "\(character) at \(column),\(row)")
                    }
                }
            }
        }
        #expect(WaylandWindowPicture.glyph("a") == WaylandWindowPicture.glyph("A"))
        #expect(Self.pixel(picture, x: 0, y: 0) == WaylandWindowPicture.frame)
    }

    @Test("Characters outside the font are boxes; ß (two capitals) does not trap; long text is cut")
    func outsideTheFont() {
        #expect(WaylandWindowPicture.glyph("é") == WaylandWindowPicture.box)
        #expect(WaylandWindowPicture.glyph("ß") == WaylandWindowPicture.box)
        #expect(WaylandWindowPicture.glyph("🙂") == WaylandWindowPicture.box)
        let long = WaylandWindowPicture(lines: Array(repeating: String(repeating: "x", count: 500), count: 100))
        #expect(long.height == 2 * WaylandWindowPicture.margin + 4 + 40 * WaylandWindowPicture.lineHeight)
        #expect(long.width == 2 * WaylandWindowPicture.margin + 78 * WaylandWindowPicture.advance)
        let empty = WaylandWindowPicture(lines: [])
        #expect(empty.width == 240 && empty.height > 0)
    }
}
