import Foundation
import Testing

@testable import TransferDisplay

/// The X11 selection owner's and requestor's state machines, without a server: every phase × event, INCR chunking,
/// and the ways a transfer ends.
@Suite("X11 selection state machines", .timeLimit(.minutes(5)))
struct X11SelectionMachineTests {
    typealias Owner = X11SelectionOwnerMachine
    typealias Reader = X11SelectionReaderMachine

    static let atoms = Owner.Atoms(
        targets: 100, timestamp: 101, multiple: 102, incr: 103, atomPair: 104, saveTargets: 105)
    static let text: X11.ID = 200
    static let ownership = Owner.Ownership(time: 50, targets: [text], names: [text: "text/plain"])
    static let chunkSize = 8

    static func request(target: X11.ID = text, time: UInt32 = 60) -> Owner.Request {
        Owner.Request(time: time, requestor: 7, selection: 1, target: target, property: 300)
    }

    static func owner(isNested: Bool = false) -> Owner {
        Owner(ownership: ownership, atoms: atoms, chunkSize: chunkSize, isNested: isNested)
    }

    /// A clipboard manager's `CLIPBOARD_MANAGER`: no data, answers `SAVE_TARGETS`.
    static func manager(isNested: Bool = false) -> Owner {
        Owner(
            ownership: .init(time: 50, targets: [], names: [:], savesTargets: true), atoms: atoms, chunkSize: chunkSize,
            isNested: isNested)
    }

    /// The result of actions, in short: what comes next.
    static func summary(_ actions: [Owner.Action]) -> String {
        guard let last = actions.last else { return "ignore" }
        switch last {
        case .load: return "load"
        case .readData: return "readData"
        case .waitForDeletion: return "waitForDeletion"
        case .readPairs: return "readPairs"
        case .convertPairs: return "convertPairs"
        case .readSaveList: return "readSaveList"
        case .save: return "save"
        case .finish(.completed): return "completed"
        case .finish(.refused): return "refused"
        case .finish(.failed(let code, _)): return "failed \(code)"
        default: return "no next step: \(actions)"
        }
    }

    // MARK: - Owner: every phase × event

    /// A machine in each phase, named.
    static func ownerPhases() -> [(String, Owner)] {
        var phases: [(String, Owner)] = [("idle", owner())]
        var pairs = owner()
        _ = pairs.handle(.selectionRequest(request(target: atoms.multiple)))
        phases.append(("readingPairs", pairs))
        _ = pairs.handle(.pairsRead([text, 301]))
        phases.append(("convertingPairs", pairs))
        var data = owner()
        _ = data.handle(.selectionRequest(request()))
        phases.append(("opening", data))
        _ = data.handle(.sourceOpened(length: nil))
        phases.append(("loading", data))
        _ = data.handle(.chunk(Data(repeating: 1, count: chunkSize + 1)))
        phases.append(("awaitingDeletion", data))
        _ = data.handle(.propertyNotify(deleted: true))  // the announcement is taken: 8 bytes go, 1 stays
        _ = data.handle(.propertyNotify(deleted: true))  // 1 byte is less than a chunk: read on
        phases.append(("readingChunk", data))
        var saving = manager()
        _ = saving.handle(.selectionRequest(request(target: atoms.saveTargets)))
        phases.append(("readingSaveList", saving))
        _ = saving.handle(.saveListRead(nil))
        phases.append(("saving", saving))
        var refused = owner()
        _ = refused.handle(.selectionRequest(request(target: 999)))
        phases.append(("finished", refused))
        return phases
    }

    static let ownerEvents: [(String, Owner.Event)] = [
        ("request", .selectionRequest(request())), ("opened", .sourceOpened(length: nil)), ("chunk", .chunk(Data([1]))),
        ("end", .endOfData), ("sourceFailed", .sourceFailed("broken")), ("deleted", .propertyNotify(deleted: true)),
        ("changed", .propertyNotify(deleted: false)), ("destroyed", .requestorDestroyed), ("timedOut", .timedOut),
        ("pairs", .pairsRead([text, 301])), ("noPairs", .pairsRead(nil)), ("converted", .pairsConverted([true])),
        ("saveList", .saveListRead([text])), ("saved", .saved(true)),
    ]

