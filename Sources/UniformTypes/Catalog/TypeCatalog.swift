import Synchronization
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The home of type declarations: answers what a type conforms to, what its tags are, and which
/// type a filename extension or MIME type names.
///
/// ``shared`` holds the built-in system types, the types of the Linux shared-mime-info database
/// (imported the first time a query needs them) and whatever the process registers; the instance
/// members of ``UniformType`` ask it. Make isolated catalogs with ``init(includingSystemTypes:)``,
/// e.g. in tests: they import a MIME database only when asked (``importMIMEDatabase(directories:)``).
///
/// Declarations enter only through ``register(_:as:)``, which checks a whole batch and applies
/// all of it or none of it. Readers see an immutable snapshot that a registration replaces in one
/// step, so queries never block on validation and never see half a batch. Conformance answers
/// come from an index built with each snapshot, in memory linear in the number of types: a warm
/// ``conforms(_:to:)`` does not allocate (bar types whose parents were chosen to defeat the index, which are
/// answered by a bounded search).
///
/// ```swift
/// let catalog = TypeCatalog()
/// try catalog.register([
///     UniformTypeDeclaration(identifier: UniformType("com.example.note")!, conformsTo: [.json],
///                            tags: [.filenameExtension: ["note"]])
/// ], as: .exported)
/// catalog.type(filenameExtension: "note")                                   // com.example.note
/// catalog.conforms(UniformType("com.example.note")!, to: .text)             // true
/// ```
public final class TypeCatalog: Sendable {
    /// The process-wide catalog: the built-in system types, the system's shared-mime-info
    /// database, and everything registered in it.
    ///
    /// The MIME database is imported once, by the first query that needs it: a lookup by tag that
    /// no declared type answers, a list of all types for a tag, ``declarations``, or a question
    /// about a type whose identifier is in the `org.freedesktop.shared-mime-info.` domain. Other
    /// queries never wait for it; ``tags(of:)`` of a declared type reads the database's files (once) but
    /// does not import it. Call ``importMIMEDatabase(directories:)`` first to import other
    /// directories instead.
    ///
    /// Each thread that asks ``shared`` something keeps the snapshot it read, so that it can answer its next
    /// question without taking a lock while nothing has changed. A registration is still seen by every question asked
    /// after it; the snapshot it replaced stays in memory until each thread that read it asks again or ends.
    public static let shared = TypeCatalog(
        includingSystemTypes: true, lazyMIMEImport: LazyMIMEImport(), cachesPerThread: true)

    /// The current snapshot; `nil` until the first query of a catalog that starts with the built-in types, which
    /// builds their snapshot then (``initialSnapshot(_:)``), so that making ``shared`` costs a program that never asks
    /// it anything (`transferkit --version`) nothing.
    private let current: SanitizedMutex<CatalogSnapshot?>
    /// Serializes registrations, so a batch is validated against the snapshot it replaces
    /// without holding up readers.
    private let registration = SanitizedMutex(())
    /// How many times `current` has been replaced; changed only while `current` is locked (see ``read(_:)``).
    private let generation = Atomic<UInt64>(0)
    /// Whether queries read the snapshot through each thread's cache (``shared`` only, the catalog of every
    /// `UniformType` question; the cache has one slot per thread).
    private let cachesPerThread: Bool
    /// For ``shared``: each thread's last snapshot, with the generation it was current in.
    private static let threadSnapshots = ThreadLocalReference()
    /// For ``shared`` only: the pending import of the system MIME database.
    let lazyMIMEImport: LazyMIMEImport?
    /// ``contentSniffingLimits``.
    let sniffingLimits = SanitizedMutex(ContentSniffingLimits.default)

    /// Creates a catalog.
    /// - Parameter includingSystemTypes: Whether to start with the built-in system types
    ///   (see ``UniformType/systemDeclarations``); otherwise the catalog starts empty.
    public convenience init(includingSystemTypes: Bool = true) {
        self.init(includingSystemTypes: includingSystemTypes, lazyMIMEImport: nil)
    }

