import CBOR
import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import UniformTypes

/// A model written as CBOR; counts how often its content type is computed.
struct Reading: TransferCodable, Equatable {
    enum Unit: String, Codable { case celsius, fahrenheit }
    var sensor: String
    var values: [Double]
    var unit: Unit
    var raw: Data?

    static let contentTypeReads = SanitizedMutex(0)
    static var contentType: UniformType {
        contentTypeReads.withLock { $0 += 1 }
        return UniformType(exportedAs: "com.example.reading", conformingTo: .cbor)
    }
    static var transferCoding: TransferCoding<Reading> { .cbor }
}

/// The declarative builder with a CBOR representation first and a plain-text export.
struct Gauge: Codable, TransferRepresentable, Equatable {
    var level: Int

    static var transferRepresentations: RepresentationList<Gauge> {
        RepresentationList.codable(
            UniformType(exportedAs: "com.example.gauge", conformingTo: .cbor), coding: .cbor)
        RepresentationList.proxy(exporting: { (gauge: Gauge) in "level \(gauge.level)" })
    }
}

/// Serialized: two of its tests read `Reading.contentType` directly, which the counting test would see.
@Suite("TransferCoding.cbor", .serialized, .timeLimit(.minutes(5)))
struct CBORCodingTests {
    let reading = Reading(sensor: "roof", values: [21.5, -3], unit: .celsius, raw: Data([1, 2]))

    @Test("writes deterministic CBOR that reads as a plain map, and reads it back through a provider")
    func roundTrip() async throws {
        let data = try reading.transferEncodedData()
        let value = try CBORValue(decoding: Array(data), requireDeterministic: true)
        #expect(value == ["sensor": "roof", "values": [21.5, -3.0], "unit": "celsius", "raw": .bytes([1, 2])])
        #expect(try Reading(transferEncodedData: data) == reading)

        let provider = TransferProvider(object: reading)
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadObject(ofClass: Reading.self) == reading)
        // By conformance: a reader of any CBOR gets the model's bytes.
        #expect(try await provider.loadDataRepresentation(for: .cbor) == data)
    }

    @Test("the content type conforms to the public CBOR type, application/cbor with extension cbor")
    func contentType() {
        #expect(Reading.contentType.conforms(to: .cbor))
        #expect(UniformType.cbor.preferredMIMEType == "application/cbor")
        #expect(UniformType.cbor.preferredFilenameExtension == "cbor")
        #expect(UniformType(mimeType: "application/cbor") == .cbor)
    }

    @Test("the content type is computed once per type, however many loads ask for it")
    func contentTypeIsKept() async throws {
        let provider = TransferProvider(object: reading)
        provider.loadOptions.allowsInProcessFastPath = false
        let before = Reading.contentTypeReads.withLock { $0 }
        for _ in 0..<5 {
            _ = try await provider.loadObject(ofClass: Reading.self)
            _ = try reading.transferEncodedData()
            _ = Reading.readableTypes
        }
        // Another test may have been first to ask (then none of these loads computes it): at most one read here.
        #expect(Reading.contentTypeReads.withLock { $0 } - before <= 1)
    }

    @Test("bad CBOR is decodingFailed carrying the DecodingError and its coding path")
    func badInput() async throws {
        // {"sensor": 1, ...}: the sensor is an integer.
        let bad = Data(
            [0xa3, 0x66] + Array("sensor".utf8) + [0x01, 0x64] + Array("unit".utf8) + [0x61, 0x63, 0x66]
                + Array("values".utf8) + [0x80])
        let provider = TransferProvider(data: bad, type: Reading.contentType)
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadObject(ofClass: Reading.self)
        }
        #expect(error?.code == .decodingFailed)
        let cause = try #require(error?.cause as? DecodingError)
        guard case .typeMismatch(_, let context) = cause else {
            Issue.record("expected typeMismatch, got \(cause)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["sensor"])
    }

    @Test("the declarative builder offers a CBOR representation")
    func builder() async throws {
        let gauge = Gauge(level: 3)
        let provider = TransferProvider(object: gauge)
        provider.loadOptions.allowsInProcessFastPath = false
        let data = try await provider.loadDataRepresentation(for: .cbor)
        #expect(try CBORValue(decoding: Array(data)) == ["level": 3])
        #expect(try await provider.loadObject(ofClass: Gauge.self) == gauge)
        #expect(try await provider.loadObject(ofClass: String.self) == "level 3")  // the export-only proxy
    }
}
