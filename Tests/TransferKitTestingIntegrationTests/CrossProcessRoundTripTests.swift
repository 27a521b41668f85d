import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

@Suite("Cross-process round trips", .timeLimit(.minutes(5)))
struct CrossProcessRoundTripTests {
    @Test func defaultExecutableIsTransferkitInTheProductsDirectory() {
        #expect(TransferKitExecutable.defaultPath.hasSuffix("/transferkit"))
        #expect(FileManager.default.isExecutableFile(atPath: TransferKitExecutable.defaultPath))
    }

    @Test func modelSurvivesTheChildProcess() async throws {
        let card = Card(title: "Luke — Jedi", stars: 5)
        #expect(await assertCrossProcessRoundTrip(card) == card)
        #expect(try await crossProcessRoundTripped(Note(text: "blue milk"), formats: [.json]).text == "blue milk")
    }

    @Test func missingExecutableIsAChildProcessFailure() async {
        let error = await #expect(throws: RoundTripError.self) {
            try await crossProcessRoundTripped(Card(title: "Luke", stars: 1), executable: "/nonexistent/transferkit")
        }
        #expect(error?.code == .childProcessFailed)
        #expect(error?.message.contains("cannot run /nonexistent/transferkit") == true)
    }

    @Test func failingChildIsRecordedWithItsStatus() async throws {
        let script = try Script("echo 'reencode: the archive is damaged' >&2; exit 3")
        defer { script.remove() }
        await withKnownIssue {
            await assertCrossProcessRoundTrip(Card(title: "Luke", stars: 1), executable: script.path)
        } matching: { issue in
            text(of: issue).contains("exited with status 3: reencode: the archive is damaged")
        }
    }

    @Test func differentBytesWithAnEqualValueAreAccepted() async throws {
        let card = Card(title: "Luke", stars: 5)
        let archive = try await returnedArchive(for: card) { representation in
            // The same card, with other JSON spacing.
            representation.type == .testingCard ? Data(#"{"stars": 5, "title": "Luke"}"#.utf8) : nil
        }
        let script = try Script(replyingWith: archive)
        defer { script.remove() }
        #expect(try await crossProcessRoundTripped(card, executable: script.path, formats: [.cbor]) == card)
    }

    @Test func changedBytesReportTheFirstDifferenceAfterTheChild() async throws {
        let card = Card(title: "Luke", stars: 5)
        let archive = try await returnedArchive(for: card) { representation in
            representation.type == .utf8PlainText ? Data("Luke (4★)".utf8) : nil
        }
        let script = try Script(replyingWith: archive)
        defer { script.remove() }
        let error = await #expect(throws: RoundTripError.self) {
            try await crossProcessRoundTripped(card, executable: script.path, formats: [.cbor])
        }
        #expect(error?.code == .bytesDiffer)
        #expect(error?.type == .utf8PlainText)
        #expect(error?.offset == 6)
        #expect(error?.source == "CBOR form, through \(script.path) reencode -")
    }

    @Test func missingRepresentationAfterTheChildIsReported() async throws {
        let card = Card(title: "Luke", stars: 5)
        var archive = try await returnedArchive(for: card) { _ in nil }
        archive.items[0].representations.removeLast()
        let script = try Script(replyingWith: archive)
        defer { script.remove() }
        let error = await #expect(throws: RoundTripError.self) {
            try await crossProcessRoundTripped(card, executable: script.path, formats: [.cbor])
        }
        #expect(error?.code == .missingRepresentation, "\(String(describing: error))")
        #expect(error?.type == .utf8PlainText)
    }

    /// The archive of `card` with some representations' bytes replaced.
    private func returnedArchive(
        for card: Card, replacing: (TransferArchive.Representation) -> Data?
    ) async throws -> TransferArchive {
        var archive = try await TransferArchive(providers: [TransferProvider(object: card)])
        for index in archive.items[0].representations.indices {
            let representation = archive.items[0].representations[index]
            if let data = replacing(representation) {
                archive.items[0].representations[index].data = data
            }
        }
        return archive
    }
}

/// A shell script standing in for `transferkit`, in a fresh temporary folder.
private struct Script {
    let folder: URL
    var path: String { folder.appendingPathComponent("fake-transferkit").path }

    init(_ body: String) throws {
        folder = try makeTemporaryDirectory(prefix: "TransferKitTesting")
        try writeExecutableScript(body + "\n", toPath: path)
    }

    /// A script that reads its input and answers with `archive` in the binary form.
    init(replyingWith archive: TransferArchive) throws {
        let reply = FileManager.default.temporaryDirectory.appendingPathComponent("TransferKitTesting-\(UUID())")
        try archive.encoded(as: .cbor).write(to: reply)
        try self.init("cat > /dev/null; cat '\(reply.path)'; rm -f '\(reply.path)'")
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
