package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit types`: looks up uniform types by identifier, filename extension or MIME type,
/// shows their conformance and tags, and answers conformance questions.
package struct TypesCommand: Command {
    /// The catalogue queried; `--declarations` files are loaded into it.
    package var catalog: TypeCatalog

    /// Creates the command over `catalog`.
    package init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"types"`.
    package var name: String { "types" }
    /// One line of help.
    package var abstract: String { "Look up uniform types, their conformance and tags." }
    /// Rules, then examples.
    package var discussion: String {
        """
        --export-mime prints a freedesktop shared-mime-info package for the exported types of the --declarations files
        (each with a MIME type of its own: its globs, comment, sub-class-of and aliases); -o FILE writes it, and
        --install writes it to $XDG_DATA_HOME/mime/packages/transferkit-<file name>.xml (by default under
        ~/.local/share) and runs update-mime-database, so gio, xdg-mime and file managers know the types.

        --file sniffs only a regular file: a directory is public.folder, and a device, FIFO or socket is typed by its
        kind without being read (/dev/null, /dev/zero and /dev/urandom are all inode/chardevice), as gio does. The magic
        rules are matched within the library's work limits (ContentSniffingLimits: 1 Mi byte comparisons per rule,
        8 Mi per file, 1 MiB of magic files), so a hostile $XDG_DATA_HOME/mime costs no more than a real one.
        --install refuses declarations that claim the system's MIME types (application/pdf, text/plain, inode/…).

        A type the catalogue does not declare is not there: exit 1. A lookup by extension or MIME type that finds
        no declared type makes a dynamic type (dyn.…), which --dynamic describes instead (exit 0).

        EXAMPLES:
          transferkit types public.utf8-plain-text
          transferkit types --extension py
          transferkit types --mime image/png --json
          transferkit types --file Examples/ExampleTypes.json   (from the name and content, as gio info reports it)
          transferkit types --conforms public.png public.image   (exit 0 if it does, 1 if not)
          transferkit types --declarations Examples/ExampleTypes.json com.example.book-cover
          transferkit types --extension zzq --dynamic
          transferkit types --export-mime --declarations Examples/ExampleTypes.json
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--extension"], valueName: "EXT", help: "Find the type for a filename extension."),
                .init(names: ["--mime"], valueName: "MIME", help: "Find the type for a MIME type."),
                .init(
                    names: ["--file"], valueName: "PATH",
                    help: "Find the type of a file from its name and content (its first bytes), as gio info does."),
                .init(
                    names: ["--conforms"], valueName: "TYPE PARENT", arity: 2,
                    help: "Exit 0 if the first type conforms to the second, 1 if not."),
                DeclarationsOption.option,
                .init(names: ["--dynamic"], help: "Describe a dynamic type (dyn.…) rather than exit 1 for it."),
                .init(names: ["--json"], help: "Print machine-readable JSON."),
                .init(
                    names: ["--export-mime"],
                    help: "Print a shared-mime-info package (XML) for the exported types of the declarations."),
                .init(
                    names: ["--install"],
                    help: "With --export-mime: install it for this user and run update-mime-database."),
                .init(names: ["-o", "--output"], valueName: "FILE", help: "With --export-mime: write it to FILE."),
            ],
            positionals: .init(name: "TYPE", help: "A uniform type identifier to describe.", maximum: 1)
        )
    }

    /// Runs the lookup.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        if arguments.flag("--export-mime") {
            return try await exportMIME(arguments, in: context)
        }
        if arguments.flag("--install") || arguments.value("--output") != nil {
            throw UsageError("--install and -o go with --export-mime")
        }
        let json = arguments.flag("--json")
        let pair = arguments.allValues("--conforms")
        if pair.count == 2 {
            let type = try parse(pair[0])
            let parent = try parse(pair[1])
            let answer = catalog.conforms(type, to: parent)
            if json {
                try context.standardOutput.writeLine(
                    #"{"conforms":\#(answer),"type":"\#(type.identifier)","to":"\#(parent.identifier)"}"#)
            } else {
                let verb = answer ? "conforms to" : "does not conform to"
                try context.standardOutput.writeLine("\(type.identifier) \(verb) \(parent.identifier)")
            }
            return answer ? .success : .failure
        }
        let type: UniformType
        if let identifier = arguments.positionals.first {
            type = try parse(identifier)
        } else if let filenameExtension = arguments.value("--extension") {
            guard let found = catalog.type(filenameExtension: filenameExtension) else {
                throw UsageError("'\(filenameExtension)' is not a valid filename extension")
            }
            type = found
        } else if let path = arguments.value("--file") {
            type = try catalog.type(forFileAt: URL(fileURLWithPath: path))
        } else if let mimeType = arguments.value("--mime") {
            guard let found = catalog.type(mimeType: mimeType) else {
                throw UsageError("'\(mimeType)' is not a valid MIME type (expected type/subtype)")
            }
            type = found
        } else {
            throw UsageError("give a TYPE, --extension, --mime, --file, --conforms or --export-mime")
        }
        if catalog.declaration(for: type) == nil {
            let hint = "--declarations FILE declares it"
            if !type.isDynamic {
                // A filename extension or a slip of the keyboard given as TYPE (`types bmp`): name the type it means.
                let meant = arguments.positionals.first.flatMap { TypeArgument.suggestion(for: $0, catalog: catalog) }
                throw CommandFailure(
                    code: .notDeclared,
                    message: "\(type.identifier) is not a declared type; "
                        + (meant.map { "did you mean \($0)? (\(hint))" } ?? hint))
            }
            if !arguments.flag("--dynamic") {
                throw CommandFailure(
                    code: .notDeclared,
                    message: "no declared type; the dynamic type \(type.identifier) stands for it (--dynamic describes "
                        + "it, \(hint))")
            }
        }
        let description = TypeDescription(type, in: catalog)
        try context.standardOutput.write(json ? description.json() : description.text())
        return .success
    }

    private func parse(_ identifier: String) throws(UsageError) -> UniformType {
        guard let type = UniformType(identifier) else {
            throw UsageError("'\(identifier)' is not a valid uniform type identifier")
        }
        return type
    }
}
