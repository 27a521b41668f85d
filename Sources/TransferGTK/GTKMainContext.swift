#if GTK
    public import CGtk4
    import Synchronization

    /// GTK's main context (GLib's global default one), where every call into GTK happens.
    ///
    /// GTK is single-threaded: its objects may be touched only on the thread that runs its main loop (the one that
    /// called `gtk_init` and runs `g_application_run` or `g_main_loop_run`). TransferGTK keeps that rule for you:
    /// its Swift tasks (a provider's loaders, a clipboard read) run on Swift's concurrency pool and hop here for
    /// each GTK call, and GTK's callbacks hop back by resuming the waiting task.
    ///
    /// Your own code that runs in a Swift task and wants to touch a widget hops the same way:
    ///
    /// ```swift
    /// let title = await GTKMainContext.perform { "Character Cards" }
    /// GTKMainContext.run { print(title) }
    /// ```
    ///
    /// The main loop must be running for anything to happen here. Swift's `MainActor` is not GTK's main context on
    /// Linux: its jobs run on Dispatch's main queue, which a plain GTK main loop does not drain, so an `await` on the
    /// main actor from such an app waits for ever (SwiftCrossUI's GTK backend drains it every few dozen milliseconds;
    /// Adwaita for Swift does not). Use this type, not `@MainActor`, to reach GTK.
    public enum GTKMainContext {
        /// Whether the calling thread runs GTK's main context now (inside one of its callbacks).
        public static var isCurrent: Bool { g_main_context_is_owner(g_main_context_default()) != 0 }

        /// Runs `body` on GTK's main context: at once when called there, otherwise at the main loop's next turn.
        ///
        /// - Parameter body: The work; it must not throw or trap (it runs inside a C callback).
        public static func run(_ body: @escaping @Sendable () -> Void) {
            if isCurrent {
                body()
                return
            }
            let made = MainContextJob(body)
            made.publish()
            let job = Unmanaged.passRetained(made).toOpaque()
            g_idle_add_full(
                G_PRIORITY_DEFAULT,
                { data in
                    if let data { Unmanaged<MainContextJob>.fromOpaque(data).takeUnretainedValue().run() }
                    return 0  // G_SOURCE_REMOVE: once
                }, job,
                { data in
                    if let data { Unmanaged<MainContextJob>.fromOpaque(data).release() }
                })
        }

        /// Runs `body` on GTK's main context and returns its result to the calling task.
        ///
        /// - Parameter body: The work; it must not throw or trap (it runs inside a C callback).
        /// - Returns: What `body` returned.
        public static func perform<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
            await withCheckedContinuation { continuation in
                run { continuation.resume(returning: body()) }
            }
        }
    }

    /// A GTK widget that Swift code may carry anywhere, to use on GTK's main context only: what a drag source's
    /// session closure and a drop target's tasks get, since a bare `UnsafeMutablePointer<GtkWidget>` is not `Sendable`.
    ///
    /// It holds no reference: the widget must outlive the uses (a widget keeps its drag source and drop target, so
    /// theirs does).
    public struct GTKWidget: @unchecked Sendable, Hashable {
        /// The widget.
        public let pointer: UnsafeMutablePointer<GtkWidget>

        /// The widget `pointer`.
        ///
        /// - Parameter pointer: A `GtkWidget *`.
        public init(_ pointer: UnsafeMutablePointer<GtkWidget>) {
            self.pointer = pointer
        }
    }

    /// One closure to run on the main context, kept alive by its idle source.
    ///
    /// GLib hands the job to the main thread under its own lock, which the thread sanitizer cannot see (GLib is not
    /// instrumented, and its mutex is a bare futex): the job is published with a release store and read after an
    /// acquire load, the same ordering made visible.
    final class MainContextJob: Sendable {
        private let body: @Sendable () -> Void
        private let published = Atomic(false)

        init(_ body: @escaping @Sendable () -> Void) { self.body = body }

        /// Called by the thread that made the job, before handing it to GLib.
        func publish() { published.store(true, ordering: .releasing) }

        /// Runs the job (on the main context).
        func run() {
            _ = published.load(ordering: .acquiring)
            body()
        }
    }

    /// A reference to a GObject that is only used on GTK's main context: sendable so that tasks can carry it there,
    /// released there when the last copy goes.
    final class GObjectReference: @unchecked Sendable {
        /// The object; dereference it only on the main context.
        let pointer: UnsafeMutableRawPointer

        /// Takes a new reference to `object` (callable on any thread: GObject's reference count is atomic).
        init(retaining object: UnsafeMutableRawPointer) {
            g_object_ref(object)
            pointer = object
        }

        /// Takes over a reference the caller owns.
        init(adopting object: UnsafeMutableRawPointer) {
            pointer = object
        }

        /// The object as a pointer to `type`.
        func assuming<T>(_ type: T.Type) -> UnsafeMutablePointer<T> { pointer.assumingMemoryBound(to: type) }

        /// The object as an opaque pointer, for types that import as one.
        var opaque: OpaquePointer { OpaquePointer(pointer) }

        deinit {
            // The last reference may finalize a GTK object, which must happen on its thread.
            let object = UnsafeSendablePointer(pointer)
            GTKMainContext.run { g_object_unref(object.pointer) }
        }
    }

    /// A raw pointer carried to the main context.
    struct UnsafeSendablePointer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
    }
#endif
