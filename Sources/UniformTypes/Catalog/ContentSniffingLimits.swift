/// How much work content sniffing may do with a MIME database's `magic` rules, so that a hostile database (a
/// `magic` file planted under `XDG_DATA_HOME`) costs no more than a real one.
///
/// Work is counted in byte comparisons, never in time: a rule's line compares its value with the data at each
/// offset of its range, and each byte compared (up to the first that differs) counts one. The defaults are far
/// above what the system's own database needs (Debian 12's shared-mime-info 2.2: a 30 667-byte `magic` file whose
/// largest rule makes at most 74 892 comparisons and whose 473 rules together at most 491 778), so no real file
/// reaches them; a crafted rule (a 64 KB value over a 1 MiB range) or a crafted database (millions of rules) stops
/// at them instead of running for minutes.
///
/// Set them on a catalogue with ``TypeCatalog/contentSniffingLimits``:
///
/// ```swift
/// let catalog = TypeCatalog()
/// catalog.importMIMEDatabase()
/// catalog.contentSniffingLimits.maximumMatchWork = 1 << 20
/// ```
public struct ContentSniffingLimits: Sendable, Hashable {
    /// The most byte comparisons one rule (one `[priority:type]` section with all its lines) may make for one
    /// sniff. A rule that reaches it counts as not matching, and the next rules are still tried.
    /// Default 1 Mi (1 048 576), 14 times the largest rule of Debian 12's database.
    public var maximumRuleWork: Int
    /// The most byte comparisons one sniff may make over all rules. When it is reached, the rules not yet tried
    /// count as not matching: the data gets the answer it gets when no rule matches (text or binary, or the name's
    /// glob types). Default 8 Mi (8 388 608), 17 times what every rule of Debian 12's database takes together at
    /// worst.
    public var maximumMatchWork: Int
    /// The most bytes of `magic` files read, all mime directories together, highest precedence first. A file that
    /// would take the total past it is skipped, as an unreadable file is (the files after it are still read), so
    /// a database's rules never take more memory than this allows. Default 1 MiB (1 048 576), 34 times Debian 12's
    /// `magic` file. The files are read once per imported database, the first time something sniffs; a later
    /// change of this limit reads them again.
    public var maximumMagicSize: Int

    /// The defaults: 1 Mi comparisons per rule, 8 Mi per sniff, 1 MiB of magic files.
    public static let `default` = ContentSniffingLimits()

    /// Creates limits; every argument defaults to the value ``default`` has. A limit of 0 (or less) lets no rule
    /// match, or reads no magic file.
    public init(maximumRuleWork: Int = 1 << 20, maximumMatchWork: Int = 1 << 23, maximumMagicSize: Int = 1 << 20) {
        self.maximumRuleWork = maximumRuleWork
        self.maximumMatchWork = maximumMatchWork
        self.maximumMagicSize = maximumMagicSize
    }
}
