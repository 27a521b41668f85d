#if GTK
    import CGtk4

    /// Connecting GObject signals to Swift state, and the Swift state a GTK object keeps alive.
    enum GTKSignals {
        /// Connects `handler`, a `@convention(c)` function of the signal's C signature, to `signal` of `instance`,
        /// with `data` as its last argument.
        static func connect<Handler>(
            _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler, data: UnsafeMutableRawPointer
        ) {
            g_signal_connect_data(
                instance, signal, unsafeBitCast(handler, to: GCallback.self), data, nil, GConnectFlags(0))
        }

        /// Gives `object` a strong reference to `state` under `key`, released when the object is finalized (or the
        /// key is set again), and returns the pointer the signal handlers get back as their data.
        static func keep<State: AnyObject>(
            _ state: State, on object: UnsafeMutableRawPointer, key: GQuark
        ) -> UnsafeMutableRawPointer {
            let pointer = Unmanaged.passRetained(state).toOpaque()
            g_object_set_qdata_full(
                object.assumingMemoryBound(to: GObject.self), key, pointer,
                { data in
                    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
                })
            return pointer
        }

        /// The state a signal handler was connected with.
        static func state<State: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: State.Type) -> State? {
            data.map { Unmanaged<State>.fromOpaque($0).takeUnretainedValue() }
        }
    }

    extension GdkDragAction {
        /// The actions of `actions`, as one mask.
        init(_ actions: [GdkDragAction]) {
            self.init(rawValue: actions.reduce(0) { $0 | $1.rawValue })
        }

        /// Whether the mask holds `action`.
        func contains(_ action: GdkDragAction) -> Bool { rawValue & action.rawValue != 0 }
    }
#endif
