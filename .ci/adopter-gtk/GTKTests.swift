// The GTK part of the adopter's package (.ci/consumer gtk): TransferGTK through a versioned dependency with the trait
// GTK, the README's line as written. Nothing here needs a display.
import Testing
import TransferGTK
import TransferKit
import TransferSessions

struct Card: Identifiable, Sendable {
    var name: String
    var id: String { name }
}

@Test func transferGTKBuildsWithTheTrait() {
    let options = GTKDragAndDropOptions()
    #expect(options.timeout == .seconds(30))
    #expect(TransferList([Card(name: "Luke")]).elements.count == 1)
}
