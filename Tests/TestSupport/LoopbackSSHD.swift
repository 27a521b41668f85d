public import Foundation
import TransferKitPlatform

/// A real OpenSSH server for one test, bound to 127.0.0.1 only, on a port picked at random: a host key and a client
/// key made for this run (no password, no PAM), and only this user may log in, with that key. What it runs for a
/// client is the client's command in the user's shell, as on any machine.
public final class LoopbackSSHD {
    /// The port it listens on (127.0.0.1 only).
    public let port: Int
    /// The user who logs in (this process's).
    public let user: String
    /// Its folder: keys, configuration, log.
    public let folder: URL
    /// The client's private key.
    public let clientKey: String
    /// The server process.
    public let process: BackgroundChild

    /// Where Debian's `openssh-server` installs the server.
    public static let serverPath = "/usr/sbin/sshd"

    /// Whether the server, the client and `ssh-keygen` are installed (Debian: openssh-server, openssh-client).
    public static let isAvailable =
        FileManager.default.isExecutableFile(atPath: serverPath) && SystemTool.exist("ssh", "ssh-keygen")

    /// The words of an `ssh` that reaches this server without asking anything: its key, no known-hosts file, batch
    /// mode, the port. `TRANSFERKIT_SSH` takes them.
    public var sshCommand: [String] {
        [
            SystemTool.path("ssh"), "-i", clientKey, "-p", String(port), "-o", "BatchMode=yes", "-o",
            "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
        ]
    }

    /// Starts a server in a new folder under `directory`.
    /// - Throws: ``SSHDStartError`` with what the server said when no port worked within a minute.
    public init(directory: URL) async throws {
        let folder = directory.appendingPathComponent("sshd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        user = ProcessInfo.processInfo.environment["USER"] ?? (getuid() == 0 ? "root" : NSUserName())
        let hostKey = folder.appendingPathComponent("host_ed25519").path
        clientKey = folder.appendingPathComponent("client_ed25519").path
        for key in [hostKey, clientKey] {
            let made = try await ChildProcess.run(
                SystemTool.path("ssh-keygen"), arguments: ["-q", "-t", "ed25519", "-N", "", "-f", key])
            guard made.status == 0 else { throw SSHDStartError(said: "ssh-keygen: " + made.errorText) }
        }
        try FileManager.default.copyItem(
            atPath: clientKey + ".pub", toPath: folder.appendingPathComponent("authorized_keys").path)
        // The server's privilege-separation directory (it refuses to start without it when run as root).
        if getuid() == 0 {
            try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        }
        var failures: [String] = []
        for _ in 0..<10 {
            let port = Int.random(in: 20_000...60_000)
            let configuration = folder.appendingPathComponent("sshd_config")
            try """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(hostKey)
            PidFile \(folder.path)/sshd.pid
            AuthorizedKeysFile \(folder.path)/authorized_keys
            AllowUsers \(user)
            StrictModes no
            UsePAM no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PermitRootLogin prohibit-password
            PrintMotd no
            """.write(to: configuration, atomically: true, encoding: .utf8)
            let process = try BackgroundChild(
                Self.serverPath, ["-D", "-e", "-f", configuration.path],
                output: folder.appendingPathComponent("sshd-\(port).log"))
            let ready = try await process.wait(for: "Server listening on 127.0.0.1 port \(port)", within: .seconds(30))
            if ready {
                self.port = port
                self.process = process
                return
            }
            failures.append(
                ":\(port): " + process.text.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " / "))
            process.kill()
        }
        throw SSHDStartError(said: failures.joined(separator: "; "))
    }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The loopback sshd did not start.
public struct SSHDStartError: Error, CustomStringConvertible {
    /// What it (or ssh-keygen) said.
    public var said: String

    /// Why it did not start.
    public var description: String { "sshd did not start: \(said)" }
}
