/// Why ``JSONParser`` rejected a document, and where: each layer turns it into its own public error (the archive's
/// `malformed`, a declaration file's `invalidJSON`, …) keeping the offset.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    package enum Kind: Sendable, Equatable {
        /// Not JSON: an unexpected character, a missing separator, a duplicate key, bytes after the document.
        case malformed
        /// The text ends inside a value.
        case truncated
        /// The bytes are not UTF-8, or a `\u` escape is not a Unicode scalar.
        case invalidUTF8
        /// Arrays and objects nest deeper than the caller allows.
        case tooDeep
    }

    /// The kind of problem.
    package var kind: Kind
    /// What is wrong, in a phrase: `expected ',' or '}'`.
    package var detail: String
    /// The byte offset where the problem was found.
    package var offset: Int

    /// Creates an error.
    package init(kind: Kind, detail: String, offset: Int) {
        self.kind = kind
        self.detail = detail
        self.offset = offset
    }

    /// The detail and the offset.
    package var description: String { "\(detail) (byte offset \(offset))" }

    /// The 1-based line of the offset within `text`, for messages about files people edit.
    package func line(in text: [UInt8]) -> Int {
        1 + text.prefix(offset).count(where: { $0 == UInt8(ascii: "\n") })
    }
}
