import Foundation
import Testing
import TransferKitCompatibility
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions

@testable import TransferKitCompatibilitySeeds

/// The clock of the sessions in these tests, which are not about time limits: a manual clock that no test advances.
/// The code under test runs on this test process's task pool, which the whole suite under the thread sanitizer
/// keeps busy for a minute or more (a 60-second real limit failed there with `timedOut` and `disconnected`); the
/// suite's time limit ends a test that hangs instead.
private let unhurried = WireClock.manual()

/// The seeds' Apple-style classes in TransferSessions' lists and sessions, through `IdentifiedItemProviderObject`.

@Suite("The seeds' classes in sessions", .timeLimit(.minutes(5)))
struct SessionBridgeTests {
    typealias Card = IdentifiedItemProviderObject<Model>

    private func cards(_ names: [String]) -> [Card] {
        names.map { Card(Model(name: $0, character: "\($0)'s character", favorite: "\($0)'s favorite")) }
    }

    @Test("A Model moves between two TransferLists by its key-path identity: the same instance, gone from the source")
    func moveBetweenLists() async throws {
        let first = TransferList(cards(["Panther", "Otter", "Heron"]))
        let second = TransferList(cards(["Lynx"]))
        let otter = try #require(first.elements.first { $0.id == "Otter" }).object
        let session = try first.beginDrag(["Otter"])
        #expect(session.items.map(\.id.rawValue) == ["Otter"])
        let result = try await second.drop(session, at: 1)
        #expect(result.operation == .move)
        #expect(await session.ended() == .move)
        #expect(first.elements.map(\.id) == ["Panther", "Heron"])
        #expect(second.elements.map(\.id) == ["Lynx", "Otter"])
        #expect(second.elements[1].object === otter)
    }

    @Test("A drop loads the Model through its own NSItemProviderWriting and NSItemProviderReading code")
    func throughItsOwnCode() async throws {
        let card = cards(["Panther"])[0]
        let provider = TransferProvider(object: card)
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(provider.registeredTypes == [.data])
        let json = try await provider.loadDataRepresentation(for: .data)
        #expect(try JSONDecoder().decode([String: String].self, from: json)["favorite"] == "Panther's favorite")
        let copy = try await provider.loadObject(ofClass: Card.self)
        #expect(copy.id == "Panther")
        #expect(copy.object !== card.object)
        #expect(copy.object.character == "Panther's character")
    }

    @Test("A CustomModule joins a list by a closure identity; a drop of a module already there is refused")
    func closureIdentity() async throws {
        let palette = TransferList([IdentifiedItemProviderObject(CustomModule(type: .Button))])
        let canvas = TransferList([IdentifiedItemProviderObject(CustomModule(type: .Switch))])
        _ = try await canvas.drop(try palette.beginDrag(["button"]), at: 0)
        #expect(canvas.elements.map(\.object.type) == [.Button, .Switch])
        #expect(palette.elements.isEmpty)

        let again = TransferList([IdentifiedItemProviderObject(CustomModule(type: .Switch))])
        let error = await #expect(throws: TransferSessionError.self) {
            _ = try await canvas.drop(try again.beginDrag(["switch"]), at: 0)
        }
        #expect(error?.code == .forbiddenByList)
        #expect(again.elements.map(\.id) == ["switch"])
    }

    @Test("A Model moves over the session socket, decoded on the far side by its own code")
    func moveOverSocket() async throws {
        let directory = try makeTemporaryDirectory(prefix: "tk-compat-sess")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s").path
        let first = TransferList(cards(["Panther", "Otter"]))
        let second = TransferList(cards(["Lynx"]))
        let otter = try #require(first.elements.last).object
        let session = try first.beginDrag(["Otter"])
        let publication = try DragSessionPublication(
            publishing: session, atPath: path, timeout: .seconds(30), clock: unhurried)
        defer { publication.close() }
        let elsewhere = TransferSessionOrigin(
            applicationIdentifier: TransferSessionOrigin.current.applicationIdentifier, processIdentifier: 999_999)
        let remote = try await RemoteDragSession.connect(
            toPath: path, origin: elsewhere, timeout: .seconds(30), clock: unhurried)
        let result = try await second.drop(remote, at: 0)
        #expect(result.operation == .move)
        #expect(await publication.ended() == .move)
        #expect(first.elements.map(\.id) == ["Panther"])
        #expect(second.elements.map(\.id) == ["Otter", "Lynx"])
        let arrived = second.elements[0].object
        #expect(arrived !== otter)
        #expect((arrived.character, arrived.favorite) == ("Otter's character", "Otter's favorite"))
    }
}
