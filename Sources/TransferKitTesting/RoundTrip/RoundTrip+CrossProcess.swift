public import TransferKit
import TransferKitPlatform
import UniformTypes

/// Sends `value` through a child process and returns what comes back.
///
/// For each form in `formats`, the value's archive (made as in ``roundTripped(_:formats:)``) is written to the
/// standard input of `executable reencode -`, which decodes and re-encodes every representation it has a reader
/// for and writes the archive back. What comes back must hold the same representations, each with the same bytes
/// or, when the bytes differ, bytes that `T` decodes to an equal value; and `loadObject(ofClass:)` on it must give
/// a value equal to `value`. The first difference throws.
///
/// ```swift
/// // In a test target that depends on "transferkit":
/// try await crossProcessRoundTripped(Card(title: "Luke"))
/// // With your own tool, which knows Card:
/// try await crossProcessRoundTripped(card, executable: TransferKitExecutable.product(named: "cards"))
/// ```
///
/// - Parameters:
///   - value: The value to send.
///   - executable: The program to run; ``TransferKitExecutable/defaultPath`` when `nil` (see
///     ``TransferKitExecutable`` for how to point it elsewhere).
///   - formats: The archive forms to try, in order; both by default.
/// - Returns: The value read back from the last form.
/// - Throws: ``RoundTripError`` describing the first difference, with `RoundTripError.Code.childProcessFailed`
///   when the child cannot be started or fails.
@discardableResult
public func crossProcessRoundTripped<T: TransferProviderWriting & TransferProviderReading & Equatable>(
    _ value: T, executable: String? = nil, formats: [TransferArchiveFormat] = TransferArchiveFormat.allCases
) async throws -> T {
    let program = executable ?? TransferKitExecutable.defaultPath
    let original = try await RoundTrip.archive(of: value, step: RoundTripStep(format: nil, stage: "writing the value"))
    var decoded = value
    for format in formats {
        let step = RoundTripStep(format: format, stage: "through \(program) reencode -")
        let returned = try await RoundTrip.reencode(
            try RoundTrip.encode(original, as: format), format: format, executable: program, step: step)
        try RoundTrip.compare(original, returned, step: step) { sent, back in
            RoundTrip.decodesEqual(sent, back, as: T.self)
        }
        decoded = try await RoundTrip.loadValue(of: T.self, from: returned, equalTo: value, step: step)
    }
    return decoded
}

extension RoundTrip {
    /// The archive that `executable reencode -` writes back for `bytes`.
    static func reencode(
        _ bytes: [UInt8], format: TransferArchiveFormat, executable: String, step: RoundTripStep
    ) async throws -> TransferArchive {
        let result: ChildProcess.Result
        do {
            result = try await ChildProcess.run(executable, arguments: ["reencode", "-"], input: bytes)
        } catch {
            throw step.error(
                .childProcessFailed,
                "\(error). Build it (list it among the test target's dependencies), pass its path as executable:, "
                    + "or set \(TransferKitExecutable.environmentVariable).",
                cause: error)
        }
        guard result.status == 0 else {
            let errorText = String(decoding: result.standardError, as: UTF8.self)
            let lastLine = errorText.split(separator: "\n").last.map(String.init) ?? "(nothing on standard error)"
            throw step.error(.childProcessFailed, "the child process exited with status \(result.status): \(lastLine)")
        }
        return try decode(result.standardOutput, as: format, step: step)
    }

    /// Whether `T` reads both representations' bytes as equal values (so different bytes are acceptable).
    static func decodesEqual<T: TransferProviderReading & Equatable>(
        _ sent: TransferArchive.Representation, _ returned: TransferArchive.Representation, as reader: T.Type
    ) -> Bool {
        guard T.readableTypes.contains(where: { TypeCatalog.shared.conforms(sent.type, to: $0) }),
            let before = try? T.object(from: sent.data, type: sent.type),
            let after = try? T.object(from: returned.data, type: returned.type)
        else { return false }
        return before == after
    }
}
