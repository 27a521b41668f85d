import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import UniformTypes

@Suite("The built-in text converters", .timeLimit(.minutes(5)))
struct TextConverterTests {
    static func converter(_ source: UniformType, _ destination: UniformType) throws -> TransferConverter {
        try #require(
            TransferConverter.builtIn.first { $0.source == source && $0.destination == destination },
            "no built-in converter \(source) → \(destination)")
    }

    /// Converts `input` streamed in chunks of `chunkSize` bytes, so characters split across chunks.
    static func convert(_ input: Data, with converter: TransferConverter, chunkSize: Int) async throws -> Data {
        let chunks = stride(from: 0, to: input.count, by: chunkSize).map {
            input.subdata(in: $0..<min(input.count, $0 + chunkSize))
        }
        var output = Data()
        for try await chunk in converter.convert(TransferByteStream(chunks: chunks)) {
            output.append(chunk)
        }
        return output
    }

    static let texts = ["", "plain ASCII", "héllo wörld", "日本語のテキスト", "emoji 😀👍🏽 and 𝄞", "a\r\nb\nc\0d"]

    @Test("UTF-8 ⇄ UTF-16 with and without a mark round-trip, in any chunking", arguments: texts, [1, 2, 3, 4096])
    func utf16RoundTrip(text: String, chunkSize: Int) async throws {
        let utf8 = Data(text.utf8)
        for utf16Type in [UniformType.utf16ExternalPlainText, .utf16PlainText] {
            let there = try await Self.convert(
                utf8, with: try Self.converter(.utf8PlainText, utf16Type), chunkSize: chunkSize)
            let expected = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            #expect(Array(there) == (utf16Type == .utf16ExternalPlainText ? [0xFF, 0xFE] : []) + expected)
            let back = try await Self.convert(
                there, with: try Self.converter(utf16Type, .utf8PlainText), chunkSize: chunkSize)
            #expect(back == utf8)
        }
    }

    @Test("UTF-16 is read in its mark's byte order; external text without a mark is big-endian")
    func utf16ByteOrder() throws {
        let toUTF8 = try Self.converter(.utf16ExternalPlainText, .utf8PlainText)
        #expect(try toUTF8.convert(Data([0xFE, 0xFF, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00])) == Data("é😀".utf8))
        #expect(try toUTF8.convert(Data([0xFF, 0xFE, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE])) == Data("é😀".utf8))
        #expect(try toUTF8.convert(Data([0x00, 0xE9, 0x00, 0x41])) == Data("éA".utf8))
        let plain = try Self.converter(.utf16PlainText, .utf8PlainText)
        #expect(try plain.convert(Data([0xE9, 0x00, 0x41, 0x00])) == Data("éA".utf8))
        #expect(try plain.convert(Data([0xFE, 0xFF, 0x00, 0xE9])) == Data("é".utf8))
    }

    @Test("Latin-1 ⇄ UTF-8: every Latin-1 byte round-trips; other characters become ?")
    func latin1() async throws {
        let all = Data((0...255).map { UInt8($0) })
        let utf8 = try Self.converter(.latin1PlainText, .utf8PlainText).convert(all)
        #expect(String(decoding: utf8, as: UTF8.self).unicodeScalars.map(\.value) == (0...255).map { UInt32($0) })
        let back = try await Self.convert(
            utf8, with: try Self.converter(.utf8PlainText, .latin1PlainText), chunkSize: 1)
        #expect(back == all)
        #expect(
            try Self.converter(.utf8PlainText, .latin1PlainText).convert(Data("é€😀".utf8)) == Data([0xE9, 0x3F, 0x3F]))
    }

    static let invalidUTF8Cases: [[UInt8]] = [
        [0xC0, 0x80],  // overlong
        [0xE0, 0x80, 0x80],  // overlong
        [0xED, 0xA0, 0x80],  // a surrogate
        [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
        [0x41, 0xE2, 0x82],  // ends inside a character
        [0x80],  // a lone continuation byte
        [0xFF],
    ]

    @Test("Invalid UTF-8 fails with conversionFailed", arguments: invalidUTF8Cases)
    func invalidUTF8(bytes: [UInt8]) async throws {
        let converter = try Self.converter(.utf8PlainText, .utf16ExternalPlainText)
        let error = #expect(throws: TransferError.self) { try converter.convert(Data(bytes)) }
        #expect(error?.code == .conversionFailed)
        let streamed = await #expect(throws: TransferError.self) {
            try await Self.convert(Data(bytes), with: converter, chunkSize: 1)
        }
        #expect(streamed?.code == .conversionFailed)
    }

    @Test(
        "A streamed conversion names the input's byte where it failed, however the input is chunked",
        arguments: [1, 2, 3, 5, 4096])
    func failureOffset(chunkSize: Int) async throws {
        // h é l l o: the invalid byte is the input's seventh, at offset 6.
        let input = Data("héllo".utf8) + Data([0xFF, 0x41])
        let converter = try Self.converter(.utf8PlainText, .utf16ExternalPlainText)
        let error = await #expect(throws: TransferError.self) {
            try await Self.convert(input, with: converter, chunkSize: chunkSize)
        }
        #expect(error?.code == .conversionFailed)
        let text = "\(error?.message ?? "") \(error?.cause.map { "\($0)" } ?? "")"
        #expect(text.contains("at byte 6"), "\(text)")
    }

    static let invalidUTF16Cases: [[UInt8]] = [
        [0xFF, 0xFE, 0x41],  // odd length
        [0xFF, 0xFE, 0x00, 0xDC],  // a lone low surrogate
        [0xFF, 0xFE, 0x3D, 0xD8, 0x41, 0x00],  // a high surrogate before a plain unit
        [0xFF, 0xFE, 0x3D, 0xD8],  // ends after a high surrogate
    ]

    @Test("Invalid UTF-16 fails with conversionFailed", arguments: invalidUTF16Cases)
    func invalidUTF16(bytes: [UInt8]) async throws {
        let converter = try Self.converter(.utf16ExternalPlainText, .utf8PlainText)
        let error = #expect(throws: TransferError.self) { try converter.convert(Data(bytes)) }
        #expect(error?.code == .conversionFailed)
    }

    /// A text of random runs: ASCII runs of every length around the converters' eight-byte steps, Latin-1 letters,
    /// other characters of the basic plane and characters beyond it.
    static func randomText(seed: UInt64, latin1Only: Bool = false) -> String {
        var random = SplitMix64(state: seed)
        var scalars: [Unicode.Scalar] = []
        for _ in 0..<200 {
            let kind = latin1Only ? Int.random(in: 0...1, using: &random) : Int.random(in: 0...3, using: &random)
            switch kind {
            case 0:
                for _ in 0..<Int.random(in: 0...40, using: &random) {
                    scalars.append(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &random)))
                }
            case 1: scalars.append(Unicode.Scalar(UInt8.random(in: 0x80...0xFF, using: &random)))
            case 2: scalars.append(Unicode.Scalar(UInt16.random(in: 0x100...0xD7FF, using: &random)) ?? "?")
            default: scalars.append(Unicode.Scalar(UInt32.random(in: 0x10000...0x10FFFF, using: &random)) ?? "?")
            }
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }

    /// `text` in UTF-16 of `order`, with a leading mark when `mark` is set.
    static func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> Data {
        var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let (low, high) = (UInt8(unit & 0xFF), UInt8(unit >> 8))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return Data(bytes)
    }

    @Test(
        "Every pair of encodings agrees with the standard library's on random text, in any chunking",
        arguments: 1...12 as ClosedRange<UInt64>, [5, 8, 17, 4096])
    func randomTexts(seed: UInt64, chunkSize: Int) async throws {
        let text = Self.randomText(seed: seed)
        let utf8 = Data(text.utf8)
        let little = Self.utf16(text, bigEndian: false, mark: false)
        let marked = Self.utf16(text, bigEndian: false, mark: true)
        let big = Self.utf16(text, bigEndian: true, mark: true)
        func convert(_ input: Data, _ source: UniformType, _ destination: UniformType) async throws -> Data {
            try await Self.convert(input, with: try Self.converter(source, destination), chunkSize: chunkSize)
        }
        #expect(try await convert(utf8, .utf8PlainText, .utf16PlainText) == little)
        #expect(try await convert(utf8, .utf8PlainText, .utf16ExternalPlainText) == marked)
        #expect(try await convert(little, .utf16PlainText, .utf8PlainText) == utf8)
        #expect(try await convert(marked, .utf16ExternalPlainText, .utf8PlainText) == utf8)
        #expect(try await convert(big, .utf16ExternalPlainText, .utf8PlainText) == utf8, "a big-endian mark")
        let latin1 = Data(text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : UInt8(ascii: "?") })
        #expect(try await convert(utf8, .utf8PlainText, .latin1PlainText) == latin1)
        let latinText = Self.randomText(seed: seed, latin1Only: true)
        let latinBytes = Data(latinText.unicodeScalars.map { UInt8($0.value) })
        #expect(try await convert(latinBytes, .latin1PlainText, .utf8PlainText) == Data(latinText.utf8))
    }

    @Test(
        "After a long ASCII run, invalid input is still found at its byte, however the input is chunked",
        arguments: [1, 3, 8, 9, 4096])
    func failureOffsetAfterASCII(chunkSize: Int) async throws {
        let ascii = Data(String(repeating: "plain text ", count: 3).utf8)  // 33 bytes
        let utf8 = await #expect(throws: TransferError.self) {
            try await Self.convert(
                ascii + Data([0xFF]) + ascii, with: try Self.converter(.utf8PlainText, .utf16PlainText),
                chunkSize: chunkSize)
        }
        let utf8Reason = utf8?.cause.map { "\($0)" } ?? ""
        #expect(utf8Reason.contains("at byte 33"), "\(utf8Reason)")
        // A lone low surrogate after 33 ASCII units, behind a mark: at byte 2 + 66.
        let units = Self.utf16(String(decoding: ascii, as: UTF8.self), bigEndian: false, mark: true)
        let utf16 = await #expect(throws: TransferError.self) {
            try await Self.convert(
                units + Data([0x00, 0xDC, 0x41, 0x00]) + units,
                with: try Self.converter(.utf16ExternalPlainText, .utf8PlainText), chunkSize: chunkSize)
        }
        let utf16Reason = utf16?.cause.map { "\($0)" } ?? ""
        #expect(utf16Reason.contains("at byte 68"), "\(utf16Reason)")
    }
}
