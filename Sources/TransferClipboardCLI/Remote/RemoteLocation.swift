import TransferKitCLI

/// Where `paste --from` reaches another machine, `ssh://[user@]host[:port]`, and the command that reaches it.
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

    /// The environment variable whose words replace `ssh`.
    static let sshVariable = "TRANSFERKIT_SSH"
    /// The environment variable that names the far side's program.
    static let remoteProgramVariable = "TRANSFERKIT_REMOTE_PROGRAM"

    /// Parses `ssh://[user@]host[:port]` (an IPv6 address in brackets).
    /// - Throws: ``UsageError`` for another scheme, an empty or malformed host or user, a bad port, or a path.
    init(parsing value: String, option: String) throws(UsageError) {
        let scheme = "ssh://"
        guard value.hasPrefix(scheme) else {
            throw UsageError("\(option) needs ssh://[user@]host[:port] (got '\(value)')")
        }
        var rest = Substring(value.dropFirst(scheme.count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/") else {
            throw UsageError("\(option) names a machine, not a path: ssh://[user@]host[:port] (got '\(value)')")
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
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65535).contains(port) else {
                throw UsageError("\(option): '\(rest.dropFirst())' is not a port (1 to 65535)")
            }
            self.port = port
        }
    }

    /// A name that ssh cannot read as an option or a shell can split: letters, digits, `.`, `-` and `_`, not first
    /// a `-` (`ssh://-oProxyCommand=…` would otherwise run a command of the URL's choosing).
    private static func isSafeWord(_ word: String) -> Bool {
        !word.isEmpty && !word.hasPrefix("-")
            && word.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
            }
    }

    /// `ssh://[user@]host[:port]`.
    var description: String {
        let address = host.contains(":") ? "[\(host)]" : host
        return "ssh://" + (user.map { "\($0)@" } ?? "") + address + (port.map { ":\($0)" } ?? "")
    }

    /// The command line that runs `transferkit arguments…` on the host.
    /// - Throws: ``UsageError`` when `TRANSFERKIT_SSH` or `TRANSFERKIT_REMOTE_PROGRAM` is set but empty.
    func command(running arguments: [String], environment: [String: String]) throws(UsageError) -> [String] {
        let ssh = try Self.words(of: Self.sshVariable, default: ["ssh"], environment: environment)
        let program = try Self.words(of: Self.remoteProgramVariable, default: ["transferkit"], environment: environment)
        var command = ssh
        if let port { command += ["-p", String(port)] }
        if let user { command += ["-l", user] }
        return command + [host] + program + arguments
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
