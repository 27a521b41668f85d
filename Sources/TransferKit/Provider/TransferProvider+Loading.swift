import Synchronization
import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TransferProvider {
    /// Loads the bytes of the first registered representation that conforms to `type`.
    ///
    /// A file representation is read; an object encodes itself.
    ///
    /// ```swift
    /// let png = try await provider.loadDataRepresentation(for: .image)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The requested type; a registered subtype satisfies it.
    ///   - progress: The caller's progress; the load reports into a child of it and is cancelled with it.
    /// - Returns: The bytes.
    /// - Throws: ``TransferError`` with `TransferError.Code.unavailableRepresentation`,
    ///   `TransferError.Code.loaderFailed`, `TransferError.Code.encodingFailed`,
    ///   `TransferError.Code.fileCoercionFailed` or `TransferError.Code.cancelled`.
    public func loadDataRepresentation(for type: UniformType, progress: TransferProgress? = nil) async throws -> Data {
        let entry = try representation(for: [type], reader: nil)
        return try await loadData(from: entry, progress: progress)
    }

    /// Loads the first registered representation that conforms to `type` as a file and passes it to `body`.
    ///
    /// The file belongs to the caller until `body` returns; then it is deleted (also when `body` throws or the
    /// load is cancelled). A file representation registered with `openInPlace` is passed as it is and not deleted.
    /// Copy the file inside `body` to keep it.
    ///
    /// ```swift
    /// let size = try await provider.loadFileRepresentation(for: .png) { url in
    ///     try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The requested type; a registered subtype satisfies it.
    ///   - progress: The caller's progress; the load reports into a child of it and is cancelled with it.
    ///   - body: Uses the file.
    /// - Returns: What `body` returns.
    /// - Throws: The errors of ``loadDataRepresentation(for:progress:)``, or what `body` throws.
    public func loadFileRepresentation<R>(
        for type: UniformType,
        progress: TransferProgress? = nil,
        _ body: (URL) async throws -> R
    ) async throws -> R {
        let entry = try representation(for: [type], reader: nil)
        if case .file(openInPlace: true, let loader) = entry.source {
            let url = try await run(entry, progress: progress) { child in try await loader(child) }
            return try await body(url)
        }
        let (folder, name) = try makeTemporaryFolder(for: entry.type, suggestedName: entry.suggestedName)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent(name, isDirectory: false)
        try await run(entry, progress: progress) { child in
            if case .file(_, let loader) = entry.source {
                let original = try await loader(child)
                try Self.coerce(entry.type, from: original) {
                    try FileManager.default.copyItem(at: original, to: destination)
                }
            } else {
                let data = try await self.loadData(from: entry, child)
                try Self.coerce(entry.type, from: destination) { try Self.writeTemporaryFile(data, at: destination) }
            }
        }
        return try await body(destination)
    }

    /// Loads an object of `objectClass`, decoding the best representation for it.
    ///
    /// If the provider holds an object of exactly this type and ``LoadOptions/allowsInProcessFastPath`` is on, the
    /// reader gets that object itself (the same instance for a class) without encoding. Otherwise the
    /// representation is chosen by the rule in ``TransferProvider`` from `objectClass.readableTypes`, loaded as data
    /// and decoded with ``TransferProviderReading/object(from:type:)`` (passing the registered type).
    ///
    /// - Parameters:
    ///   - objectClass: The reader type.
    ///   - progress: The caller's progress; the load reports into a child of it and is cancelled with it.
    /// - Returns: The object.
    /// - Throws: The errors of ``loadDataRepresentation(for:progress:)``, or `TransferError.Code.decodingFailed`.
    public func loadObject<T: TransferProviderReading>(
        ofClass objectClass: T.Type,
        progress: TransferProgress? = nil
    ) async throws -> T {
        let type: UniformType
        let data: Data
        switch progress == nil ? try immediateLoad(ofClass: objectClass) : nil {
        case .object(let object as T):
            return object
        case .data(let chosenType, let bytes):
            type = chosenType
            data = bytes
        case .object, nil:
            if loadOptions.allowsInProcessFastPath, let (type, source) = fastPathSource(for: objectClass) {
                let entry = Entry(type: type, visibility: .ownProcess, source: .object(source))
                let object = try await run(entry, progress: progress) { child in try await source.load(child) }
                if let object = object as? T {
                    return object
                }
            }
            let entry = try representation(for: objectClass.readableTypes, reader: objectClass)
            type = entry.type
            data = try await loadData(from: entry, progress: progress)
        }
        do {
            if TransferTypeFacts.importsAsynchronously(objectClass),
                let representable = objectClass as? any TransferRepresentable.Type,
                let importer = Self.asynchronousImporter(of: representable, for: type, catalog: catalog)
            {
                let value = try await run(type, progress: progress) { child in try await importer(data, child) }
                guard let value = value as? T else {
                    throw TransferError(
                        code: .decodingFailed, message: "The importer of \(objectClass) returned another type.",
                        source: type.identifier)
                }
                return value
            }
            return try objectClass.object(from: data, type: type)
        } catch {
            throw TransferError.decodingFailed(error, type: type, byteCount: data.count)
        }
    }

    /// What an immediate load found: the registered object itself, or the bytes of the chosen representation.
    ///
    /// Not generic over the reader, so that the unspecialized generic code of a load instantiates no metadata for it.
    enum ImmediateLoad {
        /// The stored object of exactly the reader's type.
        case object(any TransferProviderWriting)
        /// The bytes of the chosen representation, and its registered type.
        case data(UniformType, Data)
    }

    /// The load of `objectClass` done at once, without a progress object or a suspension, when the provider holds
    /// the object as a value and it encodes without suspending (``TransferProviderWriting/immediateData(for:)``);
    /// `nil` when the load must take the asynchronous path (which then also reports every error of choosing).
    ///
    /// A load without a caller progress can only be cancelled through its task, and this one never suspends, so it
    /// behaves as the asynchronous path does: a task cancelled before it starts takes that path (and gets
    /// `TransferError.Code.cancelled`), and one cancelled while the object encodes gets the same error after.
    func immediateLoad<T: TransferProviderReading>(ofClass objectClass: T.Type) throws -> ImmediateLoad? {
        guard !Task.isCancelled else { return nil }
        let readerType = ObjectIdentifier(T.self)
        // One lock for the usual load: the fast path's object, or else the first entry, which the choice rule picks
        // when it is of the reader's first type.
        let (fastPathSource, first) = state.withLock { state in
            let source = state.loadOptions.allowsInProcessFastPath ? state.entries.objectSource(of: readerType) : nil
            return (source, state.entries.firstType.map { ($0, state.entries.firstStoredObject) })
        }
        if let fastPathSource {
            return fastPathSource.stored.map { .object($0) }
        }
        let requested = objectClass.readableTypes
        let type: UniformType
        let object: any TransferProviderWriting
        if let (firstType, firstObject) = first, let wanted = requested.first, firstType == wanted {
            guard let firstObject else { return nil }
            (type, object) = (firstType, firstObject)
        } else {
            guard let chosen = chosenStoredObject(for: requested) else { return nil }
            (type, object) = chosen
        }
        let bytes: Data?
        do {
            bytes = try object.immediateData(for: type)
            try Task.checkCancellation()
        } catch {
            throw Self.loaderFailed(error, type)
        }
        return bytes.map { .data(type, $0) }
    }

    /// The asynchronous importer of the representation of `representable` that reads `type`, if it has one (a
    /// synchronous one runs through `object(from:type:)`, so that a type overriding it keeps its own decoding).
    private static func asynchronousImporter<R: TransferRepresentable>(
        of representable: R.Type, for type: UniformType, catalog: TypeCatalog
    ) -> (@Sendable (Data, TransferProgress) async throws -> any Sendable)? {
        guard let element = R.transferRepresentations.importer(for: type, catalog: catalog),
            case .asynchronous = element.importer
        else { return nil }
        return { data, progress in try await element.importValue(data, type, progress) }
    }
}

