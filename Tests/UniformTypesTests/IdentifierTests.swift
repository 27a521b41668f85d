import Foundation
import Testing
import UniformTypes

@Suite("Identifiers", .timeLimit(.minutes(5)))
struct IdentifierTests {
    @Test(
        "valid identifiers are accepted and keep their spelling",
        arguments: ["public.png", "com.Example.Note", "a", "x-y.z-1", "org.café.thing", "org.例え.型", "dyn.ext.png"]
    )
    func valid(identifier: String) throws {
        let type = try #require(UniformType(identifier))
        #expect(type.identifier == identifier)
        #expect(type.description == identifier)
        #expect(try UniformType(validating: identifier) == type)
    }

    @Test(
        "invalid identifiers are rejected with invalidIdentifier",
        arguments: [
            "", ".public.png", "public.png.", "public..png", "public png", "public/png", "public_png",
            "tab\there", "line\nbreak", "bidi\u{200F}mark", "nul\u{0}", String(repeating: "a", count: 256),
        ]
    )
    func invalid(identifier: String) {
        #expect(UniformType(identifier) == nil)
        let error = #expect(throws: UniformTypeError.self) { try UniformType(validating: identifier) }
        #expect(error?.code == .invalidIdentifier)
        #expect(error?.source == identifier)
    }

    @Test("the longest identifier is 255 UTF-8 bytes")
    func lengthLimit() {
        #expect(UniformType(String(repeating: "a", count: 255)) != nil)
        #expect(UniformType(String(repeating: "é", count: 127)) != nil)  // 254 bytes
        #expect(UniformType(String(repeating: "é", count: 128)) == nil)  // 256 bytes
    }

    @Test("the error message says why")
    func messageSaysWhy() {
        let error = #expect(throws: UniformTypeError.self) { try UniformType(validating: "a b") }
        #expect(error?.message.contains("U+0020") == true)
        #expect(error?.description.hasPrefix("UniformTypeError.invalidIdentifier") == true)
    }

    @Test("equality and hashing ignore ASCII case; the spelling is kept")
    func caseInsensitive() throws {
        let upper = try #require(UniformType("PUBLIC.PNG"))
        #expect(upper == .png)
        #expect(upper.hashValue == UniformType.png.hashValue)
        #expect(upper.identifier == "PUBLIC.PNG")
        #expect(Set([upper, .png]).count == 1)
        #expect(upper.conforms(to: .image))
        #expect(UniformType("public.pngx") != .png)
        // Only ASCII letters fold: É and é stay different.
        #expect(UniformType("org.É") != UniformType("org.é"))
    }

    @Test("public domain and debug description")
    func flags() throws {
        #expect(UniformType.png.isPublic)
        #expect(!UniformType.pdf.isPublic)
        #expect(try #require(UniformType("Public.Thing")).isPublic)
        #expect(UniformType.png.debugDescription == "UniformType(public.png)")
    }

    @Test("Codable as a single string")
    func codable() throws {
        let data = try JSONEncoder().encode([UniformType.png, UniformType("Com.Example.X")])
        #expect(String(decoding: data, as: UTF8.self) == #"["public.png","Com.Example.X"]"#)
        let decoded = try JSONDecoder().decode([UniformType].self, from: data)
        #expect(decoded.map(\.identifier) == ["public.png", "Com.Example.X"])
    }

    @Test("decoding a bad identifier throws dataCorrupted with the coding path")
    func codableRejects() {
        let json = Data(#"{"type": "not valid"}"#.utf8)
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([String: UniformType].self, from: json)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["type"])
        #expect(context.debugDescription.contains("not valid"))
    }

    @Test("LosslessStringConvertible round trip")
    func lossless() throws {
        let type = try #require(UniformType(UniformType.json.description))
        #expect(type == .json)
    }
}
