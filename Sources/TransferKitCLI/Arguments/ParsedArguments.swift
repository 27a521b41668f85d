/// The result of parsing a command line against a ``CommandSignature``.
public struct ParsedArguments: Sendable, Equatable {
    /// The values given for each option taking values, keyed by the option's ``CommandSignature/Option/key``.
    public private(set) var values: [String: [String]] = [:]
    /// The flags that were given, by key.
    public private(set) var flags: Set<String> = []
    /// The positional arguments in order (`-` stays as given: it means standard input or output).
    public private(set) var positionals: [String] = []

    /// Creates an empty result.
    public init() {}

    /// Whether the flag with key `key` (such as `"--json"`) was given.
    public func flag(_ key: String) -> Bool { flags.contains(key) }

    /// The last value given for the option with key `key`, if any.
    public func value(_ key: String) -> String? { values[key]?.last }

    /// Every value given for the option with key `key`, in order.
    public func allValues(_ key: String) -> [String] { values[key] ?? [] }

    /// Parses `arguments` (without the program and command names) against `signature`.
    ///
    /// Accepts `--name value`, `--name=value`, `-o value`, flags anywhere, and `--` to end
    /// option parsing. A lone `-` is a positional argument.
    /// - Throws: ``UsageError`` for an unknown option (naming the nearest known one, when one is near: "did you
    ///   mean '--type'?"), a missing value, a repeated option that
    ///   is not repeatable, or the wrong number of positional arguments.
    public init(parsing arguments: [String], signature: CommandSignature) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = signature.option(named: name) else {
                let known = signature.options.flatMap(\.names) + ["--help"]
                throw UsageError("unknown option '\(name)'" + Suggestion.hint(for: name, in: known))
            }
            let key = option.key
            if !option.isRepeatable, values[key] != nil || flags.contains(key) {
                throw UsageError("option '\(name)' was given more than once")
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
                flags.insert(key)
                continue
            }
            var taken: [String] = inlineValue.map { [$0] } ?? []
            while taken.count < option.arity, index < arguments.count {
                taken.append(arguments[index])
                index += 1
            }
            guard taken.count == option.arity else {
                let what = option.arity == 1 ? "a value" : "\(option.arity) values"
                throw UsageError("option '\(name)' needs \(what): \(name) \(option.placeholder)")
            }
            values[key, default: []].append(contentsOf: taken)
        }
        for option in signature.options where option.isRequired && values[option.key] == nil {
            let spelled = option.valueName == nil ? option.key : option.key + " " + option.placeholder
            throw UsageError("missing option \(spelled)")
        }
        guard let spec = signature.positionals else {
            if let first = positionals.first { throw UsageError("unexpected argument '\(first)'") }
            return
        }
        if positionals.count < spec.minimum {
            throw UsageError("missing argument \(spec.name)")
        }
        if let maximum = spec.maximum, positionals.count > maximum {
            throw UsageError("too many arguments: expected at most \(maximum) \(spec.name)")
        }
    }
}
