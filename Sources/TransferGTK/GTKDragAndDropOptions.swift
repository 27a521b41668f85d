#if GTK
    public import Foundation
    public import TransferDesktop
    public import TransferSessions
    public import UniformTypes

    /// The limits and catalogue of a ``GTKDragSource`` or ``GTKDropTarget``: the counterparts of
    /// `DesktopWindow.Options` for a widget of your own.
    public struct GTKDragAndDropOptions: Sendable {
        /// The deadline of each step of a drop between TransferKit processes (the session protocol), and of the wait
        /// for a TransferKit target to end the session it dropped through.
        public var timeout: Duration
        /// The longest a peer may take to accept one chunk of a representation before its write is cancelled.
        public var stallTimeout: Duration
        /// The catalogue for mapping uniform types to the MIME types GTK carries, and back.
        public var catalog: TypeCatalog
        /// Where a drag publishes its session for other TransferKit processes (`XDG_RUNTIME_DIR`, else `TMPDIR`).
        public var environment: [String: String]
        /// The most bytes one drop from another program may carry, all its representations together: a load past
        /// it fails with `ClipboardError` `limitExceeded`, that drop alone.
        public var maximumDropSize: Int64
        /// Told of each step of a drop between TransferKit processes, for logs and tests.
        public var sessionObserver: (@Sendable (RemoteSessionEvent) async -> Void)?
        /// Told, on GTK's main context, how long each answer of a ``GTKDropTarget`` to a hovering drag took (the
        /// offered types mapped, your proposal asked, GTK's action chosen): for logs and benchmarks. Keep it quick.
        public var proposalTimer: (@Sendable (Duration) -> Void)?

        /// Options with TransferKit's defaults: 30-second deadlines, the shared catalogue, this process's
        /// environment and a 1 GiB limit per drop.
        ///
        /// - Parameters:
        ///   - timeout: The deadline of each step of the session protocol.
        ///   - stallTimeout: The longest a peer may take to accept one chunk.
        ///   - catalog: The catalogue for type mapping.
        ///   - environment: The variables that say where sessions are published.
        ///   - maximumDropSize: The most bytes one drop may carry.
        ///   - sessionObserver: Told of each step of a drop between TransferKit processes.
        ///   - proposalTimer: Told how long each answer to a hovering drag took.
        public init(
            timeout: Duration = .seconds(30), stallTimeout: Duration = .seconds(30), catalog: TypeCatalog = .shared,
            environment: [String: String] = ProcessInfo.processInfo.environment,
            maximumDropSize: Int64 = DesktopWindow.Options.defaultMaximumDropSize,
            sessionObserver: (@Sendable (RemoteSessionEvent) async -> Void)? = nil,
            proposalTimer: (@Sendable (Duration) -> Void)? = nil
        ) {
            self.timeout = timeout
            self.stallTimeout = stallTimeout
            self.catalog = catalog
            self.environment = environment
            self.maximumDropSize = maximumDropSize
            self.sessionObserver = sessionObserver
            self.proposalTimer = proposalTimer
        }
    }
#endif
