import TransferKitErrors
import TransferKitPlatform

/// The one line the tool prints for an error a command threw, and the status it exits with.
///
/// Every line reads `tool CMD: <what> (<code>)`: what went wrong in words, then the error's code, never a Swift
/// type name. A usage error adds the command's `--help` as its hint.
enum ErrorLine {
    /// Prints the line for `error` thrown by `invocation` (`transferkit extract`) on standard error, and returns the
    /// exit status: 141 and nothing printed when the error is a write to standard output whose reader has gone (as
    /// `cat` ends under `SIGPIPE`), 1 for a ``CommandFailure``, 2 for everything else (usage, unreadable input,
    /// failed output).
    static func report(_ error: any Error, invocation: String, context: CommandContext) -> ExitCode {
        if isBrokenPipe(error), let output = context.standardOutput as? FileDescriptorOutput,
            Syscall.readerHasGone(output.fileDescriptor)
        {
            return .brokenPipe
        }
        try? context.standardError.writeLine(text(for: error, invocation: invocation))
        return error is CommandFailure ? .failure : .usageError
    }

    /// The line for `error` thrown by `invocation`, without the newline.
    static func text(for error: any Error, invocation: String) -> String {
        if let usage = error as? UsageError {
            return "\(invocation): \(usage.message) (usage: see '\(invocation) --help')"
        }
        return "\(invocation): \(describe(error))"
    }

    /// `<what> (<code>)` for any error.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as any AnyDomainError:
            return "\(error.summary) (\(error.codeName))"
        case let error as SystemError:
            return "\(error.description) (ioFailed)"
        case let error as DecodingError:
            return "\(decodingText(error)) (decodingFailed)"
        case is CancellationError:
            return "cancelled (cancelled)"
        default:
            return "\(error) (failed)"
        }
    }

    /// Whether `error`, or an error it was caused by, is a write to a pipe whose reader has gone (`EPIPE`): then
    /// ``report(_:invocation:context:)`` asks whether that pipe is standard output (another program's pipe or the
    /// display server's socket is an error to report).
    static func isBrokenPipe(_ error: any Error) -> Bool {
        var current: (any Error)? = error
        for _ in 0..<16 {
            guard let error = current else { return false }
            if let system = error as? SystemError { return system.errorNumber == ErrorNumber.brokenPipe }
            current = (error as? any AnyDomainError)?.cause
        }
        return false
    }

    private static func decodingText(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        @unknown default:
            return "the data does not decode"
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(context.debugDescription) (at \(path))"
    }
}
