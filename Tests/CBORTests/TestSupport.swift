import CBOR

/// Bytes from hex digits; spaces are ignored. Test-only: bad digits become 0 and fail the test.
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
}

/// Lowercase hex digits of `bytes`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

/// The code of the error that decoding `input` throws, or `nil` if it decodes.
func decodingErrorCode(
    _ input: [UInt8], limits: CBORReader.Limits = .default, deterministic: Bool = false
)
    -> CBORError.Code?
{
    do {
        _ = try CBORValue(decoding: input, limits: limits, requireDeterministic: deterministic)
        return nil
    } catch {
        return error.code
    }
}
