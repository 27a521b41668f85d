internal import TransferChecksum

/// Reads PNG files (ISO/IEC 15948) into ``RGBAImage``s.
enum PNGDecoder {
    /// The 8 bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

    /// What `IHDR` says.
    struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colourType: Int
        var interlaced: Bool

        /// Samples per pixel.
        var channels: Int {
            switch colourType {
            case 0, 3: 1
            case 4: 2
            case 2: 3
            default: 4
            }
        }
        var bitsPerPixel: Int { channels * bitDepth }
        /// The filter's "bpp": bytes per complete pixel, at least 1.
        var filterStride: Int { max(1, bitsPerPixel / 8) }
        /// The bytes of one row of `width` pixels, without the filter byte.
        func rowBytes(_ width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }
    }

    /// The palette and transparency chunks.
    struct Colours {
        var palette: [UInt8] = []  // RGBA per entry
        var transparentSample: [Int]?  // grey or RGB sample values that are transparent (tRNS)
    }

    /// A chunk's type as four ASCII letters.
    static func name(_ type: UInt32) -> String {
        String(
            decoding: [UInt8(type >> 24), UInt8(type >> 16 & 0xff), UInt8(type >> 8 & 0xff), UInt8(type & 0xff)],
            as: UTF8.self)
    }

    private static let ihdr: UInt32 = 0x4948_4452
    private static let plte: UInt32 = 0x504c_5445
    private static let idat: UInt32 = 0x4944_4154
    private static let iend: UInt32 = 0x4945_4e44
    private static let trns: UInt32 = 0x7452_4e53

    static func decode(_ bytes: [UInt8], limits: ImageLimits) throws(ImagingError) -> RGBAImage {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw ImagingError(code: .unrecognizedFormat, message: "the input does not start with PNG's signature")
        }
        var position = 8
        var header: Header?
        var colours = Colours()
        var compressed: [UInt8] = []
        var idatState = 0  // 0 none yet, 1 inside the run, 2 after it
        var paletteSeen = false
        while true {
            guard position + 8 <= bytes.count else {
                throw ImagingError(
                    code: .truncated, message: "the PNG ends before its IEND chunk", offset: position)
            }
            let length = Int(word(bytes, position))
            let type = word(bytes, position + 4)
            guard length <= 0x7fff_ffff else {
                throw ImagingError(
                    code: .invalidChunk, message: "a chunk's length \(length) is over 2³¹ − 1", offset: position)
            }
            let dataStart = position + 8
            guard dataStart + length + 4 <= bytes.count else {
                throw ImagingError(
                    code: .truncated, message: "the \(name(type)) chunk runs past the end of the input",
                    offset: position)
            }
            let data = bytes[dataStart..<dataStart + length]
            let stored = word(bytes, dataStart + length)
            let computed = CRC32.checksum(bytes[(position + 4)..<(dataStart + length)])
            guard stored == computed else {
                throw ImagingError(
                    code: .checksumMismatch,
                    message: "the \(name(type)) chunk's CRC-32 is 0x\(String(computed, radix: 16)), "
                        + "it says 0x\(String(stored, radix: 16))",
                    offset: dataStart + length)
            }
            if header == nil && type != ihdr {
                throw ImagingError(
                    code: .invalidChunk, message: "the first chunk is \(name(type)), not IHDR", offset: position)
            }
            if idatState == 1 && type != idat { idatState = 2 }
            switch type {
            case ihdr:
                guard header == nil else {
                    throw ImagingError(code: .invalidChunk, message: "a second IHDR chunk", offset: position)
                }
                header = try readHeader(data, at: position, limits: limits)
            case plte:
                guard !paletteSeen, idatState == 0 else {
                    throw ImagingError(
                        code: .invalidChunk, message: "a PLTE chunk after another or after IDAT", offset: position)
                }
                paletteSeen = true
                try readPalette(data, header: header, into: &colours, at: position)
            case trns:
                try readTransparency(data, header: header, into: &colours, at: position)
            case idat:
                guard idatState != 2 else {
                    throw ImagingError(
                        code: .invalidChunk, message: "IDAT chunks are not consecutive", offset: position)
                }
                idatState = 1
                compressed.append(contentsOf: data)
            case iend:
                guard let header else {
                    throw ImagingError(code: .invalidChunk, message: "IEND before IHDR", offset: position)
                }
                guard idatState != 0 else {
                    throw ImagingError(code: .invalidChunk, message: "the PNG has no IDAT chunk", offset: position)
                }
                if header.colourType == 3 && colours.palette.isEmpty {
                    throw ImagingError(
                        code: .invalidPalette, message: "an indexed-colour PNG has no PLTE chunk", offset: position)
                }
                return try pixels(compressed, header: header, colours: colours)
            default:
                // Bit 5 of the first letter: lowercase is ancillary, safe to skip; uppercase is critical.
                guard type >> 24 & 0x20 != 0 else {
                    throw ImagingError(
                        code: .unsupportedFeature, message: "the critical chunk \(name(type)) is not known",
                        offset: position)
                }
            }
            position = dataStart + length + 4
        }
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func readHeader(
        _ data: ArraySlice<UInt8>, at position: Int, limits: ImageLimits
    ) throws(ImagingError) -> Header {
        let fields = Array(data)
        guard fields.count == 13 else {
            throw ImagingError(
                code: .invalidHeader, message: "IHDR holds \(fields.count) bytes, not 13", offset: position)
        }
        let width = Int(word(fields, 0))
        let height = Int(word(fields, 4))
        let bitDepth = Int(fields[8])
        let colourType = Int(fields[9])
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let allowed = depths[colourType], allowed.contains(bitDepth) else {
            throw ImagingError(
                code: .invalidHeader, message: "PNG has no colour type \(colourType) with bit depth \(bitDepth)",
                offset: position)
        }
        guard fields[10] == 0, fields[11] == 0, fields[12] <= 1 else {
            throw ImagingError(
                code: .invalidHeader,
                message: "unknown compression (\(fields[10])), filter (\(fields[11])) or interlace (\(fields[12])) "
                    + "method",
                offset: position)
        }
        guard width <= 0x7fff_ffff, height <= 0x7fff_ffff else {
            throw ImagingError(code: .invalidHeader, message: "a dimension is over 2³¹ − 1", offset: position)
        }
        _ = try limits.check(width: width, height: height, format: "PNG")
        return Header(
            width: width, height: height, bitDepth: bitDepth, colourType: colourType, interlaced: fields[12] == 1)
    }

    private static func readPalette(
        _ data: ArraySlice<UInt8>, header: Header?, into colours: inout Colours, at position: Int
    ) throws(ImagingError) {
        guard !data.isEmpty, data.count % 3 == 0, data.count <= 768 else {
            throw ImagingError(
                code: .invalidPalette,
                message: "PLTE holds \(data.count) bytes, not 3 to 768 in whole entries", offset: position)
        }
        guard header?.colourType != 0, header?.colourType != 4 else {
            throw ImagingError(code: .invalidChunk, message: "a grey PNG has a PLTE chunk", offset: position)
        }
        let entries = Array(data)
        colours.palette = []
        for index in stride(from: 0, to: entries.count, by: 3) {
            colours.palette.append(contentsOf: [entries[index], entries[index + 1], entries[index + 2], 255])
        }
    }

    private static func readTransparency(
        _ data: ArraySlice<UInt8>, header: Header?, into colours: inout Colours, at position: Int
    ) throws(ImagingError) {
        let values = Array(data)
        switch header?.colourType {
        case 0 where values.count == 2:
            colours.transparentSample = [Int(values[0]) << 8 | Int(values[1])]
        case 2 where values.count == 6:
            colours.transparentSample = [0, 2, 4].map { Int(values[$0]) << 8 | Int(values[$0 + 1]) }
        case 3 where !colours.palette.isEmpty && values.count <= colours.palette.count / 4:
            for (index, alpha) in values.enumerated() { colours.palette[index * 4 + 3] = alpha }
        default:
            throw ImagingError(
                code: .invalidChunk,
                message: "a tRNS chunk of \(values.count) bytes does not fit colour type "
                    + "\(header?.colourType ?? -1) (or comes before PLTE)",
                offset: position)
        }
    }

    /// Adam7's passes: starting column and row, column and row steps.
    private static let adam7 = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The passes of the image: their origins, steps and sizes in pixels.
    private static func passes(_ header: Header) -> [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)] {
        guard header.interlaced else { return [(0, 0, 1, 1, header.width, header.height)] }
        return adam7.map { pass in
            let width = (header.width - pass.0 + pass.2 - 1) / pass.2
            let height = (header.height - pass.1 + pass.3 - 1) / pass.3
            return (pass.0, pass.1, pass.2, pass.3, max(0, width), max(0, height))
        }
    }

    private static func pixels(
        _ compressed: [UInt8], header: Header, colours: Colours
    ) throws(ImagingError) -> RGBAImage {
        let passes = passes(header).filter { $0.width > 0 && $0.height > 0 }
        var expected = 0
        for pass in passes {
            expected += (header.rowBytes(pass.width) + 1) * pass.height
        }
        // The rows are unfiltered as they inflate: the inflated data (up to 8 bytes a pixel at 16 bits) is never
        // held whole, only the window, two rows and the RGBA output.
        let rows: PNGRows
        do {
            rows = try Inflate.zlib(
                compressed, maximumOutputCount: expected, allowTrailingData: true,
                into: PNGRows(header: header, colours: colours, passes: passes))
        } catch  where error.code == .limitExceeded {
            throw ImagingError(
                code: .imageDataLength,
                message: "the image data inflates to more than the \(expected) bytes the header's dimensions need")
        }
        guard rows.isComplete else {
            throw ImagingError(
                code: .imageDataLength,
                message: "the image data inflates to \(rows.consumed) bytes, the header's dimensions need \(expected)")
        }
        return RGBAImage(checkedWidth: header.width, height: header.height, pixels: rows.output)
    }

    /// The inflated image data's rows, unfiltered and expanded into RGBA as they arrive.
    private struct PNGRows: InflateSink {
        let header: Header
        let colours: Colours
        let passes: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)]
        /// The pass and row being filled.
        var pass = 0
        var y = 0
        /// The current row's filter type, once its first byte has arrived.
        var filter: UInt8?
        var row: [UInt8] = []
        var filled = 0
        var previous: [UInt8] = []
        /// The RGBA pixels, allocated when the first row is complete (a stream that fails at once costs nothing).
        var output: [UInt8] = []
        /// The bytes taken.
        var consumed = 0

        init(header: Header, colours: Colours, passes: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)]) {
            self.header = header
            self.colours = colours
            self.passes = passes
            startPass()
        }

        var isComplete: Bool { pass == passes.count }

        private mutating func startPass() {
            guard pass < passes.count else { return }
            let rowBytes = header.rowBytes(passes[pass].width)
            row = [UInt8](repeating: 0, count: rowBytes)
            previous = [UInt8](repeating: 0, count: rowBytes)
            y = 0
        }

        mutating func consume(_ bytes: ArraySlice<UInt8>) throws(ImagingError) {
            consumed += bytes.count
            var index = bytes.startIndex
            while index < bytes.endIndex {
                // The inflater stops at the header's byte count, so a pass is always there to fill.
                guard pass < passes.count else {
                    throw ImagingError(
                        code: .imageDataLength, message: "the image data inflates past the header's dimensions")
                }
                guard filter != nil else {
                    filter = bytes[index]
                    index += 1
                    continue
                }
                let count = min(row.count - filled, bytes.endIndex - index)
                row.withUnsafeMutableBufferPointer { target in
                    bytes[index..<index + count].withUnsafeBufferPointer { source in
                        guard let base = target.baseAddress, let from = source.baseAddress else { return }
                        (base + filled).update(from: from, count: count)
                    }
                }
                filled += count
                index += count
                if filled == row.count { try completeRow() }
            }
        }

        private mutating func completeRow() throws(ImagingError) {
            let current = passes[pass]
            try PNGFilter.unfilter(&row, previous: previous, type: filter ?? 0, stride: header.filterStride)
            if output.isEmpty { output = [UInt8](repeating: 0, count: header.width * header.height * 4) }
            try PNGDecoder.expand(
                row, width: current.width, header: header, colours: colours, into: &output,
                at: (current.y + y * current.dy) * header.width + current.x, step: current.dx)
            swap(&row, &previous)
            filter = nil
            filled = 0
            y += 1
            if y == current.height {
                pass += 1
                startPass()
            }
        }
    }

    /// 16-bit samples to 8 bits, rounded (v × 255 / 65535).
    @inline(__always) static func scale16(_ value: Int) -> UInt8 { UInt8((value * 255 + 32767) / 65535) }

    /// 8-bit RGBA (or RGB without tRNS) rows, the common case, through pointers: the caller has checked that the
    /// row holds `width` pixels and that the last one's RGBA is inside `output`.
    private static func expandTrueColour(
        _ row: [UInt8], width: Int, channels: Int, into output: inout [UInt8], at first: Int, step: Int
    ) {
        row.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                if channels == 4 && step == 1 {
                    (to + first * 4).update(from: from, count: width * 4)
                    return
                }
                var at = first * 4
                for x in 0..<width {
                    let pixel = from + x * channels
                    to[at] = pixel[0]
                    to[at + 1] = pixel[1]
                    to[at + 2] = pixel[2]
                    to[at + 3] = channels == 4 ? pixel[3] : 255
                    at += step * 4
                }
            }
        }
    }

    /// One unfiltered row's pixels into the RGBA output, from pixel `first`, `step` pixels apart.
    fileprivate static func expand(
        _ row: [UInt8], width: Int, header: Header, colours: Colours, into output: inout [UInt8], at first: Int,
        step: Int
    ) throws(ImagingError) {
        let depth = header.bitDepth
        let channels = header.channels
        if depth == 8, header.colourType == 6 || (header.colourType == 2 && colours.transparentSample == nil),
            width > 0, step > 0, first >= 0, row.count >= width * channels,
            (first + (width - 1) * step) * 4 + 3 < output.count
        {
            expandTrueColour(row, width: width, channels: channels, into: &output, at: first, step: step)
            return
        }
        func sample(_ index: Int) -> Int {
            switch depth {
            case 8: return Int(row[index])
            case 16: return Int(row[index * 2]) << 8 | Int(row[index * 2 + 1])
            default:
                let bit = index * depth
                return Int(row[bit / 8]) >> (8 - depth - bit % 8) & (1 << depth - 1)
            }
        }
        func eight(_ value: Int) -> UInt8 {
            switch depth {
            case 16: scale16(value)
            case 8: UInt8(value)
            default: UInt8(value * 255 / (1 << depth - 1))
            }
        }
        var target = first * 4
        for x in 0..<width {
            let base = x * channels
            switch header.colourType {
            case 0:
                let grey = sample(base)
                let value = eight(grey)
                output[target] = value
                output[target + 1] = value
                output[target + 2] = value
                output[target + 3] = colours.transparentSample == [grey] ? 0 : 255
            case 2:
                let rgb = [sample(base), sample(base + 1), sample(base + 2)]
                output[target] = eight(rgb[0])
                output[target + 1] = eight(rgb[1])
                output[target + 2] = eight(rgb[2])
                output[target + 3] = colours.transparentSample == rgb ? 0 : 255
            case 3:
                let index = sample(base) * 4
                guard index < colours.palette.count else {
                    throw ImagingError(
                        code: .invalidPalette,
                        message: "a pixel names palette entry \(index / 4) of \(colours.palette.count / 4)")
                }
                for channel in 0..<4 { output[target + channel] = colours.palette[index + channel] }
            case 4:
                let value = eight(sample(base))
                output[target] = value
                output[target + 1] = value
                output[target + 2] = value
                output[target + 3] = eight(sample(base + 1))
            default:
                for channel in 0..<4 { output[target + channel] = eight(sample(base + channel)) }
            }
            target += step * 4
        }
    }
}
