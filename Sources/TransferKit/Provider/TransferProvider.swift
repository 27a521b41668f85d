import Synchronization
import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An item with one or more typed representations that load lazily and asynchronously.
///
/// The counterpart of `NSItemProvider`. Register representations (data, files, or objects that write
/// themselves) in order of fidelity, highest first; readers load the one that suits them.
///
/// ```swift
/// let provider = TransferProvider(object: card)
/// let copy = try await provider.loadObject(ofClass: Card.self)
/// let json = try await provider.loadDataRepresentation(for: .json)
/// ```
///
/// ## Choosing a representation
/// A load matches a registered type `T` to a requested type `R` when `T` conforms to `R` (equal types conform), so
/// asking for `public.image` returns a registered PNG. When several match, the reader's preference order comes
/// first — its ``TransferProviderReading/readableTypes`` in order, or the single requested type — and then the
/// provider's fidelity (registration) order: for each requested type in turn, the first registered type that
/// conforms to it wins.
///
/// ## Registration
/// The first registration for a type wins: registering again for an equal type (case-insensitively) is ignored
/// and the registering method returns `false`.
///
/// ## Data and files
/// Data and file representations convert both ways: a data representation loaded as a file is written to a
/// temporary file, and a file representation loaded as data is read. Temporary files live in a fresh folder under
/// ``temporaryDirectory`` and are deleted when the load's closure returns, throws or is cancelled.
///
/// ## Concurrency
/// A provider is `Sendable` and any number of loads may run at once. Loads are not coalesced: every load invokes
/// the representation's load handler (or the object's `loadData(for:progress:)`), so a handler may run
/// concurrently with itself and must be safe to do so.
///
/// ## Progress and cancellation
/// Each load takes an optional caller ``TransferProgress``. The handler gets a child of it worth the caller's
/// remaining units (a caller progress without a total gets a total of 1). The load runs inside
/// ``TransferProgress/withCancellation(_:)``: cancelling the progress cancels the load, cancelling the calling task
/// cancels the progress, and either way the caller gets `TransferError.Code.cancelled`.
public final class TransferProvider: Sendable {
    let state: SanitizedMutex<State>
    let catalog: TypeCatalog

    /// An empty provider: register representations before handing it out.
    ///
    /// - Parameters:
    ///   - catalog: The type catalogue used for conformance when choosing representations.
    ///   - temporaryDirectory: Where temporary files go; `nil` (the default) for the system's temporary directory,
    ///     looked up when the provider first needs it (most providers never write a temporary file).
    public init(catalog: TypeCatalog = .shared, temporaryDirectory: URL? = nil) {
        self.catalog = catalog
        self.state = SanitizedMutex(State(temporaryDirectory: temporaryDirectory))
    }

    /// A provider for an object: registers its ``TransferProviderWriting/writableTypes-swift.property`` in order, each
    /// with the object's ``TransferProviderWriting/visibility(for:)`` and ``TransferProviderWriting/suggestedFileName(for:)``;
    /// ``suggestedName`` is the first of those names.
    ///
    /// A reader of the object's own type gets the object itself (see ``LoadOptions/allowsInProcessFastPath``).
    ///
    /// - Parameter object: The object to provide.
    public convenience init(object: some TransferProviderWriting) {
        self.init()
        // The first registered representation's own name, if any, without copying the entries again.
        if let name = registerObjectEntries(object, visibility: .all).firstSuggestedName {
            state.withLock { $0.suggestedName = name }
        }
    }

    /// A provider for a file: one file representation whose type comes from the file name's extension through
    /// `catalog`, or `public.data` when no declared type claims the extension; ``suggestedName`` is the file's name.
    ///
    /// - Parameters:
    ///   - fileURL: The file. It is read when loaded, not now; loading it as a file gives a copy.
    ///   - catalog: The catalogue that maps the extension to a type.
    public convenience init(contentsOf fileURL: URL, catalog: TypeCatalog = .shared) {
        self.init(catalog: catalog)
        let type = catalog.declaredType(forFileName: fileURL.lastPathComponent)
        registerFileRepresentation(for: type) { _ in fileURL }
        suggestedName = fileURL.lastPathComponent
    }

    /// A provider with one data representation.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - type: Their type.
    public convenience init(data: Data, type: UniformType) {
        self.init()
        registerDataRepresentation(for: type) { _ in data }
    }

    /// A name for the item, without directory, used for temporary files and by receivers that save it.
    public var suggestedName: String? {
        get { state.withLock { $0.suggestedName } }
        set { state.withLock { $0.suggestedName = newValue } }
    }

