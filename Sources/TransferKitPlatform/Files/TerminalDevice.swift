#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// A terminal the process talks to directly: the controlling terminal (`/dev/tty`), or one end of a pseudo-terminal.
///
/// Used to send a terminal control sequences and read its answers (OSC 52): ``enterRawMode()`` turns off the line
/// discipline's echo and line buffering so that an answer arrives as it is sent and is not shown, and
/// ``read(into:waitingAtMost:)`` waits a bounded time for bytes, so a terminal that never answers cannot hang the
/// caller. The descriptor is the caller's to close (``close()``).
package struct TerminalDevice: Sendable {
    /// The terminal's descriptor (close-on-exec).
    package let descriptor: Int32

    /// Adopts `descriptor`, which must be a terminal.
    package init(adopting descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Opens the process's controlling terminal, `/dev/tty`, for reading and writing.
    /// - Throws: ``SystemError`` (`ENXIO` when the process has no controlling terminal).
    package static func openControlling() throws(SystemError) -> TerminalDevice {
        while true {
            let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
            if descriptor >= 0 { return TerminalDevice(adopting: descriptor) }
            let code = errno
            if code != EINTR { throw SystemError(call: "open", errorNumber: code, path: "/dev/tty") }
        }
    }

    /// A new pseudo-terminal: its controller end (what a terminal emulator holds) and its terminal end (what a
    /// program running in it holds), both close-on-exec; neither becomes the controlling terminal.
    /// - Throws: ``SystemError`` when the system has no pseudo-terminal left or refuses one.
    package static func openPseudoTerminal() throws(SystemError) -> (controller: Int32, terminal: Int32) {
        guard let openController = PseudoTerminalCalls.openController, let grant = PseudoTerminalCalls.grant,
            let unlock = PseudoTerminalCalls.unlock, let name = PseudoTerminalCalls.name
        else { throw SystemError(call: "posix_openpt", errorNumber: ENOSYS) }
        let controller = openController(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard controller >= 0 else { throw SystemError(call: "posix_openpt", errorNumber: errno) }
        var path = [CChar](repeating: 0, count: 128)
        guard grant(controller) == 0, unlock(controller) == 0, name(controller, &path, path.count) == 0 else {
            let code = errno
            Syscall.close(controller)
            throw SystemError(call: "ptsname_r", errorNumber: code)
        }
        let terminalPath = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let terminal = open(terminalPath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else {
            let code = errno
            Syscall.close(controller)
            throw SystemError(call: "open", errorNumber: code, path: terminalPath)
        }
        return (controller, terminal)
    }

    /// The C library's pseudo-terminal calls, looked up once by name: the module map hides their declarations (they
    /// need `_XOPEN_SOURCE`).
    private enum PseudoTerminalCalls {
        typealias OpenFunction = @convention(c) (Int32) -> Int32
        typealias DescriptorFunction = @convention(c) (Int32) -> Int32
        typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

        static let openController = CLibrary.function("posix_openpt", as: OpenFunction.self)
        static let grant = CLibrary.function("grantpt", as: DescriptorFunction.self)
        static let unlock = CLibrary.function("unlockpt", as: DescriptorFunction.self)
        static let name = CLibrary.function("ptsname_r", as: NameFunction.self)
    }

    /// The terminal's line settings, as ``enterRawMode()`` found them, for ``restore(_:)``.
    package struct Mode: @unchecked Sendable {
        // `termios` is a plain C struct of integers: safe to send.
        fileprivate var settings: termios
    }

    /// Turns off echo and line buffering (canonical mode) and the translation of received carriage returns, so
    /// that what the terminal sends is read byte for byte as it comes, and not shown.
    /// - Returns: The settings before, for ``restore(_:)``.
    /// - Throws: ``SystemError`` when the descriptor is no terminal.
    package func enterRawMode() throws(SystemError) -> Mode {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { throw SystemError(call: "tcgetattr", errorNumber: errno) }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_iflag &= ~tcflag_t(ICRNL | INLCR | IGNCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        try apply(raw)
        return Mode(settings: settings)
    }

    /// Puts back the settings that ``enterRawMode()`` returned.
    /// - Throws: ``SystemError`` when the terminal refuses them.
    package func restore(_ mode: Mode) throws(SystemError) {
        try apply(mode.settings)
    }

    private func apply(_ settings: termios) throws(SystemError) {
        var settings = settings
        while tcsetattr(descriptor, TCSANOW, &settings) != 0 {
            let code = errno
            if code != EINTR { throw SystemError(call: "tcsetattr", errorNumber: code) }
        }
    }

    /// Writes all of `bytes` to the terminal.
    /// - Throws: ``SystemError``.
    package func write(_ bytes: [UInt8]) throws(SystemError) {
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try Syscall.write(descriptor, buffer) }
        }
        try outcome.get()
    }

    /// Waits at most `limit` for the terminal to send something, then reads what is there into `buffer`.
    /// - Returns: The number of bytes read; `nil` when nothing came within `limit`; 0 when the terminal hung up.
    /// - Throws: ``SystemError``.
    package func read(into buffer: inout [UInt8], waitingAtMost limit: Duration) throws(SystemError) -> Int? {
        let (seconds, attoseconds) = limit.components
        let milliseconds = max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, Int32(milliseconds))
            if ready == 0 { return nil }
            if ready > 0 { break }
            let code = errno
            if code != EINTR { throw SystemError(call: "poll", errorNumber: code) }
        }
        if entry.revents & Int16(POLLIN) == 0, entry.revents & Int16(POLLHUP | POLLERR) != 0 { return 0 }
        return try Syscall.read(descriptor, into: &buffer)
    }

    /// Closes the descriptor.
    package func close() {
        Syscall.close(descriptor)
    }
}
