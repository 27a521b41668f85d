import Foundation
import Testing
import TransferArchive
import TransferKitTestSupport

/// One entry of `Schemas/vectors/expected.json`.
struct SpecVector: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var valid: Bool
    var code: String?
    var schema: Bool?
    var beyondSchema: String?

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

@Suite("The specification's test vectors")
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
            // A valid archive re-encodes in both forms and reads back equal.
            for format in TransferArchiveFormat.allCases {
                #expect(try TransferArchive(decoding: try archive.encoded(as: format)) == archive)
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
