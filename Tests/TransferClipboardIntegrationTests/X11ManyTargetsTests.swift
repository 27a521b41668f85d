import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

@testable import TransferClipboard
@testable import TransferDisplay

/// A selection that offers 100 000 types, listed by the library and by `transferkit paste --list`.
///
/// Their names once came one round trip at a time, with a quadratic de-duplication: 366 s for this list. Readers now
/// take the first ``ClipboardLimits/maximumOfferedTypes`` and only those names are asked of the server. The time is
/// printed, not asserted (these machines are shared); the time limit only stops a run that regressed.
@Suite(
    "X11 selections that offer very many types", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11ManyTargetsTests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start()
    }

    deinit {
        server.stop()
    }

    @Test("100 000 offered types (some listed twice): the first up to the cap are listed once, in the owner's order")
    func hundredThousandTypes() async throws {
        let count = 100_000
        let names = (0..<count).map { "com.example.offered-\($0)" }
        // Repeated atoms in TARGETS are listed once; the list (over 400 KB) is longer than one X11 request.
        let targets = names + names.prefix(1000).reversed()
        let owner = try await X11Backend.connect(environment: server.environment, timeout: patience)
        defer { owner.close() }
        let owning = ContinuousClock.now
        let ownership = try await owner.own(.clipboard, targets: targets) { _ in TransferByteStream(data: Data()) }
        print("X11 \(count) offered types: owned in \(Self.milliseconds(since: owning)) ms")

        let reader = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { reader.close() }
        let listing = ContinuousClock.now
        let offered = try await reader.offeredTypes()
        print("X11 \(count) offered types: listed in \(Self.milliseconds(since: listing)) ms")
        let cap = ClipboardLimits.maximumOfferedTypes
        #expect(offered.count == cap)
        #expect(offered.map(\.name) == Array(names.prefix(cap)))
        #expect(try await reader.offer(on: .clipboard).omittedCount == count - cap)
        for index in [0, 1, cap - 1] where index < offered.count {
            #expect(offered[index].name == "com.example.offered-\(index)")
            #expect(offered[index].type == UniformType("com.example.offered-\(index)"))
        }

        let pasting = ContinuousClock.now
        let paste = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["paste", "--list"], environment: server.environment)
        print("X11 \(count) offered types: transferkit paste --list in \(Self.milliseconds(since: pasting)) ms")
        #expect(paste.status == 0, "\(paste.errorText)")
        let lines = String(decoding: paste.standardOutput, as: UTF8.self).split(separator: "\n")
        let listed = lines.map { $0.split(separator: "\t", maxSplits: 1).first.map(String.init) ?? "" }
        #expect(listed.count == cap)
        #expect(listed.first == "com.example.offered-0")
        #expect(listed.last == "com.example.offered-\(cap - 1)")
        #expect(Set(listed).count == cap)
        #expect(paste.errorText.contains("\(count - cap) more names"), "\(paste.errorText)")
        await ownership.release()
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = start.duration(to: .now)
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }
}
