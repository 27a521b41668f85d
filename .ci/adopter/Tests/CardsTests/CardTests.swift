import Cards
import Testing
import TransferKitTesting

@Test func aCardSurvivesAnArchiveAndAnotherProcess() async {
    await assertRoundTrip(Card(title: "Luke"))              // through an archive in memory, CBOR and JSON
    await assertCrossProcessRoundTrip(Card(title: "Luke"))  // through the transferkit built beside the tests
}
