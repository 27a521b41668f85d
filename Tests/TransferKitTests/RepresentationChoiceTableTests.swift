import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import UniformTypes

@Suite("Providers and archive items choose by the one rule", .timeLimit(.minutes(5)))
struct RepresentationChoiceTableTests {
    /// An item offering `row.offered`, each representation's bytes being its type identifier.
    private func item(_ row: RepresentationChoiceCase) throws -> TransferArchive.Item {
        TransferArchive.Item(
            representations: try row.offered.map { identifier in
                TransferArchive.Representation(type: try #require(UniformType(identifier)), data: Data(identifier.utf8))
            })
    }

    @Test("an archive item gives the representation the table names", arguments: representationChoiceTable)
    func archiveItem(_ row: RepresentationChoiceCase) throws {
        let requested = try row.requested.map { try #require(UniformType($0)) }
        let chosen = try item(row).representation(for: requested)
        #expect(chosen?.type.identifier == row.expectedType)
    }

    @Test("a provider loads the representation the table names", arguments: singleTypeRepresentationChoiceTable)
    func provider(_ row: RepresentationChoiceCase) async throws {
        let provider = TransferArchive(items: [try item(row)]).makeProviders()[0]
        let requested = try #require(UniformType(row.requested[0]))
        if let expected = row.expectedType {
            let data = try await provider.loadDataRepresentation(for: requested)
            #expect(String(decoding: data, as: UTF8.self) == expected)
        } else {
            let error = await #expect(throws: TransferError.self) {
                try await provider.loadDataRepresentation(for: requested)
            }
            #expect(error?.code == .unavailableRepresentation)
        }
    }
}
