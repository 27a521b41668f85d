extension JSONValue {
    /// The JSON Schema name of the value's type, for messages: `object`, `array`, `string`, `number`, `integer`,
    /// `boolean` or `null`.
    package var typeName: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: integer == nil ? "number" : "integer"
        case .bool: "boolean"
        case .null: "null"
        }
    }

    /// The text of a string.
    package var string: String? {
        guard case .string(let bytes, _) = self else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of a number that is a whole number and fits an `Int`: `3`, and also `3.0` or `3e0`, which JSON
    /// Schema counts as integers too.
    package var integer: Int? {
        guard case .number(let bytes, _) = self else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        if let value = Int(text) { return value }
        guard let value = Double(text), value.rounded() == value, abs(value) < 0x1p53 else { return nil }
        return Int(value)
    }

    /// The elements of an array.
    package var elements: [JSONValue]? {
        guard case .array(let elements, _) = self else { return nil }
        return elements
    }

    /// The members of an object, with their keys as strings, in document order.
    package var members: [(key: String, value: JSONValue)]? {
        guard case .object(let members, _) = self else { return nil }
        return members.map { (String(decoding: $0.key, as: UTF8.self), $0.value) }
    }
}
