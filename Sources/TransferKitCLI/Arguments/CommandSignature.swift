/// The options and positional arguments a command accepts, from which its parser and its
/// `--help` text are both derived.
///
/// ```swift
/// let signature = CommandSignature(
///     options: [
///         .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write the archive."),
///         .init(names: ["--json"], help: "Print machine-readable output."),
///     ],
///     positionals: .init(name: "FILE", help: "Files to pack.", minimum: 1, maximum: nil)
/// )
/// ```
public struct CommandSignature: Sendable {
    /// One option: a flag when `valueName` is `nil`, an option taking a value otherwise.
    public struct Option: Sendable {
        /// Every spelling, short and long (`["-o", "--output"]`); the last one is the key
        /// under which ``ParsedArguments`` stores the option.
        public var names: [String]
        /// The placeholder shown in help for the option's value, or `nil` for a flag.
        public var valueName: String?
        /// The number of values the option takes after its name (1 unless stated).
        public var arity: Int
        /// Whether the option may be given more than once.
        public var isRepeatable: Bool
        /// Whether the command cannot run without the option: the usage line shows it without brackets and
        /// the parser reports it missing.
        public var isRequired: Bool
        /// One line of help.
        public var help: String

        /// Creates an option.
        /// - Parameters:
        ///   - names: Every spelling, such as `["-o", "--output"]`.
        ///   - valueName: The placeholder for the value, or `nil` for a flag.
        ///   - arity: How many values follow the option's name.
        ///   - isRepeatable: Whether the option may appear more than once.
        ///   - isRequired: Whether the command cannot run without it.
        ///   - help: One line of help.
        public init(
            names: [String], valueName: String? = nil, arity: Int = 1, isRepeatable: Bool = false,
            isRequired: Bool = false, help: String
        ) {
            self.names = names
            self.valueName = valueName
            self.arity = valueName == nil ? 0 : max(1, arity)
            self.isRepeatable = isRepeatable
            self.isRequired = isRequired
            self.help = help
        }

        /// The value placeholders as help shows them: `valueName` itself when it already names each of several
        /// values (`"TYPE PARENT"` for arity 2), else `valueName` once per value.
        var placeholder: String {
            guard let valueName else { return "" }
            let words = valueName.split(separator: " ")
            return words.count == arity ? valueName : Array(repeating: valueName, count: arity).joined(separator: " ")
        }

        /// The name under which parsed values are stored: the last (longest) spelling.
        public var key: String { names.last ?? "" }
    }

    /// The positional arguments: a name for help and how many are allowed.
    public struct Positionals: Sendable {
        /// The placeholder shown in the usage line.
        public var name: String
        /// One line of help.
        public var help: String
        /// The fewest positional arguments accepted.
        public var minimum: Int
        /// The most positional arguments accepted, or `nil` for no limit.
        public var maximum: Int?

        /// Creates a description of the positional arguments.
        public init(name: String, help: String, minimum: Int = 0, maximum: Int? = nil) {
            self.name = name
            self.help = help
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// The options, in the order help lists them.
    public var options: [Option]
    /// The positional arguments, or `nil` when the command takes none.
    public var positionals: Positionals?

    /// Creates a signature.
    public init(options: [Option] = [], positionals: Positionals? = nil) {
        self.options = options
        self.positionals = positionals
    }

    /// The option spelled `name`, if any.
    func option(named name: String) -> Option? {
        options.first { $0.names.contains(name) }
    }
}
