import Foundation
import Testing
import TransferArchive
import TransferKitTestSupport
import UniformTypes

/// One entry of `Schemas/vectors/expected.json`.
struct SpecVector: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var valid: Bool
    var code: String?
    var schema: Bool?
    var beyondSchema: String?
    /// A conforming writer writes exactly these bytes for the archive they hold.
    var canonical: Bool?
    /// The archive is valid but has no text form: converting it fails with this code.
    var toText: String?
    /// The identifiers a 1.1 reader reads from the archive's `decls`, in order (section 3.6).
    var declarations: [String]?

    /// The form the vector is written in.
    var format: TransferArchiveFormat { name.hasSuffix(".transferkit") ? .cbor : .json }

    var description: String { name }

    static let all: [SpecVector] = {
        struct File: Decodable { var vectors: [SpecVector] }
        let url = repositoryFile("Schemas/vectors/expected.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
            return []
        }
        return file.vectors
    }()

    var bytes: [UInt8] {
        get throws { [UInt8](try Data(contentsOf: repositoryFile("Schemas/vectors/\(name)"))) }
    }
}

@Suite("The specification's test vectors", .timeLimit(.minutes(5)))
struct SpecVectorTests {
    @Test("the vector list is there and covers both forms and both verdicts")
    func listLoaded() {
        #expect(SpecVector.all.count > 50)
        #expect(SpecVector.all.contains { $0.valid && $0.name.hasSuffix(".transferkit") })
        #expect(SpecVector.all.contains { !$0.valid && $0.name.hasSuffix(".json") })
    }

    @Test("decoding a vector gives the expected verdict and error code", arguments: SpecVector.all)
    func decoding(_ vector: SpecVector) throws {
        let bytes = try vector.bytes
        do {
            let archive = try TransferArchive(decoding: bytes)
            #expect(vector.valid, "accepted, but the spec says \(vector.code ?? "invalid")")
            #expect(archive.declarations.map(\.identifier.identifier) == vector.declarations ?? [])
            // A valid archive re-encodes in both forms and reads back equal (unless it has no text form).
            for format in TransferArchiveFormat.allCases {
                if format == .json, let code = vector.toText {
                    let error = #expect(throws: TransferArchiveError.self) { try archive.encoded(as: format) }
                    #expect(error?.code.description == code)
                    continue
                }
                let reread = try TransferArchive(decoding: try archive.encoded(as: format))
                // NaN is not equal to itself, so an archive holding it is compared by its bytes.
                #expect(try reread.encoded(as: .cbor) == archive.encoded(as: .cbor))
                #expect(reread == archive || vector.toText != nil)
            }
            // A canonical vector is what the writer writes, byte for byte (spec sections 4.2 and 5.2).
            if vector.canonical == true {
                let written = try archive.encoded(as: vector.format)
                #expect([UInt8](written) == bytes, "\(String(decoding: written, as: UTF8.self))")
            }
        } catch {
            #expect(!vector.valid, "rejected with \(error)")
            #expect(error.code.description == vector.code, "\(error)")
        }
    }

    @Test(
        "the streaming reader, reading to the end, agrees with the in-memory decoder",
        arguments: SpecVector.all.filter { $0.name.hasSuffix(".transferkit") })
    func streaming(_ vector: SpecVector) throws {
        let bytes = try vector.bytes
        do {
            var reader = try TransferArchiveReader(bytes: bytes)
            #expect(reader.declarations.map(\.identifier.identifier) == vector.declarations ?? [])
            while try reader.nextItem() != nil {
                while try reader.nextRepresentation() != nil {
                    try reader.skipPayload()
                }
            }
            #expect(vector.valid, "accepted, but the spec says \(vector.code ?? "invalid")")
        } catch {
            #expect(!vector.valid, "rejected with \(error)")
            #expect(error.code.description == vector.code, "\(error)")
        }
    }
}

@Suite("Rules the vectors cannot show at default limits", .timeLimit(.minutes(5)))
struct SpecLimitTests {
    @Test("the text form's size counts every byte, trailing white space included (section 7)")
    func documentSize() throws {
        let archive = [UInt8](try TransferArchive().encoded(as: .json))
        let limits = TransferArchive.Limits(maxJSONDocumentSize: archive.count + 10)
        let atLimit = archive + [UInt8](repeating: 0x20, count: 10)
        #expect(try TransferArchive(decoding: atLimit, limits: limits) == TransferArchive())
        let error = #expect(throws: TransferArchiveError.self) {
            try TransferArchive(decoding: atLimit + [0x0a], limits: limits)
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test("nesting counts from the top in both forms, ignored values included (section 7)")
    func nesting() throws {
        // One item with an unknown key holding [[1]]: binary levels top array 1, body 2, items 3, item 4, value 5-6;
        // text levels object 1, items 2, item 3, value 4-5.
        let text = Array(
            #"{"format":"transferkit-archive","items":[{"x":[[1]],"representations":[]}],"version":[1,0]}"#.utf8)
        #expect(throws: Never.self) { try TransferArchive(decoding: text, limits: .init(maxNestingDepth: 5)) }
        let error = #expect(throws: TransferArchiveError.self) {
            try TransferArchive(decoding: text, limits: .init(maxNestingDepth: 4))
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test(
        "both readers name section 7's nesting limit of 64 when an ignored value nests too deep",
        arguments: ["invalid/unknown-value-depth-65.transferkit", "invalid/unknown-value-depth-65.json"])
    func nestingMessage(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: repositoryFile("Schemas/vectors/\(name)")))
        let error = #expect(throws: TransferArchiveError.self) { try TransferArchive(decoding: bytes) }
        #expect(error?.code == .limitExceeded)
        #expect(
            error?.message.contains("deeper than 64 levels (Limits.maxNestingDepth)") == true,
            "\(String(describing: error))")
    }

