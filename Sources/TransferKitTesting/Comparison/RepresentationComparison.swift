import Foundation
import TransferKit
import UniformTypes

/// Finds the first difference between the representations that went out and those that came back.
enum RepresentationComparison {
    /// How many bytes a message shows from the first difference on.
    static let excerptLength = 16

    /// The first difference between `expected` and `actual`, in fidelity order, or `nil` when they are the same.
    ///
    /// - Parameters:
    ///   - expected: The representations that went out.
    ///   - actual: The representations that came back.
    ///   - step: Where the comparison happens.
    ///   - acceptsEqualValues: Asked when the bytes of a representation differ; `true` accepts them (the cross-
    ///     process check accepts different bytes that decode to an equal value).
    static func firstDifference(
        expected: [TransferArchive.Representation], actual: [TransferArchive.Representation], step: RoundTripStep,
        acceptsEqualValues: (TransferArchive.Representation, TransferArchive.Representation) -> Bool = { _, _ in false }
    ) -> RoundTripError? {
        for (index, original) in expected.enumerated() {
            guard index < actual.count, actual[index].type == original.type else {
                let found = index < actual.count ? actual[index].type.identifier : "nothing"
                return step.error(
                    .missingRepresentation,
                    "representation \(index), \(original.type), did not come back: found \(found) in its place "
                        + "(came back: \(list(actual))). Check that every writable type is also archived and "
                        + "that the type is visible to other processes.",
                    representation: original)
            }
            let returned = actual[index]
            if let offset = firstDifferingByte(original.data, returned.data), !acceptsEqualValues(original, returned) {
                return step.error(
                    .bytesDiffer,
                    "\(original.type) differs from byte \(offset) on (expected \(original.data.count) bytes, got "
                        + "\(returned.data.count)): expected \(excerpt(original.data, from: offset)), got "
                        + "\(excerpt(returned.data, from: offset)). Make the encoding deterministic (JSON with "
                        + "sorted keys) and check that decoding keeps every field it writes.",
                    representation: original, offset: offset)
            }
        }
        if actual.count > expected.count {
            return step.error(
                .extraRepresentation,
                "\(actual.count - expected.count) more representation(s) came back than went out: "
                    + "\(list(Array(actual[expected.count...]))).")
        }
        return nil
    }

    /// The offset of the first byte where `lhs` and `rhs` differ (the shorter length when one is a prefix of the
    /// other), or `nil` when they are equal.
    static func firstDifferingByte(_ lhs: Data, _ rhs: Data) -> Int? {
        if lhs == rhs {
            return nil
        }
        let common = zip(lhs, rhs).prefix { $0 == $1 }.count
        return common
    }

    /// Up to ``excerptLength`` bytes from `offset` on, in hex and, when they are text, as a string:
    /// `68 65 6c 6c 6f ("hello")`, or `(end of data)` past the end.
    static func excerpt(_ data: Data, from offset: Int) -> String {
        guard offset < data.count else { return "(end of data)" }
        let bytes = data.dropFirst(offset).prefix(excerptLength)
        var text = bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
        if offset + bytes.count < data.count {
            text += " …"
        }
        if let string = String(bytes: bytes, encoding: .utf8), !string.isEmpty {
            text += " (\(String(reflecting: string)))"
        }
        return text
    }

    private static func list(_ representations: [TransferArchive.Representation]) -> String {
        representations.isEmpty ? "none" : representations.map(\.type.identifier).joined(separator: ", ")
    }
}
