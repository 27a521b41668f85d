import Foundation
import Testing
import TransferKitCompatibility

/// A type whose declaration is `Card`'s representation: the explicit `return` skips the builder, which would have
/// rejected it, so only the cast to the native list can find out.
struct Mislabelled: Codable, Equatable, Transferable {
    var title: String

    static var transferRepresentation: some TransferRepresentation {
        return CodableRepresentation(for: Card.self, contentType: .card)
    }
}

/// A custom representation of `Labelled` whose body is `Card`'s.
struct CardBody: TransferRepresentation {
    typealias Item = Labelled

    var body: some TransferRepresentation {
        return CodableRepresentation(for: Card.self, contentType: .card)
    }
}

/// A type with one good representation and one custom representation of another type.
struct Labelled: Codable, Equatable, Transferable {
    var title: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .card)
        CardBody()
    }
}

/// Expects the failure of a declaration of representations of `Card` for `item`, declared at `place`.
private func expectUnusable(
    _ error: (any Error)?, item: String, place: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = error as? TransferError
    #expect(error?.code == .unavailableRepresentation, sourceLocation: sourceLocation)
    #expect(error?.source == place, sourceLocation: sourceLocation)
    #expect(
        error?.message.hasPrefix("\(place) declares representations of Card, not of \(item),") == true,
        "\(String(describing: error))", sourceLocation: sourceLocation)
}

@Suite("A declaration TransferKit cannot use fails loudly", .timeLimit(.minutes(5)))
struct UnusableDeclarationTests {
    @Test("Representations of another type: nothing registered, and loads say which types are wrong")
    func transferableOfAnotherType() async throws {
        #expect(Mislabelled.exportedContentTypes().isEmpty)
        #expect(Mislabelled.importedContentTypes().isEmpty)
        expectUnusable(
            Mislabelled.transferRepresentations.failure, item: "Mislabelled",
            place: "Mislabelled.transferRepresentation")

        let provider = TransferProvider(object: TransferableValue(Mislabelled(title: "x")))
        #expect(provider.registeredTypes.isEmpty)
        do {
            _ = try await provider.loadDataRepresentation(for: .card)
            Issue.record("a load from a provider of an unusable declaration succeeded")
        } catch {
            expectUnusable(error, item: "Mislabelled", place: "Mislabelled.transferRepresentation")
        }

        // A reader of the type fails the same way, even where the bytes are there.
        let cardBytes = TransferProvider(object: TransferableValue(Card(title: "x")))
        do {
            _ = try await cardBytes.loadObject(ofClass: TransferableValue<Mislabelled>.self)
            Issue.record("a load of an unusable declaration succeeded")
        } catch {
            expectUnusable(error, item: "Mislabelled", place: "Mislabelled.transferRepresentation")
        }
        do {
            _ = try TransferableValue<Mislabelled>.object(from: Data(#"{"title":"x"}"#.utf8), type: .card)
            Issue.record("a decode through an unusable declaration succeeded")
        } catch {
            expectUnusable(error, item: "Mislabelled", place: "Mislabelled.transferRepresentation")
        }
    }

    @Test("A registry refuses the type with that error")
    func registry() {
        do {
            try TransferRegistry().register(TransferableValue<Mislabelled>.self)
            Issue.record("registering an unusable declaration succeeded")
        } catch {
            expectUnusable(error, item: "Mislabelled", place: "Mislabelled.transferRepresentation")
        }
    }

    @Test("A custom representation whose body is another type's makes the whole declaration fail")
    func customBodyOfAnotherType() async throws {
        // The good CodableRepresentation is dropped too: registering only it would lose CardBody silently.
        #expect(Labelled.exportedContentTypes().isEmpty)
        expectUnusable(Labelled.transferRepresentations.failure, item: "Labelled", place: "CardBody.body")
        let provider = TransferProvider(object: TransferableValue(Labelled(title: "x")))
        do {
            _ = try await provider.loadDataRepresentation(for: .card)
            Issue.record("a load from a provider of an unusable declaration succeeded")
        } catch {
            expectUnusable(error, item: "Labelled", place: "CardBody.body")
        }
    }

    @Test("NSItemProvider reports it as Apple's -1000 and -1200, the native error underneath")
    func appleSpellings() async {
        let provider = NSItemProvider()
        provider.register(Mislabelled(title: "x"))
        #expect(provider.registeredTypeIdentifiers.isEmpty)
        let (_, dataError) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: UTType.card.identifier, completionHandler: $0)
        }
        #expect(domainAndCode(dataError)! == (NSItemProviderErrorDomain, -1000))
        expectUnusable(
            (dataError as NSError?)?.userInfo[NSUnderlyingErrorKey] as? any Error, item: "Mislabelled",
            place: "Mislabelled.transferRepresentation")

        let cards = NSItemProvider()
        cards.register(Card(title: "x"))
        let result = await withCheckedContinuation { continuation in
            _ = cards.loadTransferable(type: Mislabelled.self) { continuation.resume(returning: $0) }
        }
        guard case .failure(let objectError) = result else {
            Issue.record("loadTransferable of an unusable declaration succeeded")
            return
        }
        #expect(domainAndCode(objectError)! == (NSItemProviderErrorDomain, -1200))
        expectUnusable(
            (objectError as NSError).userInfo[NSUnderlyingErrorKey] as? any Error, item: "Mislabelled",
            place: "Mislabelled.transferRepresentation")
    }
}
