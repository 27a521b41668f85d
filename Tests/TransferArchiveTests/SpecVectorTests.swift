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
