/// zlib (RFC 1950) and deflate (RFC 1951) decompression in Swift, bounded and strict.
///
/// Every malformed stream throws an ``ImagingError`` with a specific code and the byte offset in the stream; the
/// output never grows past `maximumOutputCount` (`limitExceeded`), so a decompression bomb costs at most
/// that much memory.
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
        var output: [UInt8] = []
        output.reserveCapacity(min(maximumOutputCount, max(stream.count * 4, 1024)))
        try inflateBlocks(&reader, into: &output, maximumOutputCount: maximumOutputCount)
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
        let actual = Adler32.checksum(output)
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
        return output
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }

    /// Inflates deflate blocks until the final one.
    private static func inflateBlocks(
        _ reader: inout BitReader, into output: inout [UInt8], maximumOutputCount: Int
    ) throws(ImagingError) {
        var final = false
        while !final {
            final = try reader.bits(1) == 1
            let blockType = try reader.bits(2)
            switch blockType {
            case 0:
                try stored(&reader, into: &output, maximumOutputCount: maximumOutputCount)
            case 1:
                try codes(
                    &reader, literals: HuffmanDecoder.fixedLiterals, distances: HuffmanDecoder.fixedDistances,
                    into: &output, maximumOutputCount: maximumOutputCount)
            case 2:
                let (literals, distances) = try dynamicTables(&reader)
                try codes(
                    &reader, literals: literals, distances: distances, into: &output,
                    maximumOutputCount: maximumOutputCount)
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

    private static func stored(
        _ reader: inout BitReader, into output: inout [UInt8], maximumOutputCount: Int
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
        guard output.count + count <= maximumOutputCount else { throw limitError(maximumOutputCount, reader) }
        output.append(contentsOf: reader.bytes[start..<start + count])
        reader.skipBytes(count)
    }

    private static func codes(
        _ reader: inout BitReader, literals: HuffmanDecoder, distances: HuffmanDecoder, into output: inout [UInt8],
        maximumOutputCount: Int
    ) throws(ImagingError) {
        while true {
            let symbol = Int(try literals.decode(&reader))
            if symbol < 256 {
                guard output.count < maximumOutputCount else { throw limitError(maximumOutputCount, reader) }
                output.append(UInt8(symbol))
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
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
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
