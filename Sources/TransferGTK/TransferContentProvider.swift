#if GTK
    public import CGtk4
    import Foundation
    public import TransferClipboard
    public import TransferKit
    import TransferKitPlatform

    /// A `GdkContentProvider` that serves TransferKit providers: what a GTK clipboard or drag offers for them.
    ///
    /// It offers the names of the providers' ``TransferOffer`` (their representations in fidelity order, the derived
    /// types behind the marker, the hints) and writes a name only when a peer asks for it, streamed chunk by chunk to
    /// GTK's output stream, so a large representation never sits in memory whole. GTK serves MIME types only: its
    /// X11 backend refuses a request for any other name (`gdk_intern_mime_type` rejects it, though GTK 4.8 lists it
    /// among the targets), so the bare uniform type identifiers (`com.example.card`) are left out, and a custom type
    /// reaches a peer as the MIME types of its supertypes (`application/json`).
    ///
    /// A provider's error, or a name it cannot serve, completes GTK's write with a `GError` (`G_IO_ERROR`); GTK 4.8
    /// on X11 then gives the peer no bytes rather than a refusal. GTK's cancellation of a write stops the stream,
    /// whose loader is then let go, and so does a peer that takes no chunk within the stall timeout: GTK's X11
    /// stream waits for ever for a reader that died mid-transfer.
    ///
    /// ```swift
    /// let provider = TransferProvider()
    /// provider.registerDataRepresentation(for: .json) { _ in Data(#"{"name":"Luke"}"#.utf8) }
    /// GTKMainContext.run {
    ///     if let content = TransferContentProvider.make(for: [provider]) {
    ///         gdk_clipboard_set_content(gdk_display_get_clipboard(gdk_display_get_default()), content)
    ///         g_object_unref(content)
    ///     }
    /// }
    /// ```
    ///
    /// It is a GObject subclass of `GdkContentProvider` (`TransferKitContentProvider`) that overrides
    /// `ref_formats`, `write_mime_type_async` and `write_mime_type_finish`; every GTK call runs on GTK's main
    /// context (see ``GTKMainContext``).
    public enum TransferContentProvider {
        /// A new content provider for `offer`, with a reference the caller owns (`g_object_unref` it once it is
        /// handed to GTK, which takes references of its own).
        ///
        /// - Parameters:
        ///   - offer: The names and their bytes.
        ///   - stallTimeout: The longest a peer may take to accept one chunk before its write is cancelled.
        /// - Returns: The content provider; `nil` only if GLib made no object.
        public static func make(
            offering offer: TransferOffer, stallTimeout: Duration = .seconds(30)
        ) -> UnsafeMutablePointer<GdkContentProvider>? {
            // GLib aborts rather than return no object (out of memory), but the pointer imports as optional.
            guard let object = g_object_new_with_properties(registeredType, 0, nil, nil) else { return nil }
            let state = Unmanaged.passRetained(
                ContentProviderState(offer: offer, names: mimeNames(of: offer), stallTimeout: stallTimeout)
            ).toOpaque()
            g_object_set_qdata_full(
                object, stateQuark, state,
                { data in
                    if let data { Unmanaged<ContentProviderState>.fromOpaque(data).release() }
                })
            return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GdkContentProvider.self)
        }

        /// A new content provider for `providers` (see ``make(offering:)``).
        ///
        /// - Parameters:
        ///   - providers: The items; the first provider serves each name, except file URLs (every provider's).
        ///   - options: Sensitivity, cut-or-copy and lifetime: the hints among the offered names.
        /// - Returns: The content provider, with a reference the caller owns.
        public static func make(
            for providers: [TransferProvider], options: ClipboardWriteOptions = ClipboardWriteOptions()
        ) -> UnsafeMutablePointer<GdkContentProvider>? {
            make(offering: TransferOffer(providers: providers, options: options))
        }

        /// The offer a content provider made here serves; `nil` for any other content provider.
        ///
        /// - Parameter provider: A content provider.
        /// - Returns: Its offer.
        public static func offer(of provider: UnsafeMutablePointer<GdkContentProvider>) -> TransferOffer? {
            state(of: provider)?.offer
        }

        /// The offer's names that GTK serves, as GTK spells them (its canonical MIME type), with the offer's own.
        static func mimeNames(of offer: TransferOffer) -> [(gtk: String, offered: String)] {
            offer.names.compactMap { name in
                gdk_intern_mime_type(name).map { (String(cString: $0), name) }
            }
        }

        static func state(of provider: UnsafeMutableRawPointer) -> ContentProviderState? {
            guard g_type_check_instance_is_a(provider.assumingMemoryBound(to: GTypeInstance.self), registeredType) != 0,
                let data = g_object_get_qdata(provider.assumingMemoryBound(to: GObject.self), stateQuark)
            else { return nil }
            return Unmanaged<ContentProviderState>.fromOpaque(data).takeUnretainedValue()
        }

        static func state(of provider: UnsafeMutablePointer<GdkContentProvider>) -> ContentProviderState? {
            state(of: UnsafeMutableRawPointer(provider))
        }

        /// The key of a content provider's Swift state.
        static let stateQuark = g_quark_from_string("transferkit-content-provider-state")

        /// The GObject type, registered once.
        static let registeredType: GType = g_type_register_static_simple(
            gdk_content_provider_get_type(), "TransferKitContentProvider",
            guint(MemoryLayout<GdkContentProviderClass>.size),
            { klass, _ in
                guard let klass else { return }
                let contentClass = klass.assumingMemoryBound(to: GdkContentProviderClass.self)
                contentClass.pointee.ref_formats = { provider in
                    let builder = gdk_content_formats_builder_new()
                    for name in provider.flatMap(TransferContentProvider.state(of:))?.names ?? [] {
                        gdk_content_formats_builder_add_mime_type(builder, name.gtk)
                    }
                    return gdk_content_formats_builder_free_to_formats(builder)
                }
                contentClass.pointee.write_mime_type_async = {
                    provider, mimeType, stream, priority, cancellable, callback, userData in
                    TransferContentProvider.startWrite(
                        provider, mimeType, stream, priority, cancellable, callback, userData)
                }
                contentClass.pointee.write_mime_type_finish = { _, result, error in
                    g_task_propagate_boolean(result, error)
                }
            },
            guint(MemoryLayout<GdkContentProvider>.size), nil, GTypeFlags(rawValue: 0))

        /// `write_mime_type_async`, on GTK's main context: starts a task that streams the name's bytes.
        static func startWrite(
            _ provider: UnsafeMutablePointer<GdkContentProvider>?, _ mimeType: UnsafePointer<CChar>?,
            _ stream: UnsafeMutablePointer<GOutputStream>?, _ priority: Int32,
            _ cancellable: UnsafeMutablePointer<GCancellable>?, _ callback: GAsyncReadyCallback?,
            _ userData: gpointer?
        ) {
            guard let task = g_task_new(provider, cancellable, callback, userData) else { return }
            let taskReference = GObjectReference(adopting: UnsafeMutableRawPointer(task))
            guard let provider, let mimeType, let stream, let state = state(of: provider) else {
                GTKError.return(
                    ClipboardError(code: .typeUnavailable, message: "This content provider has no offer."),
                    to: taskReference)
                return
            }
            // The chunks are written under a cancellable of this write's own, which GTK's cancellation and the stall
            // timeout both cancel.
            let own = GObjectReference(adopting: UnsafeMutableRawPointer(g_cancellable_new()))
            var connection: (GObjectReference, gulong)?
            if let cancellable {
                let forward: @convention(c) (UnsafeMutablePointer<GCancellable>?, gpointer?) -> Void = { _, data in
                    g_cancellable_cancel(data?.assumingMemoryBound(to: GCancellable.self))
                }
                // The connection holds a reference to the write's cancellable until it is disconnected.
                g_object_ref(own.pointer)
                let handler = g_cancellable_connect(
                    cancellable, unsafeBitCast(forward, to: GCallback.self), own.pointer, { g_object_unref($0) })
                connection = (GObjectReference(retaining: UnsafeMutableRawPointer(cancellable)), handler)
            }
            let write = ContentWrite(
                task: taskReference, stream: GObjectReference(retaining: UnsafeMutableRawPointer(stream)),
                cancellable: own, gtkCancellation: connection, priority: priority, stallTimeout: state.stallTimeout)
            let offer = state.offer
            let asked = String(cString: mimeType)
            let name = state.names.first { $0.gtk == asked }?.offered ?? asked
            Task { await write.run(offer: offer, name: name) }
        }
    }

    /// The Swift state of one content provider.
    final class ContentProviderState: Sendable {
        let offer: TransferOffer
        /// The names GTK offers, as it spells them, and the offer's name each stands for.
        let names: [(gtk: String, offered: String)]
        let stallTimeout: Duration
        init(offer: TransferOffer, names: [(gtk: String, offered: String)], stallTimeout: Duration) {
            self.offer = offer
            self.names = names
            self.stallTimeout = stallTimeout
        }
    }

    /// One write a peer asked for: the name's stream, chunk by chunk, to GTK's output stream.
    struct ContentWrite: Sendable {
        let task: GObjectReference
        let stream: GObjectReference
        /// This write's own cancellable: GTK's cancellation and the stall timeout cancel it.
        let cancellable: GObjectReference
        /// GTK's cancellable and the handler that forwards its cancellation, disconnected at the end.
        let gtkCancellation: (cancellable: GObjectReference, handler: gulong)?
        let priority: Int32
        let stallTimeout: Duration

        /// Streams the bytes of `name`, then completes the GTask on the main context, with an error if one
        /// happened. Nothing thrown leaves this function.
        func run(offer: TransferOffer, name: String) async {
            var failure: ClipboardError?
            do {
                for try await chunk in try await offer.stream(for: name) where !chunk.isEmpty {
                    try await write(chunk)
                }
            } catch {
                failure = GTKError.clipboardError(error, name: name)
            }
            let task = task
            let outcome = failure
            let gtkCancellation = gtkCancellation
            GTKMainContext.run {
                if let (cancellable, handler) = gtkCancellation {
                    g_cancellable_disconnect(cancellable.assuming(GCancellable.self), handler)
                }
                if let failure = outcome {
                    GTKError.return(failure, to: task)
                } else {
                    g_task_return_boolean(task.opaque, 1)
                }
            }
        }

        /// Writes `chunk` with `g_output_stream_write_all_async` on the main context and waits for its end, at most
        /// the stall timeout: then the write is cancelled and this returns at once, whether or not GTK ever calls
        /// back (its X11 stream does not, for a reader that died).
        private func write(_ chunk: Data) async throws {
            let stream = stream
            let cancellable = cancellable
            let priority = priority
            let stallTimeout = stallTimeout
            let pending = PendingWrite(chunk)
            let stall = Task {
                try await Task.sleep(for: stallTimeout)
                g_cancellable_cancel(cancellable.assuming(GCancellable.self))
                pending.resume(
                    with: .failure(
                        ClipboardError(
                            code: .timedOut, message: "The peer took no bytes for \(stallTimeout); the write stopped.")
                    ))
            }
            defer { stall.cancel() }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                pending.wait(continuation)
                GTKMainContext.run {
                    g_output_stream_write_all_async(
                        stream.assuming(GOutputStream.self), pending.buffer.baseAddress, gsize(pending.buffer.count),
                        priority, cancellable.assuming(GCancellable.self),
                        { source, result, data in
                            guard let data else { return }
                            let pending = Unmanaged<PendingWrite>.fromOpaque(data).takeRetainedValue()
                            var error: UnsafeMutablePointer<GError>?
                            let stream = source.map {
                                UnsafeMutableRawPointer($0).assumingMemoryBound(to: GOutputStream.self)
                            }
                            if g_output_stream_write_all_finish(stream, result, nil, &error) != 0 {
                                pending.resume(with: .success(()))
                            } else {
                                pending.resume(with: .failure(GTKError(taking: error)))
                            }
                        }, Unmanaged.passRetained(pending).toOpaque())
                }
            }
        }
    }

    /// A chunk's bytes in memory that stays put until GTK has written them (GTK's callback holds it), and the task
    /// waiting for that, resumed once: by GTK's callback or by the stall timeout, whichever comes first.
    final class PendingWrite: @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer
        private enum State {
            case idle
            case waiting(CheckedContinuation<Void, any Error>)
            case ended(Result<Void, any Error>)
        }
        private let state = SanitizedMutex(State.idle)

        init(_ chunk: Data) {
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk.count, alignment: 1)
            buffer.copyBytes(from: chunk)
        }

        /// Resumes `continuation` at the end, or at once if the write has ended already.
        func wait(_ continuation: CheckedContinuation<Void, any Error>) {
            let ended: Result<Void, any Error>? = state.withLock { state in
                if case .ended(let result) = state { return result }
                state = .waiting(continuation)
                return nil
            }
            if let ended { continuation.resume(with: ended) }
        }

        /// Ends the write with `result`; only the first call counts.
        func resume(with result: Result<Void, any Error>) {
            let waiting: CheckedContinuation<Void, any Error>? = state.withLock { state in
                switch state {
                case .ended: return nil
                case .idle:
                    state = .ended(result)
                    return nil
                case .waiting(let continuation):
                    state = .ended(result)
                    return continuation
                }
            }
            waiting?.resume(with: result)
        }

        deinit { buffer.deallocate() }
    }
#endif
