import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import UniformTypes

/// Real files of the machine for the sniffing comparison: regular files under `/usr/share` and `/usr/lib`, at most
/// ``perKind`` of each filename extension (files without one count as one kind per directory name), in sorted path
/// order, so images, fonts, archives, ELF binaries, scripts and data files all take part.
private func corpus(limit: Int = 3000, perKind: Int = 12) -> [String] {
    var byKind: [String: Int] = [:]
    var result: [String] = []
    for root in ["/usr/share", "/usr/lib"] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { continue }
        var paths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            paths.append(relative)
            if paths.count > 400_000 { break }
        }
        for relative in paths.sorted() {
            let path = root + "/" + relative
            guard let status = Syscall.linkStatus(atPath: path), status.isRegularFile else { continue }
            let name = relative.split(separator: "/").last.map(String.init) ?? relative
            let directory = relative.split(separator: "/").dropLast().last.map(String.init) ?? ""
            let kind =
                name.contains(".") ? "." + (name.split(separator: ".").last.map(String.init) ?? "") : "/" + directory
            guard byKind[kind, default: 0] < perKind else { continue }
            byKind[kind, default: 0] += 1
            result.append(path)
        }
    }
    // Spread the sample over both roots when it is larger than the limit.
    guard result.count > limit else { return result }
    let stride = Double(result.count) / Double(limit)
    return (0..<limit).map { result[Int(Double($0) * stride)] }
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

@Suite("Content sniffing agrees with gio", .timeLimit(.minutes(5)))
struct GioSniffingAgreementTests {
    @Test(
        "the type of at least 98 % of 2 000+ real files from /usr/share and /usr/lib is gio's content type",
        .enabled(if: gioPath != nil, "needs gio (Debian: libglib2.0-bin)"),
        .enabled(if: FileManager.default.fileExists(atPath: systemMIMEDirectory + "/magic"), "needs shared-mime-info"))
    func agreement() async throws {
        let gio = try #require(gioPath)
        let paths = corpus()
        #expect(paths.count >= 2000)
        let gioTypes = try await gioContentTypes(paths, gio: gio)
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
        let disagreeing = disagreements.values.reduce(0) { $0 + $1.count }
        let share = Double(compared - disagreeing) / Double(max(1, compared))
        print(
            "gio sniffing agreement: \(compared - disagreeing) of \(compared) files "
                + "(\(String(format: "%.2f", share * 100)) %)")
        for (key, files) in disagreements.sorted(by: { $0.key < $1.key }) {
            print("  \(key): \(files.count) file(s), e.g. \(files[0])")
        }
        #expect(compared >= 2000)
        #expect(share >= 0.98)
    }
}
