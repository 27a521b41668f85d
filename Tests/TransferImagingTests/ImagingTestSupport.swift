import Foundation
import Testing
import TransferArchive
import TransferChecksum
import TransferImaging

/// The test target's `Resources` folder.
func imagingResource(_ path: String) throws -> URL {
    let resources = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
    return resources.appendingPathComponent(path)
}

/// The golden PNGs' names and sizes (`Resources/valid/index.json`, written by `make_fixtures.py`).
func goldenPNGNames() -> [String] {
    guard let url = try? imagingResource("valid/index.json"), let data = try? Data(contentsOf: url),
        let index = try? JSONSerialization.jsonObject(with: data) as? [String: [Int]]
    else { return [] }
    return index.keys.sorted()
}

/// A PNG chunk: length, type, data, CRC-32.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
}

func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
}

/// An `IHDR` chunk's data.
func pngHeader(width: UInt32, height: UInt32, depth: UInt8, colourType: UInt8, interlace: UInt8 = 0) -> [UInt8] {
    bigEndian(width) + bigEndian(height) + [depth, colourType, 0, 0, interlace]
}

let pngSignature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/// A PNG of the given chunks, between the signature and `IEND`.
func png(_ chunks: [[UInt8]], end: Bool = true) -> Data {
    Data(pngSignature + chunks.joined() + (end ? pngChunk("IEND", []) : []))
}

/// An 8-bit grey PNG of `width × height` whose rows are `rows` (each with its filter byte), deflated.
func greyPNG(width: UInt32, height: UInt32, raw: [UInt8]) -> Data {
    png([
        pngChunk("IHDR", pngHeader(width: width, height: height, depth: 8, colourType: 0)),
        pngChunk("IDAT", Deflate.zlib(raw)),
    ])
}

/// The error `body` throws, expected to be an ``ImagingError``.
func imagingError(_ body: () throws -> Void) -> ImagingError? {
    do {
        try body()
        return nil
    } catch let error as ImagingError {
        return error
    } catch {
        return nil
    }
}
