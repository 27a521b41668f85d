import Foundation
import Testing
import TransferArchive
import UniformTypes

@Suite("Archive forms: golden bytes, conversion, round trips", .timeLimit(.minutes(5)))
struct ArchiveFormTests {
    @Test("The binary form matches the golden file byte for byte (made independently with Python's cbor2)")
    func goldenCBOR() throws {
        let expected = try ArchiveFixtures.resource("valid/golden.transferkit")
        #expect(try ArchiveFixtures.golden.encoded(as: .cbor) == expected)
        #expect(try TransferArchive(decoding: expected) == ArchiveFixtures.golden)
    }

    @Test("The JSON form matches the golden file byte for byte (made independently with Python's json)")
    func goldenJSON() throws {
        let expected = try ArchiveFixtures.resource("valid/golden.json")
        #expect(try ArchiveFixtures.golden.encoded(as: .json) == expected)
        #expect(try TransferArchive(decoding: expected) == ArchiveFixtures.golden)
        #expect(expected.last == 0x0a)
    }

    @Test("CBOR → JSON → CBOR and JSON → CBOR → JSON give back the same bytes")
    func conversion() throws {
        let cbor = try ArchiveFixtures.resource("valid/golden.transferkit")
        let json = try ArchiveFixtures.resource("valid/golden.json")
        let viaJSON = try TransferArchive(decoding: cbor, format: .cbor).encoded(as: .json)
        #expect(viaJSON == json)
        #expect(try TransferArchive(decoding: viaJSON).encoded(as: .cbor) == cbor)
        let viaCBOR = try TransferArchive(decoding: json, format: .json).encoded(as: .cbor)
        #expect(viaCBOR == cbor)
        #expect(try TransferArchive(decoding: viaCBOR).encoded(as: .json) == json)
    }

    static let payloads: [(String, UniformType, [UInt8])] = [
        ("empty text", .utf8PlainText, []),
        ("empty binary", .png, []),
        ("non-UTF-8 declared as text", .utf8PlainText, [0x61, 0xff, 0xfe, 0x62]),
        ("text with NUL, CR and emoji", .plainText, Array("a\u{0}b\r\nc 😀 \u{1f}\"\\/\u{7f}".utf8)),
        ("every byte value", .data, (0...255).map { UInt8($0) }),
        ("text that is JSON", .json, Array(#"{"a":[1,2]}"#.utf8)),
        ("UTF-8 of a non-text type", .png, Array("plain".utf8)),
        ("a BOM and a combining accent", .utf8PlainText, [0xef, 0xbb, 0xbf] + Array("e\u{301}".utf8)),
    ]

    @Test("Both forms round-trip payloads bit for bit", arguments: payloads)
    func roundTrip(name: String, type: UniformType, bytes: [UInt8]) throws {
        let archive = TransferArchive(items: [
            TransferArchive.Item(representations: [TransferArchive.Representation(type: type, data: Data(bytes))])
        ])
        for format in TransferArchiveFormat.allCases {
            let encoded = try archive.encoded(as: format)
            let decoded = try TransferArchive(decoding: encoded, format: format)
            #expect(decoded == archive, "\(name) in \(format)")
            #expect(decoded.items.first?.representations.first?.data == Data(bytes))
            #expect(try decoded.encoded(as: format) == encoded, "deterministic")
        }
    }

    @Test("JSON stores valid UTF-8 as text and everything else as base64, whatever the type (no type graph needed)")
    func textOrBase64() throws {
        func keys(_ type: UniformType, _ bytes: [UInt8]) throws -> Set<String> {
            let archive = TransferArchive(items: [
                TransferArchive.Item(representations: [TransferArchive.Representation(type: type, data: Data(bytes))])
            ])
            let json = try archive.encoded(as: .json)
            let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let items = try #require(root["items"] as? [[String: Any]])
            let representation = try #require((items.first?["representations"] as? [[String: Any]])?.first)
            return Set(representation.keys)
        }
        #expect(try keys(.utf8PlainText, Array("hi".utf8)) == ["type", "text", "checksum"])
        #expect(try keys(.utf8PlainText, [0xff]) == ["type", "base64", "checksum"])
        #expect(try keys(.png, Array("hi".utf8)) == ["type", "text", "checksum"])
        #expect(try keys(.png, [0x89, 0x50, 0x4e, 0x47]) == ["type", "base64", "checksum"])
        #expect(try keys(.data, [0x00, 0x41]) == ["type", "text", "checksum"])
        #expect(try keys(.json, Array("{}".utf8)) == ["type", "text", "checksum"])
    }

    @Test("Metadata of every kind round-trips through both forms, with integers and floats kept apart")
    func metadata() throws {
        let metadata: [String: TransferMetadataValue] = [
            "int": 1, "double": 1.0, "negative": -9_223_372_036_854_775_808, "max": 9_223_372_036_854_775_807,
            "tiny": .double(.leastNonzeroMagnitude), "big": 1e300, "half": -0.5, "zero": -0.0, "string": "ü\n\"",
            "": "empty key",
            "nested": ["a": [["b": [true, false]]]], "emptyArray": [], "emptyMap": [:],
        ]
        let archive = TransferArchive(items: [TransferArchive.Item(suggestedName: "x", metadata: metadata)])
        for format in TransferArchiveFormat.allCases {
            let decoded = try TransferArchive(decoding: try archive.encoded(as: format))
            #expect(decoded == archive, "\(format)")
            #expect(decoded.items.first?.metadata["double"] == .double(1.0))
            #expect(decoded.items.first?.metadata["int"] == .integer(1))
        }
    }

    @Test("NaN and infinity in metadata encode as CBOR but are refused by JSON")
    func nonFiniteMetadata() throws {
        let archive = TransferArchive(items: [TransferArchive.Item(metadata: ["x": .double(.infinity)])])
        #expect(try TransferArchive(decoding: archive.encoded(as: .cbor)) == archive)
        let error = #expect(throws: TransferArchiveError.self) { try archive.encoded(as: .json) }
        #expect(error?.code == .unrepresentableValue)
    }

    @Test("An empty archive has a fixed, small encoding in both forms")
    func emptyArchive() throws {
        let cbor = try TransferArchive().encoded(as: .cbor)
        #expect(
            Array(cbor) == [0xd9, 0xd9, 0xf7, 0x83, 0x73] + Array("transferkit-archive".utf8)
                + [0x82, 0x01, 0x00, 0xa1, 0x65] + Array("items".utf8) + [0x80])
        let json = try TransferArchive().encoded(as: .json)
        #expect(
            String(decoding: json, as: UTF8.self) == #"{"format":"transferkit-archive","items":[],"version":[1,0]}"#
                + "\n")
    }

