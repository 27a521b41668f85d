import Foundation
import Testing
import TransferClipboard
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import UniformTypes

/// An app's card type, declared only in ``TransferOfferTests/cardCatalog()``.
let offerCardType = UniformType(exportedAs: "com.example.offer-card")

/// The toolkit-neutral bridge: the names a toolkit offers for providers, each name's bytes written lazily, and the
/// provider a toolkit's offered names and per-name reader make.
@Suite("Toolkit offer bridge", .serialized, .timeLimit(.minutes(5)))
struct TransferOfferTests {
    /// A catalogue that declares an app's card type, conforming to JSON and with no MIME type of its own.
    static func cardCatalog() throws -> TypeCatalog {
        let catalog = TypeCatalog()
        try catalog.register(
            [UniformTypeDeclaration(identifier: offerCardType, conformsTo: [.json])],
            as: .exported)
        return catalog
    }

    @Test("JSON is offered as its identifier, then its MIME type, then behind the marker as plain text (it is text)")
    func jsonNames() {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .json) { _ in Data("{}".utf8) }
        #expect(
            TransferOffer(providers: [provider]).names == [
                "public.json", "application/json", "application/x-transferkit-derived", "text/plain;charset=utf-8",
                "text/plain",
            ])
    }

    /// The names of the text types the converters derive from UTF-8 text, behind the marker.
    static let derivedTextNames = [
        "application/x-transferkit-derived", "public.utf16-external-plain-text", "public.utf16-plain-text",
        "text/plain;charset=utf-16", "org.transferkit.latin1-plain-text", "text/plain;charset=iso-8859-1",
    ]

    @Test("UTF-8 text adds the text names toolkits ask for, then its derived encodings; X11's names when asked for")
    func textNames() {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("hi".utf8) }
        #expect(
            TransferOffer(providers: [provider]).names == [
                "public.utf8-plain-text", "text/plain;charset=utf-8", "text/plain",
            ] + Self.derivedTextNames)
        #expect(
            TransferOffer(providers: [provider], includesX11Names: true).names == [
                "public.utf8-plain-text", "text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "STRING", "TEXT",
            ] + Self.derivedTextNames)
    }

    @Test("A custom type is offered as its identifier and its supertype's MIME type, in fidelity order")
    func customTypeNames() throws {
        let catalog = try Self.cardCatalog()
        let provider = TransferProvider(catalog: catalog)
        provider.registerDataRepresentation(for: offerCardType) { _ in Data("{}".utf8) }
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("Luke".utf8) }
        #expect(
            TransferOffer(providers: [provider], catalog: catalog).names == [
                "com.example.offer-card", "application/json", "public.utf8-plain-text", "text/plain;charset=utf-8",
                "text/plain",
            ] + Self.derivedTextNames)
    }

    @Test("File URLs add the URI list and GNOME's copied files, with every provider's URLs")
    func fileURLNames() async throws {
        let first = TransferProvider(object: URL(fileURLWithPath: "/tmp/a.txt"))
        let second = TransferProvider(object: URL(fileURLWithPath: "/tmp/b.txt"))
        let offer = TransferOffer(providers: [first, second], options: ClipboardWriteOptions(isCut: true))
        #expect(Array(offer.names.prefix(3)) == ["public.file-url", "text/uri-list", "x-special/gnome-copied-files"])
        let list = String(decoding: try await offer.data(for: "text/uri-list"), as: UTF8.self)
        #expect(list == "file:///tmp/a.txt\r\nfile:///tmp/b.txt\r\n")
        let gnome = String(decoding: try await offer.data(for: "x-special/gnome-copied-files"), as: UTF8.self)
        #expect(gnome == "cut\nfile:///tmp/a.txt\nfile:///tmp/b.txt")
    }

    @Test("An image's derived names come after the marker, whose bytes list them; hints come last")
    func imageNames() async throws {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .png) { _ in Data() }
        let offer = TransferOffer(providers: [provider], options: ClipboardWriteOptions(isConcealed: true))
        let marker = try #require(offer.names.firstIndex(of: "application/x-transferkit-derived"))
        #expect(Array(offer.names[..<marker]) == ["public.png", "image/png"])
        let afterMarker = Array(offer.names[(marker + 1)...])
        let derived = afterMarker.filter { !ClipboardTypeMapping.isHint($0) }
        #expect(derived.contains("image/bmp") && derived.contains("com.microsoft.bmp"))
        #expect(
            Array(afterMarker.suffix(3)) == [
                "x-kde-passwordManagerHint", "application/x-nspasteboard-concealed-type",
                "org.nspasteboard.ConcealedType",
            ])
        let listed = String(decoding: try await offer.data(for: "application/x-transferkit-derived"), as: UTF8.self)
        #expect(listed.split(separator: "\n").map(String.init) == derived)
    }

    @Test("Only the asked name's representation is loaded, and only when asked")
    func lazyWriting() async throws {
        let calls = SanitizedMutex<[String]>([])
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .json) { _ in
            calls.withLock { $0.append("json") }
            return Data(#"{"a":1}"#.utf8)
        }
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in
            calls.withLock { $0.append("text") }
            return Data("a".utf8)
        }
        let offer = TransferOffer(providers: [provider])
        #expect(calls.withLock { $0 }.isEmpty)
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        try await offer.write("application/json", to: pipe.write)
        Syscall.close(pipe.write)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try Syscall.read(pipe.read, into: &buffer)
        #expect(Data(buffer[..<count]) == Data(#"{"a":1}"#.utf8))
        #expect(calls.withLock { $0 } == ["json"])
    }

    @Test("A name that is not offered is typeUnavailable")
    func unknownName() async throws {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .json) { _ in Data() }
        let error = await #expect(throws: ClipboardError.self) {
            try await TransferOffer(providers: [provider]).data(for: "image/png")
        }
        #expect(error?.code == .typeUnavailable)
    }

    /// A provider of endless bytes under `public.data`, calling `onStop` when its stream is let go.
    static func endlessProvider(onStop: @escaping @Sendable () -> Void) -> TransferProvider {
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(EndlessChunks(onStop: onStop))
        }
        return provider
    }

    /// Reads `descriptor` until its end on a thread of its own, calling `chunk` with the total after each read.
    static func drain(_ descriptor: Int32, chunk: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> Int {
        try await onThreadOfItsOwn {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var total = 0
            while true {
                let count = try Syscall.read(descriptor, into: &buffer)
                guard count > 0 else { return total }
                total += count
                chunk(total)
            }
        }
    }

    @Test("Cancelling the progress stops the write with cancelled and lets the stream go")
    func cancelThroughProgress() async throws {
        let stopped = SanitizedMutex(false)
        let offer = TransferOffer(providers: [Self.endlessProvider { stopped.withLock { $0 = true } }])
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        let progress = TransferProgress()
        let reader = Task { try await Self.drain(pipe.read) { total in if total >= 1 << 20 { progress.cancel() } } }
        let error = await #expect(throws: ClipboardError.self) {
            try await offer.write("public.data", to: pipe.write, progress: progress)
        }
        Syscall.close(pipe.write)
        #expect(error?.code == .cancelled)
        #expect(try await reader.value >= 1 << 20)
        #expect(stopped.withLock { $0 })
    }

    @Test("Cancelling the writing task stops the write with cancelled")
    func cancelThroughTask() async throws {
        let offer = TransferOffer(providers: [Self.endlessProvider {}])
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        let writer = Task { try await offer.write("public.data", to: pipe.write) }
        let reader = Task { try await Self.drain(pipe.read) { total in if total >= 1 << 20 { writer.cancel() } } }
        let error = await #expect(throws: ClipboardError.self) { try await writer.value }
        Syscall.close(pipe.write)
        #expect(error?.code == .cancelled)
        _ = try await reader.value
    }

    @Test("A reader that went away, or stopped reading, is transferFailed")
    func readerGoneOrStalled() async throws {
        try await Self.expectTransferFailedForGoneAndStalledReaders(
            of: TransferOffer(providers: [Self.endlessProvider {}]))
    }

    /// Writes `offer`'s `public.data` to a pipe whose reader has gone, then to one nobody reads: `transferFailed`
    /// with `EPIPE`, then with `ETIMEDOUT`.
    static func expectTransferFailedForGoneAndStalledReaders(
        of offer: TransferOffer, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let gone = try Syscall.makePipe()
        Syscall.close(gone.read)
        defer { Syscall.close(gone.write) }
        let goneError = await #expect(throws: ClipboardError.self, sourceLocation: sourceLocation) {
            try await offer.write("public.data", to: gone.write)
        }
        #expect(goneError?.code == .transferFailed, sourceLocation: sourceLocation)
        #expect((goneError?.cause as? SystemError)?.errorNumber == EPIPE, sourceLocation: sourceLocation)

        let stalled = try Syscall.makePipe()
        defer {
            Syscall.close(stalled.read)
            Syscall.close(stalled.write)
        }
        let stalledError = await #expect(throws: ClipboardError.self, sourceLocation: sourceLocation) {
            try await offer.write("public.data", to: stalled.write, timeout: .milliseconds(200))
        }
        #expect(stalledError?.code == .transferFailed, sourceLocation: sourceLocation)
        #expect((stalledError?.cause as? SystemError)?.errorNumber == ETIMEDOUT, sourceLocation: sourceLocation)
    }

    @Test("A provider's failing loader reaches the writer as its TransferError")
    func failingLoader() async throws {
        struct Broken: Error {}
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .json) { _ in throw Broken() }
        let pipe = try Syscall.makePipe()
        defer {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
        }
        let error = await #expect(throws: TransferError.self) {
            try await TransferOffer(providers: [provider]).write("application/json", to: pipe.write)
        }
        #expect(error?.code == .loaderFailed)
    }

    @Test("A 64 MiB representation is written to a pipe in bounded memory, with its progress")
    func largeRepresentation() async throws {
        let size = 64 << 20
        // How far the stream ran ahead of the reader: the bytes made but not yet read. A write that held the
        // representation (or many chunks of it) in memory would let it run megabytes ahead. This measure, unlike
        // the process's resident memory, does not move with what other tests of the process allocate meanwhile.
        let counts = SanitizedMutex((made: 0, read: 0, lead: 0))
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            let chunks = EndlessChunks {}.prefix(size >> 16).map { @Sendable chunk in
                counts.withLock { counts in
                    counts.made += chunk.count
                    counts.lead = max(counts.lead, counts.made - counts.read)
                }
                return chunk
            }
            return TransferByteStream(length: UInt64(size), chunks)
        }
        let offer = TransferOffer(providers: [provider])
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        let reader = Task {
            try await Self.drain(pipe.read) { total in counts.withLock { $0.read = total } }
        }
        let progress = TransferProgress()
        try await offer.write("public.data", to: pipe.write, progress: progress)
        Syscall.close(pipe.write)
        #expect(try await reader.value == size)
        #expect(progress.totalUnitCount == Int64(size))
        #expect(progress.completedUnitCount == Int64(size))
        let lead = counts.withLock(\.lead)
        #expect(lead < 4 << 20, "the stream ran \(lead >> 10) KiB ahead of the reader while writing 64 MiB")
    }

    @Test("A toolkit's offered names become a provider that reads only the name loaded")
    func lazyReading() async throws {
        let asked = SanitizedMutex<[String]>([])
        let provider = await TransferOffer.provider(
            offering: ["application/json", "text/plain;charset=utf-8", "x-kde-passwordManagerHint", "TARGETS"]
        ) { name, _ in
            asked.withLock { $0.append(name) }
            return TransferByteStream(data: Data(name == "application/json" ? #"{"a":1}"# : "Leia", utf8: ()))
        }
        #expect(provider.registeredTypes == [.json, .utf8PlainText])
        #expect(provider.isConcealed)
        #expect(asked.withLock { $0 }.isEmpty)
        #expect(try await provider.loadObject(ofClass: String.self) == "Leia")
        #expect(asked.withLock { $0 } == ["text/plain;charset=utf-8"])
    }

    @Test("A TransferKit peer's expiry hint becomes the provider's expiration date")
    func expiryHint() async throws {
        let provider = await TransferOffer.provider(
            offering: ["text/plain", "application/x-transferkit-expires"]
        ) { name, _ in
            TransferByteStream(data: Data(name == "text/plain" ? "x" : "1764127512.345", utf8: ()))
        }
        #expect(provider.expirationDate == Date(timeIntervalSince1970: 1_764_127_512.345))
    }

    @Test(
        "A peer's cut mark, KDE's or GNOME's, makes the provider a cut, as Clipboard.read does",
        arguments: [
            ("application/x-kde-cutselection", "1", true), ("x-special/gnome-copied-files", "cut\nfile:///a", true),
            ("x-special/gnome-copied-files", "copy\nfile:///a", false),
        ])
    func cutMark(name: String, bytes: String, isCut: Bool) async throws {
        let provider = await TransferOffer.provider(offering: ["text/uri-list", name]) { offered, _ in
            TransferByteStream(data: Data((offered == name ? bytes : "file:///a").utf8))
        }
        #expect(provider.isCut == isCut)
    }

    @Test("A reader that throws is loaderFailed; bytes that do not decode are decodingFailed")
    func badReader() async throws {
        struct PeerVanished: Error {}
        let throwing = await TransferOffer.provider(offering: ["application/json"]) { _, _ in throw PeerVanished() }
        let thrown = await #expect(throws: TransferError.self) {
            try await throwing.loadDataRepresentation(for: .json)
        }
        #expect(thrown?.code == .loaderFailed)
        #expect(thrown?.cause is PeerVanished)

        let garbage = await TransferOffer.provider(offering: ["text/plain;charset=utf-8"]) { _, _ in
            TransferByteStream(data: Data([0xFF, 0xFE, 0xC0]))
        }
        let undecodable = await #expect(throws: TransferError.self) {
            try await garbage.loadObject(ofClass: String.self)
        }
        #expect(undecodable?.code == .decodingFailed)
    }
}

extension Data {
    /// The UTF-8 bytes of `text`.
    fileprivate init(_ text: String, utf8: Void) { self.init(text.utf8) }
}
