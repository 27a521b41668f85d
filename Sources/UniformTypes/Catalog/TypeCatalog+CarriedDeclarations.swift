extension TypeCatalog {
    /// What became of one declaration given to ``addingCarriedDeclarations(_:)``.
    public enum CarriedDeclarationOutcome: Sendable, Hashable, CustomStringConvertible {
        /// The new catalog declares the type as carried.
        case used
        /// The catalog already declares the type with the same direct parents; its own declaration stays.
        case alreadyDeclared
        /// The catalog already declares the type with other direct parents; its own declaration stays. The data
        /// was written by a program that understands the type differently.
        case conflicts(catalogParents: [UniformType])
        /// The identifier is in the `public` or `dyn` domain, which only the system defines.
        case reserved
        /// A parent is neither known to the catalog nor declared by a usable carried declaration, or the parents
        /// make a conformance cycle.
        case unresolved
        /// The catalog refused the declaration, e.g. for a malformed tag; the error's code.
        case refused(UniformTypeError.Code)
        /// An earlier declaration of the same batch declares the same identifier.
        case duplicate

        /// A short name, e.g. `used` or `conflicts`.
        public var description: String {
            switch self {
            case .used: "used"
            case .alreadyDeclared: "alreadyDeclared"
            case .conflicts: "conflicts"
            case .reserved: "reserved"
            case .unresolved: "unresolved"
            case .refused: "refused"
            case .duplicate: "duplicate"
            }
        }
    }

    /// A catalog made by ``addingCarriedDeclarations(_:)``, and what became of each declaration.
    public struct CarriedDeclarations: Sendable {
        /// The catalog: everything the original catalog declared when it was made, and the declarations that were
        /// used, as ``UniformTypeDeclaration/Origin/carried``.
        public let catalog: TypeCatalog
        /// Each declaration given, in order, with its outcome.
        public let outcomes: [(declaration: UniformTypeDeclaration, outcome: CarriedDeclarationOutcome)]
    }

    /// A new catalog that knows what this one knows, plus the declarations that came with some data (an archive's
    /// own, `Schemas/transfer-archive.md` §3.6), used only where they cannot change what this catalog says.
    ///
    /// Carried declarations describe types a program may never have heard of, so that it learns, say, that
    /// `com.example.card` is JSON. They come from outside, so they are advice, not orders:
    /// - a type this catalog already declares keeps its declaration (``CarriedDeclarationOutcome/alreadyDeclared``,
    ///   or ``CarriedDeclarationOutcome/conflicts(catalogParents:)`` when the direct parents differ);
    /// - identifiers in the `public` and `dyn` domains are the system's (``CarriedDeclarationOutcome/reserved``);
    /// - a declaration is used only if each parent is known here or declared by another usable carried declaration,
    ///   without a cycle (``CarriedDeclarationOutcome/unresolved``);
    /// - the used ones have the weak origin ``UniformTypeDeclaration/Origin/carried``, so a tag such as `.json` or
    ///   `text/plain` keeps naming the type it named before.
    ///
    /// This catalog does not change: use the returned one for the data the declarations came with, and nothing
    /// else.
    ///
    /// ```swift
    /// let carried = TypeCatalog.shared.addingCarriedDeclarations([
    ///     UniformTypeDeclaration(identifier: UniformType("com.example.card")!, conformsTo: [.json])
    /// ])
    /// carried.catalog.conforms(UniformType("com.example.card")!, to: .json)   // true
    /// TypeCatalog.shared.isDeclared(UniformType("com.example.card")!)          // still false
    /// ```
    ///
    /// - Parameter declarations: The declarations, in any order; they may refer to each other.
    /// - Returns: The new catalog and each declaration's outcome.
    public func addingCarriedDeclarations(_ declarations: [UniformTypeDeclaration]) -> CarriedDeclarations {
        var outcomes = [CarriedDeclarationOutcome](repeating: .unresolved, count: declarations.count)
        var seen: Set<UniformType> = []
        var pending: [Int] = []
        for (index, declaration) in declarations.enumerated() {
            let identifier = declaration.identifier
            guard seen.insert(identifier).inserted else {
                outcomes[index] = .duplicate
                continue
            }
            let domain = identifier.canonical.prefix { $0 != "." }
            if domain == "public" || domain == "dyn" {
                outcomes[index] = .reserved
            } else if let own = self.declaration(for: identifier) {
                outcomes[index] =
                    Set(own.conformsTo) == Set(declaration.conformsTo)
                    ? .alreadyDeclared : .conflicts(catalogParents: own.conformsTo)
            } else {
                pending.append(index)
            }
        }
        // Parents first: a declaration is usable once each parent is known here or usable itself. What is left when
        // nothing more resolves names an unknown parent or sits on a cycle.
        var usable: Set<UniformType> = []
        var order: [Int] = []
        var progress = true
        while progress {
            progress = false
            pending.removeAll { index in
                let declaration = declarations[index]
                guard declaration.conformsTo.allSatisfy({ usable.contains($0) || isDeclared($0) }) else {
                    return false
                }
                usable.insert(declaration.identifier)
                order.append(index)
                progress = true
                return true
            }
        }
        let lazy = isMIMEImportPending ? LazyMIMEImport(directories: lazyMIMEImport?.directories) : nil
        let catalog = TypeCatalog(snapshot: snapshot, lazyMIMEImport: lazy)
        do {
            try catalog.register(order.map { declarations[$0] }, as: .carried)
            for index in order { outcomes[index] = .used }
        } catch {
            // One at a time, parents first, so that one refused declaration costs only itself and its descendants.
            for index in order {
                do {
                    try catalog.register([declarations[index]], as: .carried)
                    outcomes[index] = .used
                } catch {
                    outcomes[index] = error.code == .unknownParent ? .unresolved : .refused(error.code)
                }
            }
        }
        return CarriedDeclarations(catalog: catalog, outcomes: Array(zip(declarations, outcomes)))
    }
}
