import Testing

@testable import UniformTypes

@Suite("Identifiers of MIME database types", .timeLimit(.minutes(5)))
struct MIMEIdentifierTests {
    @Test(
        "lowercased, every character outside a-z 0-9 replaced by '-'",
        arguments: [
            ("application/vnd.apple.pkpass", "application.vnd-apple-pkpass"),
            ("image/svg+xml", "image.svg-xml"),
            ("application/vnd.ms-excel.sheet.macroEnabled.12", "application.vnd-ms-excel-sheet-macroenabled-12"),
            ("x-content/video-dvd", "x-content.video-dvd"),
            ("application/x-foo_bar", "application.x-foo-bar"),
        ])
    func readable(mimeType: String, suffix: String) {
        #expect(MIMEImporter.identifier(forMIMEType: mimeType) == MIMEImporter.identifierPrefix + suffix)
    }

    @Test("a clash or an overlong name is disambiguated by a stable hash, within the length limit")
    func disambiguated() throws {
        let plain = MIMEImporter.identifier(forMIMEType: "application/a.b")
        #expect(plain == MIMEImporter.identifier(forMIMEType: "application/a-b"))
        let first = MIMEImporter.disambiguated(plain, mimeType: "application/a-b")
        let second = MIMEImporter.disambiguated(plain, mimeType: "application/a.b")
        #expect(first != second)
        #expect(first == MIMEImporter.disambiguated(plain, mimeType: "APPLICATION/A-B"))
        #expect(IdentifierSyntax.problem(with: first) == nil)
        let long = MIMEImporter.identifier(forMIMEType: "application/" + String(repeating: "x", count: 250))
        let shortened = MIMEImporter.disambiguated(long, mimeType: "application/" + String(repeating: "x", count: 250))
        #expect(shortened.utf8.count == IdentifierSyntax.maximumLength)
        #expect(IdentifierSyntax.problem(with: shortened) == nil)
    }
}
