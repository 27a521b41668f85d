/// A deterministic random number generator (SplitMix64), so a test that draws random cases reproduces its
/// failures from the seed.
public struct SplitMix64: RandomNumberGenerator {
    /// The state; the seed to start from.
    public var state: UInt64

    /// A generator that starts from `seed`.
    public init(state seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
