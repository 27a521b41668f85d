extension JSONValue {
    /// The value as compact JSON with object keys sorted by their UTF-8 bytes, strings escaped as ``JSONOutput``
    /// does, and numbers in one spelling (a whole number that fits 64 bits as an integer, any other as the
    /// shortest decimal that reads back as the same `Double`).
    ///
    /// Two documents that differ only in white space, key order, escapes or number spelling (`1.0` and `1`,
    /// `1e2` and `100`) have the same canonical text, so comparing it compares values.
    package var canonicalText: [UInt8] {
        var output = JSONOutput()
        write(to: &output)
        return output.bytes
    }

    private func write(to output: inout JSONOutput) {
        switch self {
        case .object(let members, _):
            output.raw("{")
            for (index, member) in members.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).enumerated() {
                if index > 0 { output.raw(",") }
                output.string(member.key)
                output.raw(":")
                member.value.write(to: &output)
            }
            output.raw("}")
        case .array(let elements, _):
            output.raw("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { output.raw(",") }
                element.write(to: &output)
            }
            output.raw("]")
        case .string(let bytes, _):
            output.string(bytes)
        case .number(let bytes, _):
            output.raw(Self.canonicalNumber(String(decoding: bytes, as: UTF8.self)))
        case .bool(let value):
            output.raw(value ? "true" : "false")
        case .null:
            output.raw("null")
        }
    }

    /// `text` (valid JSON number syntax) in its one spelling.
    private static func canonicalNumber(_ text: String) -> String {
        if let integer = Int64(text) { return String(integer) }
        guard let double = Double(text), double.isFinite else { return text }
        if double.rounded() == double, let integer = Int64(exactly: double) { return String(integer) }
        return "\(double)"
    }
}