extension TransferProvider {
    /// The registered entry that the package's one choice rule,
    /// `TypeCatalog.chooseRepresentation(offered:requested:)`, picks for `requested`, if any.
    ///
    /// The offered types are the registered ones, then the derived ones (see ``offeredTypes``). Derived types are
    /// looked up only when no registered type answers the reader's first preference, so a load of a registered
    /// type costs nothing more for them.
    func choose(for requested: [UniformType]) -> Entry? {
        let (head, entries) = registeredChoice(for: requested)
        if let head {
            return head
        }
        guard let index = catalog.chooseRepresentation(offered: entries.lazy.map { $0.type }, requested: requested)
        else {
            return chooseDerived(for: requested, entries: entries)
        }
        let entry = entries[index]
        if requested.count <= 1 || entry.type == requested[0] || catalog.conforms(entry.type, to: requested[0]) {
            return entry
        }
        return chooseDerived(for: requested, entries: entries) ?? entry
    }

    /// The type and object of the registered entry (not a derived one) that the one choice rule picks for
    /// `requested`, when that entry holds its object as a value.
    ///
    /// Copies out only those two, not the entry: this is the path of every load without a caller progress.
    func chosenStoredObject(for requested: [UniformType]) -> (UniformType, any TransferProviderWriting)? {
        let (head, entries) = state.withLock { state -> ((UniformType, any TransferProviderWriting)??, Entries) in
            if let type = state.entries.firstType, let wanted = requested.first, type == wanted {
                return (.some(state.entries.firstStoredObject.map { (type, $0) }), Entries())
            }
            return (nil, state.entries)
        }
        if let head {
            return head
        }
        guard let index = catalog.chooseRepresentation(offered: entries.lazy.map(\.type), requested: requested),
            case .object(let source) = entries[index].source, let object = source.stored
        else { return nil }
        return (entries[index].type, object)
    }

