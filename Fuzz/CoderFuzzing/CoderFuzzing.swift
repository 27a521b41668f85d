import CBOR
public import Foundation

/// The checks of the Codable CBOR coder's fuzzer (`CBORCodableFuzzer`).
///
/// Each input is decoded as a few types under options chosen from its length. Whatever decodes must encode,
/// the encoding must be deterministic CBOR (the strict reader in deterministic mode accepts it) and must decode
/// and encode again to the same bytes, except with the snake-case key strategies: converting keys is not a
/// bijection (`taA#H` → `ta_a#H` → `taA#h`: the rule lowercases words), for this coder as for `JSONEncoder`,
/// so there the second encoding need only decode, and the first may be refused for keys that convert to one. A value of ``Tree`` (any plain CBOR) that decodes must also be readable by
/// ``CBORValue``. Every input is also read as a `CBORValue` both ways, packed (`CBORValue(decoding:)`) and built item
/// by item (`CBORReader.readValue()`), which must agree. A broken invariant is a `fatalError`: the harness's way to report a finding to libFuzzer.
public enum CoderFuzzing {
    /// Runs every check on one input; traps on a broken invariant.
    public static func check(_ input: Data) {
        checkPackedValue(
            Array(input), limits: coders(forLength: input.count).1.limits, deterministic: input.count % 3 == 0)
        let (encoder, decoder) = coders(forLength: input.count)
        let exact = input.count % 4 != 2
        if let tree = roundTrip(Tree.self, input, encoder, decoder, exact: exact) {
            // The coder is stricter than the reader: what it reads, the reader reads.
            var limits = decoder.limits
            limits.maxNestingDepth += 1
            guard (try? CBORValue(decoding: Array(input), limits: limits)) != nil else {
                fatalError("the coder decoded \(tree) but CBORValue rejects the input")
            }
        }
        _ = roundTrip(FuzzRecord.self, input, encoder, decoder, exact: exact)
        _ = roundTrip([FuzzRecord].self, input, encoder, decoder, exact: exact)
        _ = roundTrip([String: [Int8]].self, input, encoder, decoder, exact: exact)
        _ = roundTrip(String.self, input, encoder, decoder, exact: true)
    }

    /// `CBORValue(decoding:)` (a packed tree over the input) must agree with the tree `CBORReader.readValue()` builds
    /// item by item: equal values with equal hashes and encodings, or the same error code at the same offset.
    static func checkPackedValue(_ input: [UInt8], limits: CBORReader.Limits, deterministic: Bool) {
        let built = Result { () throws(CBORError) in
            var reader = CBORReader(bytes: input, limits: limits, requireDeterministic: deterministic)
            let value = try reader.readValue()
            guard try reader.isAtEnd() else {
                throw CBORError(code: .trailingBytes, message: "trailing bytes", offset: reader.offset)
            }
            return value
        }
        let packed = Result { () throws(CBORError) in
            try CBORValue(decoding: input, limits: limits, requireDeterministic: deterministic)
        }
        switch (built, packed) {
        case (.success(let built), .success(let packed)):
            guard packed == built, packed.hashValue == built.hashValue,
                (try? packed.encoded()) == (try? built.encoded())
            else {
                fatalError("\(hex(Data(input))): the packed tree \(packed) differs from the built \(built)")
            }
        case (.failure(let built), .failure(let packed)):
            guard packed.code == built.code, packed.offset == built.offset else {
                fatalError("\(hex(Data(input))): the packed decoding fails with \(packed), the reader with \(built)")
            }
        default:
            fatalError("\(hex(Data(input))): the reader gives \(built), CBORValue(decoding:) \(packed)")
        }
    }

    /// Options from the input's length, so a reproducer replays the same way.
    static func coders(forLength length: Int) -> (CBOREncoder, CBORDecoder) {
        var encoder = CBOREncoder()
        var decoder = CBORDecoder()
        switch length % 4 {
        case 1:
            decoder.limits = CBORReader.Limits(maxNestingDepth: 6, maxCollectionCount: 16, maxStringLength: 64)
        case 2:
            encoder.keyEncodingStrategy = .convertToSnakeCase
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            encoder.dateEncodingStrategy = .iso8601
            decoder.dateDecodingStrategy = .iso8601
            encoder.dataEncodingStrategy = .base64
            decoder.dataDecodingStrategy = .base64
        default:
            break
        }
        return (encoder, decoder)
    }

    /// Decodes `input` as `T`; if that works, checks that the value encodes and round-trips to the same bytes
    /// (`exact`) or at least decodes again.
    static func roundTrip<T: Codable>(
        _ type: T.Type, _ input: Data, _ encoder: CBOREncoder, _ decoder: CBORDecoder, exact: Bool
    ) -> T? {
        guard let value = try? decoder.decode(type, from: input) else { return nil }
        let first: Data
        do {
            first = try encoder.encode(value)
        } catch is EncodingError where !exact {
            // Snake case maps two keys that differ only in case (`Ccc`, `ccc`) to one: the encoder refuses the
            // duplicate, as it must (a finding of this harness, not of the coder).
            return value
        } catch {
            fatalError("\(T.self) decoded from \(hex(input)) but does not encode: \(error)")
        }
        guard (try? CBORValue(decoding: Array(first), requireDeterministic: true)) != nil else {
            fatalError("the encoding \(hex(first)) of \(T.self) is not deterministic CBOR")
        }
        let again: T
        do {
            again = try decoder.decode(type, from: first)
        } catch {
            fatalError("the encoding \(hex(first)) of \(T.self) does not decode: \(error)")
        }
        guard let second = try? encoder.encode(again), second == first || !exact else {
            fatalError("\(T.self) from \(hex(input)) encodes as \(hex(first)) and then differently")
        }
        return value
    }

    static func hex(_ data: Data) -> String {
        data.prefix(256).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// Any plain CBOR value the coder can read: null, Bool, integer, float, text, bytes, array, map with text keys.
indirect enum Tree: Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case text(String)
    case bytes(Data)
    case array([Tree])
    case map([String: Tree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let bytes = try? container.decode(Data.self) {
            self = .bytes(bytes)
        } else if let array = try? container.decode([Tree].self) {
            self = .array(array)
        } else {
            self = .map(try container.decode([String: Tree].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .double(let double): try container.encode(double)
        case .text(let text): try container.encode(text)
        case .bytes(let bytes): try container.encode(bytes)
        case .array(let array): try container.encode(array)
        case .map(let map): try container.encode(map)
        }
    }
}

/// A model type with every kind of field, all optional so that many maps decode as one.
struct FuzzRecord: Codable {
    enum Kind: String, Codable {
        case photo, video
    }

    enum Shape: Codable {
        case circle(radius: Double)
        case square(side: Int, label: String?)
        case none
    }

    var id: Int?
    var displayName: String?
    var ratio: Float?
    var flags: [Bool]?
    var small: UInt8?
    var large: UInt64?
    var kind: Kind?
    var shape: Shape?
    var thumbnail: Data?
    var created: Date?
    var children: [FuzzRecord]?
    var table: [String: Int16]?
    var matrix: [[Double]]?
}
