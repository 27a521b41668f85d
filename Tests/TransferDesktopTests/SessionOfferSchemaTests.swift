import Foundation
import Testing
import TransferClipboard
import TransferDesktop
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferSessions

/// The system Python, which runs the CDDL checker (standard library only).
private let systemPython = SystemTool.path("python3")

/// What `session_peer.py check-desktop-offer` says of `bytes` checked against Schemas/transfer-session.cddl.
private func checkAgainstCDDL(_ bytes: Data) async throws -> String {
    let result = try await ChildProcess.run(
        systemPython,
        arguments: [
            repositoryFile("Tests/Interop/session_peer.py").path, "check-desktop-offer",
            repositoryFile("Schemas/transfer-session.cddl").path,
        ], input: Array(bytes))
    return String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite(
    "The desktop session offer against the CDDL (Schemas/transfer-session.md section 7)", .timeLimit(.minutes(5)),
    .enabled(if: FileManager.default.isExecutableFile(atPath: systemPython), "the CDDL checker is a Python 3 script"))
struct SessionOfferSchemaTests {
    @Test("the session offer a drag serves matches the CDDL, under both of its names")
    func servedOfferMatches() async throws {
        let desktop = FakeDesktop()
        let window = try await DesktopWindow.open(
            DesktopWindow.Options(title: "schema", timeout: .seconds(120)), on: desktop, closeConnection: {})
        let fake = try #require(desktop.windows.last)
        let served = SanitizedMutex([String: Data]())
        fake.whenDragged { offer in
            for name in ["application/x-transferkit-drag-session", "org.transferkit.drag-session"] {
                var bytes = Data()
                for try await chunk in try await offer.serve(name) { bytes += chunk }
                served.withLock { $0[name] = bytes }
            }
            return .cancelled(reason: "checked")
        }
        _ = try await window.drag(try TransferList([Card(id: "1", title: "one")]).beginDrag(["1"]))
        let offers = served.withLock { $0 }
        #expect(offers.count == 2)
        #expect(Set(offers.values).count == 1)
        let bytes = try #require(offers.values.first)
        #expect(
            try await checkAgainstCDDL(bytes)
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
        #expect(try await checkAgainstCDDL(bytes).hasPrefix("invalid: "))
    }
}