    /// The first registered entry when it is of the first requested type, which the choice rule then picks whatever
    /// else is registered (the usual load of a provider made from an object); otherwise every registered entry, to
    /// choose from outside the lock (conformance may wait for the catalogue's import of the MIME database).
    private func registeredChoice(for requested: [UniformType]) -> (head: Entry?, entries: Entries) {
        state.withLock { state in
            if let first = state.entries.first, let wanted = requested.first, first.type == wanted {
                return (first, Entries())
            }
            return (nil, state.entries)
        }
    }

    /// The entry ``choose(for:)`` picks, or the error naming `reader` (a type, named only when the load fails).
    ///
    /// When the reader's declaration, or that of an object registered here, is one TransferKit cannot use (see
    /// `RepresentationList.failure`), the error is that failure, which says what is wrong with it.
    func representation(for requested: [UniformType], reader: Any.Type?) throws -> Entry {
        if let entry = choose(for: requested) {
            return entry
        }
        if let failure = reader.flatMap(representationFailure(of:)) ?? state.withLock({ $0.registrationFailure }) {
            throw failure
        }
        let registered = registeredTypes.map(\.identifier)
        let wanted = requested.map(\.identifier).joined(separator: ", ")
        let asked = reader.map { "\($0) reads [\(wanted)]" } ?? "Requested \(wanted)"
        throw TransferError(
            code: .unavailableRepresentation,
            message: "\(asked), but no registered representation conforms to it; registered: ["
                + registered.joined(separator: ", ")
                + "]. Ask for one of these types (or a supertype of one), or register a representation of the type.",
            source: requested.first?.identifier)
    }

