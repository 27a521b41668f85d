import CBOR
import Foundation
import Testing
import TransferKitTestSupport

/// The Swift side of the coder's interop vectors (Tests/Interop/coder-vectors.json, written by cbor2 with
/// Tests/Interop/make_coder_vectors.py; interop.py checks the Python side).
@Suite("Codable coder: interop with cbor2", .timeLimit(.minutes(5)))
struct CoderInteropTests {
    struct Model: Codable, Equatable {
        var name: String
        var character: String
        var favorite: String
    }

    struct Record: Codable, Equatable {
        enum Kind: String, Codable { case photo, video }
        var id: Int
        var size: Int64
        var ratio: Double
        var title: String
        var tags: [String]
        var samples: [Int64]
        var thumbnail: Data?
        var caption: String?
        var kind: Kind
    }

    struct Nested: Codable, Equatable {
        var owner: Point
        var points: [Point]
        var names: [String: String]
        var flags: [Bool?]
    }

    static let vectors: [String: [String: String]] = {
        let url = repositoryFile("Tests/Interop/coder-vectors.json")
        guard let data = try? Data(contentsOf: url),
            let decoded = try? JSONDecoder().decode([String: [String: String]].self, from: data)
        else { return [:] }
        return decoded
    }()

    /// Encodes `value`, expects cbor2's canonical bytes, and decodes both cbor2 encodings back to `value`.
    func check<T: Codable & Equatable>(
        _ name: String, _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let vector = try #require(Self.vectors[name], "no vector \(name)", sourceLocation: sourceLocation)
        let canonical = bytes(try #require(vector["canonical"], sourceLocation: sourceLocation))
        let python = bytes(try #require(vector["python"], sourceLocation: sourceLocation))
        #expect(hex(try CBOREncoder().encodedBytes(value)) == hex(canonical), sourceLocation: sourceLocation)
        #expect(try CBORDecoder().decode(T.self, from: canonical) == value, sourceLocation: sourceLocation)
        #expect(try CBORDecoder().decode(T.self, from: python) == value, sourceLocation: sourceLocation)
    }

    @Test("the encoder writes cbor2's canonical bytes; the decoder reads both of cbor2's encodings")
    func vectors() throws {
        #expect(Self.vectors.count == 4)
        try check("point", Point(x: 1, y: 2.5))
        try check("model", Model(name: "Panther", character: "calm", favorite: "tea"))
        try check(
            "record",
            Record(
                id: 48_213, size: 3_145_728, ratio: 0.1, title: "Tour Eiffel", tags: ["travel", "night"],
                samples: [12, -3, 70_000, -(1 << 40)], thumbnail: Data([0, 1, 255]), caption: nil, kind: .photo))
        try check(
            "nested",
            Nested(
                owner: Point(x: -7, y: 65_504), points: [Point(x: 0, y: -0.5), Point(x: 1 << 31, y: 1e300)],
                names: ["b": "bee", "a": "ay", "aa": "double a"], flags: [true, false, nil]))
    }
}
