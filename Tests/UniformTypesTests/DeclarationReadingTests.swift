import Foundation
import Testing
import UniformTypes

/// The declaration-file fixtures of one folder of `Resources`.
private func fixtures(_ folder: String) throws -> [URL] {
    let resources = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
    let directory = resources.appendingPathComponent(folder)
    return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

/// Valid files in the shapes a file may take: fields in any order, escapes, every optional field, empty lists.
private let validDocuments = [
    #"{}"#,
    #"{"exported": [], "imported": []}"#,
    #" { "$schema" : "https://example.com/s.json" , "imported" : [ ] } "#,
    #"{"exported": [{"tags": {"public.filename-extension": ["card", "CARD"]}, "identifier": "com.example.card"}]}"#,
    #"{"exported": [{"identifier": "com.example.\u0063ard", "conformsTo": ["public.json", "public.data"]}]}"#,
    #"{"exported": [{"identifier": "Com.Example.Up", "conformsTo": [], "tags": {}}]}"#,
    #"{"exported": [{"identifier": "a.b", "tags": {"public.mime-type": ["a/b"], "public.filename-extension": []}}]}"#,
    #"{"exported": [{"identifier": "a.b", "description": "Ünïcödé \"quoted\" \n line", "version": 3}]}"#,
    #"{"exported": [{"identifier": "a.b", "version": 3.0, "referenceURL": "https://example.com/a?b=c"}]}"#,
    #"{"exported": [{"identifier": "a.b", "version": 1e0}]}"#,
    #"{"imported": [{"identifier": "a.b", "conformsTo": ["public.text", "public.text"]}], "exported": [{"identifier": "a.c", "conformsTo": ["a.b"]}]}"#,
    #"{"exported": [{"identifier": "com.example.x", "tags": {"com.example.tag-class": ["one", "two"]}}]}"#,
    #"{"exported": [{"identifier": "a.b", "tags": {"public.filename-extension": [".Deck", "tar.gz"]}}]}"#,
]

/// Invalid files beyond the fixtures: each problem the direct reading must leave to the tree's reading.
private let invalidDocuments = [
    #"[]"#,
    #"{"exported": [{"identifier": "a.b"}], "other": 1}"#,
    #"{"exported": [{"identifier": "a.b", "identifier": "a.c"}]}"#,
    #"{"exported": [{"identifier": "a.b", "tags": {"public.mime-type": ["a/b"], "public.mime-type": []}}]}"#,
    #"{"exported": [{"identifier": "a.b"},]}"#,
    #"{"exported": [{"identifier": "a.b"}]} x"#,
    #"{"exported": [{"identifier": "a.b", "version": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}]}"#,
    #"{"exported": [{"identifier": "a.b", "description": "\#(String(repeating: "d", count: 1025))"}]}"#,
    #"{"exported": [{"identifier": "a..b"}]}"#,
    #"{"exported": [{"identifier": "a.b", "conformsTo": ["not valid"]}]}"#,
    #"{"exported": [{"conformsTo": ["public.data"]}]}"#,
    #"{"exported": [{"identifier": "a.b", "tags": {"public.mime-type": "a/b"}}]}"#,
    #"{"exported": [{"identifier": "a.b", "version": -1}]}"#,
    #"{"exported": [{"identifier": "a.b", "referenceURL": "no scheme"}]}"#,
    #"{"$schema": 1}"#,
    #"{"exported": [{"identifier": "a.\ud800b"}]}"#,
    // Problems of a declaration on its own, which the validator's check finds.
    #"{"exported": [{"identifier": "dyn.ext.card"}]}"#,
    #"{"exported": [{"identifier": "a.b", "tags": {"public.mime-type": ["*/*"]}}]}"#,
    #"{"exported": [{"identifier": "a.b", "tags": {"public.mime-type": ["no slash"]}}]}"#,
    #"{"exported": [{"identifier": "a.b", "tags": {"public.filename-extension": ["a/b"]}}]}"#,
]

@Suite("Reading a declaration file without a JSON tree", .timeLimit(.minutes(5)))
struct DeclarationReadingTests {
    @Test("a valid file is read directly, to the declarations that the tree's reading gives", arguments: validDocuments)
    func validInline(document: String) {
        // Named, so that a failure shows the document (an argument) rather than its bytes.
        let readsDirectly = DeclarationFileReadings.readsDirectly(Array(document.utf8))
        let agree = DeclarationFileReadings.agree(on: Array(document.utf8))
        #expect(readsDirectly)
        #expect(agree)
    }

    @Test("an invalid file is left to the tree's reading, which names its problem", arguments: invalidDocuments)
    func invalidInline(document: String) {
        let readsDirectly = DeclarationFileReadings.readsDirectly(Array(document.utf8))
        let agree = DeclarationFileReadings.agree(on: Array(document.utf8))
        #expect(!readsDirectly)
        #expect(agree)
        #expect(throws: UniformTypeError.self) {
            try TypeCatalog().loadDeclarations(from: Data(document.utf8), source: "inline")
        }
    }

    @Test("the two readings agree on every fixture, valid, invalid and hostile")
    func fixturesAgree() throws {
        let valid = try fixtures("valid")
        let others = try fixtures("invalid") + fixtures("hostile")
        #expect(valid.count >= 5)
        #expect(others.count >= 14)
        for url in valid + others {
            // Named, so that a failure names the file rather than listing its bytes.
            let agree = DeclarationFileReadings.agree(on: try [UInt8](Data(contentsOf: url)))
            #expect(agree, "\(url.lastPathComponent)")
        }
        for url in valid {
            let readsDirectly = DeclarationFileReadings.readsDirectly(try [UInt8](Data(contentsOf: url)))
            #expect(readsDirectly, "\(url.lastPathComponent)")
        }
    }

    @Test("a large file's identifiers keep their spelling and order")
    func largeFile() throws {
        let entries = (0..<5000).map { number in
            #"{"identifier": "com.Example.T\#(number)", "conformsTo": ["\#(number == 0 ? "public.data" : "com.example.t\(number - 1)")"]}"#
        }
        let bytes = Array(#"{"exported": [\#(entries.joined(separator: ","))]}"#.utf8)
        #expect(DeclarationFileReadings.readsDirectly(bytes))
        #expect(DeclarationFileReadings.agree(on: bytes))
        let catalog = TypeCatalog()
        try catalog.loadDeclarations(from: Data(bytes), source: "large")
        let last = try #require(UniformType("com.example.t4999"))
        #expect(catalog.declaration(for: last)?.identifier.identifier == "com.Example.T4999")
        #expect(catalog.conforms(last, to: try #require(UniformType("com.example.t0"))))
    }
}
