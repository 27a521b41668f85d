import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitTestSupport
import UniformTypes

/// An archive of `items` one-representation items, each `hi` as public.utf8-plain-text, in the binary form.
private func archiveBytes(items: Int = 1) throws -> [UInt8] {
    let item = TransferArchive.Item(
        suggestedName: "hi.txt", representations: [.init(type: .utf8PlainText, data: Data("hi".utf8))])
    return [UInt8](try TransferArchive(items: Array(repeating: item, count: items)).encoded(as: .cbor))
}

/// The index of `needle` in `bytes`.
private func index(of needle: [UInt8], in bytes: [UInt8]) throws -> Int {
    try #require((0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
}

/// The audit's archives that `extract` accepted (exit 0) while `inspect` and `check` rejected them; each must now
/// fail in both commands with the same error code.
enum BrokenArchive: String, CaseIterable, CustomTestStringConvertible {
    case trailingGarbage, twoArchivesConcatenated, duplicateItemsKey, itemKeysOutOfOrder, badChecksumInALaterItem

    var testDescription: String { rawValue }

    var code: String {
        self == .badChecksumInALaterItem ? "checksumMismatch" : "malformed"
    }

    func bytes() throws -> [UInt8] {
        let archive = try archiveBytes()
        switch self {
        case .trailingGarbage:
            return archive + [0]
        case .twoArchivesConcatenated:
            return archive + archive
        case .duplicateItemsKey:
            // The body map {"items": [...]} ends the archive; make it a two-entry map with "items" twice.
            let body = try index(of: [0xA1, 0x65] + Array("items".utf8), in: archive)
            return archive[..<body] + [0xA2] + archive[(body + 1)...] + archive[(body + 1)...]
        case .itemKeysOutOfOrder:
            // The item map {"name": "hi.txt", "representations": [...]} ends the archive; swap its entries.
            let item = try index(of: [0xA2, 0x64] + Array("name".utf8), in: archive)
            let name = Array(archive[(item + 1)..<(item + 13)])
            return Array(archive[...item]) + archive[(item + 13)...] + name
        case .badChecksumInALaterItem:
            // The last bytes are the second item's checksum; item 0, the one extracted, is intact.
            var twoItems = try archiveBytes(items: 2)
            twoItems[twoItems.count - 1] ^= 0xFF
            return twoItems
        }
    }
}

@Suite("extract validates the whole archive", .timeLimit(.minutes(5)))
struct ExtractValidationTests {
    @Test(arguments: BrokenArchive.allCases)
    func anInvalidArchiveFailsAndLeavesNoOutputFile(_ broken: BrokenArchive) async throws {
        let space = try Workspace()
        let path = try space.write("broken.transferkit", try broken.bytes())
        let inspect = await runInProcess(tool, ["inspect", path])
        #expect(inspect.status == 2)
        #expect(inspect.error.hasSuffix(" (\(broken.code))\n"))

        let extract = await runInProcess(
            tool, ["extract", path, "--type", "public.plain-text", "-o", space.path("out.txt")])
        #expect(extract.status == 2)
        #expect(extract.error.hasPrefix("transferkit extract: ") && extract.error.hasSuffix(" (\(broken.code))\n"))
        // The output is written atomically: it never appears, and no temporary file is left.
        #expect(space.contents == ["broken.transferkit"])
    }

    @Test(arguments: BrokenArchive.allCases)
    func anInvalidArchiveOnAPipeToStandardOutputExitsTwo(_ broken: BrokenArchive) async throws {
        // Streaming from a pipe to a pipe: the payload is already out when the damage comes; the status says so.
        let run = try await runBinary(["extract", "-", "--type", "public.plain-text"], input: try broken.bytes())
        #expect(run.status == 2)
        #expect(run.error.hasSuffix(" (\(broken.code))\n"))
    }

    @Test func aValidArchiveStillExtractsEveryItem() async throws {
        let space = try Workspace()
        let path = try space.write("good.transferkit", try archiveBytes(items: 3))
        for item in 0..<3 {
            let run = await runInProcess(tool, ["extract", path, "--type", "public.plain-text", "--item", "\(item)"])
            #expect(run.status == 0)
            #expect(run.output == "hi")
        }
    }

    @Test func aHugeDeclaredLengthNamesThePayloadsNumbers() async throws {
        var bytes = try archiveBytes()
        // "payload" then the 2-byte string "hi" (0x42 'h' 'i'): declare 2^32 bytes instead.
        let payload = try index(of: Array("payload".utf8) + [0x42], in: bytes) + 7
        bytes.replaceSubrange(payload..<(payload + 1), with: [0x5B, 0, 0, 0, 1, 0, 0, 0, 0])
        let space = try Workspace()
        let path = try space.write("long.transferkit", bytes)
        for arguments in [["inspect", path], ["extract", path, "--type", "public.data"]] {
            let run = await runInProcess(tool, arguments)
            #expect(run.status == 2)
            #expect(run.error.hasSuffix(" (truncated)\n"))
            // 16 bytes follow the length: "hi" and the checksum entry, read as payload.
            #expect(
                run.error.contains("The input ends 16 bytes into the 4294967296-byte payload of public.utf8-plain-text")
            )
            #expect(!run.error.contains("before the payload does"))
        }
    }

    @Test func aReadErrorIsAnErrorNotTheEndOfTheInput() async throws {
        // Reading /proc/self/mem at offset 0 fails with EIO: the old copy loop would have taken it for the end. The
        // first bytes decide the form even with --format (spec section 2), so the read that fails is the one that
        // tells the form; the streaming reader's own read errors are CBORReader's readFailed, tested with it.
        let run = try await runBinary(["extract", "/proc/self/mem", "--format", "cbor", "--type", "public.data"])
        #expect(run.status == 2)
        #expect(run.error.contains(": cannot read /proc/self/mem") && run.error.hasSuffix(" (readFailed)\n"))
        #expect(run.error.contains("Input/output error"))
        #expect(!run.error.contains("damaged"))
    }

    @Test func deepJSONIsReportedAsTooDeepNotAsInvalid() async throws {
        let text = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let archive = TransferArchive(items: [.init(representations: [.init(type: .json, data: Data(text.utf8))])])
        let space = try Workspace()
        let path = try space.writeArchive("deep.transferkit", archive)
        let run = await runInProcess(tool, ["check", path])
        #expect(run.status == 1)
        #expect(run.output.contains("(decodingFailed)") && !run.output.contains("TransferError"))
        #expect(run.output.contains("deeper than the 512 levels this reader accepts"))
        #expect(!run.output.contains("not valid JSON"))
    }
}

@Suite("Inputs that cannot be read", .timeLimit(.minutes(5)))
struct UnreadableInputTests {
    @Test func aFailingReadIsAReadFailureWithoutAUsageHint() async throws {
        // Reading /proc/self/mem at offset 0 fails with EIO; convert reads its input whole.
        let run = try await runBinary(["convert", "/proc/self/mem", "-o", "-"])
        #expect(run.status == 2)
        #expect(run.error == "transferkit convert: cannot read /proc/self/mem: Input/output error (readFailed)\n")
    }
}
