/// Conversions between IEEE 754 binary16 ("half") bit patterns and `Double`/`Float`.
///
/// Written by hand because `Float16` is missing on some platforms (macOS on Intel).
enum FloatBits {
    /// The value of a half-precision bit pattern. NaNs come back as the quiet NaN.
    static func double(fromHalf bits: UInt16) -> Double {
        let negative = bits & 0x8000 != 0
        let exponent = Int((bits >> 10) & 0x1f)
        let mantissa = Int(bits & 0x3ff)
        let sign: FloatingPointSign = negative ? .minus : .plus
        switch exponent {
        case 0:
            // Subnormal (or zero): mantissa × 2⁻²⁴.
            return Double(sign: sign, exponent: -24, significand: Double(mantissa))
        case 31:
            if mantissa != 0 {
                return .nan
            }
            return negative ? -.infinity : .infinity
        default:
            return Double(sign: sign, exponent: exponent - 25, significand: Double(1024 + mantissa))
        }
    }

    /// The half-precision bit pattern of `value` if it represents `value` exactly; `nil` otherwise.
    /// NaN returns `nil` (callers write the canonical NaN themselves).
    static func half(exactly value: Float) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16(truncatingIfNeeded: bits >> 16) & 0x8000
        let exponent = Int((bits >> 23) & 0xff)
        let mantissa = bits & 0x7f_ffff
        if exponent == 0xff {
            return mantissa == 0 ? sign | 0x7c00 : nil
        }
        if exponent == 0 {
            // Float subnormals lie far below the smallest half subnormal (2⁻²⁴).
            return mantissa == 0 ? sign : nil
        }
        let unbiased = exponent - 127
        if (-14)...15 ~= unbiased {
            guard mantissa & 0x1fff == 0 else { return nil }
            return sign | UInt16(unbiased + 15) << 10 | UInt16(mantissa >> 13)
        }
        if (-24)...(-15) ~= unbiased {
            // A half subnormal counts units of 2⁻²⁴: (1.mantissa × 2^unbiased) / 2⁻²⁴.
            let significand = mantissa | 0x80_0000
            let shift = UInt32(-(unbiased + 1))
            guard significand & ((1 << shift) - 1) == 0 else { return nil }
            return sign | UInt16(significand >> shift)
        }
        return nil
    }

    /// The `Float` equal to `value`, if there is one (infinities included, NaN excluded).
    static func float(exactly value: Double) -> Float? {
        guard !value.isNaN else { return nil }
        let narrowed = Float(value)
        return Double(narrowed) == value ? narrowed : nil
    }
}
