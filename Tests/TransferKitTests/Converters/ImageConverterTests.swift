import Foundation
import Synchronization
import Testing
import TransferImaging
import TransferKit
import UniformTypes

@Suite(
    "The image converters: a PNG-only provider offers BMP, PAM, pixels and PPM, each made when loaded",
    .timeLimit(.minutes(5)))
struct ImageConverterTests {
    /// A 2×2 image with an opaque, a translucent and a transparent pixel.
    static func image() throws -> RGBAImage {
        try RGBAImage(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 255])
    }

    /// Counts how often a load handler ran, across tasks.
    final class Counter: Sendable {
        let value = Mutex(0)
        var count: Int { value.withLock { $0 } }
    }

    /// A provider that registers only `data` as `type` and counts how often its handler runs.
    static func provider(_ type: UniformType, _ data: Data, loads: Counter? = nil) -> TransferProvider {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: type) { _ in
            loads?.value.withLock { $0 += 1 }
            return data
        }
        return provider
    }

    @Test("a provider with only PNG offers BMP, PAM and pixels after it, then PPM, which drops alpha")
    func offeredTypes() throws {
        let provider = Self.provider(.png, try Self.image().encoded(as: .png))
        #expect(provider.registeredTypes == [.png])
        #expect(provider.offeredTypes == [.png, .bmp, .pam, .rgbaPixels, .ppm])
    }

    @Test("loading BMP, PAM or pixels gives the PNG's pixels; PPM gives them without alpha")
    func loadDerived() async throws {
        let image = try Self.image()
        let png = image.encoded(as: .png)
        let provider = Self.provider(.png, png)
        let fromPNG = try RGBAImage(decoding: png, as: .png)
        let bmp = try await provider.loadDataRepresentation(for: .bmp)
        #expect(ImageFormat(sniffing: bmp) == .bmp)
        #expect(try RGBAImage(decoding: bmp, as: .bmp) == fromPNG)
        #expect(fromPNG == image)
        let pam = try await provider.loadDataRepresentation(for: .pam)
        #expect(try RGBAImage(decoding: pam, as: .pam) == image)
        let pixels = try await provider.loadDataRepresentation(for: .rgbaPixels)
        #expect([UInt8](pixels) == [2, 0, 0, 0, 2, 0, 0, 0] + image.pixels)
        let ppm = try await provider.loadDataRepresentation(for: .ppm)
        let opaque = try RGBAImage(
            width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255])
        #expect(try RGBAImage(decoding: ppm, as: .ppm) == opaque)

        // And the way back: a BMP-only provider offers PNG.
        let bmpOnly = Self.provider(.bmp, image.encoded(as: .bmp))
        #expect(bmpOnly.offeredTypes.contains(.png))
        let backToPNG = try await bmpOnly.loadDataRepresentation(for: .png)
        #expect(try RGBAImage(decoding: backToPNG, as: .png) == image)
    }

    @Test("a converter runs only when its type is loaded: listing or loading PNG converts nothing")
    func lazy() async throws {
        let loads = Counter()
        // Bytes that no image converter can read, so a conversion that ran would fail.
        let provider = Self.provider(.png, Data("not a png".utf8), loads: loads)
        #expect(provider.offeredTypes.contains(.bmp))
        #expect(loads.count == 0)
        #expect(try await provider.loadDataRepresentation(for: .png) == Data("not a png".utf8))
        #expect(loads.count == 1)
        await #expect(throws: TransferError.self) { _ = try await provider.loadDataRepresentation(for: .bmp) }
        #expect(loads.count == 2)
    }

    @Test("a PNG that does not decode fails the BMP load with conversionFailed and the imaging error as its cause")
    func corruptPNG() async throws {
        let notPNG = Self.provider(.png, Data("not a png".utf8))
        let error = await #expect(throws: TransferError.self) {
            _ = try await notPNG.loadDataRepresentation(for: .bmp)
        }
        #expect(error?.code == .conversionFailed)
        #expect((error?.cause as? ImagingError)?.code == .unrecognizedFormat)

        let png = try Self.image().encoded(as: .png)
        let truncated = Self.provider(.png, png.prefix(png.count - 20))
        let cut = await #expect(throws: TransferError.self) {
            _ = try await truncated.loadDataRepresentation(for: .rgbaPixels)
        }
        #expect(cut?.code == .conversionFailed)
        #expect(cut?.cause is ImagingError)
    }

    @Test("the catalogue declares PPM, PAM and the pixel buffer with their extensions and MIME types")
    func declarations() {
        #expect(UniformType(filenameExtension: "ppm") == .ppm)
        #expect(UniformType(mimeType: "image/x-portable-pixmap") == .ppm)
        #expect(UniformType.ppm.preferredMIMEType == "image/x-portable-pixmap")
        #expect(UniformType(filenameExtension: "pam") == .pam)
        #expect(UniformType.pam.preferredMIMEType == "image/x-transferkit-pam")
        #expect(UniformType.rgbaPixels.isDeclared)
        for type in [UniformType.ppm, .pam, .rgbaPixels] {
            #expect(type.conforms(to: .image), "\(type)")
        }
    }
}
