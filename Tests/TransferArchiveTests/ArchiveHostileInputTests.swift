import Foundation
import Testing
import TransferArchive
import UniformTypes

@Suite("Archive hostile input: every problem has its own error code", .timeLimit(.minutes(5)))
struct ArchiveHostileInputTests {
    @Test("Truncation at every byte offset of a small binary archive throws, never crashes")
    func truncationEverywhere() throws {
        let bytes = Array(try ArchiveFixtures.golden.encoded(as: .cbor))
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            let error = ArchiveFixtures.decodeError(prefix, format: .cbor)
            #expect(error != nil, "prefix of \(length) bytes")
            #expect(
                [.truncated, .notAnArchive].contains(error?.code),
                "prefix of \(length) bytes: \(String(describing: error))")
            #expect(ArchiveFixtures.streamError(prefix) != nil)
        }
    }

    @Test("Truncation at every byte offset of a small JSON archive throws")
    func truncationEverywhereJSON() throws {
        let bytes = Array(try ArchiveFixtures.golden.encoded(as: .json))
        for length in 0..<(bytes.count - 1) {
            #expect(ArchiveFixtures.decodeError(bytes[..<length], format: .json) != nil, "prefix of \(length) bytes")
        }
    }

    @Test("A payload declaring 2^63 bytes is truncated (in memory) or over the limit, without allocating")
    func absurdLength() {
        var builder = CBORBuilder()
        builder.header(itemCount: 1)
        builder.head(5, 1)
        builder.text("representations")
        builder.head(4, 1)
        builder.head(5, 3)
        builder.text("type")
        builder.text("public.data")
        builder.text("payload")
        builder.head(2, 1 << 63)
        #expect(ArchiveFixtures.decodeError(builder.bytes)?.code == .limitExceeded)
        var limits = TransferArchive.Limits.default
        limits.maxPayloadLength = .max
        #expect(ArchiveFixtures.decodeError(builder.bytes, limits: limits)?.code == .truncated)
    }

    @Test("Absurd counts of items and representations hit their limits")
    func absurdCounts() {
        var items = CBORBuilder()
        items.header(itemCount: 1 << 62)
        #expect(ArchiveFixtures.decodeError(items.bytes)?.code == .limitExceeded)

        var representations = CBORBuilder()
        representations.header(itemCount: 1)
        representations.head(5, 1)
        representations.text("representations")
        representations.head(4, 100_000)
        #expect(ArchiveFixtures.decodeError(representations.bytes)?.code == .limitExceeded)
    }

    /// An archive of one item with the given metadata bytes (already encoded) and no representations.
    static func withMetadata(_ encoded: [UInt8]) -> [UInt8] {
        var builder = CBORBuilder()
        builder.header(itemCount: 1)
        builder.head(5, 2)
        builder.text("metadata")
        builder.bytes += encoded
        builder.text("representations")
        builder.head(4, 0)
        return builder.bytes
    }

    @Test("Deep metadata nesting is refused in both forms")
    func deepNesting() throws {
        var nested = CBORBuilder()
        nested.head(5, 1)
        nested.text("a")
        for _ in 0..<10_000 {
            nested.head(4, 1)
        }
        nested.head(0, 1)
        #expect(ArchiveFixtures.decodeError(Self.withMetadata(nested.bytes))?.code == .limitExceeded)

        let json =
            #"{"format":"transferkit-archive","items":[{"metadata":{"a":"#
            + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            + #"},"representations":[]}],"version":[1,0]}"#
        #expect(ArchiveFixtures.decodeError(Array(json.utf8))?.code == .limitExceeded)

        // At the limit it is accepted.
        var limits = TransferArchive.Limits.default
        limits.maxMetadataDepth = 3
        let ok: TransferMetadataValue = ["b": ["c"]]
        let archive = TransferArchive(items: [TransferArchive.Item(metadata: ["a": ok])])
        for format in TransferArchiveFormat.allCases {
            #expect(ArchiveFixtures.decodeError(try archive.encoded(as: format), limits: limits) == nil)
            limits.maxMetadataDepth = 2
            #expect(
                ArchiveFixtures.decodeError(try archive.encoded(as: format), limits: limits)?.code == .limitExceeded)
            limits.maxMetadataDepth = 3
        }
    }

    @Test("Every limit is enforced in both forms, with its code", arguments: TransferArchiveFormat.allCases)
    func limits(format: TransferArchiveFormat) throws {
        let archive = TransferArchive(items: [
            TransferArchive.Item(
                suggestedName: "a-long-name.txt", metadata: ["key": .string(String(repeating: "m", count: 200))],
                representations: [
                    TransferArchive.Representation(type: .utf8PlainText, data: Data(repeating: 0x61, count: 100)),
                    TransferArchive.Representation(type: .png, data: Data([1, 2, 3])),
                ]),
            TransferArchive.Item(),
        ])
        let bytes = try archive.encoded(as: format)
        #expect(ArchiveFixtures.decodeError(bytes) == nil)
        let cases: [(String, WritableKeyPath<TransferArchive.Limits, Int>, Int)] = [
            ("identifier", \.maxIdentifierLength, 12),
            ("name", \.maxNameLength, 5),
            ("items", \.maxItemCount, 1),
            ("representations", \.maxRepresentationsPerItem, 1),
            ("metadata size", \.maxMetadataSize, 100),
            ("metadata depth", \.maxMetadataDepth, 0),
        ]
        for (name, keyPath, value) in cases {
            var limits = TransferArchive.Limits.default
            limits[keyPath: keyPath] = value
            #expect(ArchiveFixtures.decodeError(bytes, limits: limits)?.code == .limitExceeded, "\(name)")
        }
        var payload = TransferArchive.Limits.default
        payload.maxPayloadLength = 99
        #expect(ArchiveFixtures.decodeError(bytes, limits: payload)?.code == .limitExceeded)
        var document = TransferArchive.Limits.default
        document.maxJSONDocumentSize = 100
        #expect((ArchiveFixtures.decodeError(bytes, limits: document)?.code == .limitExceeded) == (format == .json))
    }

    @Test("A map key must be valid UTF-8 and in deterministic order; a valid key the reader does not know is skipped")
    func mapKeys() {
        // A representation whose map starts with `keys` (each with the value 0), then its type, payload and checksum.
        func archive(keys: [[UInt8]], typeFirst: Bool = true) -> [UInt8] {
            var builder = CBORBuilder()
            builder.header(itemCount: 1)
            builder.head(5, 1)
            builder.text("representations")
            builder.head(4, 1)
            builder.head(5, UInt64(3 + keys.count))
            for key in keys {
                builder.textBytes(key)
                builder.head(0, 0)
            }
            let type = { (builder: inout CBORBuilder) in
                builder.text("type")
                builder.text("public.data")
            }
            if typeFirst { type(&builder) }
            builder.text("payload")
            builder.data([])
            if !typeFirst { type(&builder) }
            builder.text("checksum")
            builder.head(0, 0)
            return builder.bytes
        }
        #expect(ArchiveFixtures.decodeError(archive(keys: [])) == nil)
        // "é": not ASCII but valid, and no key of the format's: skipped.
        #expect(ArchiveFixtures.decodeError(archive(keys: [[0xC3, 0xA9]])) == nil)
        #expect(ArchiveFixtures.decodeError(archive(keys: [[0xC3, 0x28]]))?.code == .invalidUTF8)
        #expect(ArchiveFixtures.decodeError(archive(keys: [[0x61, 0xFF]]))?.code == .invalidUTF8)
        // "type" (4 bytes) after "payload" (7): out of the deterministic order.
        #expect(ArchiveFixtures.decodeError(archive(keys: [], typeFirst: false))?.code == .malformed)
        // The same key twice.
        #expect(ArchiveFixtures.decodeError(archive(keys: [Array("ab".utf8), Array("ab".utf8)]))?.code == .malformed)
    }

    @Test("Invalid UTF-8 in an identifier, and invalid identifiers, are refused")
    func identifiers() {
        func archive(type: [UInt8]) -> [UInt8] {
            var builder = CBORBuilder()
            builder.header(itemCount: 1)
            builder.head(5, 1)
            builder.text("representations")
            builder.head(4, 1)
            builder.head(5, 3)
            builder.text("type")
            builder.textBytes(type)
            builder.text("payload")
            builder.data([])
            builder.text("checksum")
            builder.head(0, 0)
            return builder.bytes
        }
        #expect(ArchiveFixtures.decodeError(archive(type: Array("public.data".utf8))) == nil)
        #expect(ArchiveFixtures.decodeError(archive(type: [0x70, 0xc3, 0x28])).map(\.code) == .invalidUTF8)
        #expect(ArchiveFixtures.decodeError(archive(type: Array("public data".utf8))).map(\.code) == .invalidIdentifier)
        #expect(ArchiveFixtures.decodeError(archive(type: [])).map(\.code) == .invalidIdentifier)
        #expect(ArchiveFixtures.decodeError(archive(type: Array("public/png".utf8))).map(\.code) == .invalidIdentifier)

        let json =
            #"{"format":"transferkit-archive","items":[{"representations":[{"checksum":0,"text":"","type":"a b"}]}],"version":[1,0]}"#
        #expect(ArchiveFixtures.decodeError(Array(json.utf8))?.code == .invalidIdentifier)
    }

    @Test("Unknown keys are ignored at every level of both forms")
    func unknownKeys() throws {
        var builder = CBORBuilder()
        builder.bytes += [0xd9, 0xd9, 0xf7]
        builder.head(4, 4)  // an extra top-level element
        builder.text("transferkit-archive")
        builder.head(4, 3)  // an extra version element
        builder.head(0, 1)
        builder.head(0, 7)  // a later minor version
        builder.text("patch")
        builder.head(5, 3)
        builder.text("aaaa")  // sorts before "items"
        builder.head(4, 1)
        builder.head(0, 1)
        builder.text("items")
        builder.head(4, 1)
        // The item: "name", "zzzz" (unknown, between name and metadata), "representations", "zzzzzzzzzzzzzzzz".
        builder.head(5, 4)
        builder.text("name")
        builder.text("a.txt")
        builder.text("zzzz")
        builder.data([1, 2, 3])
        builder.text("representations")
        builder.head(4, 1)
        // The representation: "size" < "type" < "payload" < "aaaaaaaa" < "checksum" < "zzzzzzzzz".
        builder.head(5, 6)
        builder.text("size")
        builder.head(0, 2)
        builder.text("type")
        builder.text("public.data")
        builder.text("payload")
        builder.data([0x68, 0x69])
        builder.text("aaaaaaaa")
        builder.head(4, 2)
        builder.head(6, 1)
        builder.head(0, 0)
        builder.text("x")
        builder.text("checksum")
        builder.head(0, UInt64(TransferArchive.Representation(type: .data, data: Data([0x68, 0x69])).checksum))
        builder.text("zzzzzzzzz")
        builder.bytes.append(0xf6)
        builder.text("zzzzzzzzzzzzzzzz")
        builder.head(5, 0)
        builder.text("zzzzzz")  // in the body, sorts after "items"
        builder.head(5, 0)
        builder.text("extra")  // the extra top-level element

        let expected = TransferArchive(items: [
            TransferArchive.Item(
                suggestedName: "a.txt",
                representations: [TransferArchive.Representation(type: .data, data: Data([0x68, 0x69]))])
        ])
        #expect(try TransferArchive(decoding: builder.bytes) == expected)
        let reader = try TransferArchiveReader(bytes: builder.bytes)
        #expect(reader.version.minor == 7)

        let json =
            #"{"extra":{"a":[1]},"format":"transferkit-archive","items":[{"later":null,"name":"a.txt","#
            + #""representations":[{"checksum":3633523372,"new":[],"text":"hi","type":"public.data"}]}],"#
            + #""version":[1,9,"patch"]}"#
        #expect(try TransferArchive(decoding: Array(json.utf8)) == expected)
    }

    @Test("An unknown major version is refused in both forms; a newer minor is accepted")
    func versions() throws {
        var builder = CBORBuilder()
        builder.header(major: 2, itemCount: 0)
        #expect(ArchiveFixtures.decodeError(builder.bytes)?.code == .unsupportedVersion)
        var minor = CBORBuilder()
        minor.header(major: 1, minor: 99, itemCount: 0)
        #expect(ArchiveFixtures.decodeError(minor.bytes) == nil)
        let json = #"{"format":"transferkit-archive","items":[],"version":[2,0]}"#
        #expect(ArchiveFixtures.decodeError(Array(json.utf8))?.code == .unsupportedVersion)
    }

    @Test(
        "Input that is not an archive is refused with notAnArchive",
        arguments: [
            [], Array("hello".utf8), [0xd9, 0xd9, 0xf7, 0x01], Array("{\"format\":\"other\"}".utf8), Array("[]".utf8),
            [0xd9, 0xd9, 0xf7, 0x83, 0x63, 0x61, 0x62, 0x63, 0x82, 0x01, 0x00, 0xa0],
        ] as [[UInt8]])
    func notAnArchive(bytes: [UInt8]) {
        #expect(ArchiveFixtures.decodeError(bytes)?.code == .notAnArchive)
    }

    @Test("Non-deterministic CBOR, duplicate keys and wrong types are malformed")
    func malformed() throws {
        let golden = Array(try ArchiveFixtures.golden.encoded(as: .cbor))
        // A non-shortest head for the version's major number.
        let at = try #require(golden.firstRange(of: [0x82, 0x01, 0x00])).lowerBound
        var longHead = golden
        longHead.replaceSubrange(at..<(at + 3), with: [0x82, 0x18, 0x01, 0x00])
        #expect(ArchiveFixtures.decodeError(longHead)?.code == .malformed)
        // Trailing bytes.
        #expect(ArchiveFixtures.decodeError(golden + [0x00])?.code == .malformed)
        // A null in metadata.
        var null = CBORBuilder()
        null.head(5, 1)
        null.text("a")
        null.bytes.append(0xf6)
        #expect(ArchiveFixtures.decodeError(Self.withMetadata(null.bytes))?.code == .malformed)
        // Keys out of order in the item.
        var order = CBORBuilder()
        order.header(itemCount: 1)
        order.head(5, 2)
        order.text("representations")
        order.head(4, 0)
        order.text("name")
        order.text("x")
        #expect(ArchiveFixtures.decodeError(order.bytes)?.code == .malformed)
        // JSON: both text and base64, duplicate keys, a string checksum.
        let cases = [
            #"{"format":"transferkit-archive","items":[{"representations":[{"base64":"","checksum":0,"text":"","type":"public.data"}]}],"version":[1,0]}"#,
            #"{"format":"transferkit-archive","items":[],"items":[],"version":[1,0]}"#,
            #"{"format":"transferkit-archive","items":[{"representations":[{"checksum":"0","text":"","type":"public.data"}]}],"version":[1,0]}"#,
            #"{"format":"transferkit-archive","items":[{}],"version":[1,0]}"#,
        ]
        for json in cases {
            #expect(ArchiveFixtures.decodeError(Array(json.utf8))?.code == .malformed, "\(json)")
        }
    }

    @Test("Bad base64, bad names and duplicate types have their own codes")
    func specificCodes() throws {
        let base64 =
            #"{"format":"transferkit-archive","items":[{"representations":[{"base64":"a$==","checksum":0,"type":"public.data"}]}],"version":[1,0]}"#
        #expect(ArchiveFixtures.decodeError(Array(base64.utf8))?.code == .invalidBase64)
        let unpadded =
            #"{"format":"transferkit-archive","items":[{"representations":[{"base64":"YQ","checksum":0,"type":"public.data"}]}],"version":[1,0]}"#
        #expect(ArchiveFixtures.decodeError(Array(unpadded.utf8))?.code == .invalidBase64)
        let name = #"{"format":"transferkit-archive","items":[{"name":"../etc","representations":[]}],"version":[1,0]}"#
        #expect(ArchiveFixtures.decodeError(Array(name.utf8))?.code == .invalidName)
        let duplicate = TransferArchive(items: [
            TransferArchive.Item(representations: [
                TransferArchive.Representation(type: .data, data: Data()),
                TransferArchive.Representation(type: UniformType("PUBLIC.DATA") ?? .data, data: Data([1])),
            ])
        ])
        for format in TransferArchiveFormat.allCases {
            let error = #expect(throws: TransferArchiveError.self) { try duplicate.encoded(as: format) }
            #expect(error?.code == .duplicateType)
        }
        let invalidUTF8: [UInt8] =
            Array(#"{"format":"transferkit-archive","items":[],"version":[1,0],"x":""#.utf8) + [0xff]
            + Array("\"}".utf8)
        #expect(ArchiveFixtures.decodeError(invalidUTF8)?.code == .invalidUTF8)
    }

    @Test("Each invalid fixture fails with the code its name starts with")
    func invalidFixtures() throws {
        let files = try ArchiveFixtures.resources(in: "invalid")
        #expect(files.count >= 8)
        for file in files {
            let expected = String(file.lastPathComponent.prefix { $0 != "-" })
            let error = ArchiveFixtures.decodeError(Array(try Data(contentsOf: file)))
            #expect(error?.code.description == expected, "\(file.lastPathComponent): \(String(describing: error))")
        }
    }

    @Test("Each valid fixture decodes and re-encodes to the same bytes")
    func validFixtures() throws {
        for file in try ArchiveFixtures.resources(in: "valid") {
            let bytes = try Data(contentsOf: file)
            let format = try #require(TransferArchiveFormat(pathExtension: file.pathExtension))
            #expect(try TransferArchive(decoding: bytes).encoded(as: format) == bytes, "\(file.lastPathComponent)")
        }
    }
}
