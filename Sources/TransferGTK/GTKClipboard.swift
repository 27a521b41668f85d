#if GTK
    import CGtk4
    import Foundation
    public import TransferClipboard
    public import TransferKit

    /// A `GdkClipboard` read and written through TransferKit providers: every representation offered, each
    /// written only when a peer asks, and each offered name read only when it is loaded.
    ///
    /// ```swift
    /// let clipboard = GTKClipboard.default
    /// let provider = TransferProvider()
    /// provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("Luke".utf8) }
    /// clipboard.write([provider])
    /// Task {
    ///     let text = try await clipboard.read()?.loadObject(ofClass: String.self)
    ///     print(text ?? "the clipboard is empty")
    /// }
    /// ```
    ///
    /// Call it from any thread: it makes its GTK calls on GTK's main context (see ``GTKMainContext``), whose main
    /// loop must be running. A read's loads run on the calling task and wait for GTK's main loop.
    public struct GTKClipboard: Sendable {
        let clipboard: GObjectReference

        /// The clipboard `clipboard` (a `GdkClipboard *`, as `gdk_display_get_clipboard` or
        /// `gdk_display_get_primary_clipboard` returns it); this value keeps a reference to it.
        public init(_ clipboard: OpaquePointer) {
            self.clipboard = GObjectReference(retaining: UnsafeMutableRawPointer(clipboard))
        }

        /// The default display's clipboard, or `nil` when GTK has no display (call after `gtk_init`, on the main
        /// context).
        public static var `default`: GTKClipboard? {
            guard let display = gdk_display_get_default(), let clipboard = gdk_display_get_clipboard(display) else {
                return nil
            }
            return GTKClipboard(clipboard)
        }

        /// Puts `providers` on the clipboard through a ``TransferContentProvider``: at once on the main context,
        /// otherwise at the main loop's next turn.
        ///
        /// - Parameters:
        ///   - providers: The items.
        ///   - options: Sensitivity and cut-or-copy (as hints); a paste limit is not honoured here (GTK does not say
        ///     which requests are pastes).
        ///   - stallTimeout: The longest a peer may take to accept one chunk before its transfer is cancelled.
        public func write(
            _ providers: [TransferProvider], options: ClipboardWriteOptions = ClipboardWriteOptions(),
            stallTimeout: Duration = .seconds(30)
        ) {
            let offer = TransferOffer(providers: providers, options: options)
            let clipboard = clipboard
            GTKMainContext.run {
                guard let content = TransferContentProvider.make(offering: offer, stallTimeout: stallTimeout) else {
                    return
                }
                gdk_clipboard_set_content(clipboard.opaque, content)
                g_object_unref(content)
            }
        }

        /// The names the clipboard offers now, in GTK's order (its owner's, for another program).
        public func offeredNames() async -> [String] {
            let clipboard = clipboard
            return await GTKMainContext.perform {
                guard let formats = gdk_clipboard_get_formats(clipboard.opaque) else { return [] }
                var count: gsize = 0
                guard let names = gdk_content_formats_get_mime_types(formats, &count) else { return [] }
                return (0..<Int(count)).compactMap { names[$0].map { String(cString: $0) } }
            }
        }

        /// The clipboard's item as a provider whose representations are read from GTK only when loaded
        /// (`gdk_clipboard_read_async` of that one name), by the name → type rules of `Clipboard.read(from:)`.
        ///
        /// - Returns: The provider, or `nil` when the clipboard offers nothing.
        /// - Note: Loading throws `ClipboardError` inside the provider's `TransferError`
        ///   (`loaderFailed`): `transferFailed` with a ``GTKError`` cause when GTK fails the read (the name is not
        ///   offered any more, the owner went away), `cancelled` when the load was cancelled.
        public func read() async -> TransferProvider? {
            let names = await offeredNames()
            guard !names.isEmpty else { return nil }
            let clipboard = clipboard
            return await TransferOffer.provider(offering: names) { name, progress in
                try await GTKInputChunks.open(name, from: clipboard)
            }
        }
    }

    /// The chunks of one name read from a `GdkClipboard`, each read with `g_input_stream_read_bytes_async` on the
    /// main context when the consumer asks for it.
    struct GTKInputChunks: AsyncSequence, Sendable {
        typealias Element = Data
        let input: InputStream

        /// The size of each read.
        static let chunkSize = 1 << 20

        /// Asks GTK for `name`'s stream (`gdk_clipboard_read_async`) and waits for it.
        static func open(_ name: String, from clipboard: GObjectReference) async throws -> TransferByteStream {
            try await open(name) { pending, cancellable in
                gdk_clipboard_read_async(
                    clipboard.opaque, pending.mimeTypes, G_PRIORITY_DEFAULT, cancellable,
                    { source, result, data in
                        guard let data else { return }
                        var error: UnsafeMutablePointer<GError>?
                        let stream = gdk_clipboard_read_finish(source.map { OpaquePointer($0) }, result, nil, &error)
                        Unmanaged<PendingOpen>.fromOpaque(data).takeRetainedValue().finish(stream, error)
                    }, Unmanaged.passRetained(pending).toOpaque())
            }
        }

        /// Asks GTK for `name`'s stream and waits for it: `start` runs on the main context and begins the read
        /// (`gdk_clipboard_read_async`, `gdk_drop_read_async`) under the cancellable it is given, with a callback
        /// that calls the pending open's `finish` once (taking the retained reference it was given).
        static func open(
            _ name: String,
            start: @escaping @Sendable (PendingOpen, UnsafeMutablePointer<GCancellable>) -> Void
        ) async throws -> TransferByteStream {
            let cancellable = GObjectReference(adopting: UnsafeMutableRawPointer(g_cancellable_new()))
            let stream = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation {
                    (continuation: CheckedContinuation<GObjectReference, any Error>) in
                    let pending = PendingOpen(name: name, continuation: continuation)
                    GTKMainContext.run { start(pending, cancellable.assuming(GCancellable.self)) }
                }
            } onCancel: {
                g_cancellable_cancel(cancellable.assuming(GCancellable.self))
            }
            return TransferByteStream(
                GTKInputChunks(input: InputStream(stream: stream, cancellable: cancellable, name: name)))
        }

        func makeAsyncIterator() -> Iterator { Iterator(input: input) }

        struct Iterator: AsyncIteratorProtocol {
            let input: InputStream
            mutating func next() async throws -> Data? { try await input.next() }
        }

        /// A `GInputStream` of one read, closed and released when the last iterator goes.
        final class InputStream: Sendable {
            let stream: GObjectReference
            let cancellable: GObjectReference
            let name: String

            init(stream: GObjectReference, cancellable: GObjectReference, name: String) {
                self.stream = stream
                self.cancellable = cancellable
                self.name = name
            }

            /// The next chunk, or `nil` at the end.
            func next() async throws -> Data? {
                let stream = stream
                let cancellable = cancellable
                let name = name
                let chunk = try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
                        let pending = PendingRead(name: name, continuation: continuation)
                        GTKMainContext.run {
                            g_input_stream_read_bytes_async(
                                stream.assuming(GInputStream.self), gsize(GTKInputChunks.chunkSize), G_PRIORITY_DEFAULT,
                                cancellable.assuming(GCancellable.self),
                                { source, result, data in
                                    guard let data else { return }
                                    let pending = Unmanaged<PendingRead>.fromOpaque(data).takeRetainedValue()
                                    var error: UnsafeMutablePointer<GError>?
                                    let input = source.map {
                                        UnsafeMutableRawPointer($0).assumingMemoryBound(to: GInputStream.self)
                                    }
                                    guard let bytes = g_input_stream_read_bytes_finish(input, result, &error) else {
                                        let failure = GTKError(taking: error)
                                        pending.continuation.resume(
                                            throwing: GTKError.clipboardError(failure, name: pending.name))
                                        return
                                    }
                                    var size: gsize = 0
                                    let base = g_bytes_get_data(bytes, &size)
                                    let chunk = base.map { Data(bytes: $0, count: Int(size)) } ?? Data()
                                    g_bytes_unref(bytes)
                                    pending.continuation.resume(returning: chunk)
                                }, Unmanaged.passRetained(pending).toOpaque())
                        }
                    }
                } onCancel: {
                    g_cancellable_cancel(cancellable.assuming(GCancellable.self))
                }
                return chunk.isEmpty ? nil : chunk
            }

            deinit {
                let stream = stream
                GTKMainContext.run { g_input_stream_close_async(stream.assuming(GInputStream.self), 0, nil, nil, nil) }
            }
        }
    }

    /// A `gdk_clipboard_read_async` under way: the NULL-terminated list of its one name, alive until GTK answers.
    final class PendingOpen: @unchecked Sendable {
        let name: String
        let continuation: CheckedContinuation<GObjectReference, any Error>
        let mimeTypes: UnsafeMutablePointer<UnsafePointer<CChar>?>
        private let copy: UnsafeMutablePointer<CChar>?

        init(name: String, continuation: CheckedContinuation<GObjectReference, any Error>) {
            self.name = name
            self.continuation = continuation
            copy = strdup(name)
            mimeTypes = .allocate(capacity: 2)
            mimeTypes[0] = UnsafePointer(copy)
            mimeTypes[1] = nil
        }

        /// Resumes the waiting task with GTK's stream, or with `error` when GTK gave none.
        func finish(_ stream: UnsafeMutablePointer<GInputStream>?, _ error: UnsafeMutablePointer<GError>?) {
            if let stream {
                continuation.resume(returning: GObjectReference(adopting: UnsafeMutableRawPointer(stream)))
            } else {
                continuation.resume(throwing: GTKError.clipboardError(GTKError(taking: error), name: name))
            }
        }

        deinit {
            free(copy)
            mimeTypes.deallocate()
        }
    }

    /// A `g_input_stream_read_bytes_async` under way.
    final class PendingRead: @unchecked Sendable {
        let name: String
        let continuation: CheckedContinuation<Data, any Error>
        init(name: String, continuation: CheckedContinuation<Data, any Error>) {
            self.name = name
            self.continuation = continuation
        }
    }
#endif
