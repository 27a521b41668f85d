import Testing
import TransferKitTestSupport
import UniformTypes

@Suite("The representation-choice rule", .timeLimit(.minutes(5)))
struct RepresentationChoiceTests {
    @Test("chooseRepresentation follows the shared table", arguments: representationChoiceTable)
    func table(_ row: RepresentationChoiceCase) throws {
        let offered = try row.offered.map { try #require(UniformType($0)) }
        let requested = try row.requested.map { try #require(UniformType($0)) }
        #expect(TypeCatalog.shared.chooseRepresentation(offered: offered, requested: requested) == row.expected)
    }

    @Test("nothing offered or nothing requested chooses nothing")
    func empty() {
        #expect(TypeCatalog.shared.chooseRepresentation(offered: [], requested: [UniformType.data]) == nil)
        #expect(TypeCatalog.shared.chooseRepresentation(offered: [UniformType.data], requested: []) == nil)
    }
}