    /// Small values that travel with the item (an archive stores them with the representations).
    public var metadata: [String: TransferMetadataValue] {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    /// The ``metadata`` key of ``isConcealed``: `org.transferkit.concealed`, a Boolean.
    public static let concealedMetadataKey = "org.transferkit.concealed"

    /// Whether the item is secret (a password): a sensitivity hint for receivers that keep history.
    ///
    /// The Linux clipboard offers a concealed item with the hints clipboard managers honour by not recording it
    /// (`x-kde-passwordManagerHint`, `application/x-nspasteboard-concealed-type`), and marks an item it reads
    /// with those hints as concealed. The hint is kept in ``metadata`` under ``concealedMetadataKey``, so it
    /// travels with the item through archives (and through drags within one process, which hand over the provider
    /// itself; the cross-process session protocol carries no metadata). It hides nothing by itself: the
    /// representations load as usual.
    public var isConcealed: Bool {
        get { state.withLock { $0.metadata[Self.concealedMetadataKey] == .bool(true) } }
        set { state.withLock { $0.metadata[Self.concealedMetadataKey] = newValue ? .bool(true) : nil } }
    }

    /// The ``metadata`` key of ``isTransient``: `org.transferkit.transient`, a Boolean.
    public static let transientMetadataKey = "org.transferkit.transient"

    /// Whether the item is meant to last only a short while (a paste-once or expiring copy, a one-time code):
    /// clipboard managers and other history keepers should not record it.
    ///
    /// The Linux clipboard offers a transient item with `org.nspasteboard.TransientType` and marks an item it reads
    /// with that hint as transient. Kept in ``metadata`` under ``transientMetadataKey``, like ``isConcealed``.
    public var isTransient: Bool {
        get { state.withLock { $0.metadata[Self.transientMetadataKey] == .bool(true) } }
        set { state.withLock { $0.metadata[Self.transientMetadataKey] = newValue ? .bool(true) : nil } }
    }

    /// The ``metadata`` key of ``isAutoGenerated``: `org.transferkit.auto-generated`, a Boolean.
    public static let autoGeneratedMetadataKey = "org.transferkit.auto-generated"

    /// Whether the item was put on the clipboard by a program rather than by the user's own copy (a generated
    /// password, a link a tool copied): history keepers may skip it.
    ///
    /// The Linux clipboard offers such an item with `org.nspasteboard.AutoGeneratedType` and marks an item it reads
    /// with that hint. Kept in ``metadata`` under ``autoGeneratedMetadataKey``.
    public var isAutoGenerated: Bool {
        get { state.withLock { $0.metadata[Self.autoGeneratedMetadataKey] == .bool(true) } }
        set { state.withLock { $0.metadata[Self.autoGeneratedMetadataKey] = newValue ? .bool(true) : nil } }
    }

    /// The ``metadata`` key of ``isCut``: `org.transferkit.cut`, a Boolean.
    public static let cutMetadataKey = "org.transferkit.cut"

    /// Whether the item's files were cut rather than copied: the receiver that pastes them moves them.
    ///
    /// The Linux clipboard offers the file URLs of a cut item with both desktops' cut marks (GNOME's
    /// `x-special/gnome-copied-files` starting with `cut`, KDE's `application/x-kde-cutselection` of `1`), and
    /// sets this on an item it reads with either mark. Kept in ``metadata`` under ``cutMetadataKey``.
    public var isCut: Bool {
        get { state.withLock { $0.metadata[Self.cutMetadataKey] == .bool(true) } }
        set { state.withLock { $0.metadata[Self.cutMetadataKey] = newValue ? .bool(true) : nil } }
    }

    /// The ``metadata`` key of ``expirationDate``: `org.transferkit.expires`, the time as seconds since 1970
    /// (a floating-point number).
    public static let expirationMetadataKey = "org.transferkit.expires"

    /// The furthest ``expirationDate`` from 1970, either way, in seconds: 10^11, about 3 200 years.
    public static let expirationDateLimit: TimeInterval = 1e11

    /// When the item stops being valid, if it has an end: after it, a keeper of clipboard history drops the item
    /// and nobody should paste it.
    ///
    /// The Linux clipboard offers an expiring write with `application/x-transferkit-expires` (the time as decimal
    /// seconds since 1970) and sets this on an item it reads with that name. Kept in ``metadata`` under
    /// ``expirationMetadataKey``; a value there that is not a finite number reads as `nil`, and one further than
    /// ``expirationDateLimit`` seconds from 1970 reads as that limit (an archive's metadata is input: a date of
    /// 10^30 seconds would overflow every clock that counts towards it).
    public var expirationDate: Date? {
        get {
            state.withLock { state in
                let seconds: Double
                switch state.metadata[Self.expirationMetadataKey] {
                case .double(let value) where value.isFinite: seconds = value
                case .integer(let value): seconds = Double(value)
                default: return nil
                }
                let limit = Self.expirationDateLimit
                return Date(timeIntervalSince1970: min(max(seconds, -limit), limit))
            }
        }
        set {
            state.withLock { state in
                state.metadata[Self.expirationMetadataKey] = newValue.map { .double($0.timeIntervalSince1970) }
            }
        }
    }

    /// The folder under which loads create (and delete) their temporary files.
    public var temporaryDirectory: URL {
        get { state.withLock { $0.resolvedTemporaryDirectory() } }
        set { state.withLock { $0.temporaryDirectory = newValue } }
    }

    /// Options that apply to every later load.
    public var loadOptions: LoadOptions {
        get { state.withLock { $0.loadOptions } }
        set { state.withLock { $0.loadOptions = newValue } }
    }

    /// Options that change how a provider loads.
    public struct LoadOptions: Hashable, Sendable {
        /// Whether ``TransferProvider/loadObject(ofClass:progress:)`` hands a registered object of the requested
        /// type to the reader as it is (the same instance for a class, an equal copy for a value type) instead of
        /// encoding and decoding it. `true` by default; turn it off to measure or test the encoded path.
        public var allowsInProcessFastPath: Bool

        /// Options with the given settings.
        ///
        /// - Parameter allowsInProcessFastPath: See ``allowsInProcessFastPath``.
        public init(allowsInProcessFastPath: Bool = true) {
            self.allowsInProcessFastPath = allowsInProcessFastPath
        }
    }
}

extension TransferProvider {
    struct State: Sendable {
        var entries = Entries()
        /// Why an object registered nothing, if its declaration is one TransferKit cannot use: a load that finds no
        /// representation throws this instead of "no representation".
        var registrationFailure: TransferError?
        var suggestedName: String?
        var metadata: [String: TransferMetadataValue] = [:]
        /// `nil` until first needed when the caller left it to the system.
        var temporaryDirectory: URL?
        var loadOptions = LoadOptions()
        /// Where derived representations come from (``TransferProvider/converters``).
        var converters = TransferConverterRegistry.shared

