#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The types the coder reads and writes without `init(from:)` or `encode(to:)`: those CBOR has an item for.
///
/// Generic code of the coder runs unspecialized (the value types belong to other modules), so it tells types
/// apart by comparing metatypes, and returns this non-generic enum rather than a `T?`, whose metadata the runtime
/// would have to look up on each call.
enum CBORPrimitive {
    case string, int, double, bool, float, int64, uint64, uint, int32, uint32, int16, uint16, int8, uint8

    /// The primitive `type` is, if it is one.
    @inline(__always)
    static func of<T>(_ type: T.Type) -> CBORPrimitive? {
        if T.self == String.self { return .string }
        if T.self == Int.self { return .int }
        if T.self == Double.self { return .double }
        if T.self == Bool.self { return .bool }
        if T.self == Float.self { return .float }
        if T.self == Int64.self { return .int64 }
        if T.self == UInt64.self { return .uint64 }
        if T.self == UInt.self { return .uint }
        if T.self == Int32.self { return .int32 }
        if T.self == UInt32.self { return .uint32 }
        if T.self == Int16.self { return .int16 }
        if T.self == UInt16.self { return .uint16 }
        if T.self == Int8.self { return .int8 }
        if T.self == UInt8.self { return .uint8 }
        return nil
    }

    /// The primitive that `type` is an array of, for the array types the coder reads in one loop.
    @inline(__always)
    static func elementOf<T>(_ type: T.Type) -> CBORPrimitive? {
        if T.self == [String].self { return .string }
        if T.self == [Int].self { return .int }
        if T.self == [Double].self { return .double }
        if T.self == [Bool].self { return .bool }
        if T.self == [Float].self { return .float }
        if T.self == [Int64].self { return .int64 }
        if T.self == [UInt64].self { return .uint64 }
        if T.self == [Int32].self { return .int32 }
        if T.self == [UInt8].self { return .uint8 }
        return nil
    }
}

/// Types that the strategies handle.
enum CBORSpecialType {
    case date, data, url

    @inline(__always)
    static func of<T>(_ type: T.Type) -> CBORSpecialType? {
        if T.self == Date.self { return .date }
        if T.self == Data.self { return .data }
        if T.self == URL.self { return .url }
        return nil
    }
}
