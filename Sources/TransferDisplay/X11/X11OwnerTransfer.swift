import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The owner's side of one conversion in progress: the source it reads and the requestor's events it waits for,
/// executing what ``X11SelectionOwnerMachine`` decides.
struct X11OwnerTransfer {
    let backend: X11Backend
    let request: X11SelectionOwnerMachine.Request
    let serve: (@Sendable (String) async throws -> TransferByteStream)?
    /// A clipboard manager's handler of `SAVE_TARGETS`.
    let save: (@Sendable (ClipboardSaveRequest) async -> Bool)?
    private var source: TransferByteStream.AsyncIterator?
    private var properties: Mailbox<X11Event, ClipboardError>?

    init(
        backend: X11Backend, request: X11SelectionOwnerMachine.Request,
        serve: (@Sendable (String) async throws -> TransferByteStream)?,
        save: (@Sendable (ClipboardSaveRequest) async -> Bool)? = nil
    ) {
        self.backend = backend
        self.request = request
        self.serve = serve
        self.save = save
    }

    /// Runs an action that does not wait.
    /// - Throws: ``ClipboardError`` when the connection has ended.
    mutating func execute(_ action: X11SelectionOwnerMachine.Action) throws(ClipboardError) {
        let connection = backend.connection
        switch action {
        case .changeProperty(let write):
            try connection.send(
                X11RequestEncoder.changeProperty(
                    request.requestor, property: request.property, type: write.type, format: write.format,
                    mode: write.mode, data: write.bytes))
        case .notify(let property):
            try connection.send(
                X11RequestEncoder.sendSelectionNotify(
                    requestor: request.requestor, selection: request.selection, target: request.target,
                    property: property, time: request.time))
        case .watchRequestor:
            properties = try backend.watchProperty(window: request.requestor, atom: request.property)
            try connection.send(
                X11RequestEncoder.changeEventMask(
                    request.requestor, eventMask: X11.EventMask.propertyChange | X11.EventMask.structureNotify))
        case .unwatchRequestor:
            stop()
        case .load, .readData, .waitForDeletion, .readPairs, .convertPairs, .readSaveList, .save, .finish:
            break
        }
    }

    /// Runs a wait; what came of it.
    mutating func perform(_ wait: X11SelectionOwnerMachine.Action) async -> X11SelectionOwnerMachine.Event {
        switch wait {
        case .load(let name):
            guard let serve else { return .sourceFailed("Nothing serves \(name).") }
            do {
                let stream = try await serve(name)
                source = stream.makeAsyncIterator()
                return .sourceOpened(length: stream.length)
            } catch {
                return .sourceFailed("\(error)")
            }
        case .readData:
            do {
                guard let chunk = try await source?.next() else { return .endOfData }
                return .chunk(chunk)
            } catch {
                return .sourceFailed("\(error)")
            }
        case .waitForDeletion:
            guard let properties else { return .requestorDestroyed }
            // One deadline per chunk: a requestor that keeps changing the property instead of deleting it (each
            // change a PropertyNotify) must not restart the wait, or it would hold the source forever.
            let connection = backend.connection
            let deadline = Deadline.after(connection.timeout, on: connection.clock)
            while true {
                guard !deadline.hasPassed else { return .timedOut }
                do {
                    switch try await X11Wait.next(
                        from: properties, until: deadline, timeout: connection.timeout,
                        waitingFor: "the requestor to take a chunk of an INCR transfer")
                    {
                    case .propertyNotify(_, _, _, true): return .propertyNotify(deleted: true)
                    case .propertyNotify: continue
                    default: return .requestorDestroyed
                    }
                } catch {
                    return error.code == .timedOut ? .timedOut : .requestorDestroyed
                }
            }
        case .readPairs:
            let pairs = try? X11Reply.property(
                await backend.connection.request(
                    X11RequestEncoder.getProperty(
                        request.requestor, property: request.property, delete: false, length: 1 << 14)))
            return .pairsRead(pairs?.items32)
        case .convertPairs(let pairs):
            var converted: [Bool] = []
            for pair in pairs {
                var nested = request
                nested.target = pair.target
                nested.property = pair.property
                converted.append(await backend.convert(nested, isNested: true))
            }
            return .pairsConverted(converted)
        case .readSaveList:
            let list = try? X11Reply.property(
                await backend.connection.request(
                    X11RequestEncoder.getProperty(
                        request.requestor, property: request.property, delete: false, length: 1 << 14)))
            return .saveListRead(list.flatMap { $0.type == X11.Atom.atom ? $0.items32 : nil })
        case .save(let targets):
            return await runSave(targets)
        case .changeProperty, .notify, .watchRequestor, .unwatchRequestor, .finish:
            return .timedOut
        }
    }

    /// Runs the manager's `save` until it answers, or stops it when the requestor's window goes away first.
    private func runSave(_ atoms: [X11.ID]?) async -> X11SelectionOwnerMachine.Event {
        guard let save else { return .saved(false) }
        var targets: [String]?
        if let atoms {
            guard let names = try? await backend.names(of: atoms) else { return .saved(false) }
            var seen: Set<String> = []
            targets = atoms.compactMap { names[$0] }.filter {
                !X11Backend.metaTargets.contains($0) && seen.insert($0).inserted
            }
        }
        // A requestor that went away before it was watched sends no DestroyNotify: its window must be there now, or
        // the save would run for nobody (and a save that waits for more would wait forever).
        do {
            try await backend.connection.checked(
                X11RequestEncoder.changeEventMask(
                    request.requestor, eventMask: X11.EventMask.propertyChange | X11.EventMask.structureNotify))
        } catch {
            return .requestorDestroyed
        }
        let saveRequest = ClipboardSaveRequest(targets: targets)
        let properties = properties
        return await withTaskGroup(of: X11SelectionOwnerMachine.Event?.self) { group in
            group.addTask { .saved(await save(saveRequest)) }
            if let properties {
                group.addTask {
                    while true {
                        do {
                            let event = try await X11Wait.next(
                                from: properties, within: nil, waitingFor: "the clipboard to be saved")
                            if case .destroyNotify = event { return .requestorDestroyed }
                        } catch {
                            // Cancelled because `save` answered, or the connection ended.
                            return (error as? ClipboardError)?.code == .cancelled ? nil : .requestorDestroyed
                        }
                    }
                }
            }
            var outcome = X11SelectionOwnerMachine.Event.saved(false)
            for await event in group {
                guard let event else { continue }
                outcome = event
                break
            }
            group.cancelAll()
            return outcome
        }
    }

    /// Stops watching the requestor and lets the source go (its loader stops).
    mutating func stop() {
        source = nil
        guard properties != nil else { return }
        properties = nil
        backend.unwatchProperty(window: request.requestor, atom: request.property)
        _ = try? backend.connection.send(X11RequestEncoder.changeEventMask(request.requestor, eventMask: 0))
    }
}
