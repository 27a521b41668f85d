import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitTestSupport
import UniformTypes

/// Writes, in this process, an archive of one card whose type this process declares as JSON; the `transferkit`
/// child processes below never see that declaration except through the archive.
private func writeCardArchive(in space: Workspace, as format: TransferArchiveFormat) async throws -> String {
    let catalog = TypeCatalog()
    let card = try #require(UniformType("com.example.card"))
    try catalog.register(
        [UniformTypeDeclaration(identifier: card, conformsTo: [.json], description: "Example card")], as: .exported)
    let provider = TransferProvider(catalog: catalog)
    provider.registerDataRepresentation(for: card) { _ in Data(#"{"level":3,"name":"Ryu"}"#.utf8) }
    let archive = try await TransferArchive(providers: [provider])
    return try space.writeArchive(format == .cbor ? "card.transferkit" : "card.json", archive, as: format)
}

private func json(_ run: ToolRun) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(run.outputBytes)) as? [String: Any])
}

@Suite("Self-describing archives between processes (format 1.1)", .timeLimit(.minutes(5)))
struct ArchiveDeclarationsToolTests {
    @Test(
        "another process extracts, checks and inspects a declared type as JSON without a declarations file",
        arguments: [TransferArchiveFormat.cbor, .json])
    func anotherProcessLearnsTheType(format: TransferArchiveFormat) async throws {
        let space = try Workspace()
        let path = try await writeCardArchive(in: space, as: format)
        let extracted = try await runBinary(["extract", "--type", "public.json", path, "-o", "-"])
        #expect(extracted.status == 0, "\(extracted.error)")
        #expect(extracted.output == #"{"level":3,"name":"Ryu"}"#)
        let checked = try await runBinary(["check", "--json", path])
        #expect(checked.status == 0, "\(checked.error)")
        let reports = try #require(
            try JSONSerialization.jsonObject(with: Data(checked.outputBytes)) as? [[String: Any]])
        let items = try #require(reports.first?["items"] as? [[String: Any]])
        let representation = try #require((items.first?["representations"] as? [[String: Any]])?.first)
        // Checked by value or bytes through the JSON reader, not by checksum alone.
        #expect(["bytes", "value"].contains(representation["result"] as? String ?? ""), "\(representation)")
        let inspected = try json(try await runBinary(["inspect", "--json", path]))
        let declarations = try #require(inspected["declarations"] as? [[String: Any]])
        #expect(declarations.map { $0["identifier"] as? String } == ["com.example.card"])
        #expect(declarations.map { $0["outcome"] as? String } == ["used"])
        #expect(inspected["version"] as? [Int] == [1, 1])
        let other = space.path(format == .cbor ? "converted.json" : "converted.transferkit")
        let converted = try await runBinary(["convert", path, "-o", other])
        #expect(converted.status == 0, "\(converted.error)")
        #expect(
            try TransferArchive(decoding: try Data(contentsOf: URL(fileURLWithPath: other))).declarations.count == 1)
    }

    @Test("an archive packed with --declarations is read as JSON by a process that never loaded the file")
    func packedArchiveCarriesTheFile() async throws {
        let space = try Workspace()
        let declarations = try space.write(
            "types.json",
            Array(
                #"{"exported":[{"identifier":"com.example.card","conformsTo":["public.json"],"tags":{"public.filename-extension":["card"]}}]}"#
                    .utf8))
        let card = try space.write("ryu.card", Array(#"{"name":"Ryu"}"#.utf8))
        let packed = try await runBinary([
            "pack", "--declarations", declarations, card, "-o", space.path("a.transferkit"),
        ])
        #expect(packed.status == 0, "\(packed.error)")
        let archive = try TransferArchive(decoding: try space.read("a.transferkit"))
        let providers = archive.makeProviders(catalog: TypeCatalog())
        let data = try await providers[0].loadDataRepresentation(for: .json)
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Ryu"}"#)
    }

    @Test("the reader's own declaration wins over the archive's, and inspect reports the conflict")
    func readersDeclarationWins() async throws {
        let space = try Workspace()
        let path = try await writeCardArchive(in: space, as: .cbor)
        let own = try space.write(
            "own.json", Array(#"{"exported":[{"identifier":"com.example.card","conformsTo":["public.data"]}]}"#.utf8))
        let inspected = try json(try await runBinary(["inspect", "--json", "--declarations", own, path]))
        let declaration = try #require((inspected["declarations"] as? [[String: Any]])?.first)
        #expect(declaration["outcome"] as? String == "conflicts")
        #expect(declaration["catalogConformsTo"] as? [String] == ["public.data"])
        let extracted = try await runBinary([
            "extract", "--declarations", own, "--type", "public.json", path, "-o", "-",
        ])
        #expect(extracted.status != 0)
        #expect(extracted.error.contains("typeNotOffered"), "\(extracted.error)")
    }
}