    /// The registered type and object of exactly `objectClass`, for the in-process fast path.
    func fastPathSource<T>(for objectClass: T.Type) -> (UniformType, ObjectSource)? {
        let entries = state.withLock { $0.entries }
        for entry in entries {
            if case .object(let source) = entry.source, ObjectIdentifier(source.objectType) == ObjectIdentifier(T.self)
            {
                return (entry.type, source)
            }
        }
        return nil
    }

    /// Runs a load step with the caller's progress: a child for the handler, cancellation both ways, errors mapped.
    func run<R: Sendable>(
        _ entry: Entry,
        progress: TransferProgress?,
        _ body: @escaping @Sendable (TransferProgress) async throws -> R
    ) async throws -> R {
        try await run(entry.type, progress: progress, body)
    }

    /// The same for a step that loads the representation of `type`, the type its errors name.
    func run<R: Sendable>(
        _ type: UniformType,
        progress: TransferProgress?,
        _ body: @escaping @Sendable (TransferProgress) async throws -> R
    ) async throws -> R {
        guard let parent = progress else {
            return try await runWithoutCallerProgress(type, body)
        }
        if parent.totalUnitCount <= 0 {
            parent.totalUnitCount = 1
        }
        let child = parent.makeChild(withPendingUnitCount: max(0, parent.totalUnitCount - parent.completedUnitCount))
        do {
            let result = try await parent.withCancellation { try await body(child) }
            child.finish()
            return result
        } catch {
            throw Self.loaderFailed(error, type)
        }
    }

    /// ``run(_:progress:_:)`` when the caller passed no progress.
    ///
    /// Then nobody outside can cancel the load's progress: only the calling task can cancel the load. So the body runs
    /// in the calling task, without a task of its own, and gets a progress with no parent (the parent that a caller
    /// progress would have could not be observed). Cancelling the calling task cancels that progress, and the caller
    /// gets `TransferError.Code.cancelled` if the task is cancelled when the body ends, as with a caller progress.
    private func runWithoutCallerProgress<R: Sendable>(
        _ type: UniformType,
        _ body: (TransferProgress) async throws -> R
    ) async throws -> R {
        let progress = TransferProgress()
        let result: Result<R, any Error>
        if Task.isCancelled {
            progress.cancel()
            result = .failure(CancellationError())
        } else {
            do {
                result = .success(
                    try await withTaskCancellationHandler {
                        try await body(progress)
                    } onCancel: {
                        progress.cancel()
                    })
            } catch {
                result = .failure(error)
            }
        }
        do {
            try Task.checkCancellation()
            let value = try result.get()
            progress.finish()
            return value
        } catch {
            throw Self.loaderFailed(error, type)
        }
    }

    /// A load handler's error as the ``TransferError`` the caller gets.
    static func loaderFailed(_ error: any Error, _ type: UniformType) -> TransferError {
        TransferError.wrapping(
            error, as: .loaderFailed,
            message: "The load handler for \(type) failed: \(error). "
                + "Fix the handler, or catch the error and try another registered type.",
            source: type.identifier)
    }

    /// The bytes of an entry, reported into the caller's progress if there is one.
    ///
    /// Without a caller progress the load needs no escaping closure (``run(_:progress:_:)`` takes one for the
    /// progress's own task): a heap allocation less on the hot path of small loads.
    func loadData(from entry: Entry, progress: TransferProgress?) async throws -> Data {
        guard let progress else {
            return try await runWithoutCallerProgress(entry.type) { child in
                try await self.loadData(from: entry, child)
            }
        }
        return try await run(entry, progress: progress) { child in try await self.loadData(from: entry, child) }
    }

    /// The bytes of an entry, without progress bookkeeping.
    func loadData(from entry: Entry, _ progress: TransferProgress) async throws -> Data {
        switch entry.source {
        case .data(let loader):
            return try await loader(progress)
        case .file(_, let loader):
            let url = try await loader(progress)
            return try Self.coerce(entry.type, from: url) { try Data(contentsOf: url) }
        case .object(let source):
            let object = try await source.load(progress)
            return try await object.loadData(for: entry.type, progress: progress)
        }
    }