        /// The temporary directory, looking up (once) the system's if none was given.
        mutating func resolvedTemporaryDirectory() -> URL {
            if let temporaryDirectory {
                return temporaryDirectory
            }
            let directory = FileManager.default.temporaryDirectory
            temporaryDirectory = directory
            return directory
        }
    }

    struct Entry: Sendable {
        enum Source: Sendable {
            case data(@Sendable (TransferProgress) async throws -> Data)
            case file(openInPlace: Bool, @Sendable (TransferProgress) async throws -> URL)
            case object(ObjectSource)
        }

        let type: UniformType
        let visibility: TransferVisibility
        let source: Source
        /// The representation's own file name, which wins over the provider's ``TransferProvider/suggestedName``.
        var suggestedName: String?
        /// For a stream representation, its handler; `source` then collects the stream into `Data`.
        var stream: (@Sendable (TransferProgress) async throws -> TransferByteStream)?
    }

    /// An object that writes a representation, loaded eagerly (a stored object) or lazily.
    struct ObjectSource: Sendable {
        enum Object: Sendable {
            /// Registered as a value: no closure to allocate, and immediate loads can use it.
            case stored(any TransferProviderWriting)
            /// Made by a handler on each load.
            case made(@Sendable (TransferProgress) async throws -> any TransferProviderWriting)
        }

        let objectType: any TransferProviderWriting.Type
        let object: Object

        /// A source of an object held as a value.
        init(storing object: some TransferProviderWriting) {
            objectType = type(of: object)
            self.object = .stored(object)
        }

        /// A source whose handler makes the object on each load.
        init(
            objectType: any TransferProviderWriting.Type,
            handler: @escaping @Sendable (TransferProgress) async throws -> any TransferProviderWriting
        ) {
            self.objectType = objectType
            object = .made(handler)
        }

        /// The object when it is held as a value.
        var stored: (any TransferProviderWriting)? {
            if case .stored(let object) = object {
                return object
            }
            return nil
        }

        /// The object: the stored one, or a new one from the handler.
        func load(_ progress: TransferProgress) async throws -> any TransferProviderWriting {
            switch object {
            case .stored(let object): object
            case .made(let handler): try await handler(progress)
            }
        }
    }
}
