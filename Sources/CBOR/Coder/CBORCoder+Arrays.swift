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

    /// The item count of the array at `start` and where its first item starts; a failure names `type`.
    private func arrayHead(at start: Int, as type: Any.Type) throws -> (count: Int, first: Int) {
        do throws(CBORDecodingFailure) {
            let head = try head(at: start)
            guard head.majorType == 4 else { throw mismatch("an array", at: start) }
            return (try collectionCount(head, at: start), head.next)
        } catch {
            throw self.error(error, type, path: codingPath)
        }
    }

    /// Reads an array whose elements `read` reads, as `[E]`, which `T` is.
    @inline(__always)
    private func readArray<E, T>(
        at start: Int, as type: T.Type, end: inout Int, _ read: (inout Int) throws(CBORDecodingFailure) -> E
    ) throws -> T {
        let (count, first) = try arrayHead(at: start, as: T.self)
        var offset = first
        var elements: [E] = []
        elements.reserveCapacity(count)
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

/// An array whose elements decode through their own `init(from:)` (or are primitives the list above leaves out),
/// read in one loop by ``CBORDecodingState/decodeArray(of:at:end:)`` instead of `Array`'s `init(from:)`, which
/// goes through an unkeyed container, an existential `decode` call and a generic `append` per element.
protocol CBORArrayDecodable {
    /// Reads the array at `start`; sets `end` to where it ends.
    static func decodeCBORArray(_ state: CBORDecodingState, at start: Int, end: inout Int) throws -> Self
}

extension Array: CBORArrayDecodable where Element: Decodable {
    static func decodeCBORArray(_ state: CBORDecodingState, at start: Int, end: inout Int) throws -> [Element] {
        try state.decodeArray(of: Element.self, at: start, end: &end)
    }
}

extension CBORDecodingState {
    /// `type` as an array the loop below reads, or `nil`.
    ///
    /// The answer is a dynamic cast; the last four types that are not such arrays are remembered, so that an array of
    /// records (each a nested decode of the record's type, and of the types of its nested values, in turn) does not
    /// pay for it again per item.
    @inline(__always)
    func arrayDecoding<T>(of type: T.Type) -> (any CBORArrayDecodable.Type)? {
        let identity = ObjectIdentifier(type)
        let plain = plainTypes
        if identity == plain.0 || identity == plain.1 || identity == plain.2 || identity == plain.3 {
            return nil
        }
        guard let arrayType = type as? any CBORArrayDecodable.Type else {
            switch nextPlainType {
            case 0: plainTypes.0 = identity
            case 1: plainTypes.1 = identity
            case 2: plainTypes.2 = identity
            default: plainTypes.3 = identity
            }
            nextPlainType = (nextPlainType + 1) & 3
            return nil
        }
        return arrayType
    }

    /// Reads a `T`, the array type `arrayType`, at `start`; sets `end` to where it ends.
    func decodeArray<T>(
        _ arrayType: any CBORArrayDecodable.Type, as type: T.Type, at start: Int, end: inout Int
    )
        throws -> T
    {
        func read<A: CBORArrayDecodable>(_ array: A.Type) throws -> T {
            // `A` is `T`, as the caller found by casting `T`'s metatype.
            unsafeBitCast(try A.decodeCBORArray(self, at: start, end: &end), to: T.self)
        }
        return try read(arrayType)
    }

    /// Reads an array of `E` at `start`, each element through `decodeNested` (or as a primitive), in one loop.
    func decodeArray<E: Decodable>(of element: E.Type, at start: Int, end: inout Int) throws -> [E] {
        let (count, first) = try arrayHead(at: start, as: [E].self)
        let primitive = CBORPrimitive.of(E.self)
        if count > 0, primitive == nil, CBORPrimitive.elementOf(E.self) == nil, CBORSpecialType.of(E.self) == nil,
            arrayDecoding(of: E.self) == nil
        {
            return try decodeRecords(of: E.self, count: count, from: first, end: &end)
        }
        var offset = first
        var elements: [E] = []
        elements.reserveCapacity(count)  // collectionCount bounds it by the bytes left
        if let primitive {
            for index in 0..<count {
                do {
                    elements.append(try readPrimitive(primitive, as: E.self, at: &offset))
                } catch {
                    throw self.error(error, E.self, path: codingPath + [CBORCodingKey(intValue: index)])
                }
            }
        } else {
            for index in 0..<count {
                var next = 0
                elements.append(
                    try decodeNested(E.self, at: offset, step: .index(index), in: nil, end: &next))
                offset = next
            }
        }
        end = offset
        return elements
    }

    /// Reads `count` items, from `first`, of a type that decodes itself through `init(from:)` (not a primitive, a
    /// special type or an array); sets `end` to where the last one ends.
    ///
    /// What ``decodeNested(_:at:step:in:end:)`` does per item, with what is the same for every item done once: the
    /// type's classification, the depth check, the saved state and the array's type. Per item, only the index on
    /// the path changes. `count` is at most the bytes left (``arrayHead(at:as:)``), so the capacity is bounded.
    private func decodeRecords<E: Decodable>(
        of type: E.Type, count: Int, from first: Int, end: inout Int
    ) throws -> [E] {
        guard depth < options.limits.maxNestingDepth else {
            throw tooDeep(at: first, path: path.pushing(.index(0)))
        }
        let savedOffset = offset
        let savedEnd = valueEnd
        let savedEntries = entryCount
        let savedRecords = (recordDepth, recordContainer, recordKeyType, recordBox)
        depth += 1
        recordDepth = usesDefaultKeys ? depth : -1
        defer {
            depth -= 1
            offset = savedOffset
            valueEnd = savedEnd
            entryCount = savedEntries
            // The last item's container refers to this state: it must not outlive the array here.
            (recordDepth, recordContainer, recordKeyType, recordBox) = savedRecords
        }
        var position = first
        // Built in place: `append` asked the runtime for `[E]`'s metadata on every item.
        let elements = try [E](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                path.pushIndex(index)
                defer { path.pop() }
                offset = position
                valueEnd = -1
                entryCount = savedEntries
                buffer.initializeElement(at: index, to: try E(from: self))
                initialized = index + 1
                if valueEnd >= 0 {
                    position = valueEnd
                } else {
                    do throws(CBORDecodingFailure) {
                        position = try skip(at: position)
                    } catch {
                        throw self.error(error, type, path: codingPath)
                    }
                }
            }
        }
        end = position
        return elements
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
