import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import UniformTypes

/// What `Schemas/transfer-archive.md` decides that the tool, not only the library, must follow (issue 27): the
/// form detected on standard input, `inspect --json` for every valid archive, the text form's size limit, and the
/// canonical float text. Outcomes are checked by exit status and error code, not by whole messages.
@Suite("transferkit follows the archive spec", .timeLimit(.minutes(5)))
struct ArchiveSpecConformanceTests {
    private static let hello = TransferArchive.Representation(type: .utf8PlainText, data: Data("hello".utf8))

    @Test(
        "inspect and extract tell the form on standard input (section 2)", arguments: TransferArchiveFormat.allCases)
    func standardInput(_ format: TransferArchiveFormat) async throws {
        let archive = TransferArchive(items: [.init(suggestedName: "note.txt", representations: [Self.hello])])
        let bytes = [UInt8](try archive.encoded(as: format))
        // White space before a JSON archive's object is part of the text form too.
        let input = format == .json ? Array(" \n\t".utf8) + bytes : bytes
        let inspected = try await runBinary(["inspect", "-"], input: input)
        #expect(inspected.status == 0, "\(inspected.error)")
        #expect(inspected.output.contains("\(format.rawValue.uppercased()) archive"))
        let extracted = try await runBinary(["extract", "-", "--type", "public.text"], input: input)
        #expect(extracted.status == 0, "\(extracted.error)")
        #expect(extracted.outputBytes == Array("hello".utf8))
    }

    @Test("inspect --json lists NaN and the infinities so that no text or map looks the same (JSON view)")
    func nonFiniteMetadata() async throws {
        let space = try Workspace()
        let metadata: [String: TransferMetadataValue] = [
            "nan": .double(.nan), "up": .double(.infinity), "down": .double(-.infinity), "text": "NaN",
            "map": ["NaN": "NaN"],
        ]
        let path = try space.writeArchive(
            "odd.transferkit", TransferArchive(items: [.init(metadata: metadata, representations: [Self.hello])]))
        let run = await runInProcess(tool, ["inspect", path, "--json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output.contains(
                #""metadata":{"down":{"-Infinity":null},"map":{"NaN":"NaN"},"nan":{"NaN":null},"text":"NaN","#
                    + #""up":{"Infinity":null}}"#), "\(run.output)")
        // Any JSON parser reads it; a null member marks a non-finite float, since metadata holds no null.
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(run.outputBytes)) as? [String: Any])
        let items = try #require(listing["items"] as? [[String: Any]])
        let listed = try #require(items.first?["metadata"] as? [String: Any])
        #expect((listed["nan"] as? [String: Any])?["NaN"] is NSNull)
        #expect((listed["down"] as? [String: Any])?["-Infinity"] is NSNull)
        #expect(listed["text"] as? String == "NaN")
        #expect((listed["map"] as? [String: String]) == ["NaN": "NaN"])
        // The text listing, for people, keeps the quoted names.
        let text = await runInProcess(tool, ["inspect", path])
        #expect(text.output.contains(#""nan":"NaN""#), "\(text.output)")
    }

    @Test(
        "the first bytes decide the form: a --format that names the other one is notAnArchive (section 2)",
        arguments: TransferArchiveFormat.allCases)
    func formatOptionAgainstFirstBytes(_ format: TransferArchiveFormat) async throws {
        let space = try Workspace()
        let archive = TransferArchive(items: [.init(representations: [Self.hello])])
        let path = try space.writeArchive("a.\(format.pathExtension)", archive, as: format)
        let other: TransferArchiveFormat = format == .cbor ? .json : .cbor
        let shown = format == .cbor ? "binary form (d9 d9 f7)" : "text form ('{')"
        for command in [["inspect", path], ["extract", path, "--type", "public.text", "-o", "-"]] {
            let agreeing = await runInProcess(tool, command + ["--format", format.rawValue])
            #expect(agreeing.status == 0, "\(agreeing.error)")
            let disagreeing = await runInProcess(tool, command + ["--format", other.rawValue])
            #expect(disagreeing.status == 2)
            #expect(disagreeing.error.hasSuffix(" (notAnArchive)\n"), "\(disagreeing.error)")
            #expect(disagreeing.error.contains("its first bytes show the \(shown)"), "\(disagreeing.error)")
        }
    }

    @Test("inspect --json gives a text archive's own minor version and keeps 1.0 a float (sections 3.4, 6)")
    func textVersionAndFloats() async throws {
        let space = try Workspace()
        let path = try space.write(
            "a.json",
            Array(
                #"{"format":"transferkit-archive","items":[{"metadata":{"f":1.0,"i":1},"representations":[]}],"version":[1,7e0]}"#
                    .utf8))
        let run = await runInProcess(tool, ["inspect", path, "--json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains(#""metadata":{"f":1.0,"i":1}"#))
        #expect(run.output.contains(#""version":[1,7]"#))
    }

    @Test("a text archive one byte over 64 MiB, trailing white space included, is limitExceeded (section 7)")
    func documentLimit() async throws {
        let space = try Workspace()
        let limit = TransferArchive.Limits.default.maxJSONDocumentSize
        let archive = [UInt8](try TransferArchive().encoded(as: .json))
        // The library's test of Limits.maxJSONDocumentSize checks that exactly the limit is accepted.
        let over = try space.write("over.json", archive + [UInt8](repeating: 0x20, count: limit + 1 - archive.count))
        for command in [["inspect", over], ["convert", over, "-o", space.path("out.transferkit")]] {
            let rejected = await runInProcess(tool, command)
            #expect(rejected.status == 2)
            #expect(rejected.error.contains("limitExceeded"), "\(rejected.error)")
        }
    }

    @Test("convert writes floats by the spec's rule, positional up to 1e16 (section 5.2)")
    func floatText() async throws {
        let vectors = repositoryFile("Schemas/vectors/valid")
        let binary = vectors.appendingPathComponent("float-text-boundaries.transferkit").path
        let run = await runInProcess(tool, ["convert", binary, "-o", "-", "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.outputBytes
                == [UInt8](try Data(contentsOf: vectors.appendingPathComponent("float-text-boundaries.json"))))
        #expect(run.output.contains(#""9.5e15":9500000000000000.0"#))
    }
}
