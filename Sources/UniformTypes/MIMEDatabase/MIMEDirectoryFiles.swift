/// The text files of one mime directory as bytes: what ``MIMEDatabase`` parses, without the file system.
///
/// A `nil` file is a missing one. The fuzzer parses these directly, and ``MIMEDatabase/files`` writes a
/// database back in this form, so that what parses can be checked to re-parse to the same database.
package struct MIMEDirectoryFiles: Equatable, Sendable {
    /// `types`: one MIME type per line.
    package var types: [UInt8]?
    /// `aliases`: `alias canonical` per line.
    package var aliases: [UInt8]?
    /// `subclasses`: `type parent` per line.
    package var subclasses: [UInt8]?
    /// `globs2`: `weight:type:pattern[:flags]` per line.
    package var globs2: [UInt8]?
    /// The older `globs`: `type:pattern` per line; read only when ``globs2`` is `nil`.
    package var globs: [UInt8]?

    /// Creates the files of a directory.
    package init(
        types: [UInt8]? = nil, aliases: [UInt8]? = nil, subclasses: [UInt8]? = nil, globs2: [UInt8]? = nil,
        globs: [UInt8]? = nil
    ) {
        self.types = types
        self.aliases = aliases
        self.subclasses = subclasses
        self.globs2 = globs2
        self.globs = globs
    }
}

extension MIMEDatabase {
    /// Parses the files of mime directories given as bytes, highest precedence first, as
    /// ``init(directories:)`` parses the files it reads.
    package init(files: [MIMEDirectoryFiles]) {
        var builder = MIMEDatabaseBuilder()
        for directory in files { builder.add(directory) }
        self = builder.build(directories: [])
    }

    /// The database written back as the files of one directory: parsing them gives a database with the same
    /// ``hasSameContents(as:)``, and no skipped lines.
    ///
    /// Only when ``isWritableAsFiles``: the older `globs` format allows a `:` in a pattern, which `globs2` cannot
    /// hold. Every glob gets a flags field (empty or `cs`), so a pattern that ends in a carriage return survives the
    /// line-terminator rule.
    package var files: MIMEDirectoryFiles {
        var types = ""
        for type in mimeTypes { types += type + "\n" }
        var aliases = ""
        for type in aliasesByType.keys.sorted() {
            for alias in aliasesByType[type] ?? [] {
                aliases += alias + " " + (aliasTargets[alias.asciiLowercased] ?? type) + "\n"
            }
        }
        var subclasses = ""
        for type in explicitParents.keys.sorted() {
            for parent in explicitParents[type] ?? [] { subclasses += type + " " + parent + "\n" }
        }
        var globs2 = ""
        for glob in globs {
            globs2 += "\(glob.weight):\(glob.mimeType):\(glob.pattern):\(glob.isCaseSensitive ? "cs" : "")\n"
        }
        return MIMEDirectoryFiles(
            types: Array(types.utf8), aliases: Array(aliases.utf8), subclasses: Array(subclasses.utf8),
            globs2: Array(globs2.utf8))
    }

    /// Whether ``files`` can hold this database: no glob pattern (read from an older `globs` file) has a `:`.
    package var isWritableAsFiles: Bool {
        !globs.contains { $0.pattern.utf8.contains(UInt8(ascii: ":")) }
    }

    /// The filename extensions of the `*.ext` globs, in glob order (with repeats).
    package var globExtensions: [String] { globs.compactMap(\.filenameExtension) }

    /// Whether both databases hold the same types, aliases, subclasses and globs, whatever the directories they
    /// came from and the malformed lines they skipped.
    package func hasSameContents(as other: MIMEDatabase) -> Bool {
        mimeTypes == other.mimeTypes && globs == other.globs && typeSpellings == other.typeSpellings
            && aliasTargets == other.aliasTargets && aliasesByType == other.aliasesByType
            && explicitParents == other.explicitParents && globTables == other.globTables
    }
}
