import Foundation
import Testing

@testable import UniformTypes

@Suite("Input quoted in error messages", .timeLimit(.minutes(5)))
struct ErrorExcerptTests {
    @Test("a NUL in a magic section's MIME type is escaped in the error, not echoed raw")
    func nulInMagicSectionType() throws {
        let file = Array("MIME-Magic\0\n[50:text/pl\0ain]\n>0=\0\u{1}A\n".utf8)
        let error = #expect(throws: UniformTypeError.self) { try MIMEMagic(files: [("hostile/magic", file)]) }
        #expect(error?.code == .invalidMagic)
        let message = try #require(error?.message)
        #expect(!message.utf8.contains(0))
        #expect(message.hasPrefix(#"the section's MIME type 'text/pl\x00ain' is not a MIME type"#))
    }

    @Test("a long section name is cut in the error, with its length")
    func longMagicSectionType() throws {
        let name = "text/" + String(repeating: "\u{1B}", count: 10_000)
        let file = Array("MIME-Magic\0\n[50:\(name)]\n>0=\0\u{1}A\n".utf8)
        let error = #expect(throws: UniformTypeError.self) { try MIMEMagic(files: [("hostile/magic", file)]) }
        let message = try #require(error?.message)
        #expect(message.utf8.count < 500)
        #expect(message.contains("(10005 bytes)"))
        #expect(!message.contains("\u{1B}"))
    }

    @Test("a 10 000-character identifier is named once, cut, in an invalidIdentifier error")
    func longIdentifier() throws {
        let identifier = "com.example." + String(repeating: "x", count: 10_000)
        let json = #"{"exported": [{"identifier": "\#(identifier)", "conformsTo": ["public.data"]}]}"#
        let error = #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: Data(json.utf8), source: "long.json")
        }
        #expect(error?.code == .invalidIdentifier)
        let text = "\(error?.message ?? "") \(error?.source ?? "")"
        #expect(text.utf8.count < 600)
        #expect(text.components(separatedBy: "com.example.xxxx").count == 2)
        #expect(error?.source?.hasPrefix("long.json: exported[0] com.example.xxx") == true)
        #expect(error?.message.hasSuffix("this one has 10012.") == true)
    }

    @Test("a description longer than 1 024 bytes is an invalidDeclaration")
    func longDescription() throws {
        let json = #"""
            {"exported": [{"identifier": "com.example.long", "conformsTo": ["public.data"],
              "description": "\#(String(repeating: "d", count: 1025))"}]}
            """#
        let error = #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: Data(json.utf8), source: "long.json")
        }
        #expect(error?.code == .invalidDeclaration)
        #expect(error?.message.hasPrefix(#""description" has 1025 UTF-8 bytes, more than the 1024"#) == true)
        let fine = json.replacingOccurrences(of: String(repeating: "d", count: 1025), with: "A short name")
        try TypeCatalog().loadDeclarations(from: Data(fine.utf8), source: "fine.json")
    }
}
