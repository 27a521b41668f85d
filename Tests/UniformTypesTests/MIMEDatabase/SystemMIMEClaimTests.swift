import Foundation
import Testing
import TransferKitTestSupport
import UniformTypes

@Suite("Packages never claim the system's MIME types", .timeLimit(.minutes(5)))
struct SystemMIMEClaimTests {
    /// A system mime directory with one type and one alias of it.
    private func systemDirectory() throws -> URL {
        let folder = try makeTemporaryDirectory(prefix: "transferkit-system-mime")
        try Data("text/x-system\n".utf8).write(to: folder.appendingPathComponent("types"))
        try Data("text/x-system-alias text/x-system\n".utf8).write(to: folder.appendingPathComponent("aliases"))
        return folder
    }

    private func declaration(
        _ identifier: String, _ mimeTypes: [String], description: String? = nil
    ) throws
        -> UniformTypeDeclaration
    {
        UniformTypeDeclaration(
            identifier: try #require(UniformType(identifier)), conformsTo: [.data], tags: [.mimeType: mimeTypes],
            description: description)
    }

    @Test(
        "a declaration with a built-in type's MIME type, an inode/ type, or a system database's type or alias is left out",
        arguments: [
            ["application/pdf"], ["text/plain"], ["inode/directory"], ["INODE/X-ANYTHING"], ["text/x-system"],
            ["text/x-system-alias"], ["application/vnd.example.own", "text/x-system-alias"],
            ["application/vnd.example.own", "application/PDF"],
        ])
    func claims(mimeTypes: [String]) throws {
        let system = try systemDirectory()
        defer { try? FileManager.default.removeItem(at: system) }
        let package = SharedMIMEInfoPackage(
            declarations: [
                try declaration("com.example.claim", mimeTypes),
                try declaration("com.example.own", ["application/vnd.example.other"]),
            ], catalog: TypeCatalog(), systemMIMEDirectories: [system])
        #expect(package.entries.map(\.mimeType) == ["application/vnd.example.other"])
        let omission = try #require(package.omissions.first)
        #expect(package.omissions.count == 1)
        #expect(omission.uniformType.identifier == "com.example.claim")
        #expect(omission.claimsSystemMIMEType)
        #expect(omission.reason.contains("is the system's"))
        for mimeType in mimeTypes {
            #expect(!package.xml.contains(#"type="\#(mimeType)""#))
        }
    }

    @Test("the user's own database (an earlier install of the package) is not the system's")
    func earlierInstallIsNotAClaim() throws {
        let system = try systemDirectory()
        defer { try? FileManager.default.removeItem(at: system) }
        let package = SharedMIMEInfoPackage(
            declarations: [try declaration("com.example.own", ["application/vnd.example.own"])],
            catalog: TypeCatalog(), systemMIMEDirectories: [system])
        #expect(package.entries.count == 1)
        #expect(package.omissions.isEmpty)
    }

    @Test("a description longer than the comment limit is left out, not cut")
    func longDescription() throws {
        let package = SharedMIMEInfoPackage(
            declarations: [
                try declaration(
                    "com.example.long", ["application/vnd.example.long"],
                    description: String(repeating: "d", count: SharedMIMEInfoPackage.maximumCommentLength + 1))
            ], catalog: TypeCatalog(), systemMIMEDirectories: [])
        #expect(package.entries.isEmpty)
        #expect(package.omissions.first?.claimsSystemMIMEType == false)
        #expect(package.omissions.first?.reason.contains("more than the 1024") == true)
    }
}
