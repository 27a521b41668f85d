import Foundation
import Testing
import TransferKitTestSupport

@testable import UniformTypes

/// A hostile mime directory, as an attacker who controls `XDG_DATA_HOME` would plant it: the given magic file and
/// a `types` file naming its types, under `<folder>/mime`.
private struct HostileMIMEFolder {
    let folder: URL
    var mime: URL { folder.appendingPathComponent("mime") }

    init(magic: [UInt8], types: [String]) throws {
        folder = try makeTemporaryDirectory(prefix: "transferkit-hostile-mime")
        try FileManager.default.createDirectory(at: mime, withIntermediateDirectories: true)
        try Data((types.joined(separator: "\n") + "\n").utf8).write(to: mime.appendingPathComponent("types"))
        try Data(magic).write(to: mime.appendingPathComponent("magic"))
    }

    func catalog() -> TypeCatalog {
        let catalog = TypeCatalog()
        catalog.importMIMEDatabase(directories: [mime])
        return catalog
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// The audit's huge rule: a 65 535-byte value (all `A` but a final `B`) anywhere in a 1 MiB range, which data of
/// `A`s compares almost whole at every offset (6 × 10¹⁰ comparisons); then a plain rule of lower priority.
private let hugeRuleMagic = magicFile([
    (
        80, "application/x-huge",
        [magicLine(offset: 0, value: Array(repeating: 0x41, count: 65_534) + [0x42], range: 1 << 20)]
    ),
    (50, "application/x-after", [magicLine(offset: 0, value: Array("AAAA".utf8))]),
])

/// A 3.4 MB magic file: 34 000 rules, each a 64-byte value (`A`s and a final `B`) over a range of 1 000, so that
/// data of `A`s costs each rule 64 000 comparisons (2.2 × 10⁹ in all).
private let floodMagic: [UInt8] = {
    var bytes = MIMEMagicParser.header
    let line = magicLine(offset: 0, value: Array(repeating: 0x41, count: 63) + [0x42], range: 1000)
    for index in 0..<34_000 {
        bytes += Array("[50:application/x-flood-\(index)]\n".utf8) + line
    }
    return bytes
}()

/// A megabyte of `A`s: what both hostile files are worst at.
private let megabyteOfA = [UInt8](repeating: 0x41, count: 1 << 20)

@Suite("The magic matcher's work limits", .timeLimit(.minutes(5)))
struct MagicWorkLimitTests {
    @Test("a rule that reaches its work limit counts as not matching and the next rule still decides")
    func hugeRule() throws {
        let magic = try MIMEMagic(files: [("hostile/magic", hugeRuleMagic)])
        let limits = ContentSniffingLimits()
        let report = magic.evaluate(megabyteOfA, limits: limits)
        #expect(report.mimeType == "application/x-after")
        #expect(report.rulesOutOfWork == 1)
        #expect(!report.isOutOfWork)
        // The huge rule spent exactly its limit, the next one 4 comparisons.
        #expect(report.work == limits.maximumRuleWork + 4)
        let tight = magic.evaluate(megabyteOfA, limits: ContentSniffingLimits(maximumRuleWork: 1000))
        #expect(tight.work == 1004)
        #expect(tight.mimeType == "application/x-after")
    }

    @Test("a sniff stops at the whole match's work limit: the rules not tried count as not matching")
    func flood() throws {
        #expect(floodMagic.count > 3_400_000)
        let magic = try MIMEMagic(files: [("hostile/magic", floodMagic)])
        let limits = ContentSniffingLimits()
        let report = magic.evaluate(megabyteOfA, limits: limits)
        #expect(report.mimeType == nil)
        #expect(report.isOutOfWork)
        #expect(report.work == limits.maximumMatchWork)
        // 64 000 comparisons a rule: the 132nd rule is where 8 Mi runs out.
        #expect(report.rulesOutOfWork == 1)
        let small = magic.evaluate(megabyteOfA, limits: ContentSniffingLimits(maximumMatchWork: 100_000))
        #expect(small.work == 100_000)
        #expect(small.isOutOfWork)
    }

    @Test("a match within the limits is what it was: the system's rules never reach them")
    func withinLimits() throws {
        let magic = try MIMEMagic(files: [("fixture/magic", hugeRuleMagic)])
        let data: [UInt8] = Array(repeating: 0x41, count: 65_534) + [0x42]
        let report = magic.evaluate(data, limits: ContentSniffingLimits())
        #expect(report.mimeType == "application/x-huge")
        #expect(report.priority == 80)
        #expect(report.work == 65_535)
        #expect(report.rulesOutOfWork == 0)
    }

    @Test(
        "the system's magic file fits under the defaults at worst: every line compared in full at every offset",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/magic"), "needs shared-mime-info"))
    func systemDatabaseFits() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/mime/magic")))
        let limits = ContentSniffingLimits()
        #expect(bytes.count <= limits.maximumMagicSize)
        let magic = try MIMEMagic(files: [("/usr/share/mime/magic", bytes)])
        let ruleWork = magic.rules.map { rule in rule.lines.reduce(0) { $0 + $1.range * $1.value.count } }
        // Debian 12's shared-mime-info 2.2: 74 892 for audio/vnd.dts.hd, 491 778 in all.
        #expect(ruleWork.max() ?? 0 <= limits.maximumRuleWork / 8)
        #expect(ruleWork.reduce(0, +) <= limits.maximumMatchWork / 8)
    }

    @Test("limits of zero let no rule match; negative limits count as zero")
    func zeroLimits() throws {
        let magic = try MIMEMagic(files: [("fixture/magic", hugeRuleMagic)])
        for limits in [ContentSniffingLimits(maximumRuleWork: 0), ContentSniffingLimits(maximumMatchWork: -5)] {
            let report = magic.evaluate(Array("AAAA".utf8), limits: limits)
            #expect(report.mimeType == nil)
            #expect(report.work == 0)
        }
    }
}

@Suite("Hostile MIME folders through the catalogue", .timeLimit(.minutes(5)))
struct HostileMagicCatalogTests {
    @Test("a 64 KB value over a 1 MiB range: the sniff ends, and the next rule's type is the answer")
    func hugeRuleThroughTheCatalog() throws {
        let folder = try HostileMIMEFolder(magic: hugeRuleMagic, types: ["application/x-huge", "application/x-after"])
        defer { folder.remove() }
        let catalog = folder.catalog()
        let after = try #require(catalog.type(mimeType: "application/x-after"))
        #expect(try catalog.type(forContentsOf: Data(megabyteOfA)) == after)
        let file = folder.folder.appendingPathComponent("noextension")
        try Data(megabyteOfA).write(to: file)
        #expect(try catalog.type(forFileAt: file) == after)
    }

    @Test("a 3.4 MB magic file is past the size limit: it is skipped, and bytes of A are text")
    func floodIsSkipped() throws {
        let folder = try HostileMIMEFolder(magic: floodMagic, types: ["application/x-flood-0"])
        defer { folder.remove() }
        let catalog = folder.catalog()
        #expect(try catalog.type(forContentsOf: Data(megabyteOfA)) == .plainText)
        #expect(try catalog.contentSniffingLength == 0)
    }

    @Test("with the size limit raised, the 3.4 MB file is read and the match limit ends the sniff")
    func floodWithinARaisedSizeLimit() throws {
        let folder = try HostileMIMEFolder(magic: floodMagic, types: ["application/x-flood-0"])
        defer { folder.remove() }
        let catalog = folder.catalog()
        catalog.contentSniffingLimits.maximumMagicSize = 4 << 20
        #expect(try catalog.contentSniffingLength == 1063)
        #expect(try catalog.type(forContentsOf: Data(megabyteOfA)) == .plainText)
        let index = try #require(catalog.snapshot.mimeIndex)
        let report = try index.magic(maximumSize: 4 << 20).evaluate(megabyteOfA, limits: catalog.contentSniffingLimits)
        #expect(report.isOutOfWork)
        #expect(report.work == ContentSniffingLimits.default.maximumMatchWork)
        // The first rule of the file matches data made for it, well within the limits.
        let flood0 = try #require(catalog.type(mimeType: "application/x-flood-0"))
        #expect(try catalog.type(forContentsOf: Data(Array(repeating: 0x41, count: 63) + [0x42])) == flood0)
    }

    @Test("the size limit counts every directory's magic file: the one that would pass it is skipped, the rest read")
    func sizeLimitAcrossDirectories() throws {
        let big = try HostileMIMEFolder(magic: hugeRuleMagic, types: ["application/x-huge", "application/x-after"])
        defer { big.remove() }
        let small = try HostileMIMEFolder(
            magic: magicFile([(50, "application/x-small", [magicLine(offset: 0, value: Array("SMALL".utf8))])]),
            types: ["application/x-small"])
        defer { small.remove() }
        let catalog = TypeCatalog()
        catalog.importMIMEDatabase(directories: [big.mime, small.mime])
        catalog.contentSniffingLimits.maximumMagicSize = 1000
        let smallType = try #require(catalog.type(mimeType: "application/x-small"))
        #expect(try catalog.type(forContentsOf: Data("SMALL".utf8)) == smallType)
        #expect(try catalog.type(forContentsOf: Data("AAAA".utf8)) == .plainText)
        catalog.contentSniffingLimits.maximumMagicSize = 1 << 20
        let after = try #require(catalog.type(mimeType: "application/x-after"))
        #expect(try catalog.type(forContentsOf: Data("AAAA".utf8)) == after)
    }
}
