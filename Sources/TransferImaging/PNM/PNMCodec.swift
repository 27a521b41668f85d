#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads and writes Netpbm's binary PPM (`P6`) and PAM (`P7`).
enum PNMCodec {
    static func decode(_ bytes: [UInt8], as format: ImageFormat, limits: ImageLimits) throws(ImagingError) -> RGBAImage
    {
        let magic: [UInt8] = format == .ppm ? [0x50, 0x36] : [0x50, 0x37]
        guard bytes.count >= 2, Array(bytes[0..<2]) == magic else {
            throw ImagingError(
                code: .unrecognizedFormat,
                message: "the input does not start with \(format == .ppm ? "P6" : "P7")")
        }
        var scanner = HeaderScanner(bytes: bytes, position: 2)
        let width: Int
        let height: Int
        let maximum: Int
        let tupleType: String
        let depth: Int
        if format == .ppm {
            width = try scanner.number("width")
            height = try scanner.number("height")
            maximum = try scanner.number("maximum value")
            // Exactly one whitespace byte ends the header.
            guard scanner.position < bytes.count, HeaderScanner.isSpace(bytes[scanner.position]) else {
                throw ImagingError(
                    code: .truncated, message: "the PPM ends before its pixels", offset: scanner.position)
            }
            scanner.position += 1
            tupleType = "RGB"
            depth = 3
        } else {
            var fields: [String: String] = [:]
            var tuples: [String] = []
            while true {
                let line = try scanner.line()
                let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard let key = words.first else { continue }
                if key == "ENDHDR" { break }
                if key == "TUPLTYPE" {
                    tuples.append(words.dropFirst().joined(separator: " "))
                    continue
                }
                guard words.count == 2, ["WIDTH", "HEIGHT", "DEPTH", "MAXVAL"].contains(key), fields[key] == nil
                else {
                    throw ImagingError(
                        code: .invalidHeader, message: "the PAM header line \(excerpt(line)) is not understood",
                        offset: scanner.position)
                }
                fields[key] = words[1]
            }
            func field(_ key: String) throws(ImagingError) -> Int {
                guard let text = fields[key], let value = Int(text), value >= 0 else {
                    throw ImagingError(
                        code: .invalidHeader, message: "the PAM header has no valid \(key)", offset: scanner.position)
                }
                return value
            }
            width = try field("WIDTH")
            height = try field("HEIGHT")
            maximum = try field("MAXVAL")
            depth = try field("DEPTH")
            tupleType = tuples.joined(separator: " ")
            let depths = ["RGB_ALPHA": 4, "RGB": 3, "GRAYSCALE_ALPHA": 2, "GRAYSCALE": 1]
            guard let expected = depths[tupleType] else {
                throw ImagingError(
                    code: .unsupportedFeature, message: "PAM tuple type \(excerpt(tupleType)) is not read",
                    offset: scanner.position)
            }
            guard expected == depth else {
                throw ImagingError(
                    code: .invalidHeader, message: "PAM depth \(depth) does not fit tuple type \(excerpt(tupleType))",
                    offset: scanner.position)
            }
        }
        guard (1...65535).contains(maximum) else {
            throw ImagingError(
                code: .invalidHeader, message: "a maximum sample value of \(maximum), not 1–65535",
                offset: scanner.position)
        }
        let area = try limits.check(width: width, height: height, format: format == .ppm ? "PPM" : "PAM")
        let sampleBytes = maximum < 256 ? 1 : 2
        let needed = area * depth * sampleBytes
        let start = scanner.position
        guard bytes.count - start >= needed else {
            throw ImagingError(
                code: .truncated, message: "the pixels need \(needed) bytes, \(bytes.count - start) follow the header",
                offset: bytes.count)
        }
        var output = [UInt8](repeating: 0, count: area * 4)
        var source = start
        for pixel in 0..<area {
            var samples = [Int](repeating: 0, count: depth)
            for channel in 0..<depth {
                var value = Int(bytes[source])
                if sampleBytes == 2 { value = value << 8 | Int(bytes[source + 1]) }
                source += sampleBytes
                guard value <= maximum else {
                    throw ImagingError(
                        code: .invalidHeader, message: "a sample of \(value) is over the maximum \(maximum)",
                        offset: source - sampleBytes)
                }
                samples[channel] = maximum == 255 ? value : (value * 255 + maximum / 2) / maximum
            }
            let target = pixel * 4
            switch depth {
            case 1, 2:
                for channel in 0..<3 { output[target + channel] = UInt8(samples[0]) }
                output[target + 3] = depth == 2 ? UInt8(samples[1]) : 255
            default:
                for channel in 0..<3 { output[target + channel] = UInt8(samples[channel]) }
                output[target + 3] = depth == 4 ? UInt8(samples[3]) : 255
            }
        }
        return RGBAImage(checkedWidth: width, height: height, pixels: output)
    }

