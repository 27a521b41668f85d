import Testing
import TransferKitJSON

/// Reads any value with the pulling functions alone (``JSONParser/readValue()`` only for numbers and literals), into
/// the tree that ``JSONParser/parse(_:maxDepth:)`` would give.
private func pull(_ reader: inout JSONParser) throws(JSONSyntaxError) -> JSONValue {
    switch try reader.peekKind() {
    case .object:
        try reader.beginObject()
        var members: [(key: [UInt8], value: JSONValue)] = []
        while let key = try reader.nextKey() {
            members.append((key, try pull(&reader)))
        }
        return .object(members, span: 0..<0)
    case .array:
        try reader.beginArray()
        var elements: [JSONValue] = []
        while try reader.nextElement() {
            elements.append(try pull(&reader))
        }
        return .array(elements, span: 0..<0)
    case .string:
        return .string(try reader.readString { Array($0) }, offset: 0)
    case .number, .bool, .null:
        return try reader.readValue()
    }
}

private func read(_ text: String, maxDepth: Int = 16) throws(JSONSyntaxError) -> JSONValue {
    try JSONParser.read(Array(text.utf8), maxDepth: maxDepth) { (reader: inout JSONParser) throws(JSONSyntaxError) in
        try pull(&reader)
    }
}

@Suite("Reading JSON value by value", .timeLimit(.minutes(5)))
struct JSONReadingTests {
    @Test(
        "a document pulled value by value equals its tree",
        arguments: [
            #" { "b" : [1.0, 1e2, -0, 2.5], "a" : "x\u0041\n" } "#,
            #"{"é": true, "e": null, "\u00e9x": false}"#,
            "[]",
            "{}",
            #"[[], {}, [{}], {"a": [[]]}]"#,
            #""\/\ud83d\ude00""#,
            "-12.5e-3",
            #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18}"#,
        ])
    func sameAsTree(text: String) throws {
        let tree = try JSONParser.parse(Array(text.utf8), maxDepth: 16)
        #expect(try read(text).canonicalText == tree.canonicalText)
    }

    @Test(
        "a bad document is rejected with the tree parser's kind and offset",
        arguments: [
            ("[1,]", JSONSyntaxError.Kind.malformed, 3),
            (#"{"a": 1, "a": 2}"#, .malformed, 9),
            (#"{"a": 1 "b": 2}"#, .malformed, 8),
            (#"{"a" 1}"#, .malformed, 5),
            (#"{"a": 1,}"#, .malformed, 8),
            ("[1", .truncated, 2),
            ("{", .truncated, 1),
            ("[[[[1]]]]", .tooDeep, 3),
            ("[1] x", .malformed, 4),
            (#""\ud800""#, .invalidUTF8, 7),
            ("\"a\u{01}\"", .malformed, 2),
        ])
    func errors(text: String, kind: JSONSyntaxError.Kind, offset: Int) {
        let treeError = #expect(throws: JSONSyntaxError.self) {
            try JSONParser.parse(Array(text.utf8), maxDepth: 3)
        }
        let error = #expect(throws: JSONSyntaxError.self) { try read(text, maxDepth: 3) }
        #expect(error?.kind == kind)
        #expect(error?.offset == offset)
        #expect(error == treeError)
    }

    @Test("a key repeated in an object of more than sixteen members is found")
    func repeatedKeyInLargeObject() {
        let members = (1...20).map { #""k\#($0)": \#($0)"# }
        let object = "{" + members.joined(separator: ", ") + "}"
        let text = "{" + (members + [#""k3": 0"#]).joined(separator: ", ") + "}"
        let error = #expect(throws: JSONSyntaxError.self) { try read(text) }
        #expect(error?.detail == #"an object has the key "k3" twice"#)
        // The same keys in two sibling objects, or in an object and the one inside it, are not repeats.
        #expect(throws: Never.self) { try read("[\(object), \(object)]") }
        #expect(throws: Never.self) { try read(#"{"k1": "# + object + "}") }
    }

    @Test("invalid UTF-8 is rejected before the caller reads anything")
    func invalidUTF8() {
        var called = false
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONParser.read([0x22, 0x61, 0xC3, 0x22], maxDepth: 2) {
                (reader: inout JSONParser) throws(JSONSyntaxError) in
                called = true
                return try pull(&reader)
            }
        }
        #expect(error?.kind == .invalidUTF8)
        #expect(error?.offset == 2)
        #expect(!called)
    }

    @Test("reading a value of another kind, or stopping early, is an error, not a crash")
    func misuse() {
        /// The error of reading `text` with `steps`.
        func failure(
            _ text: String = #"{"a": [1]}"#, _ steps: (inout JSONParser) throws(JSONSyntaxError) -> Void
        ) -> JSONSyntaxError? {
            #expect(throws: JSONSyntaxError.self) { try JSONParser.read(Array(text.utf8), maxDepth: 4, steps) }
        }
        let wrongKind = failure { (reader: inout JSONParser) throws(JSONSyntaxError) in try reader.beginArray() }
        #expect(wrongKind?.detail == "expected '['")
        #expect(wrongKind?.offset == 0)
        let keyInArray = failure { (reader: inout JSONParser) throws(JSONSyntaxError) in
            try reader.beginObject()
            _ = try reader.nextKey()
            try reader.beginArray()
            _ = try reader.nextKey()
        }
        #expect(keyInArray?.detail == "expected an array element, not an object's key")
        let elementInObject = failure { (reader: inout JSONParser) throws(JSONSyntaxError) in
            try reader.beginObject()
            _ = try reader.nextElement()
        }
        #expect(elementInObject?.detail == "expected an object's key, not an array element")
        let stoppedEarly = failure { (reader: inout JSONParser) throws(JSONSyntaxError) in try reader.beginObject() }
        #expect(stoppedEarly?.detail == "bytes follow the JSON document")
        let valueForKey = failure { (reader: inout JSONParser) throws(JSONSyntaxError) in
            try reader.beginObject()
            _ = try reader.readValue()
        }
        #expect(valueForKey?.detail == "expected an object's key, not a value")
        let elementNotAnnounced = failure { (reader: inout JSONParser) throws(JSONSyntaxError) in
            try reader.beginObject()
            _ = try reader.nextKey()
            try reader.beginArray()
            _ = try reader.readValue()
        }
        #expect(elementNotAnnounced?.detail == "expected an array element after nextElement()")
        let twoValues = failure("1 2") { (reader: inout JSONParser) throws(JSONSyntaxError) in
            _ = try reader.readValue()
            _ = try reader.readValue()
        }
        #expect(twoValues?.detail == "bytes follow the JSON document")
        #expect(twoValues?.offset == 2)
    }

    @Test("a string's bytes are given decoded, escapes and all, and the offset moves past it")
    func strings() throws {
        let text = Array(#"["plain", "es\"caped\u00e9"]"#.utf8)
        let (strings, offsets) = try JSONParser.read(text, maxDepth: 2) {
            (reader: inout JSONParser) throws(JSONSyntaxError) in
            var strings: [String] = []
            var offsets: [Int] = []
            try reader.beginArray()
            while try reader.nextElement() {
                strings.append(try reader.readString { String(decoding: $0, as: UTF8.self) })
                offsets.append(reader.offset)
            }
            return (strings, offsets)
        }
        #expect(strings == ["plain", "es\"capedé"])
        #expect(offsets == [8, text.count - 1])
    }
}