    /// A catalog that imports a MIME database the way ``shared`` does: once, when a query first
    /// needs it. For tests of that behaviour.
    convenience init(lazilyImportingMIMEDatabaseFrom directories: [URL]?) {
        self.init(includingSystemTypes: true, lazyMIMEImport: LazyMIMEImport(directories: directories))
    }

    /// A catalog that starts from `snapshot` (which never changes), importing the MIME database by `lazyMIMEImport`.
    init(snapshot: CatalogSnapshot, lazyMIMEImport: LazyMIMEImport?) {
        self.lazyMIMEImport = lazyMIMEImport
        current = SanitizedMutex(snapshot)
        cachesPerThread = false
    }

    private init(includingSystemTypes: Bool, lazyMIMEImport: LazyMIMEImport?, cachesPerThread: Bool = false) {
        self.lazyMIMEImport = lazyMIMEImport
        current = SanitizedMutex(includingSystemTypes ? nil : CatalogSnapshot())
        self.cachesPerThread = cachesPerThread
    }

    /// The snapshot in `state`, made from the built-in types first if there is none yet.
    private static func initialSnapshot(_ state: inout CatalogSnapshot?) -> CatalogSnapshot {
        if let snapshot = state { return snapshot }
        let snapshot = builtInSnapshot
        state = snapshot
        return snapshot
    }

    /// What a catalog with the built-in types starts from: ``systemSnapshot``, or, should the built-in table have a
    /// conformance cycle (a test rules it out), what registering the table gives (the validator rejects it, and the
    /// catalog starts empty).
    private static let builtInSnapshot: CatalogSnapshot =
        systemSnapshot
        ?? (try? DeclarationValidator.apply(UniformType.systemDeclarations, as: .system, to: CatalogSnapshot()))
        ?? CatalogSnapshot()

    /// The built-in declarations as a snapshot, built once per process without validation and
    /// shared by every catalog that starts with them (a snapshot never changes).
    ///
    /// Validating the constant table at every launch cost more than a third of the start-up time
    /// of `transferkit`. `SystemDeclarationTests` registers the table through
    /// ``register(_:as:)`` instead and fails if the validator rejects or changes any of it, or if
    /// the result differs from this snapshot.
    private static let systemSnapshot = DeclarationValidator.trustedSnapshot(
        UniformType.systemDeclarations, as: .system)

    /// The current snapshot; it stays valid and unchanged however the catalog changes later.
    var snapshot: CatalogSnapshot {
        read { $0 }
    }

    /// A snapshot and the generation in which it is current, for a thread's cache.
    private final class ThreadSnapshot: Sendable {
        let generation: UInt64
        let snapshot: CatalogSnapshot

        init(generation: UInt64, snapshot: CatalogSnapshot) {
            self.generation = generation
            self.snapshot = snapshot
        }
    }

    /// `body`'s answer from the current snapshot.
    ///
    /// ``shared`` answers from the calling thread's cache while the snapshot it holds is still current, without
    /// taking the lock or retaining the snapshot: on this machine those atomic operations were most of a warm
    /// `conforms(to:)`. The cache is right exactly when `generation` has not moved since it was filled: the
    /// generation changes only together with `current`, under its lock, and the cache is filled with both read under
    /// that lock. A change made before this call (by this thread, or by one whose work this thread has waited for)
    /// has moved the generation this thread reads, so the answer is never older than the caller may see.
    ///
    /// `body` must not use this catalog: a question there could replace the cached snapshot `body` is reading.
    @inline(__always)
    func read<Result>(_ body: (CatalogSnapshot) -> Result) -> Result {
        guard cachesPerThread, let slots = Self.threadSnapshots else {
            return current.withLock { body(Self.initialSnapshot(&$0)) }
        }
        if let cached = slots.current() {
            let now = generation.load(ordering: .acquiring)
            // Only `read` sets the slot, and only with a `ThreadSnapshot`; the slot keeps it while `body` runs.
            let answer = cached._withUnsafeGuaranteedRef { object -> Result? in
                let entry = unsafeDowncast(object, to: ThreadSnapshot.self)
                return entry.generation == now ? body(entry.snapshot) : nil
            }
            if let answer {
                return answer
            }
        }
        let entry = current.withLock { state in
            ThreadSnapshot(generation: generation.load(ordering: .relaxed), snapshot: Self.initialSnapshot(&state))
        }
        slots.set(entry)
        return body(entry.snapshot)
    }

