extension TransferArchive {
    /// Bounds on what a reader accepts, checked as values are read, so hostile input fails with
    /// `TransferArchiveError.Code.limitExceeded` instead of exhausting memory or the stack.
    ///
    /// No reader allocates by a length the input declares: declared lengths are checked against these limits
    /// and against the bytes present (in memory) or read in bounded chunks (streams).
    ///
    /// ```swift
    /// var limits = TransferArchive.Limits.default
    /// limits.maxPayloadLength = 1 << 30
    /// let archive = try TransferArchive(decoding: bytes, limits: limits)
    /// ```
    public struct Limits: Sendable, Hashable {
        /// The longest uniform type identifier, in UTF-8 bytes. Default 255, which is also the format's own bound
        /// (an identifier of more is `invalidIdentifier` whatever this limit says); set it lower to be stricter.
        public var maxIdentifierLength: Int
        /// The longest suggested name, in UTF-8 bytes. Default 1 024.
        public var maxNameLength: Int
        /// The most items in an archive. Default 65 536.
        public var maxItemCount: Int
        /// The most representations in one item. Default 256.
        public var maxRepresentationsPerItem: Int
        /// How deeply arrays and maps may nest in metadata; the item's metadata map is level 1. Default 16.
        public var maxMetadataDepth: Int
        /// The most bytes one item's metadata may take in the input (encoded, in the form being read).
        /// Default 1 MiB.
        public var maxMetadataSize: Int
        /// The longest representation payload, in bytes. Default 1 TiB: streaming readers use constant memory,
        /// and in-memory input is also bounded by its own size.
        public var maxPayloadLength: UInt64
        /// The largest JSON archive, in bytes (every byte of the input, white space after the object included); the
        /// text form is read whole in memory. Default 64 MiB.
        public var maxJSONDocumentSize: Int
        /// How deeply arrays and maps (and, in the binary form, tags) may nest anywhere in the input, values under
        /// unknown keys included: the binary form's top-level array (inside its self-describe tag) or the text form's
        /// object is level 1. Default 64.
        public var maxNestingDepth: Int
        /// The most type declarations an archive may carry (format 1.1). Default 1 024.
        public var maxDeclarationCount: Int
        /// The most bytes an archive's type declarations may take in the input (encoded, in the form being read).
        /// Default 1 MiB.
        public var maxDeclarationsSize: Int

        /// Creates limits; every parameter defaults to the value in ``default``.
        public init(
            maxIdentifierLength: Int = 255,
            maxNameLength: Int = 1024,
            maxItemCount: Int = 65_536,
            maxRepresentationsPerItem: Int = 256,
            maxMetadataDepth: Int = 16,
            maxMetadataSize: Int = 1 << 20,
            maxPayloadLength: UInt64 = 1 << 40,
            maxJSONDocumentSize: Int = 64 << 20,
            maxNestingDepth: Int = 64,
            maxDeclarationCount: Int = 1024,
            maxDeclarationsSize: Int = 1 << 20
        ) {
            self.maxIdentifierLength = maxIdentifierLength
            self.maxNameLength = maxNameLength
            self.maxItemCount = maxItemCount
            self.maxRepresentationsPerItem = maxRepresentationsPerItem
            self.maxMetadataDepth = maxMetadataDepth
            self.maxMetadataSize = maxMetadataSize
            self.maxPayloadLength = maxPayloadLength
            self.maxJSONDocumentSize = maxJSONDocumentSize
            self.maxNestingDepth = maxNestingDepth
            self.maxDeclarationCount = maxDeclarationCount
            self.maxDeclarationsSize = maxDeclarationsSize
        }

        /// Safe defaults for input from anywhere: identifiers 255 bytes, names 1 KiB, 65 536 items,
        /// 256 representations per item, metadata 16 levels and 1 MiB per item, payloads 1 TiB, JSON 64 MiB,
        /// nesting 64 levels, 1 024 declarations in 1 MiB.
        public static let `default` = Limits()
    }
}