    /// What each phase does on each event (columns in the order of ``ownerEvents``).
    static let ownerTable: [String: [String]] = [
        "idle": ["load"] + Array(repeating: "ignore", count: 13),
        "readingPairs": [
            "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "refused", "convertPairs",
            "refused", "ignore", "ignore", "ignore",
        ],
        "convertingPairs": [
            "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "refused", "ignore",
            "ignore", "completed", "ignore", "ignore",
        ],
        "opening": [
            "ignore", "readData", "ignore", "ignore", "refused", "ignore", "ignore", "ignore", "refused", "ignore",
            "ignore", "ignore", "ignore", "ignore",
        ],
        "loading": [
            "ignore", "ignore", "readData", "completed", "refused", "ignore", "ignore", "ignore", "refused", "ignore",
            "ignore", "ignore", "ignore", "ignore",
        ],
        "awaitingDeletion": [
            "ignore", "ignore", "ignore", "ignore", "ignore", "waitForDeletion", "ignore", "failed cancelled",
            "failed timedOut", "ignore", "ignore", "ignore", "ignore", "ignore",
        ],
        "readingChunk": [
            "ignore", "ignore", "readData", "waitForDeletion", "failed transferFailed", "ignore", "ignore",
            "failed cancelled", "failed timedOut", "ignore", "ignore", "ignore", "ignore", "ignore",
        ],
        "readingSaveList": [
            "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "refused", "ignore",
            "ignore", "ignore", "save", "ignore",
        ],
        "saving": [
            "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "failed cancelled", "ignore",
            "ignore", "ignore", "ignore", "ignore", "completed",
        ],
        "finished": Array(repeating: "ignore", count: 14),
    ]

    @Test("Every phase of the owner answers every event as the table says; a finish is always last")
    func ownerTableHolds() throws {
        let phases = Self.ownerPhases()
        #expect(phases.count == 10)
        for (phaseName, machine) in phases {
            let row = try #require(Self.ownerTable[phaseName])
            for ((eventName, event), expected) in zip(Self.ownerEvents, row) {
                var copy = machine
                let actions = copy.handle(event)
                #expect(Self.summary(actions) == expected, "\(phaseName) × \(eventName): \(actions)")
                let finishes = actions.indices.filter { if case .finish = actions[$0] { true } else { false } }
                #expect(finishes.isEmpty || finishes == [actions.count - 1], "\(phaseName) × \(eventName)")
                #expect(copy.isFinished == !finishes.isEmpty || (machine.isFinished && actions.isEmpty))
                if actions.isEmpty { #expect(copy.phase == machine.phase, "an ignored event changes nothing") }
            }
        }
    }

    // MARK: - Owner: conversions

    @Test("A small value goes at once: the property, then SelectionNotify, then the end")
    func directValue() {
        var machine = Self.owner()
        #expect(machine.handle(.selectionRequest(Self.request())) == [.load("text/plain")])
        #expect(machine.handle(.sourceOpened(length: 5)) == [.readData])
        #expect(machine.handle(.chunk(Data("hello".utf8))) == [.readData])
        #expect(
            machine.handle(.endOfData) == [
                .changeProperty(.init(type: Self.text, format: 8, mode: .replace, bytes: Data("hello".utf8))),
                .notify(property: 300), .finish(.completed),
            ])
    }

