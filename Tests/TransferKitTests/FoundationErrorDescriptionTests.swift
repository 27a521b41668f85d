import Foundation
import Testing
import TransferKit
import TransferKitTestSupport

/// `FoundationErrorDescription.of` words an error as Foundation's `localizedDescription` does (the modules of the tool
/// import FoundationEssentials only, which has no `localizedDescription`); this process links Foundation to compare.
@Suite("Foundation's error descriptions without Foundation", .timeLimit(.minutes(5)))
struct FoundationErrorDescriptionTests {
    struct Plain: Error {}
    enum Cases: Error { case first, second }
    struct Described: LocalizedError {
        var errorDescription: String? { "It went wrong." }
    }
    struct Reasoned: LocalizedError {
        var failureReason: String? { "No reason at all." }
    }

    /// What each failure of `createDirectory` throws, and a few other errors.
    static func errors() throws -> [any Error] {
        let directory = try makeTemporaryDirectory()
        let file = directory.appendingPathComponent("file")
        try Data().write(to: file)
        var errors: [any Error] = []
        for (path, intermediate) in [
            (file.path + "/x", true), (file.path, true), (file.path, false), ("/proc/1/x/y", true),
            ("/proc/sys/x", true), ("/tmp/" + String(repeating: "a", count: 300), true), ("/sys/x", true),
        ] {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: intermediate)
            } catch {
                errors.append(error)
            }
        }
        try? FileManager.default.removeItem(at: directory)
        errors += [
            POSIXError(.EACCES), POSIXError(.ENOSPC), Plain(), Cases.second, Described(), Reasoned(),
            CocoaError(.fileWriteNoPermission), CocoaError(.featureUnsupported),
            CocoaError(CocoaError.Code(rawValue: 9)),
            CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "Own words."]),
            CocoaError(.fileReadUnknown, userInfo: [NSLocalizedFailureReasonErrorKey: "Own reason."]),
        ]
        return errors
    }

    @Test("Every error is described as localizedDescription describes it")
    func descriptionsMatch() throws {
        let errors = try Self.errors()
        #expect(errors.count >= 17)
        for error in errors {
            #expect(FoundationErrorDescription.of(error) == error.localizedDescription, "\(error)")
        }
    }
}
