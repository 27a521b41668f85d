import Testing
import TransferKitJSON

@Suite("The strict JSON parser", .timeLimit(.minutes(5)))
struct JSONParserTests {
    private func parse(_ text: String, maxDepth: Int = 16) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
    }

    @Test(
        "canonical text sorts keys, drops white space and spells numbers one way",
        arguments: [
            (#" { "b" : [1.0, 1e2, -0, 2.5], "a" : "x\u0041\n" } "#, #"{"a":"xA\n","b":[1,100,0,2.5]}"#),
            (#"{"é": true, "e": null}"#, #"{"e":null,"é":true}"#),
            ("[]", "[]"),
            (#""\/""#, #""/""#),
        ])
    func canonicalText(input: String, expected: String) throws {
        #expect(try parse(input).canonicalText == Array(expected.utf8))
    }

    @Test(
        "each kind of bad document has its kind and offset",
        arguments: [
            ("[1,]", JSONSyntaxError.Kind.malformed, 3),
            (#"{"a": 1, "a": 2}"#, .malformed, 9),
            ("[1", .truncated, 2),
            ("[[[[1]]]]", .tooDeep, 3),
            ("[1] x", .malformed, 4),
            (#""\ud800""#, .invalidUTF8, 7),
        ])
    func errors(input: String, kind: JSONSyntaxError.Kind, offset: Int) {
        let error = #expect(throws: JSONSyntaxError.self) { try parse(input, maxDepth: 3) }
        #expect(error?.kind == kind)
        #expect(error?.offset == offset)
    }

    @Test("invalid UTF-8 is reported at its first bad byte")
    func invalidUTF8() {
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONParser.parse([0x22, 0x61, 0xC3, 0x22], maxDepth: 2)
        }
        #expect(error?.kind == .invalidUTF8)
        #expect(error?.offset == 2)
    }

    @Test("accessors read strings, whole numbers, arrays and members in document order")
    func accessors() throws {
        let value = try parse(#"{"s": "t", "n": 3.0, "f": 1.5, "a": [true], "o": {}}"#)
        let members = try #require(value.members)
        #expect(members.map(\.key) == ["s", "n", "f", "a", "o"])
        #expect(value["s"]?.string == "t")
        #expect(value["n"]?.integer == 3)
        #expect(value["n"]?.typeName == "integer")
        #expect(value["f"]?.integer == nil)
        #expect(value["f"]?.typeName == "number")
        #expect(value["a"]?.elements?.count == 1)
        #expect(value["o"]?.typeName == "object")
    }
}
