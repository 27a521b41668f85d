import CBOR
import Testing

/// One group of RFC 8949 Appendix F examples and the error code each must give.
struct MalformedGroup: Sendable, CustomTestStringConvertible {
    let name: String
    let code: CBORError.Code
    let examples: [String]

    var testDescription: String { name }
}

let appendixF: [MalformedGroup] = [
    MalformedGroup(
        name: "end of input in a head", code: .truncated,
        examples: [
            "18", "19", "1a", "1b", "19 01", "1a 01 02", "1b 01 02 03 04 05 06 07", "38", "58", "78", "98",
            "9a 01 ff 00", "b8", "d8", "f8", "f9 00", "fa 00 00", "fb 00 00 00",
        ]),
    MalformedGroup(
        name: "definite-length strings with short data", code: .truncated,
        examples: [
            "41", "61", "5a ff ff ff ff 00", "5b ff ff ff ff ff ff ff ff 01 02 03", "7a ff ff ff ff 00",
            "7b 7f ff ff ff ff ff ff ff 01 02 03",
        ]),
    MalformedGroup(
        name: "definite-length maps and arrays not closed with enough items", code: .truncated,
        examples: ["81", "81 81 81 81 81 81 81 81 81", "82 00", "a1", "a2 01 02", "a1 00", "a2 00 00 00"]),
    MalformedGroup(name: "tag number not followed by tag content", code: .truncated, examples: ["c0"]),
    MalformedGroup(
        name: "indefinite-length strings not closed by a break", code: .truncated, examples: ["5f 41 00", "7f 61 00"]),
    MalformedGroup(
        name: "indefinite-length maps and arrays not closed by a break", code: .truncated,
        examples: [
            "9f", "9f 01 02", "bf", "bf 01 02 01 02", "81 9f", "9f 80 00", "9f 9f 9f 9f 9f ff ff ff ff",
            "9f 81 9f 81 9f 9f ff ff ff",
        ]),
    MalformedGroup(
        name: "reserved additional information values", code: .reservedAdditionalInfo,
        examples: [
            "1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e", "9c", "9d", "9e", "bc", "bd",
            "be", "dc", "dd", "de", "fc", "fd", "fe",
        ]),
    MalformedGroup(
        name: "reserved two-byte encodings of simple values", code: .invalidSimpleValue,
        examples: ["f8 00", "f8 01", "f8 18", "f8 1f"]),
    MalformedGroup(
        name: "indefinite-length string chunks not of the correct type", code: .invalidChunk,
        examples: [
            "5f 00 ff", "5f 21 ff", "5f 61 00 ff", "5f 80 ff", "5f a0 ff", "5f c0 00 ff", "5f e0 ff", "7f 41 00 ff",
        ]),
    MalformedGroup(
        name: "indefinite-length string chunks not definite length", code: .invalidChunk,
        examples: ["5f 5f 41 00 ff ff", "7f 7f 61 00 ff ff"]),
    MalformedGroup(
        name: "break on its own outside an indefinite-length item", code: .unexpectedBreak, examples: ["ff"]),
    MalformedGroup(
        name: "break in a definite-length array or map or a tag", code: .unexpectedBreak,
        examples: [
            "81 ff", "82 00 ff", "a1 ff", "a1 ff 00", "a1 00 ff", "a2 00 00 ff", "9f 81 ff",
            "9f 82 9f 81 9f 9f ff ff ff ff", "c0 ff",
        ]),
    MalformedGroup(
        name: "break in the value position of an indefinite-length map", code: .oddMapItemCount,
        examples: ["bf 00 ff", "bf 00 00 00 ff"]),
    MalformedGroup(
        name: "major type 0, 1, 6 with additional information 31", code: .invalidIndefiniteLength,
        examples: ["1f", "3f", "df"]),
]

@Suite("RFC 8949 Appendix F and other malformed input", .timeLimit(.minutes(5)))
struct NotWellFormedTests {
    @Test("each not-well-formed example gives its specific error code", arguments: appendixF)
    func appendixFExamples(_ group: MalformedGroup) {
        for example in group.examples {
            #expect(decodingErrorCode(bytes(example)) == group.code, "\(example)")
        }
    }

    @Test("skipValue() finds the same problems, except those only building a value finds", arguments: appendixF)
    func skipFindsTheSame(_ group: MalformedGroup) {
        for example in group.examples {
            var reader = CBORReader(bytes: bytes(example))
            let error = #expect(throws: CBORError.self, "\(example)") { try reader.skipValue() }
            #expect(error?.code == group.code, "\(example)")
        }
    }

    @Test(
        "invalid UTF-8 in a text string is refused",
        arguments: ["62 c3 28", "61 ff", "63 ed a0 80", "64 f4 90 80 80", "7f 61 c3 61 bc ff", "62 c0 80"])
    func invalidUTF8(_ example: String) {
        #expect(decodingErrorCode(bytes(example)) == .invalidUTF8)
    }

    @Test(
        "a map with the same key twice is refused",
        arguments: ["a2 01 02 01 03", "a2 61 61 00 61 61 01", "bf 00 00 00 00 ff"])
    func duplicateKeys(_ example: String) {
        #expect(decodingErrorCode(bytes(example)) == .duplicateMapKey)
    }

    @Test("bytes after the one expected item are refused")
    func trailingBytes() throws {
        let error = #expect(throws: CBORError.self) { try CBORValue(decoding: [0x01, 0x02]) }
        #expect(error?.code == .trailingBytes)
        #expect(error?.offset == 1)
    }

    @Test("empty input is truncated")
    func emptyInput() {
        #expect(decodingErrorCode([]) == .truncated)
    }

    @Test("errors carry the offset of the offending item")
    func offsets() {
        let error = #expect(throws: CBORError.self) { try CBORValue(decoding: bytes("83 01 02 1c")) }
        #expect(error?.code == .reservedAdditionalInfo)
        #expect(error?.offset == 3)
    }
}
