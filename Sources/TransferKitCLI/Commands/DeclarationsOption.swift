package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `--declarations FILE` option that commands consulting the type catalogue share: each
/// file of type declarations (`Schemas/type-declarations.schema.json`) is loaded before the
/// command runs, so the tool knows types that no built-in declaration or MIME database does.
package enum DeclarationsOption {
    /// The option, for a command's signature.
    package static let option = CommandSignature.Option(
        names: ["--declarations"], valueName: "FILE", isRepeatable: true,
        help: "Load uniform type declarations from a JSON file first.")

    /// Loads every file given with the option into `catalog`.
    /// - Throws: `UniformTypeError` naming the file and entry that could not be loaded.
    package static func load(_ arguments: ParsedArguments, into catalog: TypeCatalog) throws {
        for path in arguments.allValues(option.key) {
            try catalog.loadDeclarations(from: URL(fileURLWithPath: path))
        }
    }

    /// The option as command-line words, to hand the same files to a child process.
    static func arguments(_ arguments: ParsedArguments) -> [String] {
        arguments.allValues(option.key).flatMap { [option.key, $0] }
    }
}
