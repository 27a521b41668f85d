import Foundation
import Testing
import TransferArchive
import UniformTypes

/// Shared fixtures and helpers for the archive tests.
enum ArchiveFixtures {
    /// The item that the golden files hold.
    static var golden: TransferArchive {
        TransferArchive(items: [
            TransferArchive.Item(
                suggestedName: "note.txt",
                metadata: ["author": "Ada", "tags": ["x", 2, true], "size": ["w": 1.5, "h": -3]],
                representations: [
                    TransferArchive.Representation(type: .utf8PlainText, data: Data("héllo\n".utf8)),
                    TransferArchive.Representation(type: .png, data: Data([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff])),
                ])
        ])
    }

    /// A fixture file's bytes.
    static func resource(_ path: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Resources/" + path, withExtension: nil))
        return try Data(contentsOf: url)
    }

    /// The files in a fixture folder.
    static func resources(in folder: String) throws -> [URL] {
        let url = try #require(Bundle.module.url(forResource: "Resources/" + folder, withExtension: nil))
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Decodes `bytes` and returns the error's code, or `nil` if it decoded.
    static func decodeError(
        _ bytes: some Collection<UInt8>, format: TransferArchiveFormat? = nil,
        limits: TransferArchive.Limits = .default
    ) -> TransferArchiveError? {
        do {
            _ = try TransferArchive(decoding: bytes, format: format, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// Reads every item and payload with the streaming reader; returns the error, if any.
    static func streamError(_ bytes: [UInt8], limits: TransferArchive.Limits = .default) -> TransferArchiveError? {
        do {
            var reader = try TransferArchiveReader(bytes: bytes, limits: limits)
            while try reader.nextItem() != nil {
                while try reader.nextRepresentation() != nil {
                    try reader.readPayload { _ in }
                }
            }
            return nil
        } catch {
            return error
        }
    }
}

/// Builds CBOR by hand for hostile inputs, in deterministic form unless told otherwise.
struct CBORBuilder {
    var bytes: [UInt8] = []

    mutating func head(_ major: UInt8, _ argument: UInt64) {
        let initial = major << 5
        switch argument {
        case 0..<24: bytes.append(initial | UInt8(argument))
        case 24...0xff: bytes += [initial | 24, UInt8(argument)]
        case 0x100...0xffff: bytes += [initial | 25, UInt8(argument >> 8), UInt8(argument & 0xff)]
        case 0x1_0000...0xffff_ffff:
            bytes.append(initial | 26)
            bytes += (0..<4).reversed().map { UInt8((argument >> (8 * UInt64($0))) & 0xff) }
        default:
            bytes.append(initial | 27)
            bytes += (0..<8).reversed().map { UInt8((argument >> (8 * UInt64($0))) & 0xff) }
        }
    }

    mutating func text(_ string: String) {
        head(3, UInt64(string.utf8.count))
        bytes += string.utf8
    }

    mutating func textBytes(_ raw: [UInt8]) {
        head(3, UInt64(raw.count))
        bytes += raw
    }

    mutating func data(_ payload: [UInt8]) {
        head(2, UInt64(payload.count))
        bytes += payload
    }

    /// The archive header up to the head of the items array.
    mutating func header(major: UInt64 = 1, minor: UInt64 = 0, itemCount: UInt64) {
        bytes += [0xd9, 0xd9, 0xf7]
        head(4, 3)
        text("transferkit-archive")
        head(4, 2)
        head(0, major)
        head(0, minor)
        head(5, 1)
        text("items")
        head(4, itemCount)
    }

    /// A representation map with the three keys.
    mutating func representation(type: String, payload: [UInt8], checksum: UInt32? = nil) {
        head(5, 3)
        text("type")
        text(type)
        text("payload")
        data(payload)
        text("checksum")
        let representation = TransferArchive.Representation(type: .data, data: Data(payload))
        head(0, UInt64(checksum ?? representation.checksum))
    }
}
