import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A local X display named by `DISPLAY`: its number, socket and the cookie that authorizes a connection.
package struct X11Display: Sendable, Equatable {
    /// The display number (`N` of `:N.S`).
    package var number: Int
    /// The socket of the display's server.
    package var socketPath: String
    /// The name the server also listens on in Linux's abstract namespace (`/tmp/.X11-unix/XN`, as Xlib and xcb
    /// try first), for a display named `:N` or `unix:N`: a process whose `/tmp` is private (a systemd service with
    /// `PrivateTmp`, some sandboxes) sees no socket file but still reaches that one.
    package var abstractName: String?

    /// Parses `DISPLAY`: `:N`, `:N.S`, `unix:N[.S]` and `/path/to/socket:N[.S]` (the form launchd and some
    /// containers use); a TCP host is refused.
    ///
    /// - Throws: ``ClipboardError`` with `noDisplay` when empty, `connectionFailed` when malformed or remote.
    package init(parsing display: String) throws(ClipboardError) {
        guard !display.isEmpty else {
            throw ClipboardError(code: .noDisplay, message: "DISPLAY is empty; set it to a local display such as :0.")
        }
        guard let colon = display.lastIndex(of: ":") else {
            throw Self.malformed(display)
        }
        let host = display[..<colon]
        var rest = display[display.index(after: colon)...]
        if let dot = rest.firstIndex(of: ".") {
            guard rest[rest.index(after: dot)...].allSatisfy(\.isASCII), Int(rest[rest.index(after: dot)...]) != nil
            else { throw Self.malformed(display) }
            rest = rest[..<dot]
        }
        guard let number = Int(rest), number >= 0, number < 1 << 16 else { throw Self.malformed(display) }
        self.number = number
        if host.hasPrefix("/") {
            socketPath = String(host)
        } else if host.isEmpty || host == "unix" {
            socketPath = "/tmp/.X11-unix/X\(number)"
            abstractName = socketPath
        } else {
            throw ClipboardError(
                code: .connectionFailed,
                message: "DISPLAY=\(display) names the remote host \(host); only local displays (:N, unix:N) are "
                    + "supported. Run on the machine of the X server, or forward its socket.",
                source: display)
        }
    }

    private static func malformed(_ display: String) -> ClipboardError {
        ClipboardError(
            code: .connectionFailed, message: "DISPLAY=\(display) is not a display name such as :0 or :1.0.",
            source: display)
    }
}

/// One entry of an Xauthority file.
package struct X11AuthorityEntry: Sendable, Equatable {
    /// The address family: 256 local, 65535 wild, 0 internet, …
    package var family: UInt16
    /// The host (the hostname for the local family).
    package var address: [UInt8]
    /// The display number as text; empty matches any.
    package var number: String
    /// The authorization protocol, such as `MIT-MAGIC-COOKIE-1`.
    package var name: String
    /// The secret.
    package var data: [UInt8]

    /// An entry of these fields.
    package init(family: UInt16, address: [UInt8], number: String, name: String, data: [UInt8]) {
        self.family = family
        self.address = address
        self.number = number
        self.name = name
        self.data = data
    }

    /// The entries of an Xauthority file's bytes; a truncated final entry is ignored, as Xlib does.
    package static func parse(_ bytes: [UInt8]) -> [X11AuthorityEntry] {
        var entries: [X11AuthorityEntry] = []
        var offset = 0
        func field() -> [UInt8]? {
            guard offset + 2 <= bytes.count else { return nil }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            guard offset + length <= bytes.count else { return nil }
            defer { offset += length }
            return Array(bytes[offset..<(offset + length)])
        }
        while offset + 2 <= bytes.count {
            let family = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            offset += 2
            guard let address = field(), let number = field(), let name = field(), let data = field() else { break }
            entries.append(
                X11AuthorityEntry(
                    family: family, address: address, number: String(decoding: number, as: UTF8.self),
                    name: String(decoding: name, as: UTF8.self), data: data))
        }
        return entries
    }

    /// The entry in an Xauthority file's form, which ``parse(_:)`` reads back: the family, then the address, the
    /// number, the name and the data, each as a 16-bit big-endian length and its bytes (each field at most 65535
    /// bytes; longer ones are cut there).
    package var encoded: [UInt8] {
        func field(_ bytes: [UInt8]) -> [UInt8] {
            let bytes = bytes.prefix(Int(UInt16.max))
            return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
        }
        return [UInt8(family >> 8), UInt8(family & 0xFF)] + field(address) + field(Array(number.utf8))
            + field(Array(name.utf8)) + field(data)
    }

    /// The MIT-MAGIC-COOKIE-1 entry for `display` on `hostname`: the local family with this host's name, or the
    /// wild family; `nil` when there is none (the server may still accept the connection without one).
    package static func cookie(
        in entries: [X11AuthorityEntry], display: Int, hostname: String
    )
        -> X11AuthorityEntry?
    {
        entries.first { entry in
            guard entry.name == "MIT-MAGIC-COOKIE-1", entry.number.isEmpty || entry.number == String(display) else {
                return false
            }
            return entry.family == 65535 || (entry.family == 256 && entry.address == Array(hostname.utf8))
        }
    }

    /// The cookie for `display` from the file `XAUTHORITY` names (default `$HOME/.Xauthority`), if any.
    package static func cookie(environment: [String: String], display: Int) -> X11AuthorityEntry? {
        let path =
            environment["XAUTHORITY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.Xauthority" }
        // Read as a bounded regular file: a missing file (no cookie, the common case under Xvfb and Wayland) is one
        // failed `open`, not Foundation's error with its user-info dictionary, and a FIFO there does not block.
        guard let path, case .success(let contents) = RegularFile.read(atPath: path, limit: 1 << 20) else {
            return nil
        }
        // The kernel's node name, as Xlib matches the local entries (`xauth list` shows them as `name/unix:N`).
        let hostname = Syscall.hostName() ?? ""
        let shortName = hostname.split(separator: ".").first.map(String.init) ?? hostname
        let entries = parse(contents)
        return cookie(in: entries, display: display, hostname: shortName)
            ?? cookie(in: entries, display: display, hostname: hostname)
    }
}
