import TransferKitCLI
import TransferKitPlatform
import TransferSessions

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where `paste --from`, `copy --to` and `drag` reach another machine, `ssh://[user@]host[:port]` (with a file for
/// `drag`: `ssh://[user@]host[:port]/ABSOLUTE/PATH`, or `ssh://[user@]host:PATH` relative to the far home folder), and
/// the command that reaches it.
///
/// The command is `ssh` with the user's own configuration (`~/.ssh/config`, its agent, its known hosts), or the words
/// of `TRANSFERKIT_SSH` (`ssh -p 2222 -i key -o BatchMode=yes`), then the host and the far side's command:
/// `transferkit` (or `TRANSFERKIT_REMOTE_PROGRAM`, for a far side where it is not on the `PATH` of a
/// non-interactive login) with its arguments. Nothing listens on a port of TransferKit's own: ssh carries the session
/// on its standard input and output.
struct RemoteLocation: Equatable, CustomStringConvertible {
    /// The user to log in as; ssh's default (the configuration's, else the local user) when `nil`.
    var user: String?
    /// The host's name or address.
    var host: String
    /// The port; ssh's default when `nil`.
    var port: Int?
    /// The file on the host, for `drag`; `nil` for a machine alone.
    var path: String?

    /// The environment variable whose words replace `ssh`.
    static let sshVariable = "TRANSFERKIT_SSH"
    /// The environment variable that names the far side's program.
    static let remoteProgramVariable = "TRANSFERKIT_REMOTE_PROGRAM"

    /// Parses `ssh://[user@]host[:port]` (an IPv6 address in brackets), and with `allowsPath` a file there:
    /// `…/ABSOLUTE/PATH`, or `host:PATH` (a path that is not a port number) relative to the far home folder.
    /// - Throws: ``UsageError`` for another scheme, an empty or malformed host or user, a bad port, a path where none
    ///   is allowed, or none where one is needed.
    init(parsing value: String, option: String, allowsPath: Bool = false) throws(UsageError) {
        let scheme = "ssh://"
        let form = allowsPath ? "ssh://[user@]host[:port]/PATH or ssh://[user@]host:PATH" : "ssh://[user@]host[:port]"
        guard value.hasPrefix(scheme) else {
            throw UsageError("\(option) needs \(form) (got '\(value)')")
        }
        var rest = Substring(value.dropFirst(scheme.count))
        if !allowsPath, rest.hasSuffix("/") { rest = rest.dropLast() }
        // The machine ends at the first '/': what follows is the path (absolute), which may hold '@' and ':'.
        if let slash = rest.firstIndex(of: "/") {
            guard allowsPath else {
                throw UsageError("\(option) names a machine, not a path: \(form) (got '\(value)')")
            }
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        if let at = rest.lastIndex(of: "@") {
            let user = String(rest[..<at])
            guard Self.isSafeWord(user) else { throw UsageError("\(option): '\(user)' is not a user name") }
            self.user = user
            rest = rest[rest.index(after: at)...]
        }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw UsageError("\(option): an IPv6 address needs its closing ] (got '\(value)')")
            }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw UsageError("\(option): '\(host)' is not an IPv6 address")
            }
        } else {
            let end = rest.firstIndex(of: ":") ?? rest.endIndex
            host = String(rest[..<end])
            rest = rest[end...]
            guard Self.isSafeWord(host) else { throw UsageError("\(option): '\(host)' is not a host name") }
        }
        if !rest.isEmpty {
            let after = rest.dropFirst()
            if allowsPath, path == nil, !after.isEmpty, !after.allSatisfy({ $0.isASCII && $0.isNumber }) {
                path = String(after)  // host:PATH, relative to the far home folder
            } else {
                guard rest.hasPrefix(":"), let port = Int(after), (1...65535).contains(port) else {
                    throw UsageError("\(option): '\(after)' is not a port (1 to 65535)")
                }
                self.port = port
            }
        }
        if allowsPath, path?.isEmpty != false {
            throw UsageError("\(option) needs a file: \(form) (got '\(value)')")
        }
    }

    /// The same machine (user, host and port), whatever the path.
    func isSameMachine(as other: RemoteLocation) -> Bool {
        user == other.user && host == other.host && port == other.port
    }

    /// A name that ssh cannot read as an option or a shell can split: letters, digits, `.`, `-` and `_`, not first
    /// a `-` (`ssh://-oProxyCommand=…` would otherwise run a command of the URL's choosing).
    private static func isSafeWord(_ word: String) -> Bool {
        !word.isEmpty && !word.hasPrefix("-")
            && word.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
            }
    }

    /// `ssh://[user@]host[:port]`, and the path when there is one.
    var description: String {
        let address = host.contains(":") ? "[\(host)]" : host
        let machine = "ssh://" + (user.map { "\($0)@" } ?? "") + address + (port.map { ":\($0)" } ?? "")
        guard let path else { return machine }
        return path.hasPrefix("/") ? machine + path : machine + ":" + path
    }

    /// The command line that runs `transferkit arguments…` on the host.
    /// - Throws: ``UsageError`` when `TRANSFERKIT_SSH` or `TRANSFERKIT_REMOTE_PROGRAM` is set but empty.
    func command(running arguments: [String], environment: [String: String]) throws(UsageError) -> [String] {
        let ssh = try Self.words(of: Self.sshVariable, default: ["ssh"], environment: environment)
        let program = try Self.words(of: Self.remoteProgramVariable, default: ["transferkit"], environment: environment)
        var command = ssh
        if let port { command += ["-p", String(port)] }
        if let user { command += ["-l", user] }
        // ssh hands the far side one line for its shell: each argument is quoted for it (a path with a space, or a
        // `$(…)`, stays one word and runs nothing). The program's words are the user's own shell words.
        return command + [host] + program + arguments.map(Self.shellQuoted)
    }

    /// `word` as one word of a POSIX shell: as it is when it has only characters no shell treats specially, else in
    /// single quotes (a `'` in it written `'\''`).
    static func shellQuoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_./=:,+@%".unicodeScalars.contains($0)
        }
        return plain && !word.isEmpty
            ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The words of the variable `name` split at spaces (no quoting), or `fallback` when it is unset.
    private static func words(
        of name: String, default fallback: [String], environment: [String: String]
    ) throws(UsageError) -> [String] {
        guard let value = environment[name] else { return fallback }
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { throw UsageError("\(name) is set but empty; unset it or name a command") }
        return words
    }
}

