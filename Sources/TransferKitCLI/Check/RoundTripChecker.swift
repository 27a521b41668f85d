import TransferKit
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes representations with the registry's readers, re-encodes them, and compares.
struct RoundTripChecker: Sendable {
    let registry: TransferRegistry

    /// How one representation fared.
    enum Verdict: Equatable {
        /// No reader is registered for the type: only structure and checksum were checked.
        case checksumOnly
        /// Decoded, re-encoded, and the bytes came back identical.
        case sameBytes
        /// Decoded and re-encoded; the bytes differ but decode to an equal value.
        case sameValue
        /// Decoded, but the reader cannot write the type back.
        case decodedOnly
        /// Something failed; the text says what.
        case failed(String)

        var passed: Bool {
            if case .failed = self { return false }
            return true
        }

        var label: String {
            switch self {
            case .checksumOnly: "checksum"
            case .sameBytes: "bytes"
            case .sameValue: "value"
            case .decodedOnly: "decoded"
            case .failed(let reason): reason
            }
        }
    }

    /// Decodes `data` as `type` and encodes it again, or returns it unchanged when no reader
    /// (or no writer) exists for the type, or when the bytes do not decode.
    func reencode(_ data: Data, type: UniformType) async throws -> Data {
        guard let reader = registry.reader(for: type) else { return data }
        // Bytes that do not decode come back unchanged: comparing them then reports the decoding failure as a
        // failed check (exit 1), not as an archive that cannot be read (exit 2). Encoding failures still throw.
        guard let object = try? reader.object(from: data, type: type) else { return data }
        guard let writer = object as? any TransferProviderWriting else { return data }
        return try await writer.loadData(for: type, progress: TransferProgress())
    }

    /// Compares an original representation with what came back from re-encoding it.
    func verdict(original: Data, returned: Data, type: UniformType) -> Verdict {
        guard let reader = registry.reader(for: type) else {
            return original == returned ? .checksumOnly : .failed("bytes changed without a reader")
        }
        let decoded: any TransferProviderReading
        do {
            decoded = try reader.object(from: original, type: type)
        } catch {
            return .failed("cannot decode: \(ErrorLine.describe(error))")
        }
        guard decoded is any TransferProviderWriting else { return .decodedOnly }
        if original == returned { return .sameBytes }
        do {
            let again = try reader.object(from: returned, type: type)
            guard let equatable = decoded as? any Equatable else { return .failed("bytes differ") }
            return equatable.isEqual(to: again) ? .sameValue : .failed("value differs")
        } catch {
            return .failed("re-encoded bytes do not decode: \(ErrorLine.describe(error))")
        }
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
