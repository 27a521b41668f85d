import Foundation
import Testing
import TransferKit
import UniformTypes

@testable import TransferDisplay

/// The offered-names cap (``ClipboardLimits/maximumOfferedTypes``) where it is applied without a display server: the
/// provider a reader builds from a peer's names, the backends' capping, and the Wayland machine's offers.
@Suite("The cap on offered names", .timeLimit(.minutes(2)))
struct OfferedTypeCapTests {
    static var cap: Int { ClipboardLimits.maximumOfferedTypes }

    @Test("a provider built from 30 000 offered names has the cap's first names, in the peer's order")
    func providerHasAtMostTheCap() {
        let names = (0..<30_000).map { "com.example.flood-\($0)" }
        let provider = ClipboardTypeMapping.provider(offering: names, catalog: .shared) { _, _ in
            TransferByteStream(data: Data())
        }
        #expect(provider.registeredTypes.count == Self.cap)
        #expect(provider.registeredTypes.first == UniformType("com.example.flood-0"))
        #expect(provider.registeredTypes.last == UniformType("com.example.flood-\(Self.cap - 1)"))
    }

    @Test("a backend's offer keeps the first names once each and counts the distinct others")
    func backendOfferCapsAndCounts() {
        let names = (0..<1000).map { "text/x-\($0)" }
        let offer = ClipboardBackendOffer(capping: names + names.prefix(10), limit: 3)
        #expect(offer.targets == ["text/x-0", "text/x-1", "text/x-2"])
        #expect(offer.omittedCount == 997)
        #expect(
            ClipboardBackendOffer(capping: ["a", "a", "b"], limit: 3) == ClipboardBackendOffer(targets: ["a", "b"]))
    }

    @Test("a Wayland offer of 2 000 types is no violation: the first are kept, the rest counted and ignored")
    func waylandOfferOverTheCap() throws {
        var built = try WaylandStateTests.build(.ready)
        let device = built.machine.device
        let offer = WaylandStateTests.offer
        _ = try WaylandStateTests.deliver(device, 0, [.newID(offer)], to: &built.machine)  // data_offer
        for index in 0..<2000 {
            let actions = try WaylandStateTests.deliver(offer, 0, [.string("text/x-\(index)")], to: &built.machine)
            #expect(actions.isEmpty)
        }
        let shown = try WaylandStateTests.deliver(device, 1, [.object(offer)], to: &built.machine)  // selection
        #expect(built.machine.failure == nil)
        #expect(built.machine.offeredTypes(.clipboard) == (0..<Self.cap).map { "text/x-\($0)" })
        #expect(built.machine.omittedTypeCount(.clipboard) == 2000 - Self.cap)
        let watcher = try #require(built.watcher)
        #expect(
            shown.contains(
                .notify(watcher: watcher, types: built.machine.offeredTypes(.clipboard), omitted: 2000 - Self.cap)))
    }
}