    @Test("A request from before the ownership, or to a non-owner, or for an unknown target is refused with None")
    func refusals() {
        var early = Self.owner()
        #expect(
            early.handle(.selectionRequest(Self.request(time: 49))) == [.notify(property: X11.none), .finish(.refused)])
        var current = Self.owner()
        #expect(current.handle(.selectionRequest(Self.request(time: X11.currentTime))) == [.load("text/plain")])
        var stranger = Owner(ownership: nil, atoms: Self.atoms, chunkSize: 8)
        #expect(stranger.handle(.selectionRequest(Self.request())) == [.notify(property: X11.none), .finish(.refused)])
        var nested = Self.owner(isNested: true)
        #expect(nested.handle(.selectionRequest(Self.request(target: 999))) == [.finish(.refused)])
    }

    @Test("TARGETS longer than one write is replaced, then appended, before the one notification")
    func longTargets() {
        let targets = (0..<5).map { X11.ID(500 + $0) }
        var machine = Owner(
            ownership: .init(time: 1, targets: targets, names: [:]), atoms: Self.atoms, chunkSize: 12)
        let actions = machine.handle(.selectionRequest(Self.request(target: Self.atoms.targets)))
        let writes = actions.compactMap { if case .changeProperty(let write) = $0 { write } else { nil } }
        #expect(writes.map(\.mode) == [.replace, .append, .append])
        #expect(writes.allSatisfy { $0.type == X11.Atom.atom && $0.format == 32 && $0.bytes.count <= 12 })
        let all = writes.flatMap { Array($0.bytes) }
        let expected = [Self.atoms.targets, Self.atoms.timestamp, Self.atoms.multiple] + targets
        #expect(all == Array(Owner.atomsWrite(type: 0, expected).bytes))
        #expect(actions.suffix(2) == [.notify(property: 300), .finish(.completed)])
    }

    @Test("MULTIPLE: each pair converted or answered None, then ATOM_PAIR, then the notification")
    func multiple() {
        var machine = Self.owner()
        #expect(machine.handle(.selectionRequest(Self.request(target: Self.atoms.multiple))) == [.readPairs])
        let pairs = [Owner.Pair(target: Self.text, property: 301), Owner.Pair(target: 999, property: 302)]
        #expect(machine.handle(.pairsRead([Self.text, 301, 999, 302, 5])) == [.convertPairs(pairs)])
        #expect(
            machine.handle(.pairsConverted([true, false])) == [
                .changeProperty(Owner.atomsWrite(type: Self.atoms.atomPair, [Self.text, 301, 999, X11.none])),
                .notify(property: 300), .finish(.completed),
            ])
        var short = Self.owner()
        _ = short.handle(.selectionRequest(Self.request(target: Self.atoms.multiple)))
        #expect(short.handle(.pairsRead([Self.text])) == [.notify(property: X11.none), .finish(.refused)])
    }

    @Test("Inside MULTIPLE, a value over one chunk is refused (no INCR there) and a small one is not notified")
    func nestedLimits() {
        var large = Self.owner(isNested: true)
        _ = large.handle(.selectionRequest(Self.request()))
        _ = large.handle(.sourceOpened(length: nil))
        #expect(large.handle(.chunk(Data(repeating: 0, count: 9))) == [.finish(.refused)])
        var small = Self.owner(isNested: true)
        _ = small.handle(.selectionRequest(Self.request()))
        _ = small.handle(.sourceOpened(length: nil))
        _ = small.handle(.chunk(Data([1, 2])))
        #expect(
            small.handle(.endOfData) == [
                .changeProperty(.init(type: Self.text, format: 8, mode: .replace, bytes: Data([1, 2]))),
                .finish(.completed),
            ])
    }

    /// Runs an owner over `payload`, served in `pieces`, with a requestor that deletes every property at once:
    /// the INCR announcement, then each chunk written, in order.
    static func incrWrites(
        payload: Data, pieces: [Int], length: UInt64?
    ) -> (writes: [Owner.PropertyWrite], [Owner.Action]) {
        var machine = owner()
        var log = machine.handle(.selectionRequest(request()))
        log += machine.handle(.sourceOpened(length: length))
        var offset = 0
        var pieceIndex = 0
        var steps = 0
        while !machine.isFinished && steps < 10_000 {
            steps += 1
            let actions: [Owner.Action]
            switch log.last {
            case .readData:
                if offset < payload.count {
                    let size = min(pieces[pieceIndex % pieces.count], payload.count - offset)
                    pieceIndex += 1
                    actions = machine.handle(.chunk(payload[offset..<(offset + size)]))
                    offset += size
                } else {
                    actions = machine.handle(.endOfData)
                }
            case .waitForDeletion:
                actions = machine.handle(.propertyNotify(deleted: true))
            default:
                return ([], log)
            }
            log += actions
        }
        let writes = log.compactMap { if case .changeProperty(let write) = $0 { write } else { nil } }
        return (writes, log)
    }

    @Test(
        "INCR sends a payload of several chunks as exactly its bytes, in order; a 0-length chunk ends it",
        arguments: [[3, 10, 1, 15], [8], [1], [64]])
    func incrChunking(pieces: [Int]) throws {
        let payload = Data((0..<(Self.chunkSize * 5 + 3)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
        let (writes, log) = Self.incrWrites(payload: payload, pieces: pieces, length: UInt64(payload.count))
        let announcement = try #require(writes.first)
        #expect(announcement == Owner.atomsWrite(type: Self.atoms.incr, [UInt32(payload.count)]))
        #expect(log.firstIndex(of: .watchRequestor) ?? .max < log.firstIndex(of: .notify(property: 300)) ?? -1)
        let chunks = writes.dropFirst()
        #expect(chunks.allSatisfy { $0.type == Self.text && $0.format == 8 && $0.bytes.count <= Self.chunkSize })
        #expect(Data(chunks.flatMap { Array($0.bytes) }) == payload)
        #expect(chunks.last?.bytes.isEmpty == true, "the 0-length chunk ends the transfer")
        #expect(chunks.dropLast().allSatisfy { !$0.bytes.isEmpty })
        #expect(log.suffix(2) == [.unwatchRequestor, .finish(.completed)])
    }

    @Test("INCR: a payload of exactly whole chunks ends with the 0-length chunk after the last full one")
    func incrWholeChunks() {
        let payload = Data(repeating: 9, count: Self.chunkSize * 3)
        let (writes, _) = Self.incrWrites(payload: payload, pieces: [Self.chunkSize * 3], length: nil)
        #expect(writes.dropFirst().map(\.bytes.count) == [8, 8, 8, 0])
        #expect(writes.first == Owner.atomsWrite(type: Self.atoms.incr, [UInt32(payload.count)]))
    }

    @Test("INCR: a requestor that never deletes ends the transfer at the deadline with timedOut")
    func requestorNeverDeletes() {
        var machine = Self.owner()
        _ = machine.handle(.selectionRequest(Self.request()))
        _ = machine.handle(.sourceOpened(length: nil))
        #expect(machine.handle(.chunk(Data(repeating: 1, count: 20))).last == .waitForDeletion)
        #expect(machine.handle(.propertyNotify(deleted: false)).isEmpty, "a new value is not a deletion: wait on")
        let actions = machine.handle(.timedOut)
        #expect(actions.first == .unwatchRequestor)
        guard case .finish(.failed(let code, let message)) = actions.last else {
            Issue.record("not a failure: \(actions)")
            return
        }
        #expect(code == .timedOut)
        #expect(message.contains("did not take a chunk"))
        #expect(machine.phase == .finished(.failed(.timedOut, message)))
        #expect(machine.handle(.propertyNotify(deleted: true)).isEmpty, "a late deletion finds it over")
    }

    // MARK: - Reader

    static func reader() -> Reader { Reader(incr: atoms.incr, target: "text/plain", selection: "clipboard") }

    static func property(_ bytes: [UInt8], type: X11.ID = text, after: UInt32 = 0) -> X11Reply.Property {
        X11Reply.Property(type: type, format: 8, bytesAfter: after, value: Data(bytes))
    }

    static func readerSummary(_ actions: [Reader.Action]) -> String {
        guard let last = actions.last else { return "ignore" }
        switch last {
        case .waitForNotify: return "waitForNotify"
        case .readProperty(let offset): return "read@\(offset)"
        case .waitForNewValue: return "waitForNewValue"
        case .finish: return "finish"
        case .fail(let code, _): return "fail \(code)"
        case .deliver: return "no next step"
        }
    }

    static func readerPhases() -> [(String, Reader)] {
        var machine = reader()
        var phases = [("awaitingNotify", machine)]
        _ = machine.handle(.selectionNotify(property: 300))
        phases.append(("readingFirst", machine))
        var long = machine
        _ = long.handle(.property(property([1, 2, 3, 4], after: 4)))
        phases.append(("readingValue", long))
        _ = machine.handle(.property(property([0, 0, 0, 0], type: atoms.incr)))
        phases.append(("awaitingChunk", machine))
        _ = machine.handle(.propertyNotify(deleted: false))
        phases.append(("readingChunk", machine))
        var over = reader()
        _ = over.handle(.cancelled)
        phases.append(("finished", over))
        return phases
    }

    static let readerEvents: [(String, Reader.Event)] = [
        ("notify", .selectionNotify(property: 300)), ("refused", .selectionNotify(property: X11.none)),
        ("value", .property(property([1, 2]))), ("incr", .property(property([0, 0, 0, 0], type: atoms.incr))),
        ("empty", .property(property([]))), ("missing", .property(property([], type: X11.none))),
        ("deleted", .propertyNotify(deleted: true)), ("newValue", .propertyNotify(deleted: false)),
        ("timedOut", .timedOut), ("cancelled", .cancelled), ("ownerGone", .ownerGone),
        ("ownerChanged", .ownerChanged),
    ]

    static let readerTable: [String: [String]] = [
        "awaitingNotify": [
            "read@0", "fail typeUnavailable", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore",
            "fail timedOut", "fail cancelled", "fail ownerGone", "ignore",
        ],
        "readingFirst": [
            "ignore", "ignore", "finish", "waitForNewValue", "finish", "finish", "ignore", "ignore", "fail timedOut",
            "fail cancelled", "ignore", "ignore",
        ],
        "readingValue": [
            "ignore", "ignore", "finish", "finish", "finish", "finish", "ignore", "ignore", "fail timedOut",
            "fail cancelled", "ignore", "ignore",
        ],
        "awaitingChunk": [
            "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "read@0", "fail timedOut",
            "fail cancelled", "fail ownerGone", "ignore",
        ],
        "readingChunk": [
            "ignore", "ignore", "waitForNewValue", "waitForNewValue", "finish", "waitForNewValue", "ignore", "ignore",
            "fail timedOut", "fail cancelled", "ignore", "ignore",
        ],
        "finished": Array(repeating: "ignore", count: 12),
    ]

    @Test("Every phase of the reader answers every event as the table says")
    func readerTableHolds() throws {
        let phases = Self.readerPhases()
        #expect(phases.count == 6)
        for (phaseName, machine) in phases {
            let row = try #require(Self.readerTable[phaseName])
            for ((eventName, event), expected) in zip(Self.readerEvents, row) {
                var copy = machine
                let actions = copy.handle(event)
                #expect(Self.readerSummary(actions) == expected, "\(phaseName) × \(eventName): \(actions)")
                if actions.isEmpty { #expect(copy.phase == machine.phase) }
                let ends = actions.contains { if case .fail = $0 { true } else { $0 == .finish } }
                #expect(ends == copy.isFinished || machine.isFinished, "\(phaseName) × \(eventName)")
            }
        }
    }

    @Test("A value longer than one read is read on at growing offsets and delivered in order")
    func longValue() {
        var machine = Self.reader()
        _ = machine.handle(.selectionNotify(property: 300))
        #expect(
            machine.handle(.property(Self.property([1, 2, 3, 4], after: 6))) == [
                .deliver(Data([1, 2, 3, 4])), .readProperty(offset: 1),
            ])
        #expect(
            machine.handle(.property(Self.property([5, 6, 7, 8], after: 2))) == [
                .deliver(Data([5, 6, 7, 8])), .readProperty(offset: 2),
            ])
        #expect(machine.handle(.property(Self.property([9, 10]))) == [.deliver(Data([9, 10])), .finish])
    }

    @Test("INCR read: each chunk delivered after its new value; the 0-length chunk ends it")
    func incrRead() {
        var machine = Self.reader()
        #expect(machine.start == [.waitForNotify])
        _ = machine.handle(.selectionNotify(property: 300))
        #expect(machine.handle(.property(Self.property([0, 0, 1, 0], type: Self.atoms.incr))) == [.waitForNewValue])
        #expect(machine.handle(.propertyNotify(deleted: true)).isEmpty)
        #expect(machine.handle(.propertyNotify(deleted: false)) == [.readProperty(offset: 0)])
        #expect(machine.handle(.property(Self.property([1, 2, 3]))) == [.deliver(Data([1, 2, 3])), .waitForNewValue])
        #expect(machine.handle(.propertyNotify(deleted: false)) == [.readProperty(offset: 0)])
        #expect(machine.handle(.property(Self.property([]))) == [.finish])
        #expect(machine.isFinished)
    }

    @Test("An owner that dies between INCR chunks fails the read with ownerGone after the chunk it wrote")
    func ownerDiesMidIncr() {
        var machine = Self.reader()
        _ = machine.handle(.selectionNotify(property: 300))
        _ = machine.handle(.property(Self.property([0, 0, 1, 0], type: Self.atoms.incr)))
        #expect(machine.handle(.propertyNotify(deleted: false)) == [.readProperty(offset: 0)])
        // The death comes while the chunk is read: the chunk is on the requestor's window and still counts.
        #expect(machine.handle(.ownerGone).isEmpty)
        #expect(machine.handle(.property(Self.property([1, 2, 3]))) == [.deliver(Data([1, 2, 3])), .waitForNewValue])
        // The shell hands the queued death to the next wait.
        let actions = machine.handle(.ownerGone)
        guard case .fail(let code, let message) = actions.last, actions.count == 1 else {
            Issue.record("not a failure: \(actions)")
            return
        }
        #expect(code == .ownerGone)
        #expect(message.contains("INCR"), "\(message)")
        #expect(machine.isFinished)
    }

    @Test("After another client takes the selection, the death XFIXES reports is that client's: the read goes on")
    func ownerReplacedThenGone() {
        var machine = Self.reader()
        #expect(machine.handle(.ownerChanged).isEmpty)
        #expect(machine.handle(.ownerGone).isEmpty)
        #expect(machine.handle(.selectionNotify(property: 300)) == [.readProperty(offset: 0)])
        _ = machine.handle(.property(Self.property([0, 0, 1, 0], type: Self.atoms.incr)))
        #expect(machine.handle(.ownerGone).isEmpty)
        #expect(machine.handle(.propertyNotify(deleted: false)) == [.readProperty(offset: 0)])
        #expect(machine.handle(.property(Self.property([]))) == [.finish])
        // Without the change, the same death before the answer fails the read.
        var fresh = Self.reader()
        guard case .fail(let code, _) = fresh.handle(.ownerGone).last else {
            Issue.record("the death before the answer was ignored")
            return
        }
        #expect(code == .ownerGone)
    }

    @Test("XFIXES selection events decode by subtype: a new owner, or the owner gone (window destroyed, client closed)")
    func xfixesSubtypes() {
        func event(subtype: UInt8, owner: UInt32) -> X11Event {
            var bytes = [UInt8](repeating: 0, count: 32)
            bytes[0] = 90
            bytes[1] = subtype
            for (offset, value) in [(4, UInt32(7)), (8, owner), (12, UInt32(1)), (16, UInt32(99))] {
                withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
            }
            return X11Event(decoding: X11Bytes(bytes), xfixesFirstEvent: 90)
        }
        #expect(event(subtype: 0, owner: 5) == .selectionOwnerChanged(window: 7, owner: 5, selection: 1, time: 99))
        #expect(event(subtype: 1, owner: 0) == .selectionOwnerGone(window: 7, selection: 1, time: 99))
        #expect(event(subtype: 2, owner: 0) == .selectionOwnerGone(window: 7, selection: 1, time: 99))
    }

    @Test("A property that claims more bytes after an empty value is a protocol violation, not an endless loop")
    func endlessProperty() {
        var machine = Self.reader()
        _ = machine.handle(.selectionNotify(property: 300))
        let actions = machine.handle(.property(Self.property([], after: 100)))
        guard case .fail(let code, _) = actions.last else {
            Issue.record("not a failure: \(actions)")
            return
        }
        #expect(code == .protocolViolation)
    }

    @Test("Owner and reader together, through a property store: INCR moves exactly the payload", arguments: [1, 7, 64])
    func ownerAndReader(pieceSize: Int) throws {
        let payload = Data((0..<(Self.chunkSize * 7 + 5)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        var owner = Self.owner()
        var reader = Self.reader()
        var stored: Owner.PropertyWrite?
        var toReader: [Reader.Event] = []
        var toOwner: [Owner.Event] = []
        var received = Data()
        var offset = 0
        var ownerNext = owner.handle(.selectionRequest(Self.request()))
        var readerNext = reader.start
        for _ in 0..<10_000 where !(owner.isFinished && reader.isFinished) {
            for action in ownerNext {
                switch action {
                case .changeProperty(let write):
                    stored = write
                    toReader.append(.propertyNotify(deleted: false))
                case .notify(let property):
                    toReader.append(.selectionNotify(property: property))
                case .load:
                    toOwner.append(.sourceOpened(length: UInt64(payload.count)))
                case .readData:
                    if offset < payload.count {
                        let size = min(pieceSize, payload.count - offset)
                        toOwner.append(.chunk(payload[offset..<(offset + size)]))
                        offset += size
                    } else {
                        toOwner.append(.endOfData)
                    }
                default:
                    break
                }
            }
            ownerNext = []
            for action in readerNext {
                switch action {
                case .readProperty:
                    // GetProperty with delete: the store empties and the owner sees the deletion.
                    let value = stored.map {
                        X11Reply.Property(type: $0.type, format: $0.format, bytesAfter: 0, value: $0.bytes)
                    }
                    stored = nil
                    toReader.insert(.property(value ?? Self.property([], type: X11.none)), at: 0)
                    if value != nil { toOwner.append(.propertyNotify(deleted: true)) }
                case .deliver(let bytes):
                    received.append(bytes)
                default:
                    break
                }
            }
            readerNext = []
            if !toOwner.isEmpty { ownerNext = owner.handle(toOwner.removeFirst()) }
            if !toReader.isEmpty { readerNext = reader.handle(toReader.removeFirst()) }
        }
        #expect(owner.phase == .finished(.completed))
        #expect(reader.isFinished)
        #expect(received == payload)
    }
}
