public import TransferKit
import UniformTypes

/// Sends `value` through a transfer archive in memory, in each form, and returns what comes back.
///
/// For each form in `formats`: a `TransferProvider` of the value (in-process fast path off)
/// becomes an archive; the archive's bytes are read back and must hold the same representations with the same
/// bytes; `loadObject(ofClass:)` on the archive's provider must give a value equal to `value`; and that value,
/// written again, must give the same bytes for every representation. The first difference throws.
///
/// ```swift
/// let decoded = try await roundTripped(Card(title: "Luke"))
/// XCTAssertEqual(decoded.title, "Luke")
/// ```
///
/// Use it from XCTest or any code; in Swift Testing, ``assertRoundTrip(_:formats:sourceLocation:)`` records the
/// difference as an issue instead.
///
/// - Parameters:
///   - value: The value to send.
///   - formats: The archive forms to try, in order; both by default.
/// - Returns: The value read back from the last form.
/// - Throws: ``RoundTripError`` describing the first difference.
@discardableResult
public func roundTripped<T: TransferProviderWriting & TransferProviderReading & Equatable>(
    _ value: T, formats: [TransferArchiveFormat] = TransferArchiveFormat.allCases
) async throws -> T {
    let original = try await RoundTrip.archive(of: value, step: RoundTripStep(format: nil, stage: "writing the value"))
    var decoded = value
    for format in formats {
        let bytes = try RoundTrip.encode(original, as: format)
        let readBack = try RoundTrip.decode(
            bytes, as: format, step: RoundTripStep(format: format, stage: "archive read back"))
        try RoundTrip.compare(original, readBack, step: RoundTripStep(format: format, stage: "archive read back"))
        decoded = try await RoundTrip.loadValue(
            of: T.self, from: readBack, equalTo: value, step: RoundTripStep(format: format, stage: "value read back"))
        let step = RoundTripStep(format: format, stage: "value read back and written again")
        try RoundTrip.compare(original, try await RoundTrip.archive(of: decoded, step: step), step: step)
    }
    return decoded
}

/// The steps shared by the in-memory and the cross-process round trips.
enum RoundTrip {
    /// The one-item archive of `value`, from a provider with the in-process fast path off.
    static func archive(of value: some TransferProviderWriting, step: RoundTripStep) async throws -> TransferArchive {
        let provider = TransferProvider(object: value)
        provider.loadOptions = TransferProvider.LoadOptions(allowsInProcessFastPath: false)
        do {
            return try await TransferArchive(providers: [provider])
        } catch {
            throw step.error(
                .encodingFailed,
                "\(type(of: value)) could not write its representations: \(error). Check its "
                    + "loadData(for:progress:) for every type in writableTypes.",
                cause: error)
        }
    }

    /// The archive's bytes in `format`.
    static func encode(_ archive: TransferArchive, as format: TransferArchiveFormat) throws -> [UInt8] {
        do {
            return Array(try archive.encoded(as: format))
        } catch {
            throw RoundTripStep(format: format, stage: "archive written").error(
                .archiveFailed, "the archive could not be written: \(error).", cause: error)
        }
    }

    /// The archive in `bytes`.
    static func decode(
        _ bytes: [UInt8], as format: TransferArchiveFormat, step: RoundTripStep
    ) throws -> TransferArchive {
        do {
            return try TransferArchive(decoding: bytes, format: format)
        } catch {
            throw step.error(.archiveFailed, "the archive could not be read back: \(error).", cause: error)
        }
    }

    /// Throws the first difference between the single items of two archives.
    static func compare(
        _ expected: TransferArchive, _ actual: TransferArchive, step: RoundTripStep,
        acceptsEqualValues: (TransferArchive.Representation, TransferArchive.Representation) -> Bool = { _, _ in false }
    ) throws {
        guard actual.items.count == expected.items.count else {
            throw step.error(
                actual.items.count < expected.items.count ? .missingRepresentation : .extraRepresentation,
                "\(expected.items.count) item(s) went out but \(actual.items.count) came back.")
        }
        for (sent, returned) in zip(expected.items, actual.items) {
            if let difference = RepresentationComparison.firstDifference(
                expected: sent.representations, actual: returned.representations, step: step,
                acceptsEqualValues: acceptsEqualValues)
            {
                throw difference
            }
        }
    }

    /// Loads a `T` from the archive's first item and checks that it equals `value`.
    static func loadValue<T: TransferProviderReading & Equatable>(
        of type: T.Type, from archive: TransferArchive, equalTo value: T, step: RoundTripStep
    ) async throws -> T {
        guard let provider = archive.makeProviders().first else {
            throw step.error(.missingRepresentation, "the archive came back without items.")
        }
        let decoded: T
        do {
            decoded = try await provider.loadObject(ofClass: T.self)
        } catch {
            throw step.error(
                .decodingFailed,
                "loadObject(ofClass: \(T.self).self) failed on [\(provider.registeredTypes.map(\.identifier).joined(separator: ", "))]: \(error)",
                cause: error)
        }
        guard decoded == value else {
            // The representation loadObject chose, by the documented rule: reader preference, then fidelity.
            let registered = provider.registeredTypes
            let chosen = T.readableTypes.lazy.compactMap { wanted in
                registered.first { TypeCatalog.shared.conforms($0, to: wanted) }
            }.first
            var error = step.error(
                .valueDiffers,
                "the value read back from \(chosen?.identifier ?? "its representation") is not equal to the "
                    + "original: expected \(ValueDescription.describe(value)), got "
                    + "\(ValueDescription.describe(decoded)). Check that encoding writes, and decoding reads, every "
                    + "property that == compares.")
            error.type = chosen
            throw error
        }
        return decoded
    }
}
