import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// The hardening audit's memory reproducers (issue 14): 150 000 minimal declared types took 2.9 GB and a 5 MB
/// fake mime directory 5.5 GB (then crashed drawing a 50 000-level tree), because the catalog kept an n × n
/// bitset of supertypes. The probe reports each run's peak memory; a run at n and one at n / 4 must grow by
/// at most 6× over the probe's baseline, where the bitset grew by 16×, and stay under an absolute bound per type.
/// No wall-clock figure is checked.
@Suite("Catalogue memory at scale", .timeLimit(.minutes(5)))
struct CatalogScaleTests {
    private let probe = TransferKitExecutable.product(named: "transferkit-memory-probe")

    /// The peak memory above the probe's own for a trivial command, in KiB, and the run.
    ///
    /// The trivial command answers from the built-in catalogue alone: `types public.png` now lists the MIME names
    /// the database gives PNG, so it imports the (fake) database too and would hide the cost measured here.
    private func peakAboveBaseline(
        _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> (KiB: Int, run: ChildProcess.Result) {
        let baseline = try await ChildProcess.run(
            probe, arguments: ["types", "--conforms", "public.png", "public.data"], environment: environment)
        let run = try await ChildProcess.run(probe, arguments: arguments, environment: environment)
        return (try reportedPeak(run) - reportedPeak(baseline), run)
    }

    private func reportedPeak(_ run: ChildProcess.Result) throws -> Int {
        let line = try #require(run.errorText.split(separator: "\n").last { $0.hasPrefix("transferkit: peak memory ") })
        return try #require(Int(line.split(separator: " ").dropLast().last ?? ""))
    }

    /// Checks linear growth between the runs at `count / 4` and `count` items, and at most `perItem` bytes each.
    private func expectLinear(small: Int, large: Int, count: Int, perItem: Int) {
        // Fixed costs (the parsed file's buffers, one-time tables) make the small run relatively larger, so a
        // linear structure stays well under 6×; the n × n bitset made it 16×.
        #expect(
            large <= 6 * max(small, 1), "peak above baseline: \(small) KiB at \(count / 4), \(large) KiB at \(count)")
        #expect(large * 1024 <= perItem * count, "\(large) KiB for \(count) items")
    }

    @Test("100 000 minimal declared types load in memory linear in their number")
    func manyDeclaredTypes() async throws {
        let space = try Workspace()
        func declarations(_ count: Int) throws -> String {
            let entries = (0..<count).map {
                #"{"identifier":"com.example.scale.t\#($0)","conformsTo":["public.data"]}"#
            }
            return try space.write(
                "types-\(count).json", Array(#"{"exported":[\#(entries.joined(separator: ","))]}"#.utf8))
        }
        let count = 100_000
        let small = try await peakAboveBaseline(
            ["types", "--declarations", try declarations(count / 4), "com.example.scale.t24999"])
        let large = try await peakAboveBaseline(
            ["types", "--declarations", try declarations(count), "com.example.scale.t99999", "--json"])
        #expect(small.run.status == 0)
        #expect(large.run.status == 0)
        #expect(large.run.outputText.contains(#""supertypes":["public.data","public.item"]"#))
        // The bitset alone took 1.25 GB for 100 000 types; 4 KiB a type allows 400 MB in all.
        expectLinear(small: small.KiB, large: large.KiB, count: count, perItem: 4096)
    }

    /// A mime directory of `count` types (`application/x-fake<n>`), with globs `*.fk<n>` for the first third,
    /// which also form one sub-class-of chain.
    private func fakeMIMEDirectory(_ count: Int, in space: Workspace) throws -> [String: String] {
        let home = space.url.appendingPathComponent("home-\(count)")
        let mime = home.appendingPathComponent("mime")
        try FileManager.default.createDirectory(at: mime, withIntermediateDirectories: true)
        let empty = space.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let chain = count / 3
        try Data((0..<count).map { "application/x-fake\($0)\n" }.joined().utf8)
            .write(to: mime.appendingPathComponent("types"))
        try Data((0..<chain).map { "50:application/x-fake\($0):*.fk\($0)\n" }.joined().utf8)
            .write(to: mime.appendingPathComponent("globs2"))
        try Data((1..<chain).map { "application/x-fake\($0) application/x-fake\($0 - 1)\n" }.joined().utf8)
            .write(to: mime.appendingPathComponent("subclasses"))
        return ["XDG_DATA_HOME": home.path, "XDG_DATA_DIRS": empty.path, "HOME": space.url.path]
    }

    @Test("a fake mime directory of 100 000 types and a 33 333-level chain imports in linear memory")
    func largeMIMEDirectory() async throws {
        let space = try Workspace()
        let count = 100_000
        let small = try await peakAboveBaseline(
            ["types", "--extension", "fk8332"], environment: try fakeMIMEDirectory(count / 4, in: space))
        let large = try await peakAboveBaseline(
            ["types", "--extension", "fk33332"], environment: try fakeMIMEDirectory(count, in: space))
        #expect(small.run.status == 0)
        #expect(large.run.status == 0)
        // The tree stops after 24 levels and says how much it left out.
        let lines = large.run.outputText.split(separator: "\n")
        #expect(lines.first == "org.freedesktop.shared-mime-info.application.x-fake33332")
        #expect(lines.last?.hasSuffix("└─ … (33310 more supertypes, listed by --json)") == true)
        expectLinear(small: small.KiB, large: large.KiB, count: count, perItem: 4096)
    }
}
