/// zlib (RFC 1950) and deflate (RFC 1951) decompression in Swift, bounded and strict.
///
/// Every malformed stream throws an ``ImagingError`` with a specific code and the byte offset in the stream; the
/// output never grows past `maximumOutputCount` (`limitExceeded`), so a decompression bomb costs at most
/// that much memory. The streaming form keeps only deflate's 32 KiB window (and up to 128 KiB not yet handed on)
/// and hands the rest to an ``InflateSink`` as it goes, so a PNG's rows are read without holding its inflated data.
package enum Inflate {
    /// The bytes a zlib stream inflates to.
    ///
    /// - Parameters:
    ///   - stream: a whole zlib stream (2-byte header, deflate blocks, Adler-32).
    ///   - maximumOutputCount: the most bytes the output may hold.
    ///   - allowTrailingData: whether bytes after the Adler-32 are ignored (else `trailingData`).
    package static func zlib(
        _ stream: [UInt8], maximumOutputCount: Int, allowTrailingData: Bool = false
    ) throws(ImagingError) -> [UInt8] {
        var collected = CollectingSink()
        collected.bytes.reserveCapacity(min(maximumOutputCount, max(stream.count * 4, 1024)))
        collected = try zlib(
            stream, maximumOutputCount: maximumOutputCount, allowTrailingData: allowTrailingData, into: collected)
        return collected.bytes
    }

    /// Inflates a zlib stream into `sink`, in order, a piece at a time; the Adler-32 is checked after the last
    /// piece, so a sink sees the bytes of a stream that may still fail.
    ///
    /// - Parameters:
    ///   - stream: a whole zlib stream (2-byte header, deflate blocks, Adler-32).
    ///   - maximumOutputCount: the most bytes the stream may inflate to (`limitExceeded` past it).
    ///   - allowTrailingData: whether bytes after the Adler-32 are ignored (else `trailingData`).
    ///   - sink: what takes the inflated bytes; it should allocate nothing before its first bytes.
    /// - Returns: the sink, after the last bytes.
    package static func zlib<Sink: InflateSink>(
        _ stream: [UInt8], maximumOutputCount: Int, allowTrailingData: Bool = false, into sink: consuming Sink
    ) throws(ImagingError) -> Sink {
        guard stream.count >= 2 else {
            throw ImagingError(code: .truncated, message: "the zlib stream ends inside its 2-byte header", offset: 0)
        }
        let cmf = stream[0]
        let flg = stream[1]
        guard cmf & 0x0f == 8 else {
            throw ImagingError(
                code: .invalidZlibHeader, message: "zlib compression method \(cmf & 0x0f) is not deflate (8)",
                offset: 0)
        }
        guard cmf >> 4 <= 7 else {
            throw ImagingError(
                code: .invalidZlibHeader, message: "the zlib window size field \(cmf >> 4) is over 7 (32 KiB)",
                offset: 0)
        }
        guard (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else {
            throw ImagingError(
                code: .invalidZlibHeader, message: "the zlib header check (FCHECK) fails", offset: 1)
        }
        guard flg & 0x20 == 0 else {
            throw ImagingError(
                code: .invalidZlibHeader, message: "the zlib stream needs a preset dictionary, which is not supported",
                offset: 1)
        }
        var reader = BitReader(bytes: stream, position: 2)
        var output = InflateWindow(sink: sink, maximumOutputCount: maximumOutputCount)
        try inflateBlocks(&reader, into: &output)
        try output.handOn(output.buffer.count)
        reader.alignToByte()
        var position = reader.bytePosition
        guard position + 4 <= stream.count else {
            throw ImagingError(
                code: .truncated, message: "the zlib stream ends inside its Adler-32 checksum", offset: position)
        }
        var expected: UInt32 = 0
        for _ in 0..<4 {
            expected = expected << 8 | UInt32(stream[position])
            position += 1
        }
        let actual = output.adler.value
        guard actual == expected else {
            throw ImagingError(
                code: .adler32Mismatch,
                message: "the inflated bytes' Adler-32 is \(hex(actual)), the stream says \(hex(expected))",
                offset: position - 4)
        }
        guard allowTrailingData || position == stream.count else {
            throw ImagingError(
                code: .trailingData, message: "\(stream.count - position) bytes follow the end of the zlib stream",
                offset: position)
        }
        return output.sink
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }

    /// Inflates deflate blocks until the final one.
    private static func inflateBlocks<Sink: InflateSink>(
        _ reader: inout BitReader, into output: inout InflateWindow<Sink>
    ) throws(ImagingError) {
        var final = false
        while !final {
            final = try reader.bits(1) == 1
            let blockType = try reader.bits(2)
            switch blockType {
            case 0:
                try stored(&reader, into: &output)
            case 1:
                try codes(
                    &reader, literals: HuffmanDecoder.fixedLiterals, distances: HuffmanDecoder.fixedDistances,
                    into: &output)
            case 2:
                let (literals, distances) = try dynamicTables(&reader)
                try codes(&reader, literals: literals, distances: distances, into: &output)
            default:
                throw ImagingError(
                    code: .invalidBlockType, message: "deflate block type 3 is reserved", offset: reader.bytePosition)
            }
        }
    }

    private static func limitError(_ maximumOutputCount: Int, _ reader: BitReader) -> ImagingError {
        ImagingError(
            code: .limitExceeded,
            message: "the zlib stream inflates to more than \(maximumOutputCount) bytes, the limit",
            offset: reader.bytePosition)
    }

    private static func stored<Sink: InflateSink>(
        _ reader: inout BitReader, into output: inout InflateWindow<Sink>
    ) throws(ImagingError) {
        reader.alignToByte()
        let length = try reader.bits(16)
        let complement = try reader.bits(16)
        guard length == ~complement & 0xffff else {
            throw ImagingError(
                code: .storedLengthMismatch,
                message: "a stored block's length \(length) is not the complement of \(complement)",
                offset: reader.bytePosition - 4)
        }
        let count = Int(length)
        let start = reader.takeAlignedBytes()
        guard start + count <= reader.bytes.count else {
            throw ImagingError(
                code: .truncated, message: "a stored block of \(count) bytes runs past the end of the stream",
                offset: start)
        }
        guard output.count + count <= output.maximumOutputCount else {
            throw limitError(output.maximumOutputCount, reader)
        }
        output.buffer.append(contentsOf: reader.bytes[start..<start + count])
        reader.skipBytes(count)
        try output.handOnIfFull()
    }

    private static func codes<Sink: InflateSink>(
        _ reader: inout BitReader, literals: HuffmanDecoder, distances: HuffmanDecoder,
        into output: inout InflateWindow<Sink>
    ) throws(ImagingError) {
        let maximumOutputCount = output.maximumOutputCount
        while true {
            let symbol = Int(try literals.decode(&reader))
            if symbol < 256 {
                guard output.count < maximumOutputCount else { throw limitError(maximumOutputCount, reader) }
                output.buffer.append(UInt8(symbol))
                try output.handOnIfFull()
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < DeflateTables.lengthBase.count else {
                throw ImagingError(
                    code: .invalidSymbol, message: "literal/length symbol \(symbol) is reserved",
                    offset: reader.bytePosition)
            }
            let length =
                DeflateTables.lengthBase[lengthIndex] + Int(try reader.bits(DeflateTables.lengthExtra[lengthIndex]))
            let distanceSymbol = Int(try distances.decode(&reader))
            guard distanceSymbol < DeflateTables.distanceBase.count else {
                throw ImagingError(
                    code: .invalidSymbol, message: "distance symbol \(distanceSymbol) is reserved",
                    offset: reader.bytePosition)
            }
            let distance =
                DeflateTables.distanceBase[distanceSymbol]
                + Int(try reader.bits(DeflateTables.distanceExtra[distanceSymbol]))
            guard distance <= output.count else {
                throw ImagingError(
                    code: .invalidDistance,
                    message: "a back-reference of distance \(distance) reaches before the start of the output "
                        + "(\(output.count) bytes so far)",
                    offset: reader.bytePosition)
            }
            guard output.count + length <= maximumOutputCount else { throw limitError(maximumOutputCount, reader) }
            // The window keeps at least 32 KiB, deflate's farthest reach, so `from` is never negative.
            var from = output.buffer.count - distance
            for _ in 0..<length {
                output.buffer.append(output.buffer[from])
                from += 1
            }
            try output.handOnIfFull()
        }
    }

    /// The order in which a dynamic block lists the code-length code's lengths.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static func dynamicTables(
        _ reader: inout BitReader
    ) throws(ImagingError) -> (HuffmanDecoder, HuffmanDecoder) {
        let literalCount = Int(try reader.bits(5)) + 257
        let distanceCount = Int(try reader.bits(5)) + 1
        let codeLengthCount = Int(try reader.bits(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw ImagingError(
                code: .invalidHuffmanCode,
                message: "a dynamic block declares \(literalCount) literal/length and \(distanceCount) distance codes "
                    + "(at most 286 and 30)",
                offset: reader.bytePosition)
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[codeLengthOrder[index]] = UInt8(try reader.bits(3))
        }
        let codeLengthDecoder = try HuffmanDecoder(lengths: codeLengthLengths, complete: true, at: reader)
        var lengths: [UInt8] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthDecoder.decode(&reader)
            var repeated: UInt8 = 0
            var times = 0
            switch symbol {
            case 0...15:
                lengths.append(UInt8(symbol))
                continue
            case 16:
                guard let last = lengths.last else {
                    throw ImagingError(
                        code: .invalidHuffmanCode, message: "a code-length repeat (16) comes before any length",
                        offset: reader.bytePosition)
                }
                repeated = last
                times = 3 + Int(try reader.bits(2))
            case 17:
                times = 3 + Int(try reader.bits(3))
            default:
                times = 11 + Int(try reader.bits(7))
            }
            guard lengths.count + times <= literalCount + distanceCount else {
                throw ImagingError(
                    code: .invalidHuffmanCode,
                    message: "code-length repeats run past the \(literalCount + distanceCount) lengths declared",
                    offset: reader.bytePosition)
            }
            lengths.append(contentsOf: repeatElement(repeated, count: times))
        }
        guard lengths[256] != 0 else {
            throw ImagingError(
                code: .invalidHuffmanCode, message: "a dynamic block has no code for end-of-block (256)",
                offset: reader.bytePosition)
        }
        let literals = try HuffmanDecoder(lengths: Array(lengths[0..<literalCount]), complete: false, at: reader)
        let distances = try HuffmanDecoder(
            lengths: Array(lengths[literalCount...]), complete: false, at: reader)
        return (literals, distances)
    }
}

/// What takes a zlib stream's inflated bytes from ``Inflate/zlib(_:maximumOutputCount:allowTrailingData:into:)``.
package protocol InflateSink {
    /// Takes the next inflated bytes, in order.
    mutating func consume(_ bytes: ArraySlice<UInt8>) throws(ImagingError)
}

/// A sink that keeps every byte.
struct CollectingSink: InflateSink {
    var bytes: [UInt8] = []

    mutating func consume(_ bytes: ArraySlice<UInt8>) { self.bytes.append(contentsOf: bytes) }
}

/// The inflater's output: the last 32 KiB (deflate's window, which back-references reach into) and what has not
/// been handed to the sink yet; the rest is handed on once 128 KiB are held.
struct InflateWindow<Sink: InflateSink> {
    /// The bytes kept, the last of the output.
    var buffer: [UInt8] = []
    /// The bytes handed to the sink (and the checksum) before `buffer`.
    private(set) var handedOn = 0
    var sink: Sink
    var adler = Adler32.Running()
    let maximumOutputCount: Int

    private static var window: Int { 1 << 15 }
    private static var handOnThreshold: Int { 1 << 17 }

    init(sink: consuming Sink, maximumOutputCount: Int) {
        self.sink = sink
        self.maximumOutputCount = maximumOutputCount
        buffer.reserveCapacity(Self.handOnThreshold + 258)
    }

    /// Every byte inflated so far.
    var count: Int { handedOn + buffer.count }

    /// Hands all but the window on when the buffer is full.
    @inline(__always) mutating func handOnIfFull() throws(ImagingError) {
        if buffer.count >= Self.handOnThreshold { try handOn(buffer.count - Self.window) }
    }

    /// Hands the first `count` bytes of the buffer to the checksum and the sink.
    mutating func handOn(_ count: Int) throws(ImagingError) {
        guard count > 0 else { return }
        adler.update(buffer[0..<count])
        try sink.consume(buffer[0..<count])
        buffer.removeSubrange(0..<count)
        handedOn += count
    }
}
