import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The selection owner's side of one conversion (ICCCM §2.2), INCR sending included, as a pure state machine:
/// the `SelectionRequest`, the source's bytes, the requestor's `PropertyNotify`s, a deadline passing and the
/// requestor's window going away in; what the backend must do out.
///
/// It decides what answers a request (refusal, `TARGETS`, `TIMESTAMP`, `MULTIPLE`, the data at once or through
/// INCR, and, for a clipboard manager, `SAVE_TARGETS`), how the data is cut into chunks, and when the transfer is
/// over; it sends nothing, reads nothing, starts
/// no timer and holds no lock. Each event returns the actions to run in order. The last action of a list is what
/// to wait for next (``Action/load(_:)``, ``Action/readData``, ``Action/waitForDeletion``,
/// ``Action/readPairs``, ``Action/convertPairs(_:)``, ``Action/readSaveList``, ``Action/save(_:)``) or
/// ``Action/finish(_:)``; an event the phase ignores
/// returns no action, and the backend goes on waiting for what it waited for.
struct X11SelectionOwnerMachine: ProtocolMachine {
    /// What this owner knows of the selection when the request comes.
    struct Ownership: Equatable {
        /// The time the selection was taken.
        var time: UInt32
        /// The data targets offered, in order.
        var targets: [X11.ID]
        /// The name of each data target, which the source is asked for.
        var names: [X11.ID: String]
        /// Whether this is a clipboard manager's `CLIPBOARD_MANAGER`, which answers `SAVE_TARGETS` (the
        /// freedesktop clipboard-manager protocol).
        var savesTargets = false
    }

    /// The atoms of the meta targets and property types the owner answers with.
    struct Atoms: Equatable {
        /// `TARGETS`.
        var targets: X11.ID
        /// `TIMESTAMP`.
        var timestamp: X11.ID
        /// `MULTIPLE`.
        var multiple: X11.ID
        /// `INCR`.
        var incr: X11.ID
        /// `ATOM_PAIR`.
        var atomPair: X11.ID
        /// `SAVE_TARGETS` (`None` where no clipboard manager is involved).
        var saveTargets: X11.ID = X11.none
    }

    /// A `SelectionRequest`, with the property already chosen (`None` from obsolete clients means the target).
    struct Request: Equatable {
        /// The request's timestamp.
        var time: UInt32
        /// The requestor's window.
        var requestor: X11.ID
        /// The selection.
        var selection: X11.ID
        /// The target asked for.
        var target: X11.ID
        /// The property to write on the requestor.
        var property: X11.ID
    }

    /// A property write.
    struct PropertyWrite: Equatable {
        /// The property's type.
        var type: X11.ID
        /// 8 or 32.
        var format: UInt8
        /// Whether the bytes replace the property or go after it.
        var mode: X11RequestEncoder.PropertyMode
        /// The value, little-endian for format 32.
        var bytes: Data
    }

    /// One pair of a `MULTIPLE` request.
    struct Pair: Equatable {
        /// The target.
        var target: X11.ID
        /// The property the target goes into.
        var property: X11.ID
    }

    /// How a transfer ended.
    enum Outcome: Equatable {
        /// The requestor has the data (or the answer to a meta target).
        case completed
        /// The owner answered `None`: it cannot convert the target.
        case refused
        /// The transfer was abandoned after it started, with this code and message.
        case failed(ClipboardError.Code, String)
    }

    /// What happened.
    enum Event: Equatable {
        /// The `SelectionRequest` (the first event of every transfer).
        case selectionRequest(Request)
        /// The source of the target's data is open; `length` is its size when known.
        case sourceOpened(length: UInt64?)
        /// The source produced bytes.
        case chunk(Data)
        /// The source has no more bytes.
        case endOfData
        /// The source failed, with this message.
        case sourceFailed(String)
        /// `PropertyNotify` on the requestor's property, `deleted` or with a new value.
        case propertyNotify(deleted: Bool)
        /// The requestor's window was destroyed.
        case requestorDestroyed
        /// The deadline of the wait passed.
        case timedOut
        /// `MULTIPLE`: the requestor's `ATOM_PAIR` property, as 32-bit items (`nil`: it could not be read).
        case pairsRead([X11.ID]?)
        /// `MULTIPLE`: whether each pair was converted.
        case pairsConverted([Bool])
        /// `SAVE_TARGETS`: the atoms of the requestor's property (`nil`: no list there, so every target is saved).
        case saveListRead([X11.ID]?)
        /// `SAVE_TARGETS`: whether the manager saved the data.
        case saved(Bool)
    }

