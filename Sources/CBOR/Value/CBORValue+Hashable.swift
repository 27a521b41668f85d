extension CBORValue: Hashable {
    /// Whether two items are the same in the CBOR data model (see ``CBORValue``); maps are
    /// equal when they hold the same pairs in any order.
    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)):
            return a == b
        case (.bytes(let a), .bytes(let b)):
            return a == b
        case (.text(let a), .text(let b)):
            return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)):
            return a == b
        case (.map(let a), .map(let b)):
            return a == b
        case (.tagged(let tagA, let a), .tagged(let tagB, let b)):
            return tagA == tagB && a == b
        case (.simple(let a), .simple(let b)):
            return a == b
        case (.bool(let a), .bool(let b)):
            return a == b
        case (.null, .null), (.undefined, .undefined):
            return true
        case (.float(let a), .float(let b)):
            return (a.isNaN && b.isNaN) || a.bitPattern == b.bitPattern
        default:
            return false
        }
    }

    /// Hashes the item consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let n):
            hasher.combine(0 as UInt8)
            hasher.combine(n)
        case .negative(let n):
            hasher.combine(1 as UInt8)
            hasher.combine(n)
        case .bytes(let bytes):
            hasher.combine(2 as UInt8)
            hasher.combine(bytes)
        case .text(let text):
            hasher.combine(3 as UInt8)
            hasher.combine(text.utf8.count)
            for byte in text.utf8 {
                hasher.combine(byte)
            }
        case .array(let items):
            hasher.combine(4 as UInt8)
            hasher.combine(items)
        case .map(let entries):
            hasher.combine(5 as UInt8)
            hasher.combine(entries)  // independent of the pairs' order, as `==` is
        case .tagged(let tag, let content):
            hasher.combine(6 as UInt8)
            hasher.combine(tag)
            hasher.combine(content)
        case .simple(let value):
            hasher.combine(7 as UInt8)
            hasher.combine(value)
        case .bool(let value):
            hasher.combine(8 as UInt8)
            hasher.combine(value)
        case .null:
            hasher.combine(9 as UInt8)
        case .undefined:
            hasher.combine(10 as UInt8)
        case .float(let value):
            hasher.combine(11 as UInt8)
            hasher.combine(value.isNaN ? Double.nan.bitPattern : value.bitPattern)
        }
    }
}
