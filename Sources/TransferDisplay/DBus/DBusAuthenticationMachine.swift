import TransferKitPlatform

/// The client's side of D-Bus authentication (D-Bus Specification, "Authentication Protocol"): SASL `EXTERNAL` with
/// the process's user id, then `NEGOTIATE_UNIX_FD`, then `BEGIN`. A pure machine: the shell sends what it says and
/// feeds it the server's lines.
package struct DBusAuthenticationMachine: ProtocolMachine {
    /// Where the conversation is.
    package enum Phase: Sendable, Equatable {
        /// Nothing sent yet.
        case start
        /// `AUTH EXTERNAL` sent; waiting for `OK`.
        case awaitingOK
        /// `NEGOTIATE_UNIX_FD` sent; waiting for `AGREE_UNIX_FD` or `ERROR`.
        case awaitingUnixFDAnswer(guid: String)
        /// `BEGIN` sent: messages follow.
        case authenticated
        /// Authentication failed; nothing more is sent.
        case failed
    }

    /// What happens.
    package enum Event: Sendable, Equatable, CustomStringConvertible {
        /// The connection is open: authentication starts.
        case begin
        /// The server sent a line, without its `\r\n`.
        case line(String)
        /// The server closed the connection, sent a line too long, or did not answer in time.
        case ended(ClipboardError.Code)

        /// The event, shortened for test messages.
        package var description: String {
            switch self {
            case .begin: "begin"
            case .line(let line): "line(\(line.prefix(24)))"
            case .ended(let code): "ended(\(code))"
            }
        }
    }

    /// What the shell does.
    package enum Action: Sendable {
        /// Write these bytes (the first begins with the NUL byte the protocol requires).
        case send([UInt8])
        /// Authentication succeeded: messages follow. `unixFDs` says whether descriptors may be passed.
        case authenticated(guid: String, unixFDs: Bool)
        /// Authentication failed.
        case fail(ClipboardError)
    }

    /// Where the conversation is.
    package private(set) var phase = Phase.start
    /// The user id to authenticate as (the server checks it against the socket's credentials).
    let userID: UInt32
    /// Whether to ask for descriptor passing.
    let wantsUnixFDs: Bool

    /// A machine that authenticates as `userID`, asking for descriptor passing when `wantsUnixFDs`.
    package init(userID: UInt32, wantsUnixFDs: Bool = true) {
        self.userID = userID
        self.wantsUnixFDs = wantsUnixFDs
    }

    /// The longest line a server may send during authentication.
    package static let maximumLineLength = 16 * 1024

    /// Applies `event`; returns what to send and whether authentication ended.
    package mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.start, .begin):
            phase = .awaitingOK
            // EXTERNAL's initial response is the user id in decimal, hex-encoded.
            let hexID = String(userID).utf8.map { String($0, radix: 16) }.joined()
            return [.send([0] + Array("AUTH EXTERNAL \(hexID)\r\n".utf8))]
        case (.awaitingOK, .line(let line)):
            let (command, argument) = Self.split(line)
            switch command {
            case "OK":
                guard !argument.isEmpty else { return fail("the server's OK names no server GUID") }
                if wantsUnixFDs {
                    phase = .awaitingUnixFDAnswer(guid: argument)
                    return [.send(Array("NEGOTIATE_UNIX_FD\r\n".utf8))]
                }
                phase = .authenticated
                return [.send(Array("BEGIN\r\n".utf8)), .authenticated(guid: argument, unixFDs: false)]
            case "DATA":
                // EXTERNAL's response was sent with AUTH; a server that asks again gets it empty.
                return [.send(Array("DATA\r\n".utf8))]
            case "REJECTED":
                phase = .failed
                return [
                    .fail(
                        ClipboardError(
                            code: .connectionFailed,
                            message: "The D-Bus server refused EXTERNAL authentication as user \(userID) (it offers: "
                                + "\(argument.isEmpty ? "nothing" : argument)); is the bus another user's?"))
                ]
            case "ERROR":
                return fail("the server answered AUTH with an error: \(argument)")
            default:
                return fail("the server answered AUTH with \(String(reflecting: String(line.prefix(64))))")
            }
        case (.awaitingUnixFDAnswer(let guid), .line(let line)):
            let command = Self.split(line).command
            guard command == "AGREE_UNIX_FD" || command == "ERROR" else {
                return fail("the server answered NEGOTIATE_UNIX_FD with \(String(reflecting: String(line.prefix(64))))")
            }
            phase = .authenticated
            return [.send(Array("BEGIN\r\n".utf8)), .authenticated(guid: guid, unixFDs: command == "AGREE_UNIX_FD")]
        case (.awaitingOK, .ended(let code)), (.awaitingUnixFDAnswer, .ended(let code)):
            phase = .failed
            return [
                .fail(
                    ClipboardError(
                        code: code,
                        message: code == .timedOut
                            ? "The D-Bus server did not finish authentication in time."
                            : "The D-Bus server closed the connection during authentication."))
            ]
        case (.authenticated, .line):
            phase = .failed
            return [.fail(Self.violation("the server sent a line after BEGIN"))]
        case (.start, .line), (.start, .ended):
            phase = .failed
            return [.fail(Self.violation("the server spoke before the client began"))]
        case (.awaitingOK, .begin), (.awaitingUnixFDAnswer, .begin), (.authenticated, .begin), (.authenticated, .ended),
            (.failed, _):
            return []
        }
    }

    private mutating func fail(_ what: String) -> [Action] {
        phase = .failed
        return [.fail(Self.violation(what))]
    }

    private static func violation(_ what: String) -> ClipboardError {
        ClipboardError(code: .protocolViolation, message: "D-Bus authentication failed: \(what).")
    }

    private static func split(_ line: String) -> (command: String, argument: String) {
        guard let space = line.firstIndex(of: " ") else { return (line, "") }
        return (String(line[..<space]), String(line[line.index(after: space)...]))
    }
}