    @Test("binary metadata deeper than the nesting limit names that limit, not the metadata's (section 7)")
    func metadataNestingMessage() throws {
        // Binary levels: top array 1, body 2, items 3, item 4, metadata map 5, arrays 6 and 7.
        let archive = TransferArchive(items: [.init(metadata: ["a": .array([.array([.integer(1)])])])])
        let bytes = [UInt8](try archive.encoded(as: .cbor))
        #expect(throws: Never.self) { try TransferArchive(decoding: bytes, limits: .init(maxNestingDepth: 7)) }
        let error = #expect(throws: TransferArchiveError.self) {
            try TransferArchive(decoding: bytes, limits: .init(maxNestingDepth: 6))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("deeper than 6 levels (Limits.maxNestingDepth)") == true)
    }

    @Test("NFC equality of metadata keys is Unicode 4.1's or later: Corrigendum #4's decompositions (section 3.4)")
    func corrigendum4() {
        // U+2F868 decomposes to U+36FC since Unicode 4.1; Unicode 3.2 gave U+2136A. Keys are compared with String's
        // equality, which must follow the corrected mapping for the corrigendum vectors to hold.
        #expect("\u{2F868}" == "\u{36FC}")
        #expect("\u{2F868}" != "\u{2136A}")
    }

    @Test("floats are written positionally for decimal exponents -4 to 15 (section 5.2)")
    func floatText() throws {
        let cases: [(Double, String)] = [
            (9.5e15, "9500000000000000.0"), (0x1p53, "9007199254740992.0"), (1e16, "1e+16"), (1e21, "1e+21"),
            (0.0001, "0.0001"), (0.00001, "1e-05"), (.leastNonzeroMagnitude, "5e-324"), (-0.0, "-0.0"),
            (123.25, "123.25"), (1.5e300, "1.5e+300"), (100, "100.0"),
        ]
        for (value, expected) in cases {
            let archive = TransferArchive(items: [.init(metadata: ["x": .double(value)])])
            let json = String(decoding: try archive.encoded(as: .json), as: UTF8.self)
            #expect(json.contains(#"{"x":\#(expected)}"#), "\(value): \(json)")
        }
    }

    @Test("the float text reads back as the same binary64, for 20 000 bit patterns of every exponent (section 5.2)")
    func floatTextRoundTrips() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var values: [TransferMetadataValue] = []
        for index in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Every exponent in turn (the top bits), random sign and significand: subnormals and extremes too.
            let bits = (state & 0x800F_FFFF_FFFF_FFFF) | (UInt64(index % 2047) << 52)
            values.append(.double(Double(bitPattern: bits)))
        }
        let archive = TransferArchive(items: [.init(metadata: ["values": .array(values)])])
        let reread = try TransferArchive(decoding: try archive.encoded(as: .json))
        guard case .array(let read)? = reread.items.first?.metadata["values"] else {
            Issue.record("the values did not come back as an array")
            return
        }
        let bits = { (value: TransferMetadataValue) -> UInt64? in
            if case .double(let double) = value { double.bitPattern } else { nil }
        }
        #expect(read.map(bits) == values.map(bits))
    }

    @Test("writers refuse names with control characters and metadata keys outside Unicode 3.2 (sections 3.2, 3.4)")
    func writerRefusals() throws {
        let tab = TransferArchive(items: [.init(suggestedName: "a\tb")])
        let emoji = TransferArchive(items: [.init(metadata: ["ok": ["\u{1F600}": 1]])])
        for format in TransferArchiveFormat.allCases {
            #expect(throws: TransferArchiveError.self) { try tab.encoded(as: format) }
            let error = #expect(throws: TransferArchiveError.self) { try emoji.encoded(as: format) }
            #expect(error?.code == .unrepresentableValue)
        }
    }
}

@Suite("Writing identifiers the archive cannot carry", .timeLimit(.minutes(5)))
struct WriterIdentifierTests {
    /// A type `UniformType` accepts (Apple allows letters above U+007F) but the archive grammar does not.
    private let accented = UniformType("com.example.café")

    @Test(
        "both forms of the in-memory encoder refuse it with invalidIdentifier",
        arguments: TransferArchiveFormat.allCases)
    func encoderRefuses(_ format: TransferArchiveFormat) throws {
        let type = try #require(accented)
        let archive = TransferArchive(items: [.init(representations: [.init(type: type, data: Data("x".utf8))])])
        let error = #expect(throws: TransferArchiveError.self) { try archive.encoded(as: format) }
        #expect(error?.code == .invalidIdentifier)
        #expect(error?.itemIndex == 0)
        #expect(error?.type == type)
    }

    @Test("the streaming writer refuses it before writing the representation")
    func streamingWriterRefuses() throws {
        let type = try #require(accented)
        var written: [UInt8] = []
        var writer = TransferArchiveWriter { written.append(contentsOf: $0) }
        try writer.begin(itemCount: 1)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        let error = #expect(throws: TransferArchiveError.self) {
            try writer.writeRepresentation(type: type, data: Data("x".utf8))
        }
        #expect(error?.code == .invalidIdentifier)
        #expect(error?.message.contains("ASCII identifiers only") == true)
    }
}
