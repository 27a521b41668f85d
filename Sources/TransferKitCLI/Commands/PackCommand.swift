import TransferKit
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit pack`: builds an archive with one item per input file.
///
/// Payloads stream from the input into the archive with constant memory. A pipe on standard
/// input has no size to put in the payload's header, so it is first spooled to an unlinked
/// temporary file; standard input redirected from a file streams directly.
package struct PackCommand: Command {
    /// The catalogue used to infer a file's type from its extension.
    package var catalog: TypeCatalog

    /// Creates the command.
    package init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"pack"`.
    package var name: String { "pack" }
    /// One line of help.
    package var abstract: String { "Build an archive from files, one item per file." }
    /// Examples and rules.
    package var discussion: String {
        """
        The type of each file comes from --type, else from its filename extension through the
        type catalogue (declared types only), else public.data; standard input is public.data.
        A file whose extension says only public.plain-text (.txt: text of unknown encoding) is
        public.utf8-plain-text when its bytes are valid UTF-8 (files up to 16 MiB are read to
        tell). The format comes from --format, else from the output's extension (.json for the
        JSON form), else CBOR.

        EXAMPLES:
          transferkit pack card.json notes.txt -o cards.transferkit
          transferkit pack - --type public.png --name cover.png < cover.png > cover.transferkit
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--type"], valueName: "TYPE", help: "The uniform type of every input."),
                .init(names: ["--name"], valueName: "NAME", help: "The suggested name (one input only)."),
                .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write the archive (- for stdout)."),
                .init(names: ["--format"], valueName: "cbor|json", help: "The archive's form."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "FILE", help: "Files to pack; - for standard input.", minimum: 1)
        )
    }

    /// Packs the files.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let paths = arguments.positionals
        if arguments.value("--name") != nil, paths.count > 1 {
            throw UsageError("--name needs a single input file")
        }
        if paths.filter({ $0 == "-" }).count > 1 {
            throw UsageError("standard input (-) can be packed only once")
        }
        let type = try arguments.value("--type").map { identifier throws(UsageError) in
            guard let type = UniformType(identifier) else {
                throw UsageError("'\(identifier)' is not a valid uniform type identifier")
            }
            return type
        }
        let output = arguments.value("--output")
        let format = try ArchiveFormatChoice.output(arguments.value("--format"), path: output)
        var inputs: [PackInput] = []
        for path in paths {
            inputs.append(try PackInput(path: path, type: type, name: arguments.value("--name"), catalog: catalog))
        }
        let total = inputs.reduce(UInt64(0)) { $0 + $1.size }
        let progress = TransferProgress(totalUnitCount: Int64(clamping: total))
        try await ProgressBar.drawing(progress, totalBytes: total, context: context) {
            try await write(inputs, format: format, progress: progress, to: output, context: context)
        }
        return .success
    }

    private func write(
        _ inputs: [PackInput], format: TransferArchiveFormat, progress: TransferProgress, to output: String?,
        context: CommandContext
    ) async throws {
        // The archive carries the declarations of its types that other programs may not know (format 1.1), such as
        // those of --declarations files, so that a reader needs no such file of its own.
        let declarations = TransferArchive.declarations(for: inputs.map(\.type), in: catalog)
        try await ArchiveOutput.write(toPath: output, isBinary: format == .cbor, context: context) { sink in
            switch format {
            case .json:
                var archive = TransferArchive(declarations: declarations)
                for input in inputs {
                    let data = try input.file.readAll(limit: TransferArchive.Limits.default.maxJSONDocumentSize)
                    archive.items.append(input.item(data: data))
                }
                try sink.write(contentsOf: try archive.encoded(as: .json))
            case .cbor:
                var writer = ArchiveOutput.writer(to: sink)
                try writer.begin(itemCount: inputs.count, declarations: declarations)
                for input in inputs {
                    try writer.beginItem(suggestedName: input.name, metadata: [:], representationCount: 1)
                    try writer.writeRepresentation(
                        type: input.type, length: input.size, from: input.file.fileDescriptor,
                        progress: progress.makeChild(
                            withPendingUnitCount: Int64(clamping: input.size),
                            totalUnitCount: Int64(clamping: input.size)))
                }
                try writer.finish()
            }
        }
    }

}

/// One input of `pack`, opened, with its type, name and size.
private struct PackInput {
    let file: InputFile
    let type: UniformType
    let name: String?
    let size: UInt64

    /// Opens (and spools a pipe of) `path`; without a `type`, the input's name and first bytes give it.
    init(path: String, type: UniformType?, name: String?, catalog: TypeCatalog) throws {
        var file = try InputFile(path: path)
        if file.size == nil {
            file = try Spool.toTemporaryFile(file)
        }
        let fileName = path == "-" ? nil : URL(fileURLWithPath: path).lastPathComponent
        self.type = try type ?? file.inferredType(fileName: fileName, in: catalog)
        self.name = name ?? fileName
        self.size = file.size ?? 0
        self.file = file
    }

    func item(data: Data) -> TransferArchive.Item {
        TransferArchive.Item(
            suggestedName: name, metadata: [:],
            representations: [TransferArchive.Representation(type: type, data: data)])
    }
}
