internal import TransferChecksum

/// Writes ``RGBAImage``s as PNG: 8-bit RGB when every pixel is opaque, else 8-bit RGBA; each row with the filter
/// that gives the smallest sum of absolute differences (the heuristic libpng uses), deflated as it is filtered.
enum PNGEncoder {
    static func encode(_ image: RGBAImage) -> [UInt8] {
        let opaque = image.isOpaque
        let channels = opaque ? 3 : 4
        let rowBytes = image.width * channels
        // Rows are deflated as they are filtered: the filtered image (3 or 4 bytes a pixel) is never held whole.
        var stream = ZlibWriter()
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var row = [UInt8](repeating: 0, count: rowBytes)
        // The best filtering so far and the one being tried, swapped when the new one is better: no allocation
        // per row.
        var best = [UInt8](repeating: 0, count: rowBytes)
        var candidate = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<image.height {
            let start = y * image.width * 4
            if opaque {
                for x in 0..<image.width {
                    row[x * 3] = image.pixels[start + x * 4]
                    row[x * 3 + 1] = image.pixels[start + x * 4 + 1]
                    row[x * 3 + 2] = image.pixels[start + x * 4 + 2]
                }
            } else {
                for index in 0..<rowBytes { row[index] = image.pixels[start + index] }
            }
            var bestType: UInt8 = 0
            var bestCost = Int.max
            for type: UInt8 in 0...4 {
                let cost = row.withUnsafeBufferPointer { current in
                    previous.withUnsafeBufferPointer { above in
                        candidate.withUnsafeMutableBufferPointer { filtered in
                            PNGFilter.filter(current, previous: above, type: type, stride: channels, into: filtered)
                        }
                    }
                }
                if cost < bestCost {
                    bestCost = cost
                    bestType = type
                    swap(&best, &candidate)
                }
            }
            stream.append([bestType])
            stream.append(best[...])
            swap(&row, &previous)
        }
        var file = PNGDecoder.signature
        var header: [UInt8] = []
        appendWord(UInt32(image.width), to: &header)
        appendWord(UInt32(image.height), to: &header)
        header.append(contentsOf: [8, opaque ? 2 : 6, 0, 0, 0])
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", stream.finish(), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    private static func appendWord(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff),
        ])
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        appendWord(UInt32(data.count), to: &file)
        let typed = Array(type.utf8) + data
        file.append(contentsOf: typed)
        appendWord(CRC32.checksum(typed), to: &file)
    }
}