    /// Adds declarations to the catalog, all or none.
    ///
    /// The batch is rejected when a declaration uses the reserved `dyn.` prefix, has a malformed
    /// tag, names a parent that is neither in the catalog nor in the batch, declares an identifier
    /// twice in the batch or again with the same origin, or makes a type conform to itself.
    /// A declaration for an identifier that a stronger origin already declares is ignored; one
    /// that outranks an existing declaration replaces it (see ``UniformTypeDeclaration/Origin``).
    /// Answers for types the batch does not touch do not change.
    ///
    /// - Parameters:
    ///   - declarations: The declarations; they may refer to each other in any order.
    ///   - origin: Where they come from: ``UniformTypeDeclaration/Origin/exported`` for types you
    ///     own, ``UniformTypeDeclaration/Origin/imported`` for types you use.
    /// - Throws: ``UniformTypeError`` with code `invalidIdentifier`, `invalidTag`, `unknownParent`,
    ///   `duplicateIdentifier` or `conformanceCycle`; its `source` names the offending entry as
    ///   `declarations[<index>] <identifier>`.
    public func register(
        _ declarations: [UniformTypeDeclaration],
        as origin: UniformTypeDeclaration.Origin
    ) throws(UniformTypeError) {
        try update { snapshot throws(UniformTypeError) in
            try DeclarationValidator.apply(declarations, as: origin, to: snapshot)
        }
    }

    /// Replaces the snapshot with what `body` makes of it, one change at a time, so a change is
    /// computed from the snapshot it replaces without holding up readers. `body` must not call
    /// back into the catalog's writing members.
    func update(
        _ body: (CatalogSnapshot) throws(UniformTypeError) -> CatalogSnapshot
    ) throws(UniformTypeError) {
        try registration.withLock { _ throws(UniformTypeError) in
            let old = current.withLock { Self.initialSnapshot(&$0) }
            let new = try body(old)
            if new !== old {
                current.withLock { state in
                    state = new
                    generation.add(1, ordering: .releasing)
                }
            }
        }
    }

    /// Registers a one-parent declaration unless `type` is already declared by `origin` or a
    /// stronger origin. Used by ``UniformType/init(exportedAs:conformingTo:)`` and its imported twin.
    /// - Returns: Whether `type` is declared afterwards.
    @discardableResult
    func declareIfNeeded(
        _ type: UniformType, conformingTo parent: UniformType, as origin: UniformTypeDeclaration.Origin
    )
        -> Bool
    {
        if let existing = snapshot.entry(for: type), existing.origin.rank <= origin.rank {
            return true
        }
        let declaration = UniformTypeDeclaration(identifier: type, conformsTo: [parent])
        do {
            try register([declaration], as: origin)
        } catch {
            // Another thread may have declared it meanwhile; otherwise the parent is unknown or
            // would make a cycle, and the type stays undeclared, as documented.
        }
        return snapshot.entry(for: type) != nil
    }

    /// The declaration of `type`, or `nil` when the catalog does not declare it.
    ///
    /// The description of a type made from the MIME database is read from the database the first
    /// time it is asked for.
    public func declaration(for type: UniformType) -> UniformTypeDeclaration? {
        if mayNeedMIMEDatabase(type) {
            importSystemMIMEDatabaseIfNeeded()
        }
        let snapshot = snapshot
        return snapshot.entry(for: type).map { Self.completed($0, in: snapshot) }
    }

    /// The declaration of `entry`, with the description of a MIME-database type filled in.
    private static func completed(
        _ entry: CatalogSnapshot.Entry, in snapshot: CatalogSnapshot
    ) -> UniformTypeDeclaration {
        var declaration = entry.declaration
        if declaration.description == nil, entry.origin == .mimeDatabase, let index = snapshot.mimeIndex {
            declaration.description = index.description(of: declaration.identifier)
        }
        return declaration
    }

