/// The canonical text of a binary64 float in the text form (spec section 5.2): the shortest decimal that reads back
/// as the same value, positional when its decimal exponent is from −4 to 15, otherwise `d.ddde±XX`.
///
/// Swift's `Double.description` gives the shortest round-trip digits (the nearest of them to the exact value), but
/// switches to exponent notation at 2^53 rather than at 10^16; only its digits and exponent are used here, and the
/// notation is chosen by the spec's rule, which is Python's `repr(float)`.
enum CanonicalFloat {
    /// The canonical text of a finite `value`: `1.0`, `0.0001`, `9500000000000000.0`, `1e+16`, `1e-05`, `5e-324`.
    static func text(_ value: Double) -> String {
        let (negative, digits, exponent) = decimal(value)
        var text = negative ? "-" : ""
        guard !digits.isEmpty else { return text + "0.0" }
        if (-4...15).contains(exponent) {
            if exponent >= 0 {
                let whole = digits.prefix(exponent + 1)
                text += whole + String(repeating: "0", count: exponent + 1 - whole.count) + "."
                let fraction = digits.dropFirst(exponent + 1)
                text += fraction.isEmpty ? "0" : fraction
            } else {
                text += "0." + String(repeating: "0", count: -exponent - 1) + digits
            }
        } else {
            text += String(digits.prefix(1))
            if digits.count > 1 { text += "." + digits.dropFirst() }
            let magnitude = String(abs(exponent))
            text += (exponent < 0 ? "e-" : "e+") + (magnitude.count < 2 ? "0" : "") + magnitude
        }
        return text
    }

    /// The shortest round-trip digits of `value` without leading or trailing zeros (empty for zero) and the decimal
    /// exponent `x` of the first digit: value = ±d1.d2…dn × 10^x.
    static func decimal(_ value: Double) -> (negative: Bool, digits: String, exponent: Int) {
        var description = Substring(value.magnitude.description)
        var exponent = 0
        if let marker = description.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(description[description.index(after: marker)...]) ?? 0
            description = description[..<marker]
        }
        let point = description.firstIndex(of: ".") ?? description.endIndex
        let whole = description[..<point]
        let fraction = point == description.endIndex ? "" : description[description.index(after: point)...]
        let all = whole + fraction
        let leadingZeros = all.prefix { $0 == "0" }.count
        var digits = Substring(all.dropFirst(leadingZeros))
        while digits.last == "0" { digits.removeLast() }
        return (value.sign == .minus, String(digits), exponent + whole.count - leadingZeros - 1)
    }
}
