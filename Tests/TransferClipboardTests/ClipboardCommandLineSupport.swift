import Foundation
import Testing
import TransferKitPlatform

/// With a `text/uri-list` of `list` on the clipboard (from xclip or wl-copy): `paste --type public.file-url` and
/// `--type public.url` write it exactly, and `paste --archive` to `archive` snapshots it as
/// `org.transferkit.uri-list`, with no dynamic type.
/// - Parameter transferkit: Runs the tool against the test's display server.
func expectFileURLsAndSnapshot(
    _ list: Data, archive: String, transferkit: ([String]) async throws -> ChildProcess.Result
) async throws {
    for type in ["public.file-url", "public.url"] {
        let paste = try await transferkit(["paste", "--type", type])
        #expect(paste.status == 0, "\(type): \(paste.errorText)")
        #expect(Data(paste.standardOutput) == list, "\(type)")
    }
    let snapshot = try await transferkit(["paste", "--archive", "-o", archive])
    #expect(snapshot.status == 0, "\(snapshot.errorText)")
    let inspect = try await transferkit(["inspect", archive, "--json"])
    #expect(inspect.outputText.contains(#""type":"org.transferkit.uri-list""#), "\(inspect.outputText)")
    #expect(!inspect.outputText.contains("dyn."), "\(inspect.outputText)")
}
