import Testing
import TransferKitCLI

@Suite("Argument parsing", .timeLimit(.minutes(5)))
struct ArgumentParsingTests {
    let signature = CommandSignature(
        options: [
            .init(names: ["-o", "--output"], valueName: "OUT", help: "Output."),
            .init(names: ["--json"], help: "JSON."),
            .init(names: ["--type"], valueName: "T", isRepeatable: true, help: "Types."),
            .init(names: ["--conforms"], valueName: "TYPE", arity: 2, help: "Pair."),
        ],
        positionals: .init(name: "FILE", help: "Files.", minimum: 0, maximum: 3)
    )

    @Test(
        "accepted spellings",
        arguments: [
            (["a", "-o", "x", "--json"], ["a"], "x", true),
            (["--output=x", "a", "b"], ["a", "b"], "x", false),
            (["-", "--", "--json"], ["-", "--json"], nil, false),
            ([], [], nil, false),
        ] as [([String], [String], String?, Bool)])
    func accepted(arguments: [String], positionals: [String], output: String?, json: Bool) throws {
        let parsed = try ParsedArguments(parsing: arguments, signature: signature)
        #expect(parsed.positionals == positionals)
        #expect(parsed.value("--output") == output)
        #expect(parsed.flag("--json") == json)
    }

    @Test func repeatableAndMultiValueOptions() throws {
        let parsed = try ParsedArguments(
            parsing: ["--type", "a", "--type", "b", "--conforms", "x", "y"], signature: signature)
        #expect(parsed.allValues("--type") == ["a", "b"])
        #expect(parsed.allValues("--conforms") == ["x", "y"])
    }

    @Test(
        "rejected command lines",
        arguments: [
            (["--bogus"], "unknown option '--bogus'"),
            (["-o"], "option '-o' needs a value: -o OUT"),
            (["--conforms", "x"], "option '--conforms' needs 2 values: --conforms TYPE TYPE"),
            (["-o", "a", "--output", "b"], "option '--output' was given more than once"),
            (["--json=yes"], "option '--json' takes no value"),
            (["a", "b", "c", "d"], "too many arguments: expected at most 3 FILE"),
        ] as [([String], String)])
    func rejected(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) {
            try ParsedArguments(parsing: arguments, signature: signature)
        }
    }

    @Test func missingRequiredPositional() {
        let required = CommandSignature(positionals: .init(name: "ARCHIVE", help: "", minimum: 1))
        #expect(throws: UsageError("missing argument ARCHIVE")) {
            try ParsedArguments(parsing: [], signature: required)
        }
    }

    @Test func positionalsRejectedWhenNoneDeclared() {
        #expect(throws: UsageError("unexpected argument 'x'")) {
            try ParsedArguments(parsing: ["x"], signature: CommandSignature())
        }
    }
}
