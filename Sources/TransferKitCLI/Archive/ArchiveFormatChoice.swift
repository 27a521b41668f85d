import Foundation
package import TransferKit

/// Decides which form of the archive a command reads or writes.
package enum ArchiveFormatChoice {
    /// The form to write: `--format` if given, else `.json` for a `.json` output path, else CBOR.
    package static func output(_ option: String?, path: String?) throws(UsageError) -> TransferArchiveFormat {
        if let option {
            guard let format = TransferArchiveFormat(rawValue: option.lowercased()) else {
                throw UsageError("unknown format '\(option)': use cbor or json")
            }
            return format
        }
        if let path, path != "-", URL(fileURLWithPath: path).pathExtension.lowercased() == "json" {
            return .json
        }
        return .cbor
    }

    /// The form to read: `--format` if given, else detected from the input's first bytes (spec section 2), for a
    /// pipe such as standard input too (the bytes read to tell stay in ``InputFile/pending``).
    package static func input(_ option: String?, file: InputFile) throws -> TransferArchiveFormat {
        if let option {
            return try output(option, path: nil)
        }
        let head = try file.readFirstBytes(limit: TransferArchive.Limits.default.maxJSONDocumentSize + 1)
        return try detect(head, name: file.displayName)
    }

    /// The form of an archive from its first bytes (spec section 2), or `notAnArchive` naming `name`.
    static func detect(
        _ head: some Collection<UInt8>, name: String
    ) throws(TransferArchiveError) -> TransferArchiveFormat {
        guard let format = TransferArchiveFormat.detect(head) else {
            throw TransferArchiveError(
                code: .notAnArchive,
                message: "not a TransferKit archive: it starts with neither the binary form's d9 d9 f7 nor a JSON "
                    + "object", source: name)
        }
        return format
    }
}
