public import Testing
public import TransferKit

/// Checks that `value` survives a trip through a transfer archive in memory, in each form, and records the first
/// difference as a Swift Testing issue.
///
/// The checks are those of ``roundTripped(_:formats:)``. The issue names the archive form, the representation's
/// type and the offset of the first differing byte, or both values' descriptions:
///
/// ```swift
/// @Test func cardRoundTrips() async {
///     await assertRoundTrip(Card(title: "Luke"))
/// }
/// ```
///
/// - Parameters:
///   - value: The value to send.
///   - formats: The archive forms to try; both by default.
///   - sourceLocation: Where to report the issue; the caller's line by default.
/// - Returns: The value read back from the last form, or `nil` when an issue was recorded.
@discardableResult
public func assertRoundTrip<T: TransferProviderWriting & TransferProviderReading & Equatable>(
    _ value: T, formats: [TransferArchiveFormat] = TransferArchiveFormat.allCases,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> T? {
    await recordingIssue(sourceLocation) { try await roundTripped(value, formats: formats) }
}

/// Checks that `value` survives a trip through a child `reencode -` process, and records the first difference as
/// a Swift Testing issue.
///
/// The checks are those of ``crossProcessRoundTripped(_:executable:formats:)``:
///
/// ```swift
/// @Test func cardSurvivesAnotherProcess() async {
///     await assertCrossProcessRoundTrip(Card(title: "Luke"))
/// }
/// ```
///
/// - Parameters:
///   - value: The value to send.
///   - executable: The program to run; ``TransferKitExecutable/defaultPath`` when `nil`.
///   - formats: The archive forms to try; both by default.
///   - sourceLocation: Where to report the issue; the caller's line by default.
/// - Returns: The value read back from the last form, or `nil` when an issue was recorded.
@discardableResult
public func assertCrossProcessRoundTrip<T: TransferProviderWriting & TransferProviderReading & Equatable>(
    _ value: T, executable: String? = nil, formats: [TransferArchiveFormat] = TransferArchiveFormat.allCases,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> T? {
    await recordingIssue(sourceLocation) {
        try await crossProcessRoundTripped(value, executable: executable, formats: formats)
    }
}

/// Runs `body` and records what it throws as one issue at `sourceLocation`.
private func recordingIssue<T>(_ sourceLocation: SourceLocation, _ body: () async throws -> T) async -> T? {
    do {
        return try await body()
    } catch {
        Issue.record(Comment(rawValue: "Round trip failed: \(error)"), sourceLocation: sourceLocation)
    }
    return nil
}
