/// The two forms of a transfer archive: binary (CBOR) and text (JSON).
///
/// Both hold the same content and convert into each other without loss; see ``TransferArchive``.
///
/// ```swift
/// let format = TransferArchiveFormat.detect(bytes.prefix(16)) ?? .cbor
/// ```
public enum TransferArchiveFormat: String, Sendable, CaseIterable {
    /// The binary form: deterministic CBOR (RFC 8949) that starts with the self-describe tag (`d9 d9 f7`).
    /// Payloads stream with constant memory. File extension `transferkit`.
    case cbor
    /// The text form: one JSON object with sorted keys, no spaces and one trailing newline; representation
    /// bytes are UTF-8 text or base64. Read and written whole in memory. File extension `json`.
    case json

    /// The form for a file name extension: `transferkit` is ``cbor``, `json` is ``json`` (case-insensitive,
    /// one leading dot allowed); `nil` for anything else.
    public init?(pathExtension: String) {
        var lowered = pathExtension.lowercased()
        if lowered.hasPrefix(".") { lowered.removeFirst() }
        switch lowered {
        case "transferkit": self = .cbor
        case "json": self = .json
        default: return nil
        }
    }

    /// The conventional file name extension of the form, without a dot.
    public var pathExtension: String {
        switch self {
        case .cbor: "transferkit"
        case .json: "json"
        }
    }

    /// Guesses the form from the first bytes of an input (a few bytes are enough).
    ///
    /// `d9 d9 f7` (the CBOR self-describe tag) is ``cbor``; a `{` after optional JSON white space is ``json``.
    /// A guess is not a check: decoding still verifies the whole input.
    /// - Parameter firstBytes: The start of the input.
    /// - Returns: The form, or `nil` when the bytes look like neither.
    public static func detect(_ firstBytes: some Collection<UInt8>) -> TransferArchiveFormat? {
        if firstBytes.starts(with: [0xd9, 0xd9, 0xf7]) {
            return .cbor
        }
        let first = firstBytes.first { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }
        return first == UInt8(ascii: "{") ? .json : nil
    }
}
