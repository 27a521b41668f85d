import CBOR
import Foundation
import Testing

/// Arrays whose elements are records, arrays or primitives outside the coder's list of primitive arrays: read in
/// one loop rather than through `Array`'s own `init(from:)`, with the same results, errors and limits.
@Suite("CBORDecoder arrays of records", .timeLimit(.minutes(5)))
struct CoderArrayTests {
    private let points = [Point(x: 1, y: 0.5), Point(x: -7, y: 1e300), Point(x: 0, y: -0.0)]

    @Test("arrays of records, of arrays, of optionals and of small integers round-trip")
    func roundTrips() throws {
        try testRoundTrip(of: points)
        try testRoundTrip(of: [points, [], [points[1]]])
        try testRoundTrip(of: [Point?.some(points[0]), nil, points[2]])
        try testRoundTrip(of: [UInt16(0), 65535, 24])
        try testRoundTrip(of: [[UInt16]]([[1, 2], []]))
        try testRoundTrip(of: [Shape.circle(radius: 2), .empty, .rectangle(width: 3, height: 4)])
        try testRoundTrip(of: [Point]())
        try testRoundTrip(of: ["a": points])
        // The same record type alone, then as elements, then alone again: nothing is remembered wrongly.
        try testRoundTrip(of: points[0])
        try testRoundTrip(of: points)
        try testRoundTrip(of: points[1])
    }

    @Test("an element that does not decode names its index and key in the coding path")
    func elementError() throws {
        // [{"x": 1, "y": 0.5}, {"x": "a", "y": 1.0}]
        let input = bytes("82 a2 6178 01 6179 f93800 a2 6178 6161 6179 f93c00")
        let failure = try #require(decodingFailure([Point].self, input))
        #expect(failure.kind == "typeMismatch")
        #expect(failure.path == ["1", "x"])
    }

    @Test("a primitive element of the wrong type names its index")
    func primitiveElementError() throws {
        // [1, "a"] as [UInt16]
        let failure = try #require(decodingFailure([UInt16].self, bytes("82 01 6161")))
        #expect(failure.kind == "typeMismatch")
        #expect(failure.path == ["1"])
        // [1, 70000]: out of range.
        let range = try #require(decodingFailure([UInt16].self, bytes("82 01 1a00011170")))
        #expect(range.kind == "dataCorrupted")
        #expect(range.path == ["1"])
    }

    @Test("not an array, too many items, or items missing: each is its own error")
    func malformed() throws {
        #expect(decodingFailure([Point].self, bytes("a0"))?.kind == "typeMismatch")
        // Declares 3 records but holds 1.
        #expect(decodingFailure([Point].self, bytes("83 a2 6178 01 6179 f93800"))?.kind == "dataCorrupted")
        var decoder = CBORDecoder()
        decoder.limits.maxCollectionCount = 2
        let three = try CBOREncoder().encodedBytes(points)
        #expect(decodingFailure([Point].self, three, decoder: decoder)?.kind == "dataCorrupted")
    }

    @Test("arrays nested past the depth limit are rejected")
    func depth() throws {
        var decoder = CBORDecoder()
        decoder.limits.maxNestingDepth = 3
        let nested: [[[Point]]] = [[[Point(x: 1, y: 2)]]]
        let input = try CBOREncoder().encodedBytes(nested)
        #expect(decodingFailure([[[Point]]].self, input, decoder: decoder)?.kind == "dataCorrupted")
        decoder.limits.maxNestingDepth = 4
        #expect(try decoder.decode([[[Point]]].self, from: input) == nested)
    }
}