    @Test("Format detection and path extensions")
    func detection() {
        #expect(TransferArchiveFormat.detect([0xd9, 0xd9, 0xf7, 0x83]) == .cbor)
        #expect(TransferArchiveFormat.detect(Array(" \n\t{\"a\"".utf8)) == .json)
        #expect(TransferArchiveFormat.detect(Array("[1]".utf8)) == nil)
        #expect(TransferArchiveFormat.detect([UInt8]()) == nil)
        #expect(TransferArchiveFormat.detect([0xd9, 0xd9]) == nil)
        #expect(TransferArchiveFormat(pathExtension: "transferkit") == .cbor)
        #expect(TransferArchiveFormat(pathExtension: ".JSON") == .json)
        #expect(TransferArchiveFormat(pathExtension: "zip") == nil)
        #expect(TransferArchiveFormat.cbor.pathExtension == "transferkit")
    }

    @Test("CRC-32 matches zlib's known vectors")
    func checksumVectors() {
        func crc(_ bytes: [UInt8]) -> UInt32 {
            TransferArchive.Representation(type: .data, data: Data(bytes)).checksum
        }
        #expect(crc(Array("123456789".utf8)) == 0xcbf4_3926)
        #expect(crc([]) == 0)
        #expect(crc(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414f_a339)
        // zlib.crc32(bytes(range(256)) * 3) in Python, which exercises the 16-byte loop and the tail.
        #expect(crc(Array(repeating: (0...255).map { UInt8($0) }, count: 3).flatMap { $0 }) == 0xb0c0_df2a)
    }

    @Test("The archive's own types are declared")
    func archiveTypes() {
        #expect(UniformType.transferArchive.identifier == "org.transferkit.archive")
        #expect(UniformType.transferArchive.conforms(to: .data))
        #expect(UniformType.transferArchiveJSON.conforms(to: .json))
        #expect(UniformType(filenameExtension: "transferkit") == .transferArchive)
        #expect(UniformType(mimeType: "application/vnd.transferkit.archive+cbor") == .transferArchive)
        #expect(UniformType(mimeType: "application/vnd.transferkit.archive+json") == .transferArchiveJSON)
        #expect(UniformType(filenameExtension: "json") == .json)
    }
}
