/// The inputs the zlib tests deflate, shared by the unit tests (round trips) and the integration test (Python's zlib
/// inflates them): empty, one byte, 70 000 bytes of noise, repeated text, one repeated byte, and noise then text.
public func deflaterSamples() -> [[UInt8]] {
    var generator = SplitMix64(state: 25)
    let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let text = Array((0..<3000).map { "row \($0 % 97) of something that repeats\n" }.joined().utf8)
    return [[], [7], noise, text, [UInt8](repeating: 9, count: 200_000), Array(noise.prefix(300)) + text]
}
