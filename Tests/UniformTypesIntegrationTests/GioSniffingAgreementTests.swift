import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import UniformTypes

/// Real files of the machine for the sniffing comparison: up to `limit` regular files under `root`, at most
/// `perKind` of each filename extension (files without one count as one kind per directory name), in the order the
/// directory walk meets them, so images, fonts, archives, ELF binaries, scripts and data files all take part. The walk
/// stops once the sample is full: under the thread sanitizer a walk of all of /usr/lib cost minutes.
private func corpus(_ root: String, limit: Int = 1100, perKind: Int = 12) -> [String] {
    var byKind: [String: Int] = [:]
    var result: [String] = []
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
    var visited = 0
    while result.count < limit, visited < 200_000, let relative = enumerator.nextObject() as? String {
        visited += 1
        let name = relative.split(separator: "/").last.map(String.init) ?? relative
        let directory = relative.split(separator: "/").dropLast().last.map(String.init) ?? ""
        let kind = name.contains(".") ? "." + (name.split(separator: ".").last.map(String.init) ?? "") : "/" + directory
        guard byKind[kind, default: 0] < perKind else { continue }
        let path = root + "/" + relative
        guard let status = Syscall.linkStatus(atPath: path), status.isRegularFile else { continue }
        byKind[kind, default: 0] += 1
        result.append(path)
    }
    return result
}

/// `gio info`'s content type for each path, by path.
private func gioContentTypes(_ paths: [String], gio: String) async throws -> [String: String] {
    let home = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let environment = [
        "XDG_DATA_HOME": home.appendingPathComponent("no-home").path, "XDG_DATA_DIRS": "/usr/share",
        "PATH": "/usr/bin:/bin",
    ]
    var result: [String: String] = [:]
    var start = 0
    while start < paths.count {
        let batch = Array(paths[start..<min(paths.count, start + 400)])
        start += batch.count
        let run = try await ChildProcess.run(
            gio, arguments: ["info", "-a", "standard::content-type"] + batch, environment: environment)
        var current: String?
        for line in run.outputText.split(separator: "\n") {
            if line.hasPrefix("uri: ") {
                current = URL(string: String(line.dropFirst(5)))?.path
            } else if let path = current, let range = line.range(of: "standard::content-type: ") {
                result[path] = String(line[range.upperBound...])
            }
        }
    }
    return result
}

/// The machine's files of `root` typed by TransferKit and by `gio`: the number compared and the disagreements, each
/// kind with its files.
private func sniffingVerdicts(_ root: String) async throws -> (compared: Int, disagreements: [String: [String]]) {
    let gio = try #require(gioPath)
    // The walk and the sniffing take seconds, minutes under the thread sanitizer: off the test pool, whose two
    // threads other suites' sessions and deadlines need meanwhile.
    let paths = try await onThreadOfItsOwn { corpus(root) }
    let gioTypes = try await gioContentTypes(paths, gio: gio)
    return try await onThreadOfItsOwn {
        let catalog = TypeCatalog()
        catalog.importMIMEDatabase(directories: [URL(fileURLWithPath: systemMIMEDirectory)])
        var compared = 0
        var disagreements: [String: [String]] = [:]
        for path in paths {
            guard let gioType = gioTypes[path] else { continue }
            compared += 1
            let ours = try catalog.type(forFileAt: URL(fileURLWithPath: path))
            let theirs = catalog.type(tag: gioType, tagClass: .mimeType, conformingTo: nil)
            if ours != theirs {
                let key = "gio \(gioType) (\(theirs?.identifier ?? "nil")), TransferKit \(ours.identifier)"
                disagreements[key, default: []].append(path)
            }
        }
        return (compared, disagreements)
    }
}

/// The share of the corpus on which both agree, printed with the disagreements.
private func report(_ root: String, _ verdicts: (compared: Int, disagreements: [String: [String]])) -> Double {
    let disagreeing = verdicts.disagreements.values.reduce(0) { $0 + $1.count }
    let agreeing = verdicts.compared - disagreeing
    let share = Double(agreeing) / Double(max(1, verdicts.compared))
    print(
        "gio sniffing agreement: \(agreeing) of \(verdicts.compared) files under \(root) "
            + "(\(String(format: "%.2f", share * 100)) %)")
    for (key, files) in verdicts.disagreements.sorted(by: { $0.key < $1.key }) {
        print("  \(key): \(files.count) file(s), e.g. \(files[0])")
    }
    return share
}

// Two tests of 1 100 files each (2 200 in all), one after the other, so that each stays well inside its time limit
// under the thread sanitizer, which makes matching 5–20 times slower.
@Suite("Content sniffing agrees with gio", .serialized, .timeLimit(.minutes(5)))
struct GioSniffingAgreementTests {
    @Test(
        "the type of at least 98 % of real files is gio's content type",
        .enabled(if: gioPath != nil, "needs gio (Debian: libglib2.0-bin)"),
        .enabled(if: FileManager.default.fileExists(atPath: systemMIMEDirectory + "/magic"), "needs shared-mime-info"),
        arguments: ["/usr/share", "/usr/lib"])
    func agreement(root: String) async throws {
        let verdicts = try await sniffingVerdicts(root)
        let share = report(root, verdicts)
        #expect(verdicts.compared >= 1000)
        #expect(share >= 0.98)
    }
}
