/// How large an image the decoders accept: a file's header can claim any size, and its pixels are allocated
/// before they are read.
public struct ImageLimits: Sendable, Hashable {
    /// The most pixels (width × height) an image may have; each costs 4 bytes decoded.
    public var maximumPixelCount: Int

    /// Limits with the given pixel count.
    public init(maximumPixelCount: Int) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// 64 Mi pixels (256 MiB of RGBA; 8192 × 8192).
    public static var `default`: ImageLimits { ImageLimits(maximumPixelCount: 1 << 26) }

    /// Checks `width × height` against the limit and that both are at least 1.
    func check(width: Int, height: Int, format: String) throws(ImagingError) -> Int {
        guard width >= 1, height >= 1 else {
            throw ImagingError(code: .invalidHeader, message: "the \(format) header gives \(width)×\(height) pixels")
        }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, area <= maximumPixelCount else {
            throw ImagingError(
                code: .limitExceeded,
                message: "the \(format) image of \(width)×\(height) pixels is over the limit of \(maximumPixelCount) "
                    + "pixels (ImageLimits.maximumPixelCount)")
        }
        return area
    }
}
