import Foundation
import Testing
import TransferClipboard
import TransferDesktop
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferSessions

/// The system Python, which runs the CDDL checker (standard library only).
private let systemPython = SystemTool.path("python3")

@Suite(
    "The desktop session offer against the CDDL (Schemas/transfer-session.md section 7)", .timeLimit(.minutes(5)),
    .enabled(if: FileManager.default.isExecutableFile(atPath: systemPython), "the CDDL checker is a Python 3 script"))
struct SessionOfferSchemaTests {
    @Test("the session offer a drag serves (DesktopSessionOffer's bytes) matches the CDDL")
    func offerMatches() async throws {
        let bytes = try DesktopSessionOffer(
            session: "8C1F0D2A-5B2E-4D35-9A9F-6E1F2B3C4D5E", socket: "/run/user/1000/transferkit-drag-x.sock",
            application: "org.example.cards", process: 4242
        ).encoded()
        #expect(
            try await checkSessionOfferAgainstCDDL(Array(bytes), rule: "desktop")
                == "valid desktop-session-offer ['application', 'process', 'session', 'socket', 'version']")
    }

    @Test(
        "the CDDL refuses an offer of another version, or one without its socket",
        arguments: [
            // {"version": 2, "session": "s", "socket": "/x", "application": "a", "process": 1}
            "a5" + "6776657273696f6e02" + "6773657373696f6e6173" + "66736f636b6574622f78"
                + "6b6170706c69636174696f6e6161" + "6770726f6365737301",
            // {"version": 1, "session": "s", "application": "a", "process": 1}
            "a4" + "6776657273696f6e01" + "6773657373696f6e6173" + "6b6170706c69636174696f6e6161"
                + "6770726f6365737301",
        ])
    func invalidOffers(hex: String) async throws {
        let bytes = Data(
            stride(from: 0, to: hex.count, by: 2).compactMap { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
            })
        #expect(try await checkSessionOfferAgainstCDDL(Array(bytes), rule: "desktop").hasPrefix("invalid: "))
    }
}
