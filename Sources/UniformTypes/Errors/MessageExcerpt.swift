/// Input shown in an error message: escaped, so that a hostile file can neither forge lines of a terminal nor hide
/// a NUL, and cut short, so that a 10 000-character name does not flood it.
package enum MessageExcerpt {
    /// The most bytes of the input shown.
    package static let maximumLength = 64

    /// `bytes` as text: printable ASCII as it is, and `\` and every other byte (a NUL, a control character, each
    /// byte of a UTF-8 sequence) as `\xNN`; past `limit` bytes, the rest is left out for `…`.
    package static func escaped(_ bytes: some Collection<UInt8>, limit: Int = maximumLength) -> String {
        var text = ""
        for byte in bytes.prefix(limit) {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return bytes.count > limit ? text + "…" : text
    }

    /// `text`'s UTF-8 bytes as `escaped(_:limit:)` shows them.
    package static func escaped(_ text: String, limit: Int = maximumLength) -> String {
        escaped(Array(text.utf8), limit: limit)
    }

    /// `bytes` escaped between single quotes, followed by their length when they were cut:
    /// `'aaaa…' (10000 bytes)`.
    package static func quoted(_ bytes: some Collection<UInt8>) -> String {
        "'" + escaped(bytes) + "'" + (bytes.count > maximumLength ? " (\(bytes.count) bytes)" : "")
    }

    /// `text`'s UTF-8 bytes as `quoted(_:)` quotes them.
    package static func quoted(_ text: String) -> String {
        quoted(Array(text.utf8))
    }
}
