#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a read at a byte offset failed, before it has a coding path.
struct CBORDecodingFailure: Error {
    enum Kind {
        /// Malformed input or a broken limit: `DecodingError.dataCorrupted`.
        case corrupted
        /// Another type of item: `DecodingError.typeMismatch`; the message names what was found.
        case mismatch
        /// Null or undefined: `DecodingError.valueNotFound`.
        case null
    }

    var kind: Kind
    var message: String
    var offset: Int

    static func corrupted(_ message: String, at offset: Int) -> Self {
        Self(kind: .corrupted, message: message, offset: offset)
    }
}

/// One decode: the input, the keys of the maps being decoded, and the `Decoder` that values decode themselves from.
///
/// The input is read in place. A keyed container walks its map once and keeps, for each entry, where the key's
/// bytes are and where the value starts (in `entries`, a stack shared by all containers), and looks keys up by
/// comparing bytes, so no `String` or dictionary is made for keys unless a key strategy needs one.
final class CBORDecodingState: Decoder {
    /// The input; empty once the decode has returned, so a container kept past it reads nothing.
    @exclusivity(unchecked) private(set) var input: UnsafeRawBufferPointer
    /// The coding path of the value being decoded (``codingPath``, kept lazily).
    @exclusivity(unchecked) var path: CBORCodingPath
    var codingPath: [any CodingKey] { path.keys }
    @exclusivity(unchecked) private(set) var options: CBORDecoder
    @exclusivity(unchecked) private(set) var usesDefaultKeys: Bool
    /// Per map entry of the open keyed containers: key offset, key length, value offset.
    @exclusivity(unchecked) var entries: [Int] = []
    /// How many of `entries` are in use: the array only grows, so that a nested value's entries cost no
    /// allocation or removal.
    @exclusivity(unchecked) var entryCount = 0
    /// The mark written after the entries of the last map walked (``scanMap(at:)``); each walk counts it down.
    @exclusivity(unchecked) var lastMark = 0
    /// Where the value that `self` decodes (as a `Decoder`) starts.
    @exclusivity(unchecked) var offset = 0
    /// The end of that value once a container has walked it, or -1.
    @exclusivity(unchecked) var valueEnd = -1
    @exclusivity(unchecked) var depth = 0
    /// The last types `arrayDecoding(of:)` found not to be arrays it reads (a record and the types of its nested
    /// values take turns), the newest where `nextPlainType` pointed before it moved on.
    @exclusivity(unchecked) var plainTypes:
        (ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?) = (nil, nil, nil, nil)
    @exclusivity(unchecked) var nextPlainType = 0
    /// Decoders made for `superDecoder()`, which must stop reading when the decode returns.
    @exclusivity(unchecked) private var spawned: [CBORDecodingState] = []
    /// The depth at which `decodeRecords` decodes the items of an array of records with the default keys; else,
    /// in a decode with the default keys (a state from ``make(input:options:)``), ``unclaimedDepth`` until the first
    /// keyed container is asked for, then that container's depth (the top-level value's, or the value that a
    /// wrapper decodes through its single-value container); else -1.
    @exclusivity(unchecked) var recordDepth = -1
    /// The keyed container of the last item of that array (or the first of the last decode), its key type and the
    /// `KeyedDecodingContainer` box around it: the next item of the type takes them back once nobody else holds the
    /// box (``container(keyedBy:)``).
    @exclusivity(unchecked) var recordContainer: CBORKeyedDecodingContainerBase?
    @exclusivity(unchecked) var recordKeyType: ObjectIdentifier?
    @exclusivity(unchecked) var recordBox: AnyObject?

    init(input: UnsafeRawBufferPointer, options: CBORDecoder, codingPath: [any CodingKey] = []) {
        self.input = input
        self.options = options
        path = CBORCodingPath(codingPath)
        usesDefaultKeys = options.keyDecodingStrategy.isDefault
    }

    /// ``recordDepth`` in a decode with the default keys before any keyed container is asked for.
    static let unclaimedDepth = -2

    /// A state for a new top-level decode: the spare one, reset, or a new one.
    static func make(input: UnsafeRawBufferPointer, options: CBORDecoder) -> CBORDecodingState {
        guard let state = decodingStateCache.take() else {
            let state = CBORDecodingState(input: input, options: options)
            state.recordDepth = state.usesDefaultKeys ? unclaimedDepth : -1
            return state
        }
        state.input = input
        if !(options.hasDefaultOptions && state.options.hasDefaultOptions) {
            state.options = options
            state.usesDefaultKeys = options.keyDecodingStrategy.isDefault
        }
        state.recordDepth = state.usesDefaultKeys ? unclaimedDepth : -1
        if state.path.count > 0 {
            state.path.removeAll()
        }
        state.entryCount = 0
        state.offset = 0
        state.valueEnd = -1
        state.depth = 0
        return state
    }

