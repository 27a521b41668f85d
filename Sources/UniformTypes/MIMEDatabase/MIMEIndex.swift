import TransferKitPlatform

/// What a catalog keeps of the shared-mime-info databases it imported: the databases themselves
/// (for glob matching, aliases and descriptions) and the uniform type of every MIME type in them.
///
/// Immutable apart from the description cache; a catalog snapshot holds one and hands it on to
/// the snapshots that replace it. A second import makes a new index holding both databases, the
/// earlier one first.
final class MIMEIndex: Sendable {
    /// The imported databases, in import order; earlier ones win.
    let databases: [MIMEDatabase]
    /// Lowercased canonical MIME type → its uniform type: a declared type that carries the MIME
    /// type (or one of its aliases), or the type made from the database.
    let typeForMIME: [String: UniformType]
    /// Canonical identifier of each type made from a database → its canonical MIME type.
    let mimeForIdentifier: [String: String]
    /// Descriptions read so far, by canonical identifier; `nil` values record misses.
    private let descriptions = SanitizedMutex<[String: String?]>([:])
    /// The databases' `magic` files, parsed the first time something sniffs, with the size limit they were read
    /// under (see ``magic(maximumSize:)``).
    let parsedMagic = SanitizedMutex<(maximumSize: Int, result: Result<MIMEMagic, UniformTypeError>)?>(nil)

    /// Declared type's identifier → the database MIME types (and their aliases) merged into it because both claim
    /// the same extension; ``TypeCatalog/tags(of:)`` lists them after the type's declared MIME tags.
    let mergedMIMETypes: [String: [String]]

    init(
        databases: [MIMEDatabase], typeForMIME: [String: UniformType], mimeForIdentifier: [String: String],
        mergedMIMETypes: [String: [String]] = [:]
    ) {
        self.databases = databases
        self.typeForMIME = typeForMIME
        self.mimeForIdentifier = mimeForIdentifier
        self.mergedMIMETypes = mergedMIMETypes
    }

    /// The canonical spelling of `mimeType` (resolving aliases) in the first database that knows it.
    func canonical(for mimeType: String) -> String? {
        for database in databases {
            if let canonical = database.canonical(for: mimeType) {
                return canonical
            }
        }
        return nil
    }

    /// The uniform type of a MIME type or alias that a database knows; `nil` for others.
    func type(forMIMEType mimeType: String) -> UniformType? {
        guard let canonical = canonical(for: mimeType) else {
            return nil
        }
        return typeForMIME[canonical.asciiLowercased]
    }

    /// The uniform types that the databases' glob rules give a file name, best first: the first
    /// database's answers, then the next one's.
    func types(forFileName fileName: String) -> [UniformType] {
        var seen: Set<UniformType> = []
        var result: [UniformType] = []
        for mimeType in mimeTypes(forFileName: fileName) {
            if let type = type(forMIMEType: mimeType), seen.insert(type).inserted {
                result.append(type)
            }
        }
        return result
    }

    /// The MIME types that the databases' glob rules give a file name, best first: the first database's
    /// answers, then the next one's, each once.
    func mimeTypes(forFileName fileName: String) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for database in databases {
            for mimeType in database.mimeTypes(forFileName: fileName)
            where seen.insert(mimeType.asciiLowercased).inserted {
                result.append(mimeType)
            }
        }
        return result
    }

    /// The database's description of a type made from it, read once from its XML file.
    func description(of type: UniformType) -> String? {
        guard let mimeType = mimeForIdentifier[type.canonical] else {
            return nil
        }
        if let cached = descriptions.withLock({ $0[type.canonical] }) {
            return cached
        }
        let description = databases.lazy.compactMap { $0.description(for: mimeType) }.first
        descriptions.withLock { $0[type.canonical] = description }
        return description
    }
}
