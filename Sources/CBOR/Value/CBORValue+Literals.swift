extension CBORValue: ExpressibleByIntegerLiteral {
    /// An integer literal as `.unsigned` or `.negative`.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }
}

extension CBORValue: ExpressibleByFloatLiteral {
    /// A float literal as `.float`.
    public init(floatLiteral value: Double) {
        self = .float(value)
    }
}

extension CBORValue: ExpressibleByStringLiteral {
    /// A string literal as `.text`.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension CBORValue: ExpressibleByBooleanLiteral {
    /// A Boolean literal as `.bool`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension CBORValue: ExpressibleByArrayLiteral {
    /// An array literal as `.array`.
    public init(arrayLiteral elements: CBORValue...) {
        self = .array(CBORArray(elements))
    }
}

extension CBORValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal as `.map`, keeping the order written.
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self = .map(CBORMap(elements.map { MapEntry(key: $0.0, value: $0.1) }))
    }
}
