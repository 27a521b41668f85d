package import TransferKit
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit convert-type`: converts a file's bytes from one uniform type to another with the converter registry
/// (`TransferConverterRegistry`), the same conversions a provider offers as derived representations.
package struct ConvertTypeCommand: Command {
    /// The catalogue for the file's type and conformance.
    package var catalog: TypeCatalog
    /// The converters.
    package var converters: TransferConverterRegistry

    /// Creates the command.
    package init(catalog: TypeCatalog = .shared, converters: TransferConverterRegistry = .shared) {
        self.catalog = catalog
        self.converters = converters
    }

    /// The most bytes read from standard input (a file streams).
    static let standardInputLimit = 256 << 20

    /// `"convert-type"`.
    package var name: String { "convert-type" }
    /// One line of help.
    package var abstract: String { "Convert a file to another uniform type (HTML to text, UTF-8 to UTF-16, …)." }
    /// Rules and examples.
    package var discussion: String {
        """
        The input's type comes from --from, else from the file's name (a .txt file that is valid UTF-8 is
        public.utf8-plain-text); --from and --to take a uniform type identifier or a MIME type (text/uri-list). The conversion is the cheapest chain of registered converters that ends in a type
        conforming to --to, as a provider derives it; a file already of that type is copied. --line-endings then
        rewrites the line ends of UTF-8 or Latin-1 text. Exit 1 when no converter leads to the type, 2 when the
        input is not valid for the conversion. 'transferkit convert-type --list' lists the converters.

        EXAMPLES:
          transferkit convert-type notes.txt --to public.utf16-external-plain-text -o notes-utf16.txt
          transferkit convert-type notes-utf16.txt --from public.utf16-external-plain-text --to public.utf8-plain-text --line-endings crlf -o notes-crlf.txt
          transferkit convert-type --list
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--to"], valueName: "TYPE", help: "The uniform type (or MIME type) wanted."),
                .init(
                    names: ["--from"], valueName: "TYPE", help: "The input's type or MIME type (else from its name)."),
                .init(names: ["--line-endings"], valueName: "lf|crlf|cr", help: "Rewrite line ends of the text."),
                .init(names: ["--list"], help: "List the registered converters."),
                .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write it (- for stdout)."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "FILE", help: "The file; - for standard input.", minimum: 0, maximum: 1)
        )
    }

    /// Converts the file.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        if arguments.flag("--list") {
            guard arguments.positionals.isEmpty else { throw UsageError("--list takes no FILE") }
            for converter in converters.converters {
                try context.standardOutput.writeLine(
                    "\(converter.source.identifier) -> \(converter.destination.identifier)")
            }
            return .success
        }
        guard let path = arguments.positionals.first else { throw UsageError("give a FILE (or --list)") }
        let ending = try arguments.value("--line-endings").map { text in
            guard let ending = TransferConverter.LineEnding(rawValue: text.lowercased()) else {
                throw UsageError("--line-endings is lf, crlf or cr, not '\(text)'")
            }
            return ending
        }
        let wanted = try arguments.value("--to").map { try TypeArgument.type($0, catalog: catalog) }
        guard wanted != nil || ending != nil else { throw UsageError("give --to TYPE or --line-endings") }
        let file = try InputFile(path: path)
        let source =
            try arguments.value("--from").map { try TypeArgument.type($0, catalog: catalog) }
            ?? file.refinedTextType(catalog.declaredType(forFileName: URL(fileURLWithPath: path).lastPathComponent))
        var stream: TransferByteStream
        if path == "-" {
            stream = TransferByteStream(data: try file.readAll(limit: Self.standardInputLimit))
        } else {
            stream = try TransferByteStream(contentsOf: URL(fileURLWithPath: path))
        }
        var type = source
        if let wanted, !catalog.conforms(source, to: wanted) {
            guard let derivation = converters.derivation(from: source, to: wanted, catalog: catalog) else {
                throw CommandFailure(
                    code: .typeNotOffered,
                    message: "no converter leads from \(source.identifier) to \(wanted.identifier); "
                        + "'transferkit convert-type --list' lists them (give --from if the input's type is wrong)")
            }
            stream = derivation.convert(stream)
            type = derivation.type
        }
        if let ending {
            guard [UniformType.utf8PlainText, .latin1PlainText].contains(where: { catalog.conforms(type, to: $0) })
            else {
                throw UsageError("--line-endings rewrites UTF-8 or Latin-1 text, not \(type.identifier)")
            }
            stream = TransferConverter.lineEndings(ending, for: type).convert(stream)
        }
        let output = stream
        try await ArchiveOutput.write(
            toPath: arguments.value("--output"), isBinary: !catalog.conforms(type, to: .text), context: context
        ) { sink in
            for try await chunk in output {
                try sink.write(contentsOf: chunk)
            }
        }
        return .success
    }
}
