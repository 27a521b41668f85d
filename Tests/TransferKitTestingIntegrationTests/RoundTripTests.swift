import Foundation
import Testing
import TransferKit
import TransferKitTesting
import UniformTypes

/// The text of an issue's comments.
func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

@Suite("In-memory round trips", .timeLimit(.minutes(5)))
struct RoundTripTests {
    @Test func structWithTwoRepresentationsRoundTrips() async throws {
        let card = Card(title: "Luke", stars: 5)
        let decoded = await assertRoundTrip(card)
        #expect(decoded == card)
        #expect(try await roundTripped(card, formats: [.json]) == card)
    }

    @Test func classRoundTripsAsANewInstance() async throws {
        let note = Note(text: "blue milk")
        let decoded = try await roundTripped(note)
        #expect(decoded == note)
        #expect(decoded !== note, "the fast path must be off: the value comes back decoded")
    }

    @Test func lostPropertyIsAValueDifferenceWithBothValues() async {
        await withKnownIssue {
            await assertRoundTrip(Lossy(kept: "a", note: "b"))
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("RoundTripError.valueDiffers: ")
                && message.contains("in CBOR form, value read back)")
                && message.contains("read back from com.example.testing.lossy")
                && message.contains(#"expected Lossy(kept: "a", note: "b")"#)
                && message.contains(#"got Lossy(kept: "a", note: "")"#)
        }
    }

    @Test func classWithoutDescriptionShowsItsProperties() async {
        let error = await #expect(throws: RoundTripError.self) { try await roundTripped(Shouted(text: "hi")) }
        #expect(error?.code == .valueDiffers)
        #expect(error?.message.contains(#"expected Shouted(text: "hi"), got Shouted(text: "HI")"#) == true)
    }

    @Test func issueIsRecordedAtTheCallersLine() async {
        let line = #line + 2
        await withKnownIssue {
            await assertRoundTrip(Lossy(kept: "a", note: "b"))
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test func throwingVariantReportsTheFirstFormAndType() async {
        let error = await #expect(throws: RoundTripError.self) {
            try await roundTripped(Lossy(kept: "a", note: "b"), formats: [.json, .cbor])
        }
        #expect(error?.code == .valueDiffers)
        #expect(error?.format == .json)
        #expect(error?.type?.identifier == "com.example.testing.lossy")
    }

    @Test func differentBytesReportTheFirstDifferingByte() async {
        let error = await #expect(throws: RoundTripError.self) {
            try await roundTripped(CaseFolded(text: "hello World"))
        }
        #expect(error?.code == .bytesDiffer)
        #expect(error?.format == .cbor)
        #expect(error?.type == .utf8PlainText)
        #expect(error?.offset == 6)
        #expect(error?.source == "CBOR form, value read back and written again")
        #expect(error?.message.contains(#"expected 57 6f 72 6c 64 ("World"), got 77 6f 72 6c 64 ("world")"#) == true)
    }

    @Test func differentBytesAreRecordedAsAnIssue() async {
        await withKnownIssue {
            await assertRoundTrip(CaseFolded(text: "hello World"), formats: [.json])
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("RoundTripError.bytesDiffer: ")
                && message.contains("in JSON form, value read back and written again)")
                && message.contains("public.utf8-plain-text differs from byte 6 on")
        }
    }

    @Test func shorterBytesDifferAtTheEndOfTheShorterOne() async {
        let error = await #expect(throws: RoundTripError.self) {
            try await roundTripped(Trimmed(text: "abc  "))
        }
        #expect(error?.code == .bytesDiffer)
        #expect(error?.offset == 3)
        #expect(error?.message.contains("expected 5 bytes, got 3") == true)
        #expect(error?.message.contains("got (end of data)") == true)
    }

    @Test func failingWriterIsAnEncodingFailure() async {
        let error = await #expect(throws: RoundTripError.self) { try await roundTripped(Unwritable()) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.format == nil)
        #expect(error?.cause is TransferError)
    }

    @Test func failingReaderIsADecodingFailure() async {
        let error = await #expect(throws: RoundTripError.self) { try await roundTripped(Unreadable()) }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.contains("This type never reads anything") == true)
    }
}
