import CBOR
import Testing

@Suite("CBORValue", .timeLimit(.minutes(5)))
struct ValueTests {
    @Test("64-bit extremes encode exactly and round-trip")
    func extremes() throws {
        let cases: [(CBORValue, String)] = [
            (.unsigned(.max), "1bffffffffffffffff"), (.negative(.max), "3bffffffffffffffff"),
            (CBORValue(Int64.min), "3b7fffffffffffffff"), (CBORValue(Int64.max), "1b7fffffffffffffff"),
            (.tagged(.max, 0), "dbffffffffffffffff00"), (.negative(0), "20"),
        ]
        for (value, expected) in cases {
            #expect(hex(try value.encoded()) == expected)
            #expect(try CBORValue(decoding: bytes(expected)) == value)
        }
        #expect(CBORValue(Int64.min).integer == Int64.min)
        #expect(CBORValue(Int64.max).integer == Int64.max)
        #expect(CBORValue.negative(UInt64(Int64.max)).integer == Int64.min)
        #expect(CBORValue.negative(UInt64(Int64.max) + 1).integer == nil)
        #expect(CBORValue.unsigned(.max).integer == nil)
        #expect(CBORValue.unsigned(.max).unsignedInteger == .max)
    }

    @Test("accessors return the payload of their own case and nil for others")
    func accessors() {
        let map: CBORValue = ["text": "t", "bytes": .bytes([1]), "list": [true, 2.5], 7: .tagged(1, .simple(99))]
        #expect(map["text"]?.textString == "t")
        #expect(map["bytes"]?.byteString == [1])
        #expect(map["list"]?[0]?.boolValue == true)
        #expect(map["list"]?[1]?.doubleValue == 2.5)
        #expect(map["list"]?[2] == nil)
        #expect(map["missing"] == nil)
        #expect(map.mapValue(forKey: 7)?.tagNumber == 1)
        #expect(map.mapValue(forKey: 7)?.taggedContent?.simpleValue == 99)
        #expect(map.mapEntries?.count == 4)
        #expect(map.arrayValue == nil && map.textString == nil && map.unsignedInteger == nil)
        #expect(CBORValue.null.isNull && !CBORValue.undefined.isNull)
        #expect(CBORValue.text("x")["key"] == nil && CBORValue.text("x")[0] == nil)
    }

    @Test("equality follows the CBOR data model")
    func equality() {
        #expect(CBORValue.text("\u{e9}") != CBORValue.text("e\u{301}"))
        #expect(Set<CBORValue>([.text("\u{e9}"), .text("e\u{301}")]).count == 2)
        #expect(CBORValue.float(0.0) != CBORValue.float(-0.0))
        #expect(CBORValue.float(.nan) == CBORValue.float(-.nan))
        #expect(Set<CBORValue>([.float(.nan), .float(.signalingNaN)]).count == 1)
        #expect(CBORValue.unsigned(1) != CBORValue.float(1.0))
        let forward: CBORValue = ["a": 1, "b": 2]
        let backward: CBORValue = ["b": 2, "a": 1]
        #expect(forward == backward && forward.hashValue == backward.hashValue)
        #expect(forward != ["a": 1, "b": 3])
    }

    @Test("canonically equivalent text keys are different keys")
    func distinctTextKeys() throws {
        let value: CBORValue = ["\u{e9}": 1, "e\u{301}": 2]
        #expect(try CBORValue(decoding: try value.encoded()) == value)
    }

    @Test("whatever the writer writes reads back equal, also in deterministic mode")
    func roundTrip() throws {
        let encoded = try complexValue.encoded()
        #expect(try CBORValue(decoding: encoded, requireDeterministic: true) == complexValue)
        #expect(try CBORValue(decoding: encoded).encoded() == encoded)
    }

    @Test("the self-described tag marks the output")
    func selfDescribed() throws {
        var writer = CBORWriter()
        writer.writeSelfDescribedTag()
        try writer.write("x")
        #expect(hex(writer.bytes) == "d9d9f76178")
        #expect(try CBORValue(decoding: writer.bytes) == .tagged(CBORValue.selfDescribedTag, "x"))
    }

    @Test("errors describe their code, message and offset")
    func errorDescription() {
        let error = #expect(throws: CBORError.self) { try CBORValue(decoding: bytes("82 01 ff")) }
        #expect(error?.description.contains("CBORError.unexpectedBreak") == true)
        #expect(error?.description.contains("offset 2") == true)
        #expect(CBORError.Code.truncated.description == "truncated")
    }
}