    /// Runs a file operation, reporting its failure as `TransferError.Code.fileCoercionFailed`.
    static func coerce<R>(_ type: UniformType, from url: URL, _ operation: () throws -> R) throws -> R {
        do {
            return try operation()
        } catch {
            throw TransferError(
                code: .fileCoercionFailed,
                message: "Could not convert the \(type) representation between data and a file at \(url.path): "
                    + "\(error). Check that the file exists and the temporary directory is writable.",
                cause: error, source: url.path)
        }
    }

    /// Writes `data` as the new file at `url`, in a folder of ``makeTemporaryFolder(for:suggestedName:)``.
    ///
    /// Not `Data.write(to:)`, which syncs the file to the disk on Linux: the copy lives only until the reader's
    /// closure returns, and the sync made a load of a few kilobytes wait for the disk (0.6 ms on this project's
    /// machines, much more on a busy disk).
    static func writeTemporaryFile(_ data: Data, at url: URL) throws {
        let descriptor = try Syscall.createNewFile(atPath: url.path)
        do {
            try data.withUnsafeBytes { bytes in try Syscall.write(descriptor, bytes) }
        } catch {
            Syscall.close(descriptor)
            throw error
        }
        try Syscall.closeAfterWriting(descriptor)
    }

    /// A fresh folder under the temporary directory, and a file name for `type` inside it.
    func makeTemporaryFolder(for type: UniformType, suggestedName: String? = nil) throws -> (folder: URL, name: String)
    {
        let (directory, providerName) = state.withLock { ($0.resolvedTemporaryDirectory(), $0.suggestedName) }
        let suggested = suggestedName ?? providerName
        let folder = directory.appendingPathComponent("TransferKit-\(UUID().uuidString)", isDirectory: true)
        try Self.coerce(type, from: folder) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        return (folder, Self.fileName(suggested: suggested, for: type))
    }

    /// The name of a file that holds a representation of `type`: `suggested` as one path component (a `/` becomes
    /// `_`; nothing, `.` or `..` becomes `item`), with `type`'s preferred filename extension when it has none. A type
    /// without an extension of its own takes that of its most specific supertype that has one
    /// (`public.utf8-plain-text` gives `item.txt`, an app's type conforming to `public.json` `item.json`).
    package static func fileName(suggested: String?, for type: UniformType) -> String {
        var name = String(String.UnicodeScalarView((suggested ?? "").unicodeScalars.map { $0 == "/" ? "_" : $0 }))
        if name.isEmpty || name == "." || name == ".." {
            name = "item"
        }
        if name.filenameExtension.isEmpty,
            let fileExtension = type.preferredFilenameExtension ?? inheritedFilenameExtension(of: type)
        {
            name += "." + fileExtension
        }
        return name
    }

    /// `name`, then `name` with ` 2`, ` 3`, … ` 1000` before its extension (`Luke.card`, `Luke 2.card`, …): the names
    /// a file saved into a folder may take, in order, so that it never replaces a file already there.
    package static func numberedFileNames(_ name: String) -> [String] {
        let stem = name.deletingFilenameExtension
        let pathExtension = name.filenameExtension
        let suffix = pathExtension.isEmpty || stem.isEmpty ? "" : "." + pathExtension
        let base = suffix.isEmpty ? name : stem
        return [name] + (2...1000).map { "\(base) \($0)\(suffix)" }
    }

    /// The preferred filename extension of the most specific supertype of `type` that has one (none of them conforms
    /// to another; the first by identifier when several are), or `nil`.
    static func inheritedFilenameExtension(of type: UniformType) -> String? {
        let tagged = type.supertypes.filter { $0.preferredFilenameExtension != nil }
        let mostSpecific = tagged.filter { candidate in
            !tagged.contains { other in other != candidate && other.conforms(to: candidate) }
        }
        return mostSpecific.min { $0.identifier < $1.identifier }?.preferredFilenameExtension
    }
}
