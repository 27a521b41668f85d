#if GTK
    import CGtk4
    import TransferClipboard
    import TransferKit

    /// A `GError` that GTK or GIO reported, as a Swift value: the `cause` of the `ClipboardError`
    /// that TransferGTK throws for it.
    public struct GTKError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The error's domain, such as `g-io-error-quark`.
        public var domain: String
        /// The error's code in its domain (`GIOErrorEnum` for `g-io-error-quark`).
        public var code: Int32
        /// GTK's message.
        public var message: String

        /// Copies `error` and frees it; an unknown failure when GTK gave none.
        init(taking error: UnsafeMutablePointer<GError>?) {
            guard let error else {
                self.init(domain: "", code: 0, message: "GTK reported a failure without an error.")
                return
            }
            defer { g_error_free(error) }
            let domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? ""
            let message = error.pointee.message.map { String(cString: $0) } ?? ""
            self.init(domain: domain, code: error.pointee.code, message: message)
        }

        init(domain: String, code: Int32, message: String) {
            self.domain = domain
            self.code = code
            self.message = message
        }

        /// Whether this is GIO's cancellation (`G_IO_ERROR_CANCELLED`).
        public var isCancellation: Bool {
            domain == Self.ioDomain && code == Int32(G_IO_ERROR_CANCELLED.rawValue)
        }

        /// `domain code: message`.
        public var description: String { "\(domain) \(code): \(message)" }

        static var ioDomain: String { g_quark_to_string(g_io_error_quark()).map { String(cString: $0) } ?? "" }

        /// `error` as the clipboard error TransferGTK reports for a transfer of `name`: `ClipboardError`s as they
        /// are, cancellations (GIO's, the task's, a progress's) as `cancelled`, anything else as `transferFailed`
        /// with the error as `cause`.
        static func clipboardError(_ error: any Error, name: String) -> ClipboardError {
            if let error = error as? ClipboardError { return error }
            if error is CancellationError || (error as? GTKError)?.isCancellation == true
                || (error as? TransferError)?.code == .cancelled
            {
                return ClipboardError(
                    code: .cancelled, message: "The transfer of \(name) was cancelled.", cause: error, source: name)
            }
            return ClipboardError(
                code: .transferFailed, message: "The transfer of \(name) failed: \(error)", cause: error,
                source: name)
        }

        /// Completes `task` (a `GTask`) with `error` as a `G_IO_ERROR`; on the main context.
        static func `return`(_ error: ClipboardError, to task: GObjectReference) {
            let code: GIOErrorEnum =
                switch error.code {
                case .cancelled: G_IO_ERROR_CANCELLED
                case .typeUnavailable: G_IO_ERROR_NOT_FOUND
                default: G_IO_ERROR_FAILED
                }
            let gError = g_error_new_literal(g_io_error_quark(), gint(code.rawValue), error.message)
            g_task_return_error(task.opaque, gError)
        }
    }
#endif
