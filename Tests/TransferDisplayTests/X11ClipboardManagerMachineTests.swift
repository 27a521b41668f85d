import Foundation
import Testing

@testable import TransferDisplay

/// The freedesktop clipboard-manager protocol's decisions, without a server: the manager's answer to
/// `SAVE_TARGETS` (in the owner machine of `CLIPBOARD_MANAGER`) and the owner's request to save.
@Suite("X11 clipboard-manager state machines", .timeLimit(.minutes(5)))
struct X11ClipboardManagerMachineTests {
    typealias Owner = X11SelectionOwnerMachine
    typealias Save = X11ManagerSaveMachine

    static let atoms = X11SelectionMachineTests.atoms
    static let html: X11.ID = 201

    static func saveRequest(time: UInt32 = 60, target: X11.ID = atoms.saveTargets) -> Owner.Request {
        Owner.Request(time: time, requestor: 7, selection: 2, target: target, property: 300)
    }

    // MARK: - The manager's side

    @Test("SAVE_TARGETS: the list is read, the save runs while the requestor is watched, then the answer goes")
    func saveWithList() {
        var machine = X11SelectionMachineTests.manager()
        #expect(machine.handle(.selectionRequest(Self.saveRequest())) == [.readSaveList])
        #expect(
            machine.handle(.saveListRead([X11SelectionMachineTests.text, Self.html])) == [
                .watchRequestor, .save([X11SelectionMachineTests.text, Self.html]),
            ])
        #expect(machine.handle(.propertyNotify(deleted: true)) == [], "the requestor's own properties change nothing")
        #expect(machine.handle(.saved(true)) == [.unwatchRequestor, .notify(property: 300), .finish(.completed)])
    }

    @Test("No list, an empty one or one of another type means every target")
    func saveEverything() {
        for list in [nil, [X11.ID]()] {
            var machine = X11SelectionMachineTests.manager()
            _ = machine.handle(.selectionRequest(Self.saveRequest()))
            #expect(machine.handle(.saveListRead(list)) == [.watchRequestor, .save(nil)])
        }
    }

    @Test("A save that fails is answered None; a requestor gone during the save gets no answer")
    func saveFailures() {
        var refused = X11SelectionMachineTests.manager()
        _ = refused.handle(.selectionRequest(Self.saveRequest()))
        _ = refused.handle(.saveListRead(nil))
        #expect(refused.handle(.saved(false)) == [.unwatchRequestor, .notify(property: X11.none), .finish(.refused)])

        var gone = X11SelectionMachineTests.manager()
        _ = gone.handle(.selectionRequest(Self.saveRequest()))
        _ = gone.handle(.saveListRead(nil))
        let actions = gone.handle(.requestorDestroyed)
        #expect(actions.first == .unwatchRequestor)
        guard case .finish(.failed(let code, _)) = actions.last else {
            Issue.record("no failure: \(actions)")
            return
        }
        #expect(code == .cancelled)
        #expect(!actions.contains { if case .notify = $0 { true } else { false } })
        #expect(gone.handle(.saved(true)) == [], "a save that ends after the requestor went changes nothing")
    }

    @Test("The manager accepts an owner's older timestamp (GTK sends its clipboard's) and lists SAVE_TARGETS")
    func managerTimestampAndTargets() {
        var old = X11SelectionMachineTests.manager()
        #expect(old.handle(.selectionRequest(Self.saveRequest(time: 10))) == [.readSaveList])
        var targets = X11SelectionMachineTests.manager()
        let actions = targets.handle(.selectionRequest(Self.saveRequest(target: Self.atoms.targets)))
        let writes = actions.compactMap { if case .changeProperty(let write) = $0 { write } else { nil } }
        let written = writes.flatMap { Array($0.bytes) }
        let expected = [Self.atoms.targets, Self.atoms.timestamp, Self.atoms.multiple, Self.atoms.saveTargets]
        #expect(written == Array(Owner.atomsWrite(type: X11.Atom.atom, expected).bytes))
    }

    @Test("A selection that is no manager's, or SAVE_TARGETS inside MULTIPLE, is refused")
    func saveRefusals() {
        var owner = X11SelectionMachineTests.owner()
        #expect(
            owner.handle(.selectionRequest(Self.saveRequest())) == [.notify(property: X11.none), .finish(.refused)])
        var nested = X11SelectionMachineTests.manager(isNested: true)
        #expect(nested.handle(.selectionRequest(Self.saveRequest())) == [.finish(.refused)])
        var noAtom = Owner(
            ownership: .init(time: 50, targets: [], names: [:], savesTargets: true),
            atoms: .init(targets: 100, timestamp: 101, multiple: 102, incr: 103, atomPair: 104), chunkSize: 8)
        #expect(
            noAtom.handle(.selectionRequest(Self.saveRequest(target: X11.none)))
                == [.notify(property: X11.none), .finish(.refused)])
    }

    // MARK: - The owner's side

    static func save(isOwner: Bool = true) -> Save {
        Save(managerSelection: 40, saveTargets: Self.atoms.saveTargets, property: 41, isOwner: isOwner)
    }

    @Test("Without a manager, or without the selection, nothing is asked")
    func nothingToAsk() {
        #expect(Self.save(isOwner: false).start == [.finish(.notOwner)])
        var machine = Self.save()
        #expect(machine.start == [.findManager])
        #expect(machine.handle(.managerFound(X11.none)) == [.finish(.noManager)])
        #expect(machine.handle(.timedOut) == [], "a finished request ignores everything")
    }

    @Test("With a manager: watch it, list the targets, convert, and take its answer")
    func answers() {
        for (answer, outcome) in [(X11.ID(41), Save.Outcome.saved), (X11.none, .refused)] {
            var machine = Self.save()
            #expect(machine.handle(.managerFound(9)) == [.watchManager(9), .writeTargets, .convert, .awaitAnswer])
            #expect(machine.handle(.managerFound(10)) == [])
            #expect(
                machine.handle(.selectionNotify(selection: 1, target: Self.atoms.saveTargets, property: 41)) == [],
                "another selection's notification is not the answer")
            #expect(machine.handle(.selectionNotify(selection: 40, target: 999, property: 41)) == [])
            #expect(
                machine.handle(.selectionNotify(selection: 40, target: Self.atoms.saveTargets, property: answer))
                    == [.finish(outcome)])
        }
    }

    @Test("A manager that goes away or stays silent fails the request with transferFailed or timedOut")
    func silentManager() {
        for (event, expected) in [
            (Save.Event.managerDestroyed, ClipboardError.Code.transferFailed), (.timedOut, .timedOut),
        ] {
            var machine = Self.save()
            _ = machine.handle(.managerFound(9))
            guard case .finish(.failed(let code, _)) = machine.handle(event).last else {
                Issue.record("\(event) did not fail the request")
                continue
            }
            #expect(code == expected)
        }
    }
}