    /// What the backend does.
    enum Action: Equatable {
        /// Write the requestor's property.
        case changeProperty(PropertyWrite)
        /// Send the requestor a `SelectionNotify` with this property (`None`: refused).
        case notify(property: X11.ID)
        /// Select `PropertyChange` and `StructureNotify` on the requestor and route its events here.
        case watchRequestor
        /// Undo ``watchRequestor``.
        case unwatchRequestor
        /// Wait: open the source of the data target named so; then ``Event/sourceOpened(length:)`` or
        /// ``Event/sourceFailed(_:)``.
        case load(String)
        /// Wait: read the source's next bytes; then ``Event/chunk(_:)``, ``Event/endOfData`` or
        /// ``Event/sourceFailed(_:)``.
        case readData
        /// Wait, until the deadline, for the requestor's next event: ``Event/propertyNotify(deleted:)``,
        /// ``Event/requestorDestroyed`` or ``Event/timedOut``.
        case waitForDeletion
        /// Wait: read the requestor's `ATOM_PAIR` property; then ``Event/pairsRead(_:)``.
        case readPairs
        /// Wait: convert each pair (each with a machine of its own, ``isNested``); then ``Event/pairsConverted(_:)``.
        case convertPairs([Pair])
        /// Wait: read the requestor's property as a list of atoms; then ``Event/saveListRead(_:)``.
        case readSaveList
        /// Wait: save these targets of `CLIPBOARD` (`nil`: all it offers) while watching the requestor; then
        /// ``Event/saved(_:)``, or ``Event/requestorDestroyed`` (the save is then stopped).
        case save([X11.ID]?)
        /// The transfer is over: stop the source.
        case finish(Outcome)
    }

    /// Where the transfer stands.
    enum Phase: Equatable {
        /// No request yet.
        case idle
        /// `MULTIPLE`: its pairs are read.
        case readingPairs
        /// `MULTIPLE`: its pairs are converted.
        case convertingPairs([Pair])
        /// The source is being opened.
        case opening
        /// The first bytes are read, up to a chunk: all of them go at once, more go through INCR.
        case loading(Data)
        /// INCR: a property is written (the INCR announcement or a chunk) and waits for the requestor to delete
        /// it; `pending` bytes are read and not sent, `atEnd` once the source has ended.
        case awaitingDeletion(pending: Data, atEnd: Bool)
        /// INCR: the requestor took the last chunk; the source is read for the next.
        case readingChunk(Data)
        /// `SAVE_TARGETS`: the list of targets to save is read.
        case readingSaveList
        /// `SAVE_TARGETS`: the manager reads the clipboard's owner; the requestor waits for the answer.
        case saving
        /// The transfer is over.
        case finished(Outcome)
    }

    private(set) var phase = Phase.idle
    private(set) var request: Request?
    private var length: UInt64?
    /// The selection this owner holds, or `nil`.
    let ownership: Ownership?
    let atoms: Atoms
    /// The most bytes of one property write.
    let chunkSize: Int
    /// A conversion inside `MULTIPLE`: no `SelectionNotify` of its own, no INCR.
    let isNested: Bool

    /// A transfer for an owner of `ownership` (`nil`: not the owner), writing at most `chunkSize` bytes at once.
    init(ownership: Ownership?, atoms: Atoms, chunkSize: Int, isNested: Bool = false) {
        self.ownership = ownership
        self.atoms = atoms
        self.chunkSize = max(4, chunkSize)
        self.isNested = isNested
    }