    /// The most characters of the input an error message quotes.
    static let excerptLength = 64

    /// `text` quoted for an error message: at most ``excerptLength`` characters, control characters escaped, and
    /// the full length said when it was cut (a hostile header line can be megabytes long).
    static func excerpt(_ text: String) -> String {
        var quoted = "'"
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < excerptLength else {
                return quoted + "…' (\(text.utf8.count) bytes)"
            }
            quoted += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
            count += 1
        }
        return quoted + "'"
    }

    /// The file, written in place into its final buffer (one allocation of the file's size).
    static func encode(_ image: RGBAImage, as format: ImageFormat) -> Data {
        let header =
            format == .ppm
            ? "P6\n\(image.width) \(image.height)\n255\n"
            : "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        let headerBytes = Array(header.utf8)
        guard format == .ppm else {
            var file = Data(capacity: headerBytes.count + image.pixels.count)
            file.append(contentsOf: headerBytes)
            file.append(contentsOf: image.pixels)
            return file
        }
        let pixelCount = image.width * image.height
        var file = Data(count: headerBytes.count + pixelCount * 3)
        file.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            target.copyBytes(from: headerBytes)
            image.pixels.withUnsafeBufferPointer { pixels in
                var at = headerBytes.count
                for pixel in 0..<pixelCount {
                    target[at] = pixels[pixel * 4]
                    target[at + 1] = pixels[pixel * 4 + 1]
                    target[at + 2] = pixels[pixel * 4 + 2]
                    at += 3
                }
            }
        }
        return file
    }

    /// Reads a PPM header's numbers (with `#` comments) and a PAM header's lines.
    private struct HeaderScanner {
        let bytes: [UInt8]
        var position: Int

        static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c].contains(byte) }

        mutating func number(_ what: String) throws(ImagingError) -> Int {
            while position < bytes.count {
                if Self.isSpace(bytes[position]) {
                    position += 1
                } else if bytes[position] == 0x23 {
                    while position < bytes.count, bytes[position] != 0x0a { position += 1 }
                } else {
                    break
                }
            }
            var value = 0
            var digits = 0
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                value = value * 10 + Int(bytes[position] - 0x30)
                digits += 1
                position += 1
                guard digits <= 9 else {
                    throw ImagingError(
                        code: .invalidHeader, message: "the PPM \(what) has more than 9 digits", offset: position)
                }
            }
            guard digits > 0 else {
                throw ImagingError(
                    code: position < bytes.count ? .invalidHeader : .truncated,
                    message: "the PPM header has no \(what)", offset: position)
            }
            return value
        }

        /// The next header line without comments, trimmed.
        mutating func line() throws(ImagingError) -> String {
            guard let end = bytes[position...].firstIndex(of: 0x0a) else {
                throw ImagingError(code: .truncated, message: "the PAM header has no ENDHDR line", offset: position)
            }
            var text = String(decoding: bytes[position..<end], as: UTF8.self)
            position = end + 1
            if text.hasPrefix("#") { text = "" }
            return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        }
    }
}