    /// Where the declaration of `type` came from, or `nil` when the catalog does not declare it.
    public func origin(of type: UniformType) -> UniformTypeDeclaration.Origin? {
        if mayNeedMIMEDatabase(type) {
            importSystemMIMEDatabaseIfNeeded()
        }
        return snapshot.entry(for: type)?.origin
    }

    /// Every declaration, in the order the catalog first received each identifier.
    ///
    /// Descriptions of MIME-database types are read from the database here, which takes a while
    /// the first time (one small file per type).
    public var declarations: [UniformTypeDeclaration] {
        importSystemMIMEDatabaseIfNeeded()
        let snapshot = snapshot
        return snapshot.entries.map { Self.completed($0, in: snapshot) }
    }

    /// Whether the catalog has a declaration for `type`.
    public func isDeclared(_ type: UniformType) -> Bool {
        if mayNeedMIMEDatabase(type) {
            importSystemMIMEDatabaseIfNeeded()
        }
        return read { $0.index(of: type) >= 0 }
    }

    /// Whether `type` conforms to `other`: true when they are equal, or when `other` is reachable
    /// through the parents of `type`, however many each type has. A dynamic type conforms to the
    /// parents its identifier names (by default `public.data`) and their supertypes.
    public func conforms(_ type: UniformType, to other: UniformType) -> Bool {
        if mayNeedMIMEDatabase(type) {
            importSystemMIMEDatabaseIfNeeded()
        }
        return read { $0.conforms(type, to: other) }
    }

    /// Every type that `type` conforms to, directly or through other types, not counting itself.
    public func supertypes(of type: UniformType) -> Set<UniformType> {
        if mayNeedMIMEDatabase(type) {
            importSystemMIMEDatabaseIfNeeded()
        }
        return snapshot.supertypes(of: type)
    }

    /// The tags of `type` by class, the preferred tag first: the declared ones (then the MIME types
    /// an imported database merged into the type because both claim an extension, with their aliases, see
    /// ``importMIMEDatabase(directories:)``), or for a dynamic type the tag its identifier encodes.
    ///
    /// For a declared type that claims a filename extension or a MIME type, ``shared``'s list holds every name the
    /// system database maps onto the type: `public.c-source` gets `text/x-csrc`, and `public.php-script` gets
    /// `application/x-php` (the database's name for `*.php`) after its declared `text/php`, which stays first. Before
    /// ``shared`` has imported the database, those names are worked out for the one type, by the import's rule,
    /// from the database alone (parsed once, and kept for the import), without importing it: the parse is about a
    /// quarter of the import's time. Each type's names are kept until the catalog changes, so asking again costs a
    /// look-up. A lookup of the preferred MIME type alone (``UniformType/preferredMIMEType``) of a
    /// type that declares one reads no database.
    public func tags(of type: UniformType) -> [UniformTypeTagClass: [String]] {
        if mayNeedMIMEDatabase(type) {
            importSystemMIMEDatabaseIfNeeded()
            return snapshot.tags(of: type)
        }
        // Pending first, the snapshot second: an import that ends between the two leaves a snapshot with its index,
        // and the merges worked out over it are the import's (they look at declared types only).
        let pending = isMIMEImportPending
        let snapshot = snapshot
        if pending, snapshot.mayGainMergedMIMETypes(type), let lazy = lazyMIMEImport {
            return snapshot.tags(of: type, merged: lazy.mergedMIMETypes(into: type, in: snapshot))
        }
        return snapshot.tags(of: type)
    }

    /// The preferred tag of `tagClass` of `type`, as ``tags(of:)`` lists it first; a type that declares a tag of
    /// that class answers without waiting for ``shared``'s import of the system database (merged tags come after the
    /// declared ones).
    package func preferredTag(of type: UniformType, tagClass: UniformTypeTagClass) -> String? {
        let snapshot = snapshot
        if !mayNeedMIMEDatabase(type), let entry = snapshot.entry(for: type), entry.origin != .mimeDatabase,
            let declared = entry.declaration.tags[tagClass]?.first
        {
            return declared
        }
        return tags(of: type)[tagClass]?.first
    }
}