    /// Stops `state` reading the input and hands it back for the next decode.
    ///
    /// The decode's first keyed container stays for the next decode if nothing else holds it, parked meanwhile
    /// (it no longer keeps the state alive; ``CBORKeyedDecodingContainerBase/park()``); one held elsewhere (a value
    /// kept its container) is let go, to read nothing from now on.
    static func recycle(_ state: inout CBORDecodingState) {
        state.invalidate()
        if let container = state.recordContainer {
            if isKnownUniquelyReferenced(&state.recordBox) {
                container.park()
            } else {
                (state.recordContainer, state.recordKeyType, state.recordBox) = (nil, nil, nil)
            }
        }
        if state.entries.count > 1 << 12 {
            state.entries = []  // a large map's entries are not worth keeping
        }
        decodingStateCache.giveBack(&state)
    }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func invalidate() {
        input = UnsafeRawBufferPointer(start: nil, count: 0)
        for child in spawned {
            child.invalidate()
        }
        spawned = []
    }

    // MARK: - Errors

    func error(_ failure: CBORDecodingFailure, _ type: Any.Type, path: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: path, debugDescription: "\(failure.message) (at byte offset \(failure.offset))")
        switch failure.kind {
        case .corrupted: return .dataCorrupted(context)
        case .mismatch: return .typeMismatch(type, context)
        case .null: return .valueNotFound(type, context)
        }
    }

    // MARK: - The top level and nesting

    func decodeTopLevel<T: Decodable>(_ type: T.Type) throws -> T {
        var end = 0
        let value: T
        do {
            if let kind = CBORPrimitive.of(type) {
                value = try readPrimitive(kind, as: type, at: &end)
            } else {
                value = try decodeNested(type, at: 0, step: .none, in: nil, end: &end)
            }
        } catch let failure as CBORDecodingFailure {
            throw error(failure, type, path: [])
        }
        if end != input.count {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "\(input.count - end) bytes follow the data item (at byte offset \(end)); the input must "
                        + "hold exactly one"))
        }
        return value
    }

    /// Decodes a value of a type that is not a primitive, starting at `offset`, through `init(from:)` (or a
    /// strategy or an array loop); sets `end`, if given, to where the value ends.
    ///
    /// `path` is the coding path of the container the value is in, `nil` when that is this decoder's own (a
    /// top-level value, a record's own container: no copy of the path to pass), and `step` what the value adds to
    /// it: its key or index.
    func decodeNested<T: Decodable>(
        _ type: T.Type, at start: Int, step: consuming CBORCodingPath.Step, in path: CBORCodingPath?,
        end: UnsafeMutablePointer<Int>?
    ) throws -> T {
        guard depth < options.limits.maxNestingDepth else {
            throw tooDeep(at: start, path: (path ?? self.path).pushing(step))
        }
        let savedOffset = offset
        let savedEnd = valueEnd
        let savedEntries = entryCount
        let savedPath: CBORCodingPath?
        let pushes = step.addsKey
        // The container is usually this decoder's own: then its path is ours and the step is pushed; a nested
        // container's path has more keys than ours. The step is consumed: its key moves onto the path, not copied.
        if let path, path.count != self.path.count {
            savedPath = self.path
            self.path = path.pushing(step)
        } else {
            savedPath = nil
            self.path.push(step)
        }
        offset = start
        valueEnd = -1
        depth += 1
        defer {
            if let savedPath {
                self.path = savedPath
            } else if pushes {
                self.path.pop()
            }
            depth -= 1
            offset = savedOffset
            valueEnd = savedEnd
            entryCount = savedEntries
        }
        if let element = CBORPrimitive.elementOf(type) {
            var arrayEnd = 0
            let array = try decodePrimitiveArray(element, as: type, at: start, end: &arrayEnd)
            end?.pointee = arrayEnd
            return array
        }
        let value: T
        // `Date`, `Data` and `URL` are told apart by comparing metatypes, before the dynamic cast that finds arrays.
        if let special = CBORSpecialType.of(type) {
            value = try decodeSpecial(special, as: type)
        } else if let arrayType = arrayDecoding(of: type) {
            var arrayEnd = 0
            let array = try decodeArray(arrayType, as: type, at: start, end: &arrayEnd)
            end?.pointee = arrayEnd
            return array
        } else {
            value = try T(from: self)
        }
        guard let end else { return value }
        if valueEnd >= 0 {
            end.pointee = valueEnd
            return value
        }
        do {
            end.pointee = try skip(at: start)
        } catch let failure {
            throw error(failure, type, path: codingPath)
        }
        return value
    }

    /// The error for a value at `start`, with coding path `path`, nested deeper than the limit allows.
    func tooDeep(at start: Int, path: CBORCodingPath) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path.keys,
                debugDescription:
                    "values are nested more than \(options.limits.maxNestingDepth) levels deep (at byte offset "
                    + "\(start)); raise CBORDecoder.limits.maxNestingDepth if that is expected"))
    }

    /// A `Date`, `Data` or `URL` decoded as the strategies say.
    private func decodeSpecial<T: Decodable>(_ special: CBORSpecialType, as type: T.Type) throws -> T {
        switch special {
        case .date:
            guard let date = try decodeDate() else { return try T(from: self) }
            return unsafeBitCast(date, to: T.self)
        case .data:
            guard let data = try decodeData() else { return try T(from: self) }
            return unsafeBitCast(data, to: T.self)
        case .url:
            var position = offset
            let text = try readOrThrow(String.self) { () throws(CBORDecodingFailure) in try readString(at: &position) }
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath, debugDescription: "\"\(text)\" is not a URL (at byte offset \(offset))")
                )
            }
            valueEnd = position
            return unsafeBitCast(url, to: T.self)
        }
    }

    /// Runs `read`, giving its failure the coding path of the value being decoded.
    private func readOrThrow<R>(_ type: Any.Type, _ read: () throws(CBORDecodingFailure) -> R) throws -> R {
        do {
            return try read()
        } catch {
            throw self.error(error, type, path: codingPath)
        }
    }

    private func decodeDate() throws -> Date? {
        var position = offset
        let date: Date
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            return nil
        case .custom(let closure):
            return try closure(self)
        case .secondsSince1970:
            date = Date(
                timeIntervalSince1970: try readOrThrow(Date.self) { () throws(CBORDecodingFailure) in
                    try readDouble(at: &position)
                })
        case .millisecondsSince1970:
            date = Date(
                timeIntervalSince1970: try readOrThrow(Date.self) { () throws(CBORDecodingFailure) in
                    try readDouble(at: &position)
                } / 1000)
        case .taggedEpochSeconds:
            let seconds = try readOrThrow(Date.self) { () throws(CBORDecodingFailure) -> Double in
                let head = try head(at: position)
                guard head.initial == 0xc1 else {
                    throw CBORDecodingFailure(
                        kind: head.initial == 0xf6 || head.initial == 0xf7 ? .null : .mismatch,
                        message: "expected tag 1 (an epoch-based date) but found \(describe(head.initial))",
                        offset: position)
                }
                position = head.next
                return try readDouble(at: &position)
            }
            date = Date(timeIntervalSince1970: seconds)
        case .iso8601:
            let text = try readOrThrow(Date.self) { () throws(CBORDecodingFailure) in try readString(at: &position) }
            guard let parsed = try? Date(text, strategy: .iso8601) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "\"\(text)\" is not an ISO 8601 date (at byte offset \(offset))"))
            }
            date = parsed
        }
        valueEnd = position
        return date
    }

    private func decodeData() throws -> Data? {
        var position = offset
        let data: Data
        switch options.dataDecodingStrategy {
        case .deferredToData:
            return nil
        case .custom(let closure):
            return try closure(self)
        case .byteString:
            data = try readOrThrow(Data.self) { () throws(CBORDecodingFailure) in try readBytes(at: &position) }
        case .base64:
            let text = try readOrThrow(Data.self) { () throws(CBORDecodingFailure) in try readString(at: &position) }
            guard let decoded = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath, debugDescription: "the text is not Base64 (at byte offset \(offset))"))
            }
            data = decoded
        }
        valueEnd = position
        return data
    }

    /// A super decoder: a decoder of its own over the value at `start` (null when there is none).
    func makeSuperDecoder(at start: Int?, path: [any CodingKey]) -> CBORDecodingState {
        let child = CBORDecodingState(
            input: start == nil ? CBORDecodingState.null : input, options: options, codingPath: path)
        child.offset = start ?? 0
        child.depth = depth
        spawned.append(child)
        return child
    }

    /// One null byte, the value of a super decoder whose key is missing.
    nonisolated(unsafe) static let null: UnsafeRawBufferPointer = {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        buffer[0] = 0xf6
        return UnsafeRawBufferPointer(buffer)
    }()
}

extension CBORDecoder {
    /// Whether every strategy and limit is the default one and `userInfo` is empty.
    var hasDefaultOptions: Bool {
        guard case .deferredToDate = dateDecodingStrategy, case .byteString = dataDecodingStrategy,
            case .useDefaultKeys = keyDecodingStrategy
        else { return false }
        return limits == .default && userInfo.isEmpty
    }
}

extension CBORDecoder.KeyDecodingStrategy {
    var isDefault: Bool {
        if case .useDefaultKeys = self {
            return true
        }
        return false
    }
}