extension RemoteLocation {
    /// Starts `command`, one of this location's command lines, with its standard input and output as the stream.
    /// - Throws: ``TransferSessionError`` with `disconnected` naming the command when it cannot start (no `ssh`, say).
    func start(_ command: [String]) throws(TransferSessionError) -> ChildStream {
        do {
            return try ChildStream.start(command)
        } catch {
            throw TransferSessionError(
                code: .disconnected, message: "The command `\(command.joined(separator: " "))` cannot run: \(error).",
                cause: error, source: description)
        }
    }
}

extension RemoteLocation {
    /// Runs `transferkit arguments…` on the host to its end, with no input, and returns what it wrote on standard
    /// output (at most 64 KiB), without its trailing line break.
    /// - Throws: ``TransferSessionError``: `timedOut` when it has not ended within `timeout` (it is terminated),
    ///   `disconnected` when it cannot start or exits with a status other than 0 (with its exit report).
    func run(_ arguments: [String], timeout: Duration) async throws(TransferSessionError) -> String {
        let command: [String]
        do {
            command = try self.command(running: arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw TransferSessionError(code: .disconnected, message: error.description, source: description)
        }
        let child = try start(command)
        child.socket.shutdownSending()
        let deadline = Deadline.after(timeout)
        let socket = child.socket
        let output: [UInt8]? = await DedicatedThread.run { () -> [UInt8]? in
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var descriptors: [Int32] = []
            while output.count < 65536 {
                guard let remaining = deadline.remaining, remaining > .zero,
                    (try? socket.waitUntilReadable(timeout: remaining)) == true
                else { return nil }
                let count = buffer.withUnsafeMutableBytes { (try? socket.receive(into: $0, descriptors: &descriptors)) }
                for descriptor in descriptors { Syscall.close(descriptor) }
                descriptors = []
                guard let count, count > 0 else { break }
                output += buffer[..<count]
            }
            return output
        }
        guard let output, let report = await child.exitReport(until: deadline) else {
            child.terminate()
            throw TransferSessionError(
                code: .timedOut, message: "`\(arguments.joined(separator: " "))` did not end within \(timeout).",
                source: description)
        }
        child.socket.close()
        guard await child.exitStatus(until: deadline) == 0 else {
            throw TransferSessionError(code: .disconnected, message: report, source: description)
        }
        var text = String(decoding: output, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

/// `TRANSFERKIT_PAUSE_AT=STEP`, for fault tests of moves between machines: a process that reaches the named step of
/// a move stops itself there (`SIGSTOP`, after a line on standard error), so that a test can kill it at exactly that
/// step. Unset, nothing happens.
enum MoveStepPause {
    /// The environment variable.
    static let variable = "TRANSFERKIT_PAUSE_AT"

    /// Stops this process if `step` is the one named.
    static func reached(_ step: String) {
        guard let named = Syscall.environmentValue(variable), named == step else { return }
        let line = Array("transferkit: paused at \(step)\n".utf8)
        _ = line.withUnsafeBytes { try? Syscall.write(2, $0) }
        _ = raise(SIGSTOP)
    }

    /// An observer of a session that stops at the named step.
    static let observer: @Sendable (RemoteSessionEvent) async -> Void = { event in reached(event.rawValue) }
}
