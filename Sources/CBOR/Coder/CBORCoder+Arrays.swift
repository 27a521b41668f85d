/// Arrays of primitives, read and written in one loop.
///
/// `Array`'s own `Codable` conformance is generic code of the standard library that runs unspecialized: per
/// element it goes through an unkeyed container, a generic `decode`, and an `append` that looks up type metadata
/// (about 3 000 instructions per element when decoding). These loops are specialized for each element type.
extension CBORDecodingState {
    /// Reads a `T`, an array of the primitive `element`, at `start`; sets `end` to where it ends.
    func decodePrimitiveArray<T>(
        _ element: CBORPrimitive, as type: T.Type, at start: Int, end: inout Int
    ) throws -> T {
        switch element {
        case .string:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readString(at: &o)
            }
        case .int:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readInteger(Int.self, at: &o)
            }
        case .double:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readDouble(at: &o)
            }
        case .bool:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readBool(at: &o)
            }
        case .float:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readFloat(at: &o)
            }
        case .int64:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readInteger(Int64.self, at: &o)
            }
        case .uint64:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readInteger(UInt64.self, at: &o)
            }
        case .int32:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readInteger(Int32.self, at: &o)
            }
        case .uint8:
            return try readArray(at: start, as: T.self, end: &end) { o throws(CBORDecodingFailure) in
                try readInteger(UInt8.self, at: &o)
            }
        default:
            // Not in CBORPrimitive.elementOf's list.
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "no array reader for \(T.self)"))
        }
    }

    /// Reads an array whose elements `read` reads, as `[E]`, which `T` is.
    @inline(__always)
    private func readArray<E, T>(
        at start: Int, as type: T.Type, end: inout Int, _ read: (inout Int) throws(CBORDecodingFailure) -> E
    ) throws -> T {
        var elements: [E] = []
        var offset = start
        var count = 0
        do throws(CBORDecodingFailure) {
            let head = try head(at: start)
            guard head.majorType == 4 else { throw mismatch("an array", at: start) }
            count = try collectionCount(head, at: start)
            elements.reserveCapacity(count)
            offset = head.next
        } catch {
            throw self.error(error, T.self, path: codingPath)
        }
        for index in 0..<count {
            do {
                elements.append(try read(&offset))
            } catch {
                throw self.error(error, E.self, path: codingPath + [CBORCodingKey(intValue: index)])
            }
        }
        end = offset
        return unsafeBitCast(elements, to: T.self)
    }
}

extension CBOREncodingState {
    /// Writes `value` if it is an array of a primitive type; returns whether it did.
    func writePrimitiveArray<T>(_ value: T) -> Bool {
        if T.self == [String].self {
            writeArray(unsafeBitCast(value, to: [String].self)) { writeText($0) }
        } else if T.self == [Int].self {
            writeArray(unsafeBitCast(value, to: [Int].self)) { writeInteger(Int64($0)) }
        } else if T.self == [Double].self {
            writeArray(unsafeBitCast(value, to: [Double].self)) { writeDouble($0) }
        } else if T.self == [Bool].self {
            writeArray(unsafeBitCast(value, to: [Bool].self)) { output.append($0 ? 0xf5 : 0xf4) }
        } else if T.self == [Float].self {
            writeArray(unsafeBitCast(value, to: [Float].self)) { writeDouble(Double($0)) }
        } else if T.self == [Int64].self {
            writeArray(unsafeBitCast(value, to: [Int64].self)) { writeInteger($0) }
        } else if T.self == [UInt64].self {
            writeArray(unsafeBitCast(value, to: [UInt64].self)) { writeHead(0x00, $0) }
        } else if T.self == [Int32].self {
            writeArray(unsafeBitCast(value, to: [Int32].self)) { writeInteger(Int64($0)) }
        } else if T.self == [UInt8].self {
            writeArray(unsafeBitCast(value, to: [UInt8].self)) { writeHead(0x00, UInt64($0)) }
        } else {
            return false
        }
        return true
    }

    @inline(__always)
    private func writeArray<E>(_ elements: [E], _ write: (E) -> Void) {
        writeHead(0x80, UInt64(elements.count))
        for element in elements {
            write(element)
        }
    }
}
