import CBOR
import Foundation
import Testing

/// The payload byte at `index`: a pattern with a period (251) that does not divide any chunk size.
func patternByte(_ index: Int) -> UInt8 {
    UInt8(index % 251)
}

/// A source that generates a byte-string head and then `length` pattern bytes on the fly, so
/// the test holds no copy of the payload.
struct PatternSource: CBORByteSource {
    var head: [UInt8]
    var length: Int
    var chunkSize: Int
    var position = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(chunkSize, buffer.count, head.count + length - position)
        for index in 0..<count {
            let at = position + index
            buffer[index] = at < head.count ? head[at] : patternByte(at - head.count)
        }
        position += count
        return max(0, count)
    }
}

@Suite("Streaming", .timeLimit(.minutes(5)))
struct StreamingTests {
    @Test("a large byte string streams through small chunks with one reused buffer")
    func largeByteStringInChunks() throws {
        let length = 3 << 20 + 17
        var writer = CBORWriter()
        writer.writeByteStringHead(length: UInt64(length))
        let source = PatternSource(head: writer.takeBytes(), length: length, chunkSize: 1000)
        var reader = CBORReader(source: source, bufferSize: 4096)
        let head = try reader.readHead()
        #expect(head.majorType == .byteString)
        let declared = try #require(head.length)
        var chunk: [UInt8] = []
        var checked = 0
        var mismatches = 0
        while checked < Int(declared) {
            try reader.readBytes(count: min(777, Int(declared) - checked), into: &chunk)
            for (index, byte) in chunk.enumerated() where byte != patternByte(checked + index) {
                mismatches += 1
            }
            checked += chunk.count
        }
        #expect(checked == length)
        #expect(mismatches == 0)
        #expect(chunk.capacity < 4096, "the chunk buffer was reused, not grown")
        #expect(try reader.isAtEnd())
        #expect(reader.offset == length + 5)
    }

    @Test("a header, a streamed payload and a trailer round-trip through a file descriptor")
    func fileRoundTrip() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cbor-stream-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let length = 1 << 20 + 3
        let chunkSize = 65536

        let output = try FileHandle(forWritingTo: url)
        var writer = CBORWriter()
        writer.writeSelfDescribedTag()
        try writer.write(["name": "blob", "size": CBORValue(Int64(length))])
        writer.writeByteStringHead(length: UInt64(length))
        try writer.flush { try output.write(contentsOf: $0) }
        var written = 0
        while written < length {
            writer.writeRawBytes((written..<min(length, written + chunkSize)).map(patternByte))
            written = min(length, written + chunkSize)
            try writer.flush { try output.write(contentsOf: $0) }
        }
        try writer.write(["crc": 0])
        try writer.flush { try output.write(contentsOf: $0) }
        try output.close()

        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        var reader = CBORReader(
            source: CBORFileDescriptorSource(fileDescriptor: input.fileDescriptor), bufferSize: 8192)
        #expect(try reader.readHead() == CBORHead(majorType: .tag, additionalInformation: 25, argument: 55799))
        let header = try reader.readValue()
        #expect(header["name"] == "blob")
        let size = try #require(header["size"]?.unsignedInteger)
        let head = try reader.readHead()
        #expect(head.length == size)
        var chunk: [UInt8] = []
        var read = 0
        var mismatches = 0
        while read < Int(size) {
            try reader.readBytes(count: min(chunkSize, Int(size) - read), into: &chunk)
            for (index, byte) in chunk.enumerated() where byte != patternByte(read + index) {
                mismatches += 1
            }
            read += chunk.count
        }
        #expect(mismatches == 0)
        #expect(try reader.readValue() == ["crc": 0])
        #expect(try reader.isAtEnd())
    }

    @Test("skip(count:) and skipValue() pass over payloads without keeping them")
    func skipping() throws {
        var writer = CBORWriter()
        try writer.write(["a": .bytes([UInt8](repeating: 1, count: 100_000)), "b": [1, 2, 3]])
        writer.writeTextStringHead(length: 5)
        writer.writeRawBytes("hello".utf8)
        writer.writeInteger(-7)
        var reader = CBORReader(source: ChunkedSource(bytes: writer.bytes, chunkSize: 333), bufferSize: 64)
        try reader.skipValue()
        let head = try reader.readHead()
        #expect(head.majorType == .textString && head.length == 5)
        try reader.skip(count: 5)
        #expect(try reader.readValue() == -7)
        #expect(try reader.isAtEnd())
    }

    @Test("flush keeps the writer's buffer for reuse and takeBytes empties it")
    func writerBuffers() throws {
        var writer = CBORWriter(reservingCapacity: 1024)
        try writer.write([1, 2, 3])
        var flushed: [UInt8] = []
        writer.flush { flushed = $0 }
        #expect(flushed == [0x83, 0x01, 0x02, 0x03])
        #expect(writer.bytes.isEmpty && writer.bytes.capacity >= 1024)
        writer.writeArrayHead(count: 2)
        writer.writeMapHead(count: 0)
        writer.writeTag(1)
        writer.writeUnsignedInteger(0)
        #expect(writer.takeBytes() == [0x82, 0xa0, 0xc1, 0x00])
        #expect(writer.bytes.isEmpty)
    }
}
