public import Foundation
import TransferArchive

/// The checks the archive fuzzers run on one input; each fuzzer's `main.swift` only adapts them to libFuzzer or to
/// corpus replay (see `Fuzz/README.md`).
///
/// Bad input must make the readers throw ``TransferArchiveError``; anything else is a finding that libFuzzer
/// reports: a crash or ASan report inside TransferKit, a hang, or one of the invariants below failing, which
/// ``violation(_:_:)`` turns into a deliberate trap.
///
/// ```swift
/// ArchiveFuzzing.checkCBOR(Data(bytes))
/// ```
public enum ArchiveFuzzing {
    /// Runs every check of the binary form on `input`.
    ///
    /// - The streaming ``TransferArchiveReader`` walks every item, representation and payload, reading or skipping
    ///   payloads in small chunks (the chunk size and the walk are chosen from the input's length, so a reproducer
    ///   replays the same way).
    /// - ``TransferArchive/init(decoding:format:limits:)`` with `.cbor` must accept exactly what the walk accepts,
    ///   and give the same archive as a walk that read every payload.
    /// - A decoded archive must re-encode in both forms (JSON may refuse only NaN or infinite metadata), and each
    ///   encoding must decode to an equal archive and re-encode to the same bytes.
    /// - Parameter input: Any bytes.
    public static func checkCBOR(_ input: Data) {
        let bytes = [UInt8](input)
        let limits = limits(length: bytes.count)
        let mode = WalkMode(length: bytes.count)
        let walked = walk(bytes, mode: mode, limits: limits)
        let decoded = try? TransferArchive(decoding: bytes, format: .cbor, limits: limits)
        // Skipping checks as much as reading, so every walk must accept exactly what decoding accepts.
        guard (walked == nil) == (decoded == nil) else {
            violation("a streaming walk (\(mode)) and TransferArchive(decoding:) disagree on validity", bytes)
        }
        guard let decoded else { return }
        if mode.payloads == .readAll, let walked, !ArchiveComparison.same(walked, decoded) {
            violation("a streaming read in chunks of \(mode.chunkSize) and decoding give different archives", bytes)
        }
        checkRoundTrip(decoded, from: .cbor, input: bytes)
    }

    /// Runs every check of the text form on `input`: decoding must not crash, and a decoded archive must re-encode
    /// in both forms, each decoding to an equal archive and re-encoding to the same bytes.
    /// - Parameter input: Any bytes.
    public static func checkJSON(_ input: Data) {
        let bytes = [UInt8](input)
        let decoded = try? TransferArchive(decoding: bytes, format: .json, limits: limits(length: bytes.count))
        if let decoded {
            checkRoundTrip(decoded, from: .json, input: bytes)
        }
    }

    /// Tighter limits for one input in five, so the limit checks are fuzzed as well as the defaults.
    private static func limits(length: Int) -> TransferArchive.Limits {
        guard length % 5 == 4 else { return .default }
        return TransferArchive.Limits(
            maxIdentifierLength: 40, maxNameLength: 16, maxItemCount: 3, maxRepresentationsPerItem: 2,
            maxMetadataDepth: 2, maxMetadataSize: 64, maxPayloadLength: 32, maxJSONDocumentSize: 512,
            maxDeclarationCount: 2, maxDeclarationsSize: 128)
    }

    /// `archive` came from `input` in `format`; encoding it again in each form must work and be stable.
    private static func checkRoundTrip(_ archive: TransferArchive, from format: TransferArchiveFormat, input: [UInt8]) {
        for target in TransferArchiveFormat.allCases {
            let encoded: Data
            do {
                encoded = try archive.encoded(as: target)
            } catch {
                // Only NaN and infinities have no JSON spelling, and only the binary form can hold them.
                if format == .cbor, target == .json, error.code == .unrepresentableValue { continue }
                violation("a decoded archive does not encode as \(target): \(error)", input)
            }
            let again: TransferArchive
            do {
                again = try TransferArchive(decoding: encoded, format: target)
            } catch {
                violation("the \(target) encoding of a decoded archive does not decode: \(error)", input)
            }
            guard ArchiveComparison.same(archive, again) else {
                violation("the \(target) encoding of a decoded archive decodes to a different archive", input)
            }
            guard let stable = try? again.encoded(as: target), stable == encoded else {
                violation("re-encoding as \(target) is not deterministic", input)
            }
        }
    }

    /// Reports a broken invariant to libFuzzer.
    ///
    /// `fatalError` is deliberate and allowed here, in fuzz-harness code only: the trap is how libFuzzer learns
    /// about a finding and saves the input as `crash-…`. The library code under test never traps on input.
    static func violation(_ what: String, _ input: [UInt8]) -> Never {
        fatalError("Archive invariant broken: \(what) (input of \(input.count) bytes)")
    }
}
