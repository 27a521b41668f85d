import Foundation
import Testing

@testable import UniformTypes

/// Lookups by extension and MIME type keep their answers per catalogue snapshot (`TagAnswerMemo`): a repeated
/// lookup must give what a first one gives, a registration must be seen at once, and distinct tags must not
/// grow the memo past its capacity.
@Suite("Remembered tag answers", .timeLimit(.minutes(5)))
struct TagAnswerMemoTests {
    @Test("a registration after a lookup changes the answer at once")
    func registrationIsSeen() throws {
        let catalog = TypeCatalog()
        let before = try #require(catalog.type(filenameExtension: "memo"))
        #expect(before.isDynamic)
        #expect(catalog.type(filenameExtension: "memo") == before)
        let mimeBefore = try #require(catalog.type(mimeType: "application/x-memo"))
        #expect(mimeBefore.isDynamic)

        let declared = try #require(UniformType("com.example.memo"))
        try catalog.register(
            [
                UniformTypeDeclaration(
                    identifier: declared, conformsTo: [.json],
                    tags: [.filenameExtension: ["memo"], .mimeType: ["application/x-memo"]])
            ], as: .exported)
        #expect(catalog.type(filenameExtension: "memo") == declared)
        #expect(catalog.type(filenameExtension: ".MEMO") == declared)
        #expect(catalog.type(mimeType: "application/x-memo") == declared)
        #expect(catalog.type(mimeType: "Application/X-Memo; q=1") == declared)
    }

    @Test("answers depend on the requested supertype, remembered or not")
    func supertypeIsPartOfTheKey() throws {
        let catalog = TypeCatalog()
        #expect(catalog.type(filenameExtension: "json") == .json)
        #expect(catalog.type(filenameExtension: "json", conformingTo: .image)?.isDynamic == true)
        #expect(catalog.type(filenameExtension: "json") == .json)
        #expect(catalog.type(mimeType: "image/png", conformingTo: .text)?.isDynamic == true)
        #expect(catalog.type(mimeType: "image/png") == .png)
    }

    @Test(
        "a catalog waiting for its lazy MIME import does not take answers given without a MIME database",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/mime/globs2"),
            "needs the shared-mime-info database (Debian: shared-mime-info)"))
    func lazyCatalogIgnoresSharedAnswers() throws {
        // A catalogue without a MIME database answers `blend` with a dynamic type, in the shared first snapshot.
        #expect(TypeCatalog().type(filenameExtension: "blend")?.isDynamic == true)
        let lazy = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [URL(fileURLWithPath: "/usr/share/mime")])
        #expect(lazy.type(filenameExtension: "blend")?.isDynamic == false)
        #expect(lazy.type(filenameExtension: "blend")?.isDynamic == false)
    }

    @Test("distinct tags past the capacity are answered but not kept")
    func capacityIsBounded() throws {
        // Catalogs that start with the system types share their first snapshot and its memo; a registration
        // gives this one a snapshot of its own.
        let catalog = TypeCatalog()
        try catalog.register(
            [
                UniformTypeDeclaration(
                    identifier: try #require(UniformType("com.example.memo-own")), conformsTo: [.data])
            ],
            as: .exported)
        let count = TagAnswerMemo.capacity + 500
        for number in 0..<count {
            #expect(catalog.type(filenameExtension: "x\(number)")?.isDynamic == true)
        }
        #expect(catalog.snapshot.tagAnswers.count(of: .filenameExtension) == TagAnswerMemo.capacity)
        // Past the capacity, a lookup still gives the same answer as before.
        let last = "x\(count - 1)"
        #expect(catalog.type(filenameExtension: last) == catalog.type(filenameExtension: last))
        #expect(catalog.type(filenameExtension: "png") == .png)
        #expect(catalog.snapshot.tagAnswers.count(of: .mimeType) == 0)
    }
}
