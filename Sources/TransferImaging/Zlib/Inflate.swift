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
        try output.handOn(output.end)
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
        limitError(maximumOutputCount, at: reader.bytePosition)
    }

    private static func limitError(_ maximumOutputCount: Int, at offset: Int) -> ImagingError {
        ImagingError(
            code: .limitExceeded,
            message: "the zlib stream inflates to more than \(maximumOutputCount) bytes, the limit", offset: offset)
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
        output.append(contentsOf: reader.bytes[start..<start + count])
        reader.skipBytes(count)
        try output.handOnIfFull()
    }

    private static func codes<Sink: InflateSink>(
        _ reader: inout BitReader, literals: HuffmanDecoder, distances: HuffmanDecoder,
        into output: inout InflateWindow<Sink>
    ) throws(ImagingError) {
        while true {
            switch fastCodes(&reader, literals: literals, distances: distances, into: &output) {
            case .endOfBlock:
                return
            case .handOn:
                try output.handOnIfFull()
            case .room:
                output.reserve(fastRoom)
            case .failed(let error):
                throw error
            case .slow:
                // Near the end of the input, or a symbol the tables leave to the bit-by-bit decoder.
                if try slowSymbol(&reader, literals: literals, distances: distances, into: &output) { return }
            }
        }
    }

    /// One literal/length symbol (and its distance) through the bit-by-bit reader; true at the end of the block.
    private static func slowSymbol<Sink: InflateSink>(
        _ reader: inout BitReader, literals: HuffmanDecoder, distances: HuffmanDecoder,
        into output: inout InflateWindow<Sink>
    ) throws(ImagingError) -> Bool {
        let maximumOutputCount = output.maximumOutputCount
        let symbol = Int(try literals.decode(&reader))
        if symbol < 256 {
            guard output.count < maximumOutputCount else { throw limitError(maximumOutputCount, reader) }
            output.append(UInt8(symbol))
            try output.handOnIfFull()
            return false
        }
        if symbol == 256 { return true }
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
        guard distance <= output.count else { throw distanceError(distance, output.count, at: reader.bytePosition) }
        guard output.count + length <= maximumOutputCount else { throw limitError(maximumOutputCount, reader) }
        output.copyMatch(distance: distance, length: length)
        try output.handOnIfFull()
        return false
    }

    private static func distanceError(_ distance: Int, _ count: Int, at offset: Int) -> ImagingError {
        ImagingError(
            code: .invalidDistance,
            message: "a back-reference of distance \(distance) reaches before the start of the output "
                + "(\(count) bytes so far)",
            offset: offset)
    }

    /// Why ``fastCodes(_:literals:distances:into:)`` stopped.
    private enum FastExit {
        /// The block's end-of-block symbol.
        case endOfBlock
        /// The window is full: hand on, then go on.
        case handOn
        /// The window has less than ``fastRoom`` bytes free.
        case room
        /// The next symbol is for ``slowSymbol(_:literals:distances:into:)``: fewer than 8 input bytes left, or
        /// no table entry (a reserved symbol, a prefix of an incomplete code).
        case slow
        case failed(ImagingError)
    }

    /// What the fast loop needs free in the window: the longest match, and 8 bytes that a match copy of 8-byte
    /// words may write past its end.
    private static var fastRoom: Int { 258 + 8 }

    /// Decodes symbols while at least 8 input bytes are left, through the tables' packed entries, with the bits in a
    /// 64-bit local refilled 8 bytes at a time and the output written through a pointer into the window. Every
    /// check of ``slowSymbol(_:literals:distances:into:)`` is made here too, in the same order with the same error,
    /// or the symbol is left to it with the reader as it was before the symbol.
    private static func fastCodes<Sink: InflateSink>(
        _ reader: inout BitReader, literals: HuffmanDecoder, distances: HuffmanDecoder,
        into output: inout InflateWindow<Sink>
    ) -> FastExit {
        let bytes = reader.bytes
        var bits = reader.buffer
        var available = reader.count
        var position = reader.position
        var end = output.end
        let handedOn = output.handedOn
        let maximumOutputCount = output.maximumOutputCount
        let exit = bytes.withUnsafeBufferPointer { input -> FastExit in
            output.buffer.withUnsafeMutableBufferPointer { window -> FastExit in
                literals.table.withUnsafeBufferPointer { literalTable -> FastExit in
                    distances.table.withUnsafeBufferPointer { distanceTable -> FastExit in
                        guard let source = UnsafeRawPointer(input.baseAddress),
                            let target = window.baseAddress, !literalTable.isEmpty, !distanceTable.isEmpty
                        else { return .slow }
                        let lastRefill = input.count - 8
                        let roomEnd = window.count - fastRoom
                        let literalMask = UInt64(1) &<< UInt64(literals.tableBits) &- 1
                        let distanceMask = UInt64(1) &<< UInt64(distances.tableBits) &- 1
                        while true {
                            guard position <= lastRefill else { return .slow }
                            guard end <= roomEnd else { return .room }
                            // 56–63 bits: enough for a length code, its extra bits, a distance code and its extra bits.
                            bits |=
                                UInt64(littleEndian: source.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                                &<< UInt64(available)
                            position &+= (63 &- available) &>> 3
                            available |= 56
                            let before = (bits, available)
                            let entry = TableEntry.lookUp(bits, in: literalTable, mask: literalMask)
                            guard entry != 0 else { return .slow }
                            bits &>>= UInt64(TableEntry.length(entry))
                            available &-= TableEntry.length(entry)
                            switch TableEntry.kind(entry) {
                            case TableEntry.literal:
                                guard handedOn &+ end < maximumOutputCount else {
                                    return .failed(
                                        limitError(maximumOutputCount, at: position &- available &>> 3))
                                }
                                target[end] = UInt8(truncatingIfNeeded: TableEntry.value(entry))
                                end &+= 1
                            case TableEntry.endOfBlock:
                                return .endOfBlock
                            default:
                                let extra = TableEntry.extraBits(entry)
                                let length =
                                    TableEntry.value(entry)
                                    &+ Int(truncatingIfNeeded: bits & (UInt64(1) &<< UInt64(extra) &- 1))
                                bits &>>= UInt64(extra)
                                available &-= extra
                                let distanceEntry = TableEntry.lookUp(bits, in: distanceTable, mask: distanceMask)
                                guard distanceEntry != 0 else {
                                    (bits, available) = before
                                    return .slow
                                }
                                bits &>>= UInt64(TableEntry.length(distanceEntry))
                                available &-= TableEntry.length(distanceEntry)
                                let distanceExtra = TableEntry.extraBits(distanceEntry)
                                let distance =
                                    TableEntry.value(distanceEntry)
                                    &+ Int(truncatingIfNeeded: bits & (UInt64(1) &<< UInt64(distanceExtra) &- 1))
                                bits &>>= UInt64(distanceExtra)
                                available &-= distanceExtra
                                let offset = position &- available &>> 3
                                guard distance <= handedOn &+ end else {
                                    return .failed(distanceError(distance, handedOn &+ end, at: offset))
                                }
                                guard handedOn &+ end &+ length <= maximumOutputCount else {
                                    return .failed(limitError(maximumOutputCount, at: offset))
                                }
                                // The window keeps at least 32 KiB, deflate's farthest reach, before `end`.
                                guard distance <= end else {
                                    return .failed(distanceError(distance, handedOn &+ end, at: offset))
                                }
                                copyMatch(target, end: end, distance: distance, length: length)
                                end &+= length
                            }
                            if end >= InflateWindow<Sink>.handOnThreshold { return .handOn }
                        }
                    }
                }
            }
        }
        reader.buffer = bits & (UInt64(1) &<< UInt64(available) &- 1)
        reader.count = available
        reader.position = position
        output.end = end
        return exit
    }

    /// Copies a back-reference inside the window: 8 bytes at a time when the source is at least 8 bytes behind
    /// (each word read before the write that could overlap it), else byte by byte; may write up to 8 bytes past
    /// `end + length`, which the caller keeps free.
    @inline(__always) private static func copyMatch(
        _ target: UnsafeMutablePointer<UInt8>, end: Int, distance: Int, length: Int
    ) {
        var to = target + end
        var from = to - distance
        let stop = to + length
        if distance >= 8 {
            let rawFrom = UnsafeRawPointer(from)
            let rawTo = UnsafeMutableRawPointer(to)
            var offset = 0
            while offset < length {
                rawTo.storeBytes(
                    of: rawFrom.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
                    as: UInt64.self)
                offset &+= 8
            }
        } else {
            while to < stop {
                to.pointee = from.pointee
                to += 1
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
        let literals = try HuffmanDecoder(
            lengths: Array(lengths[0..<literalCount]), complete: false, alphabet: .literalsAndLengths, at: reader)
        let distances = try HuffmanDecoder(
            lengths: Array(lengths[literalCount...]), complete: false, alphabet: .distances, at: reader)
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
    /// The bytes kept, the last of the output, in `buffer[0..<end]`; the rest is room, grown as needed (a stream
    /// that fails at once allocates nothing).
    var buffer: [UInt8] = []
    /// Where the next byte goes in ``buffer``.
    var end = 0
    /// The bytes handed to the sink (and the checksum) before `buffer`.
    private(set) var handedOn = 0
    var sink: Sink
    var adler = Adler32.Running()
    let maximumOutputCount: Int

    private static var window: Int { 1 << 15 }
    static var handOnThreshold: Int { 1 << 17 }

    init(sink: consuming Sink, maximumOutputCount: Int) {
        self.sink = sink
        self.maximumOutputCount = maximumOutputCount
    }

    /// Every byte inflated so far.
    var count: Int { handedOn + end }

    /// Makes room for `count` more bytes after `end`.
    mutating func reserve(_ count: Int) {
        guard buffer.count - end < count else { return }
        // Doubling from 4 KiB to the threshold, so that a small stream touches little memory.
        let size = max(end + count, min(max(buffer.count * 2, 1 << 12), Self.handOnThreshold + 2 * count))
        buffer.append(contentsOf: repeatElement(0, count: size - buffer.count))
    }

    /// Appends one byte.
    mutating func append(_ byte: UInt8) {
        reserve(1)
        buffer[end] = byte
        end += 1
    }

    /// Appends a stored block's bytes.
    mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
        reserve(bytes.count)
        buffer.replaceSubrange(end..<end + bytes.count, with: bytes)
        end += bytes.count
    }

    /// Appends the `length` bytes that start `distance` bytes back (at most `end`: the window keeps 32 KiB).
    mutating func copyMatch(distance: Int, length: Int) {
        reserve(length)
        var from = end - distance
        for _ in 0..<length {
            buffer[end] = buffer[from]
            end += 1
            from += 1
        }
    }

    /// Hands all but the window on when the buffer is full.
    @inline(__always) mutating func handOnIfFull() throws(ImagingError) {
        if end >= Self.handOnThreshold { try handOn(end - Self.window) }
    }

    /// Hands the first `count` bytes of the buffer to the checksum and the sink.
    mutating func handOn(_ count: Int) throws(ImagingError) {
        guard count > 0 else { return }
        adler.update(buffer[0..<count])
        try sink.consume(buffer[0..<count])
        let kept = end - count
        buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            base.copyMemory(from: base + count, byteCount: kept)
        }
        end = kept
        handedOn += count
    }
}
