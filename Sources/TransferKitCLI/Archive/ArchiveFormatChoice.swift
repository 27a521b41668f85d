package import TransferKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// The form to read, from the input's first bytes (spec section 2), for a pipe such as standard input too (the
    /// bytes read to tell stay in ``InputFile/pending``). Nothing overrides them: a `--format` that names the other
    /// form is `notAnArchive`, with a message naming the form the first bytes show.
    package static func input(_ option: String?, file: InputFile) throws -> TransferArchiveFormat {
        let given = try option.map { (option: String) throws(UsageError) in try output(option, path: nil) }
        let head = try file.readFirstBytes(limit: TransferArchive.Limits.default.maxJSONDocumentSize + 1)
        let detected = try detect(head, name: file.displayName)
        if let given, given != detected {
            throw TransferArchiveError(
                code: .notAnArchive,
                message: "the input is not in the \(Self.formName(given)) that --format \(given.rawValue) names: its "
                    + "first bytes show the \(Self.formName(detected)); the first bytes decide the form, so leave out "
                    + "--format", source: file.displayName)
        }
        return detected
    }

    /// The form's name as the specification gives it, with the bytes that start it.
    private static func formName(_ format: TransferArchiveFormat) -> String {
        switch format {
        case .cbor: "binary form (d9 d9 f7)"
        case .json: "text form ('{')"
        }
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
