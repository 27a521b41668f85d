#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decimal text of a floating-point number as C's `printf` writes it, which is what Foundation's
/// `String(format:)` gives for its `%f` conversions: `DecimalText.fixed(1.25, fractionDigits: 1)` is `"1.2"`
/// (correctly rounded, ties to even on the exact binary value), with a `.` whatever the locale.
package enum DecimalText {
    /// `value` with exactly `fractionDigits` digits after the point (0 to 17; more are cut to 17), as `%.Nf` writes it.
    package static func fixed(_ value: Double, fractionDigits: Int) -> String {
        let digits = Int32(min(max(fractionDigits, 0), 17))
        // Enough for any finite Double with 17 fraction digits: 309 integer digits, a sign, a point, 17 digits.
        var buffer = [CChar](repeating: 0, count: 340)
        let count = buffer.withUnsafeMutableBufferPointer { buffer in
            withVaList([digits, value]) { vsnprintf(buffer.baseAddress, buffer.count, "%.*f", $0) }
        }
        guard count >= 0 else { return "" }
        return String(
            decoding: buffer.prefix(min(Int(count), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
