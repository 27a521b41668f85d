extension CBORValue {
    /// The value of an `.unsigned` item; `nil` for anything else.
    public var unsignedInteger: UInt64? {
        if case .unsigned(let n) = self { return n }
        return nil
    }

    /// The value of an `.unsigned` or `.negative` item if it fits in `Int64`; `nil` otherwise.
    public var integer: Int64? {
        switch self {
        case .unsigned(let n):
            return Int64(exactly: n)
        case .negative(let n):
            return Int64(exactly: n).map { ~$0 }
        default:
            return nil
        }
    }

    /// The bytes of a `.bytes` item; `nil` for anything else.
    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The text of a `.text` item; `nil` for anything else.
    public var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of an `.array`; `nil` for anything else. `Array(value.arrayValue ?? [])` makes a `[CBORValue]`.
    public var arrayValue: CBORArray? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The pairs of a `.map`, in order; `nil` for anything else.
    public var mapEntries: CBORMap? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The tag number of a `.tagged` item; `nil` for anything else.
    public var tagNumber: UInt64? {
        if case .tagged(let tag, _) = self { return tag }
        return nil
    }

    /// The content of a `.tagged` item; `nil` for anything else.
    public var taggedContent: CBORValue? {
        if case .tagged(_, let content) = self { return content }
        return nil
    }

    /// The value of a `.bool` item; `nil` for anything else.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value of a `.float` item; `nil` for anything else (integers included).
    public var doubleValue: Double? {
        if case .float(let value) = self { return value }
        return nil
    }

    /// The value of a `.simple` item; `nil` for anything else.
    public var simpleValue: UInt8? {
        if case .simple(let value) = self { return value }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value for the first pair whose key is the given item, in a `.map`; `nil` if there
    /// is none or this is not a map.
    /// - Parameter key: The key to look for, compared with ``==(_:_:)``.
    public func mapValue(forKey key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries[key]
    }

    /// The value for a text key in a `.map`; `nil` if there is none or this is not a map.
    ///
    /// ```swift
    /// let header: CBORValue = ["version": 1]
    /// header["version"]?.unsignedInteger  // 1
    /// ```
    public subscript(key: String) -> CBORValue? {
        mapValue(forKey: .text(key))
    }

    /// The item at `index` of an `.array`; `nil` if out of range or this is not an array.
    public subscript(index: Int) -> CBORValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