    /// Whether the transfer is over.
    var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// An event; the actions to run, in order.
    mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.finished, _):
            return []
        case (.idle, .selectionRequest(let request)):
            self.request = request
            return answer(request)
        case (.idle, _), (_, .selectionRequest):
            return []

        case (.readingPairs, .pairsRead(let items)):
            guard let items, items.count >= 2 else { return refuse() }
            let pairs = stride(from: 0, to: items.count - 1, by: 2).map {
                Pair(target: items[$0], property: items[$0 + 1])
            }
            phase = .convertingPairs(pairs)
            return [.convertPairs(pairs)]
        case (.convertingPairs(let pairs), .pairsConverted(let done)):
            var answered: [X11.ID] = []
            for (index, pair) in pairs.enumerated() {
                answered += [pair.target, index < done.count && done[index] ? pair.property : X11.none]
            }
            return complete(with: [.changeProperty(Self.atomsWrite(type: atoms.atomPair, answered))])
        case (.readingPairs, .timedOut), (.convertingPairs, .timedOut):
            return refuse()
        case (.readingPairs, _), (.convertingPairs, _):
            return []

        case (.opening, .sourceOpened(let length)):
            self.length = length
            phase = .loading(Data())
            return [.readData]
        case (.opening, .sourceFailed), (.opening, .timedOut), (.loading, .sourceFailed), (.loading, .timedOut):
            return refuse()
        case (.loading(var buffer), .chunk(let bytes)):
            buffer.append(bytes)
            guard buffer.count > chunkSize else {
                phase = .loading(buffer)
                return [.readData]
            }
            guard !isNested, let request else { return refuse() }
            phase = .awaitingDeletion(pending: buffer, atEnd: false)
            let lowerBound = UInt32(clamping: length ?? UInt64(buffer.count))
            return [
                .watchRequestor, .changeProperty(Self.atomsWrite(type: atoms.incr, [lowerBound])),
                .notify(property: request.property), .waitForDeletion,
            ]
        case (.loading(let buffer), .endOfData):
            return complete(with: [.changeProperty(dataWrite(buffer))])
        case (.opening, _), (.loading, _):
            return []

        case (.awaitingDeletion(let pending, let atEnd), .propertyNotify(deleted: true)):
            return sendNext(pending: pending, atEnd: atEnd)
        case (.awaitingDeletion, .propertyNotify(deleted: false)):
            return []
        case (.awaitingDeletion, .timedOut):
            return fail(
                .timedOut,
                "The requestor did not take a chunk of the INCR transfer within the time limit; it was abandoned.")
        case (.awaitingDeletion, .requestorDestroyed), (.readingChunk, .requestorDestroyed):
            return fail(.cancelled, "The requesting window went away during the transfer.")
        case (.awaitingDeletion, _):
            return []

        case (.readingChunk(var buffer), .chunk(let bytes)):
            buffer.append(bytes)
            guard buffer.count >= chunkSize else {
                phase = .readingChunk(buffer)
                return [.readData]
            }
            return sendNext(pending: buffer, atEnd: false)
        case (.readingChunk(let buffer), .endOfData):
            return sendNext(pending: buffer, atEnd: true)
        case (.readingChunk, .sourceFailed(let message)):
            return fail(.transferFailed, "The source of the INCR transfer failed: \(message)")
        case (.readingChunk, .timedOut):
            return fail(.timedOut, "The source of the INCR transfer produced nothing within the time limit.")
        case (.readingChunk, _):
            return []

        case (.readingSaveList, .saveListRead(let items)):
            // An absent, mistyped or empty list means every target, as the specification says of an absent one.
            let targets = items.flatMap { $0.isEmpty ? nil : $0 }
            phase = .saving
            return [.watchRequestor, .save(targets)]
        case (.readingSaveList, .timedOut):
            return refuse()
        case (.readingSaveList, _):
            return []
        case (.saving, .saved(let saved)):
            // Only now, with every target read, may the owner hear back: it exits when it does.
            guard saved, let request else {
                phase = .finished(.refused)
                return [.unwatchRequestor, .notify(property: X11.none), .finish(.refused)]
            }
            phase = .finished(.completed)
            return [.unwatchRequestor, .notify(property: request.property), .finish(.completed)]
        case (.saving, .requestorDestroyed):
            return fail(.cancelled, "The client that asked to save the clipboard went away before it was saved.")
        case (.saving, _):
            return []
        }
    }

    /// The answer to a request, in the idle phase.
    private mutating func answer(_ request: Request) -> [Action] {
        // A manager selection holds no data to be stale: GTK asks it with the time of its own CLIPBOARD, which may
        // be older than the manager.
        guard let ownership,
            ownership.savesTargets || request.time == X11.currentTime || request.time >= ownership.time
        else {
            return refuse()
        }
        switch request.target {
        case atoms.targets:
            // A list longer than one write (over 65 000 types) is appended piece by piece before the notification,
            // so the requestor reads it whole, as one property.
            let meta =
                [atoms.targets, atoms.timestamp, atoms.multiple] + (ownership.savesTargets ? [atoms.saveTargets] : [])
            let targets = meta + ownership.targets
            let perWrite = max(1, chunkSize / 4)
            let writes = stride(from: 0, to: targets.count, by: perWrite).map { start in
                var write = Self.atomsWrite(type: X11.Atom.atom, targets[start..<min(targets.count, start + perWrite)])
                write.mode = start == 0 ? .replace : .append
                return Action.changeProperty(write)
            }
            return complete(with: writes)
        case atoms.timestamp:
            return complete(with: [.changeProperty(Self.atomsWrite(type: X11.Atom.integer, [ownership.time]))])
        case atoms.multiple where !isNested:
            phase = .readingPairs
            return [.readPairs]
        case atoms.saveTargets where ownership.savesTargets && !isNested && atoms.saveTargets != X11.none:
            phase = .readingSaveList
            return [.readSaveList]
        default:
            guard let name = ownership.names[request.target] else { return refuse() }
            phase = .opening
            return [.load(name)]
        }
    }

    /// INCR: after a deletion, or once enough bytes are read, the next chunk goes, or the source is read on.
    private mutating func sendNext(pending: Data, atEnd: Bool) -> [Action] {
        if pending.count >= chunkSize || (atEnd && !pending.isEmpty) {
            let piece = pending.prefix(chunkSize)
            // A slice of the same storage: copying the rest for every chunk made one 64 MiB chunk cost 8 GiB of
            // copies (a drag offering a whole Data took 11 s to reach GTK alone, and over a minute in a busy run).
            phase = .awaitingDeletion(pending: pending.dropFirst(piece.count), atEnd: atEnd)
            return [.changeProperty(dataWrite(piece)), .waitForDeletion]
        }
        guard atEnd else {
            phase = .readingChunk(pending)
            return [.readData]
        }
        // The empty property that ends the transfer.
        phase = .finished(.completed)
        return [.changeProperty(dataWrite(Data())), .unwatchRequestor, .finish(.completed)]
    }

    /// The property is written: notify (unless nested) and finish.
    private mutating func complete(with writes: [Action]) -> [Action] {
        phase = .finished(.completed)
        let notify: [Action] = isNested ? [] : [.notify(property: request?.property ?? X11.none)]
        return writes + notify + [.finish(.completed)]
    }

    /// The owner cannot convert: `None` (unless nested) and finish.
    private mutating func refuse() -> [Action] {
        phase = .finished(.refused)
        return (isNested ? [] : [.notify(property: X11.none)]) + [.finish(.refused)]
    }

    /// INCR is abandoned after it began.
    private mutating func fail(_ code: ClipboardError.Code, _ message: String) -> [Action] {
        let outcome = Outcome.failed(code, message)
        phase = .finished(outcome)
        return [.unwatchRequestor, .finish(outcome)]
    }

    private func dataWrite(_ bytes: Data) -> PropertyWrite {
        PropertyWrite(type: request?.target ?? X11.none, format: 8, mode: .replace, bytes: bytes)
    }

    /// A format-32 write of `values`, little-endian.
    static func atomsWrite(type: X11.ID, _ values: some Collection<UInt32>) -> PropertyWrite {
        var bytes = Data(capacity: values.count * 4)
        for value in values {
            bytes.append(contentsOf: [
                UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24),
            ])
        }
        return PropertyWrite(type: type, format: 32, mode: .replace, bytes: bytes)
    }
}
