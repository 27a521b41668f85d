import Foundation
import Testing
import TransferClipboard
import TransferDesktop
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferSessions

/// The session offer a drag from a `DesktopWindow` serves. Its bytes against the CDDL are checked by
/// `TransferDesktopIntegrationTests` (a Python checker); here, that the drag serves exactly such an offer.
@Suite("The desktop session offer a drag serves", .timeLimit(.minutes(5)))
struct SessionOfferServedTests {
    @Test("a drag serves one offer under both of its names, naming its session and an absolute socket path")
    func servedOffer() async throws {
        let desktop = FakeDesktop()
        let window = try await DesktopWindow.open(
            DesktopWindow.Options(title: "offer", timeout: .seconds(60)), on: desktop, closeConnection: {})
        let fake = try #require(desktop.windows.last)
        let served = SanitizedMutex([String: Data]())
        fake.whenDragged { offer in
            for name in DesktopSessionOffer.names {
                var bytes = Data()
                for try await chunk in try await offer.serve(name) { bytes += chunk }
                served.withLock { $0[name] = bytes }
            }
            return .cancelled(reason: "checked")
        }
        let session = try TransferList([Card(id: "1", title: "one")]).beginDrag(["1"])
        _ = try await window.drag(session)
        let offers = served.withLock { $0 }
        #expect(offers.count == 2)
        #expect(Set(offers.values).count == 1)
        let bytes = try #require(offers.values.first)
        let offer = try #require(DesktopSessionOffer.decode(bytes))
        #expect(offer.version == 1)
        #expect(offer.session == session.id.rawValue)
        #expect(offer.socket.hasPrefix("/"))
        #expect(offer.process == ProcessInfo.processInfo.processIdentifier)
    }
}
