import CBOR
import TransferDisplay
import TransferKit
package import TransferSessions

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The TransferKit session offer: the one extra representation a drag from a ``DesktopWindow`` offers, naming the
/// `DragSessionPublication` that serves the drag, so that a TransferKit drop target moves through the session
/// protocol (exactly once, with the decision record) instead of the display protocol's delete-after-finish rule.
///
/// Offered as the MIME type `application/x-transferkit-drag-session` and the uniform type
/// `org.transferkit.drag-session`; its bytes are one CBOR map (`Schemas/transfer-session.md` section 7).
package struct DesktopSessionOffer: Codable, Sendable, Hashable {
    /// The MIME type it is offered as.
    package static let mimeType = "application/x-transferkit-drag-session"
    /// The uniform type identifier it is offered as.
    package static let typeIdentifier = "org.transferkit.drag-session"
    /// Both offered names, MIME type first.
    package static let names = [mimeType, typeIdentifier]
    /// The version of this offer's fields.
    package static let currentVersion = 1
    /// The most bytes a target reads of an offer: a few hundred are enough.
    package static let maximumLength = 4096

    /// The version of the offer's fields (1).
    package var version: Int
    /// The drag session's identity (`DragSession/ID`).
    package var session: String
    /// The absolute path of the publication's Unix socket (``decode(_:)`` refuses a relative path and an abstract
    /// name, or any path with a NUL byte).
    package var socket: String
    /// The source's application identifier.
    package var application: String
    /// The source's process identifier.
    package var process: Int32

    /// An offer of version 1.
    package init(session: String, socket: String, application: String, process: Int32) {
        self.version = Self.currentVersion
        self.session = session
        self.socket = socket
        self.application = application
        self.process = process
    }

    /// Whether `name` is one of the offer's names, ignoring case as Foundation's `caseInsensitiveCompare` does: by
    /// Unicode case folding, so the Kelvin sign stands for `k`, `ſ` for `s`, `ß` and `ẞ` for `ss`, and the Latin
    /// ligatures (`ﬁ`, `ﬆ`, …) for their letters.
    package static func isOfferName(_ name: String) -> Bool {
        guard let folded = caseFoldedASCII(name) else { return false }
        return names.contains { $0.lowercased() == folded }
    }

    /// `text` case-folded, when that gives ASCII only (the offer's names are ASCII; nothing else can equal them):
    /// the letters A to Z and every scalar of Unicode's case folding (CaseFolding.txt, full) whose folding is ASCII.
    private static func caseFoldedASCII(_ text: String) -> String? {
        var folded: [UInt8] = []
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: folded.append(UInt8(scalar.value) + 0x20)
            case 0x00...0x7F: folded.append(UInt8(scalar.value))
            case 0x017F: folded += Array("s".utf8)
            case 0x00DF, 0x1E9E: folded += Array("ss".utf8)
            case 0x212A: folded += Array("k".utf8)
            case 0xFB00: folded += Array("ff".utf8)
            case 0xFB01: folded += Array("fi".utf8)
            case 0xFB02: folded += Array("fl".utf8)
            case 0xFB03: folded += Array("ffi".utf8)
            case 0xFB04: folded += Array("ffl".utf8)
            case 0xFB05, 0xFB06: folded += Array("st".utf8)
            default: return nil
            }
        }
        return String(decoding: folded, as: UTF8.self)
    }

    /// The offer's bytes: deterministic CBOR.
    package func encoded() throws -> Data {
        try CBOREncoder().encode(self)
    }

    /// The offer in `bytes`; `nil` for anything that is not an offer of a version this library reads, or whose
    /// socket is not an absolute path without NUL bytes (a target connects only to a file in the file system).
    package static func decode(_ bytes: Data) -> DesktopSessionOffer? {
        guard bytes.count <= maximumLength, let offer = try? CBORDecoder().decode(Self.self, from: bytes),
            offer.version == currentVersion, offer.socket.hasPrefix("/"), !offer.socket.utf8.contains(0),
            !offer.session.isEmpty
        else { return nil }
        return offer
    }

    /// The socket path for publishing `session`: in `XDG_RUNTIME_DIR` when set (a folder only its user may read),
    /// else in the temporary folder; `nil` when neither leaves room within a socket address's 107 bytes.
    package static func socketPath(for session: DragSession.ID, environment: [String: String]) -> String? {
        socketPath(named: "transferkit-drag-\(session.rawValue).sock", environment: environment)
    }

    /// The path of a socket called `name` in `XDG_RUNTIME_DIR` when set, else in the temporary folder; `nil` when
    /// neither leaves room within a socket address's 107 bytes (the clipboard's session offer uses it too).
    package static func socketPath(named name: String, environment: [String: String]) -> String? {
        let folders = [environment["XDG_RUNTIME_DIR"], environment["TMPDIR"], "/tmp"].compactMap { $0 }
        for folder in folders where folder.hasPrefix("/") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            if path.utf8.count <= 107 { return path }
        }
        return nil
    }
}
