extension CBORReader {
    /// Bounds on what ``CBORReader/readValue()`` builds, so hostile input fails with an error
    /// instead of exhausting the stack or memory.
    ///
    /// Memory for a value is also bounded by the input: every item takes at least one byte,
    /// and strings grow only as their bytes arrive.
    public struct Limits: Sendable, Hashable {
        /// How many arrays, maps and tags may enclose an item. Each level takes a stack frame
        /// of the recursive reader; keep it in the hundreds at most. Default 64.
        public var maxNestingDepth: Int
        /// How many items an array, or pairs a map, may have. Default 1 048 576.
        public var maxCollectionCount: Int
        /// How many bytes a byte or text string built in memory may have, all chunks together.
        /// Default 16 MiB; stream larger payloads with ``CBORReader/readBytes(count:into:)``.
        public var maxStringLength: Int

        /// Creates limits.
        public init(maxNestingDepth: Int = 64, maxCollectionCount: Int = 1 << 20, maxStringLength: Int = 16 << 20) {
            self.maxNestingDepth = maxNestingDepth
            self.maxCollectionCount = maxCollectionCount
            self.maxStringLength = maxStringLength
        }

        /// Nesting 64, 1 048 576 items per collection, 16 MiB per string.
        public static var `default`: Self { Self() }
    }
}
