import CBOR
import Testing

/// A source that hands out its bytes `chunkSize` at a time, like a pipe.
struct ChunkedSource: CBORByteSource {
    var bytes: [UInt8]
    var chunkSize: Int
    var position = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(chunkSize, buffer.count, bytes.count - position)
        for index in 0..<count {
            buffer[index] = bytes[position + index]
        }
        position += count
        return count
    }
}

/// A value with every kind of item, nested.
let complexValue: CBORValue = [
    "name": "photo.png", "size": 1_048_576, "negative": .negative(.max), "ratio": 1.1, "half": 1.5,
    "payload": .bytes(Array(0..<40)), "list": [1, [2, [3, ["deep": true]]], .null, .undefined, .simple(99)],
    "tagged": .tagged(1, 1_363_896_240.5), "unicode": "\u{6c34}\u{10151}", 42: ["x": [:]], "empty": [],
]

@Suite("Hostile input", .timeLimit(.minutes(5)))
struct HostileInputTests {
    @Test("every truncation of a complex value is .truncated, in memory and from a stream")
    func truncationAtEveryOffset() throws {
        let encoded = try complexValue.encoded()
        #expect(try CBORValue(decoding: encoded) == complexValue)
        for length in 0..<encoded.count {
            let prefix = Array(encoded[..<length])
            #expect(decodingErrorCode(prefix) == .truncated, "prefix of \(length) bytes")
            var reader = CBORReader(source: ChunkedSource(bytes: prefix, chunkSize: 3), bufferSize: 16)
            let error = #expect(throws: CBORError.self) { try reader.readValue() }
            #expect(error?.code == .truncated, "streamed prefix of \(length) bytes")
        }
    }

    @Test("every truncation of an Appendix A example is .truncated", arguments: appendixA)
    func truncatedExamples(_ example: AppendixExample) {
        let encoded = bytes(example.hex)
        for length in 0..<encoded.count {
            #expect(decodingErrorCode(Array(encoded[..<length])) == .truncated, "prefix of \(length) bytes")
        }
    }

    @Test(
        "absurd declared lengths fail without allocating",
        arguments: [
            "5b 7f ff ff ff ff ff ff ff 00", "7b 7f ff ff ff ff ff ff ff 61", "5b ff ff ff ff ff ff ff ff",
            "5f 5b 7f ff ff ff ff ff ff ff 00", "9b 7f ff ff ff ff ff ff ff 00", "bb 7f ff ff ff ff ff ff ff 00 00",
            "9b 00 00 00 01 00 00 00 00 00", "5a ff ff ff ff 00",
        ])
    func absurdLengths(_ example: String) {
        let input = bytes(example)
        let unlimited = CBORReader.Limits(maxCollectionCount: .max, maxStringLength: .max)
        // In memory the length is checked against the bytes left; from a stream, against the
        // limits or else against what actually arrives.
        #expect(decodingErrorCode(input, limits: unlimited) == .truncated)
        var streamed = CBORReader(source: ChunkedSource(bytes: input, chunkSize: 4), limits: unlimited)
        #expect(throws: CBORError.self) { try streamed.readValue() }
        var limited = CBORReader(source: ChunkedSource(bytes: input, chunkSize: 4))
        let error = #expect(throws: CBORError.self) { try limited.readValue() }
        #expect(error?.code == .limitExceeded)
    }

    @Test("a stream that declares 2^40 bytes and ends early is .truncated, reading chunk by chunk")
    func hugeStreamedString() throws {
        var input = bytes("5b 00 00 01 00 00 00 00 00")
        input += [UInt8](repeating: 7, count: 100_000)
        var reader = CBORReader(source: ChunkedSource(bytes: input, chunkSize: 1000), bufferSize: 4096)
        let head = try reader.readHead()
        #expect(head.length == 1 << 40)
        var chunk: [UInt8] = []
        try reader.readBytes(count: 65536, into: &chunk)
        #expect(chunk.count == 65536)
        let error = #expect(throws: CBORError.self) { try reader.readBytes(count: 65536, into: &chunk) }
        #expect(error?.code == .truncated)
    }

    @Test(
        "deep nesting is .nestingTooDeep, not a stack overflow",
        arguments: [[0x81], [0x9f], [0xc1], [0xa1, 0x00], [0xbf, 0x00]] as [[UInt8]])
    func deepNesting(_ level: [UInt8]) {
        let input = Array([[UInt8]](repeating: level, count: 10_000).joined())
        #expect(decodingErrorCode(input) == .nestingTooDeep)
        var reader = CBORReader(bytes: input)
        let error = #expect(throws: CBORError.self) { try reader.skipValue() }
        #expect(error?.code == .nestingTooDeep)
    }

    @Test("the nesting limit allows exactly maxNestingDepth enclosing containers")
    func nestingBoundary() throws {
        let limits = CBORReader.Limits(maxNestingDepth: 64)
        let allowed = [UInt8](repeating: 0x81, count: 64) + [0x00]
        let tooDeep = [UInt8](repeating: 0x81, count: 65) + [0x00]
        #expect(try CBORValue(decoding: allowed, limits: limits).arrayValue?.count == 1)
        #expect(decodingErrorCode(tooDeep, limits: limits) == .nestingTooDeep)
        #expect(decodingErrorCode(allowed, limits: CBORReader.Limits(maxNestingDepth: 10)) == .nestingTooDeep)
    }

    @Test(
        "collection and string limits apply to definite and indefinite items",
        arguments: [
            "83 01 02 03", "9f 01 02 03 ff", "a3 01 00 02 00 03 00", "bf 01 00 02 00 03 00 ff", "43 01 02 03",
            "5f 42 01 02 41 03 ff", "63 61 62 63", "7f 62 61 62 61 63 ff",
        ])
    func limits(_ example: String) throws {
        let tight = CBORReader.Limits(maxCollectionCount: 2, maxStringLength: 2)
        #expect(decodingErrorCode(bytes(example), limits: tight) == .limitExceeded)
        let roomy = CBORReader.Limits(maxCollectionCount: 3, maxStringLength: 3)
        #expect(decodingErrorCode(bytes(example), limits: roomy) == nil)
    }

    @Test("a byte source that throws gives .readFailed with the cause")
    func failingSource() {
        struct Broken: Error {}
        struct FailingSource: CBORByteSource {
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { throw Broken() }
        }
        var reader = CBORReader(source: FailingSource())
        let error = #expect(throws: CBORError.self) { try reader.readValue() }
        #expect(error?.code == .readFailed)
        #expect(error?.cause is Broken)
    }

    @Test("a byte source that claims more bytes than fit gives .readFailed")
    func lyingSource() {
        struct LyingSource: CBORByteSource {
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int { buffer.count + 1 }
        }
        var reader = CBORReader(source: LyingSource())
        let error = #expect(throws: CBORError.self) { try reader.readValue() }
        #expect(error?.code == .readFailed)
    }
}
