/// A failed system call: which one, its `errno`, and the path it was given, if any.
///
/// It is `package` API: the layers above wrap it as the `cause` of their own public error (an archive's `ioFailed`,
/// the tool's I/O error), so users see the system's text without a second public error type.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, such as `read` or `open`.
    package var call: String
    /// The `errno` value.
    package var errorNumber: Int32
    /// The path the call was given, if it took one.
    package var path: String?

    /// Creates an error for `call` with `errorNumber`.
    package init(call: String, errorNumber: Int32, path: String? = nil) {
        self.call = call
        self.errorNumber = errorNumber
        self.path = path
    }

    /// The system's description of the error, such as `No such file or directory`.
    package var reason: String { Syscall.errorText(errorNumber) }

    /// `open(2) of x failed: No such file or directory`.
    package var description: String {
        let subject = path.map { "\(call)(2) of \($0)" } ?? "\(call)(2)"
        return "\(subject) failed: \(reason)"
    }
}
