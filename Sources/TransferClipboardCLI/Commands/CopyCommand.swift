import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferSessions
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit copy`: puts files, an archive (every representation of its first item) or standard input on the
/// clipboard, and serves it until another application takes it — in the background by default, like xclip and
/// wl-copy.
struct CopyCommand: Command {
    /// The catalogue for type inference and mapping.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"copy"`.
    var name: String { "copy" }
    /// One line of help.
    var abstract: String { "Put files, an archive or standard input on the clipboard." }
    /// Rules and examples.
    var discussion: String {
        """
        Each file is offered as its type (from --type, else from its filename extension, else public.data) and,
        for applications that paste files, as its URL (text/uri-list) and, when a session bus is known, as the
        document portal's key (application/vnd.portal.filetransfer), which a sandboxed (Flatpak) application trades
        for a path it can open; the key is made when first asked for and works while this copy serves. A file whose type is text (JSON, a script,
        XML, …) is offered as plain text too (UTF8_STRING, text/plain), so editors and terminals paste it; a paste
        there of bytes that are not UTF-8 is refused. Standard input that is UTF-8 without a NUL byte is offered as
        text whatever its first bytes look like. An archive (a .transferkit file, or any
        input that starts like a binary archive) offers every representation of its first item, as
        `paste --archive` saved them. With --cut, file managers that paste the files move them instead of
        copying them (GNOME's x-special/gnome-copied-files and KDE's application/x-kde-cutselection). Nothing is read until an application pastes; then the bytes
        stream from the file. The command returns once the clipboard is this tool's, and a copy of it keeps serving in the
        background until another application takes the clipboard (--foreground: this process serves, and exits
        then).

        Secrets: --concealed marks the content so clipboard managers skip it; --paste-once serves one paste and
        --loops N serves N, then the clipboard is cleared (a paste is one request for a content type: asking for
        the list of types, or for the hints, is none); --expire DURATION (500ms, 30s, 2m, 1h) clears it after that
        time if it is still this tool's. A limited copy is transient (org.nspasteboard.TransientType, so clipboard
        managers do not record it and use up its pastes); --transient marks any copy so. The limits apply in the
        background copy that serves.

        Another machine: --to ssh://[user@]HOST[:PORT] puts the items on that machine's clipboard instead. It runs
        `ssh HOST transferkit serve --stdio --receive` (TRANSFERKIT_SSH and TRANSFERKIT_REMOTE_PROGRAM as for paste
        --from), which takes the clipboard there and loads each type from here, over ssh, only when an application
        there pastes it. The command returns once the far clipboard is taken, and the background copy serves until
        another application there takes it (or the link ends); --concealed, --transient, --paste-once, --loops and
        --expire apply there. In the background ssh cannot ask for a password: use a key or an agent, or
        --foreground. --timeout DURATION (default 60s) bounds the wait for the far side to take its clipboard. --cut
        does not go with --to: nothing is moved between machines.

        Terminal: --terminal puts the text on the clipboard of the terminal emulator instead, with OSC 52 through
        the controlling terminal, so it works over ssh without a display server (a session with SSH_TTY set, or
        without DISPLAY and WAYLAND_DISPLAY, is told so when no display server answers). OSC 52 carries text: one
        file or standard input, UTF-8, is sent whatever its type (the command says what it sent), and anything
        else is refused with the reason (bytes that are not UTF-8, an archive, several files). Under tmux ($TMUX)
        the sequence goes through tmux's passthrough (tmux 3.3 and later need set -g allow-passthrough on); under
        GNU screen ($STY) it is cut into pieces that fit screen's 768-byte buffer. At most 74994 bytes of text are
        sent by default: hterm and the editors' OSC 52 plug-ins drop a sequence over 100000 bytes, tmux one over 1
        MiB, xterm sets no limit (but acts on OSC 52 only with allowWindowOps); --terminal-limit BYTES changes it,
        and a longer text is refused (limitExceeded) rather than cut. The terminal does not say whether it took the
        text.

        EXAMPLES:
          transferkit copy notes.txt
          transferkit copy cover.png --primary
          transferkit copy --cut notes.txt
          transferkit copy clip.transferkit
          transferkit copy - --type public.utf8-plain-text --concealed < password.txt
          transferkit copy - --type public.utf8-plain-text --concealed --paste-once --expire 30s < password.txt
          transferkit copy --loops 2 notes.txt
          transferkit copy --terminal notes.txt
          transferkit copy --to ssh://build-server notes.txt
          transferkit copy --terminal --terminal-limit 1000000 - < log.txt
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--type"], valueName: "TYPE", help: "The type of every input (identifier or MIME)."),
                .init(names: ["--foreground"], help: "Serve from this process, and exit when the clipboard is lost."),
                .init(names: ["--concealed"], help: "Mark the content secret, so clipboard managers skip it."),
                .init(names: ["--cut"], help: "Offer the files as cut: the file manager that pastes moves them."),
                .init(names: ["--paste-once"], help: "Serve one paste, then clear the clipboard (as --loops 1)."),
                .init(names: ["--loops"], valueName: "N", help: "Serve N pastes, then clear the clipboard."),
                .init(
                    names: ["--expire"], valueName: "DURATION",
                    help: "Clear the clipboard after DURATION (500ms, 30s, 2m, 1h) if it is still ours."),
                .init(names: ["--transient"], help: "Mark the content short-lived, so clipboard managers skip it."),
                .init(
                    names: ["--to"], valueName: "ssh://[user@]HOST[:PORT]",
                    help: "Put the items on another machine's clipboard, through ssh."),
                .init(
                    names: ["--timeout"], valueName: "DURATION",
                    help: "With --to: the longest wait for the far side at each step (default 60s)."),
                DeclarationsOption.option,
            ] + ClipboardCommandOptions.options + TerminalCommandOptions.options,
            positionals: .init(name: "FILE", help: "Files, one archive, or - for standard input.", minimum: 1)
        )
    }

    /// The variable that marks the background copy of the tool that serves the clipboard.
    static let servingMarker = "TRANSFERKIT_COPY_SERVES"

    /// Copies.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let paths = arguments.positionals
        if paths.filter({ $0 == "-" }).count > 1 {
            throw UsageError("standard input (-) can be copied only once")
        }
        if arguments.flag("--cut"), paths.contains("-") {
            throw UsageError("--cut moves files; standard input (-) is no file")
        }
        let type = try arguments.value("--type").map { try ClipboardCommandOptions.type($0, catalog: catalog) }
        if arguments.flag("--terminal") {
            return try copyToTerminal(arguments, type: type, context: context)
        }
        _ = try TerminalCommandOptions.textLimit(arguments)
        let options = try Self.writeOptions(arguments)
        let remote = arguments.value("--to")
        if remote == nil, arguments.value("--timeout") != nil { throw UsageError("--timeout goes with --to") }
        if remote != nil {
            for name in ["--cut", "--backend"] where arguments.flag(name) || arguments.value(name) != nil {
                throw UsageError("\(name) does not go with --to (the far side's clipboard is written there, as a copy)")
            }
        }
        let isServingCopy = Syscall.environmentValue(Self.servingMarker) == "1"
        if !arguments.flag("--foreground") && !isServingCopy {
            return try await serveInBackground(arguments, context: context)
        }
        // A pipe can be read once; pastes may come many times: it is spooled to an unlinked file first.
        let inputs = try paths.map { path in
            let input = try InputFile(path: path)
            return input.size == nil ? try Spool.toTemporaryFile(input) : input
        }
        // A path means nothing on another machine: a copy there offers the files' bytes, not their URLs.
        let items = try CommandLineItems.make(
            inputs, paths: paths, type: type, catalog: catalog, offersFileURLs: remote == nil)
        if let remote {
            defer { withExtendedLifetime((inputs, items.spools)) {} }
            return try await copyToRemote(
                remote, items: items, arguments: arguments, isServingCopy: isServingCopy, context: context)
        }
        let environment = Syscall.environment()
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog, environment: environment)
        // Files are offered as a session too, for TransferKit readers here to read them directly.
        let published = ClipboardSessionOffer.publish(
            items.providers, options: options, largestFileSize: inputs.compactMap(\.size).max() ?? 0,
            catalog: catalog, environment: environment, timeout: ClipboardCommandOptions.timeout
        )
        defer { published?.publication.close() }
        let handle = try await clipboard.write(
            items.providers, to: ClipboardCommandOptions.selection(arguments), options: options,
            sessionOffer: published?.bytes)
        if isServingCopy {
            // Tell the waiting parent, then let go of its pipe: it returns, this process serves on.
            try context.standardOutput.writeLine("ready")
            Syscall.redirectToNullDevice([1, 2])
        }
        // Until the clipboard is taken, the limits end the write, and the last paste under way was served.
        _ = try await handle.ended()
        withExtendedLifetime((inputs, items.spools)) {}
        clipboard.close()
        return .success
    }

    /// `copy --terminal`: sends the one input's text to the terminal's clipboard with OSC 52, and says what it sent.
    /// - Throws: ``UsageError`` for options that do not apply, or several inputs; `ClipboardError` `.notText` for an
    ///   archive, a `--type` that is not text or bytes that are not UTF-8, `.limitExceeded` for a text over the limit,
    ///   `.noTerminal` without a controlling terminal.
    private func copyToTerminal(
        _ arguments: ParsedArguments, type: UniformType?, context: CommandContext
    ) throws -> ExitCode {
        try TerminalCommandOptions.refuseWithTerminal(
            arguments,
            ["--cut", "--foreground", "--concealed", "--paste-once", "--loops", "--expire", "--transient", "--backend"])
        let paths = arguments.positionals
        guard paths.count == 1, let path = paths.first else {
            throw UsageError("the terminal's clipboard holds one text: give one file, or - for standard input")
        }
        let limit = try TerminalCommandOptions.textLimit(arguments)
        var input = try InputFile(path: path)
        let name = input.displayName
        if input.size == nil { input = try Spool.toTemporaryFile(input) }
        if type == nil, CommandLineItems.isArchive(input, path: path) {
            throw ClipboardError(
                code: .notText,
                message: "\(name) is an archive of typed items, and OSC 52 carries text only; extract the text first "
                    + "(transferkit extract)")
        }
        let itemType =
            try type
            ?? input.inferredType(
                fileName: path == "-" ? nil : URL(fileURLWithPath: path).lastPathComponent, in: catalog)
        if let type, !catalog.conforms(type, to: .text) {
            throw ClipboardError(
                code: .notText, message: "--type \(type.identifier) is not text, and OSC 52 carries text only")
        }
        if let size = input.size, size > Int64(limit) {
            throw ClipboardError(
                code: .limitExceeded,
                message: "\(name) is \(size) bytes, over the OSC 52 limit of \(limit) bytes; nothing was sent to the "
                    + "terminal (--terminal-limit raises the limit for a terminal that takes more)")
        }
        let text = [UInt8](try input.readAll(limit: limit))
        let selection = ClipboardCommandOptions.selection(arguments)
        let environment = Syscall.environment()
        // The text is checked (UTF-8, within the limits) before the terminal is opened: a refusal needs none.
        let multiplexer = TerminalMultiplexer.detect(environment: environment)
        if let refusal = Self.terminalRefusal(text, selection, multiplexer, limit: limit, name: name, type: itemType) {
            throw refusal
        }
        let terminal = try TerminalCommandOptions.open(arguments, environment: environment)
        defer { terminal.terminal.close() }
        try terminal.copy(text, to: selection)
        let kind =
            catalog.conforms(itemType, to: .text)
            ? "the text of \(name)"
            : "the bytes of \(name), which are UTF-8, as text (its type is \(itemType.identifier))"
        try context.standardError.writeLine(
            "transferkit copy: sent \(kind), \(text.count) bytes, to the terminal's "
                + "\(selection.rawValue) with OSC 52"
                + (terminal.multiplexer == .none ? "" : " through \(terminal.multiplexer.rawValue)"))
        return .success
    }

    /// Why `text` (of the input `name`, typed `type`) cannot go to the terminal's clipboard, said for the command
    /// line: the sequence's own refusal (not UTF-8, over a limit) with the input's name; `nil` when it can.
    private static func terminalRefusal(
        _ text: [UInt8], _ selection: ClipboardSelection, _ multiplexer: TerminalMultiplexer, limit: Int,
        name: String, type: UniformType
    ) -> ClipboardError? {
        let refusal: ClipboardError
        switch Result(catching: { () throws(ClipboardError) in
            try TerminalClipboardSequence.copy(text, to: selection, multiplexer: multiplexer, limit: limit)
        }) {
        case .success: return nil
        case .failure(let error): refusal = error
        }
        var error = refusal
        if error.code == .notText {
            error.message = "\(name) (\(type.identifier)) is not text: \(refusal.message)"
        } else if error.code == .limitExceeded {
            error.message =
                "\(name): \(refusal.message) (--terminal-limit raises the limit for a terminal that takes more)"
        }
        return error
    }

    /// The write's options from `--concealed`, `--cut`, `--transient`, `--paste-once`, `--loops` and `--expire`.
    /// - Throws: ``UsageError`` for a count or duration that cannot be read, or both paste limits.
    static func writeOptions(_ arguments: ParsedArguments) throws -> ClipboardWriteOptions {
        if arguments.flag("--paste-once"), arguments.value("--loops") != nil {
            throw UsageError("--paste-once is --loops 1; give one of them")
        }
        let loops = try arguments.value("--loops").map { value throws(UsageError) in
            guard let count = Int(value), count > 0 else { throw UsageError("--loops needs a positive number") }
            return count
        }
        let expiry = try arguments.value("--expire").map {
            try ClipboardCommandOptions.duration($0, option: "--expire")
        }
        var options = ClipboardWriteOptions(
            isConcealed: arguments.flag("--concealed"), isCut: arguments.flag("--cut"),
            lifetime: ClipboardLifetime(pasteLimit: arguments.flag("--paste-once") ? 1 : loops, expiry: expiry))
        if arguments.flag("--transient") { options.isTransient = true }
        return options
    }

    /// Starts a copy of this tool that serves the clipboard, waits until it owns it, and returns.
    private func serveInBackground(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let executable = context.executablePath else {
            throw UsageError("cannot start a background copy of the tool here; give --foreground")
        }
        // Standard input is read by the serving copy: a pipe is spooled to a file first (it has to outlast us).
        var standardInput = try InputFile(path: arguments.positionals.contains("-") ? "-" : "/dev/null")
        if arguments.positionals.contains("-"), standardInput.size == nil {
            standardInput = try Spool.toTemporaryFile(standardInput)
        }
        var environment = Syscall.environment()
        environment[Self.servingMarker] = "1"
        let channel = try Syscall.makePipe()
        let pid: Int32
        do {
            defer { Syscall.close(channel.write) }
            pid = try ChildProcess.spawn(
                executable, arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
                standardInput: standardInput.fileDescriptor, standardOutput: channel.write,
                standardError: channel.write, newSession: true)
        }
        defer { Syscall.close(channel.read) }
        // "ready", or what the copy printed before it failed (then it has ended).
        let report = try await DedicatedThread.run { () throws(SystemError) -> [UInt8] in
            var report: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !report.starts(with: Array("ready\n".utf8)) {
                let count = try Syscall.read(channel.read, into: &buffer)
                if count == 0 { break }
                report += buffer[..<count]
            }
            return report
        }
        if report.starts(with: Array("ready\n".utf8)) {
            return .success
        }
        let status = try ChildProcess.waitForExit(pid, executable: executable)
        try context.standardError.write(contentsOf: report)
        return ExitCode(rawValue: status == 0 ? 1 : status)
    }
}
