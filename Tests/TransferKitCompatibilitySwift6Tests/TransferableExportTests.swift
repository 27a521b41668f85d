import Foundation
import Testing
import TransferKitCompatibility
import TransferKitTestSupport

extension UTType {
    static let poster = UTType(exportedAs: "com.example.swift6.poster", conformingTo: .json)
}

/// A poster: JSON first (saved as `<title>.poster`), an HTML page it only exports, then its title as text, which a
/// titled poster exports and any text imports.
struct Poster: Codable, Equatable, Sendable, Transferable {
    var title: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .poster)
            .suggestedFileName { "\($0.title).poster" }
        DataRepresentation(exportedContentType: .html) { Data("<h1>\($0.title)</h1>".utf8) }
        ProxyRepresentation(exporting: \.title, importing: { Poster(title: $0) })
            .exportingCondition { !$0.title.isEmpty }
    }
}

/// A clip kept in a file: its importer records the file it was handed.
struct Clip: Equatable, Sendable, Transferable {
    var text: String
    var receivedFile: URL?

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(contentType: .plainText) { clip in
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("clip-\(UUID().uuidString).txt")
            try Data(clip.text.utf8).write(to: url)
            return SentTransferredFile(url)
        } importing: { received in
            Clip(text: try String(contentsOf: received.file, encoding: .utf8), receivedFile: received.file)
        }
    }
}

/// A type whose exporter fails and which imports nothing.
struct Broken: Sendable, Transferable {
    struct Failure: Error {}

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .data) { (_: Broken) in throw Failure() }
    }
}

/// CoreTransferable's export and import methods of iOS 18.2 and macOS 15.2, in Swift 6 mode.
@Suite("Transferable export and import", .timeLimit(.minutes(5)))
struct TransferableExportTests {
    let luke = Poster(title: "Luke")

    @Test("exported(as:) uses the first exported representation that conforms, or the first one")
    func exported() async throws {
        let first = try await luke.exported(as: nil)
        #expect(try JSONDecoder().decode(Poster.self, from: first) == luke)
        #expect(try await luke.exported(as: .json) == first)
        #expect(try await luke.exported(as: .html) == Data("<h1>Luke</h1>".utf8))
        #expect(try await luke.exported(as: .plainText) == Data("Luke".utf8))
        #expect(try await Data("raw".utf8).exported(as: nil) == Data("raw".utf8))
    }

    @Test("exported(as:) of a type nothing exports is unavailableRepresentation; an exporter's error is loaderFailed")
    func exportErrors() async throws {
        #expect(await transferErrorCode { try await luke.exported(as: .png) } == .unavailableRepresentation)
        // The proxy's condition leaves an untitled poster without text.
        #expect(
            await transferErrorCode { try await Poster(title: "").exported(as: .plainText) }
                == .unavailableRepresentation)
        #expect(await transferErrorCode { try await Broken().exported(as: nil) } == .loaderFailed)
    }

    @Test("withExportedFile hands over a named temporary file, deleted after the handler, which need not be Sendable")
    func withExportedFile() async throws {
        var seen: [URL] = []  // a plain local the handler mutates: the handler is neither @Sendable nor escaping
        let decoded = try await luke.withExportedFile(contentType: .poster) { file in
            seen.append(file)
            return try JSONDecoder().decode(Poster.self, from: Data(contentsOf: file))
        }
        #expect(decoded == luke)
        let file = try #require(seen.first)
        #expect(file.lastPathComponent == "Luke.poster")
        #expect(!FileManager.default.fileExists(atPath: file.path))

        let text = try await luke.withExportedFile(contentType: .plainText) { file in
            (file.lastPathComponent, try String(contentsOf: file, encoding: .utf8))
        }
        #expect(text == ("item.txt", "Luke"))

        var kept: URL?
        await #expect(throws: Broken.Failure.self) {
            try await luke.withExportedFile(contentType: nil) { file in
                kept = file
                throw Broken.Failure()
            }
        }
        #expect(kept.map { FileManager.default.fileExists(atPath: $0.path) } == false)
        #expect(
            await transferErrorCode {
                try await luke.withExportedFile(contentType: .png) { _ in Issue.record("no file expected") }
            } == .unavailableRepresentation)
    }

    @Test("export(to:contentType:) writes a new file the caller owns, never over an existing one")
    func exportToFolder() async throws {
        let folder = try makeTemporaryDirectory(prefix: "transferable-export")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await luke.export(to: folder, contentType: .poster)
        #expect(first == folder.appendingPathComponent("Luke.poster"))
        #expect(try JSONDecoder().decode(Poster.self, from: Data(contentsOf: first)) == luke)

        try Data("keep me".utf8).write(to: folder.appendingPathComponent("Luke 2.poster"))
        let third = try await luke.export(to: folder, contentType: nil)
        #expect(third.lastPathComponent == "Luke 3.poster")
        #expect(try Data(contentsOf: folder.appendingPathComponent("Luke 2.poster")) == Data("keep me".utf8))
        #expect(try Data(contentsOf: first) == Data(contentsOf: third))

        let text = try await luke.export(to: folder, contentType: .utf8PlainText)
        #expect(text.lastPathComponent == "item.txt")
        #expect(try Data(contentsOf: text) == Data("Luke".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)

        let remote = try #require(URL(string: "https://example.com/posters/"))
        #expect(await transferErrorCode { try await luke.export(to: remote, contentType: nil) } == .fileCoercionFailed)
        let missing = folder.appendingPathComponent("no such folder", isDirectory: true)
        #expect(await transferErrorCode { try await luke.export(to: missing, contentType: nil) } == .fileCoercionFailed)
        #expect(
            await transferErrorCode { try await luke.export(to: folder, contentType: .png) }
                == .unavailableRepresentation)
    }

    @Test("init(importing:contentType:) reads data through the representation for its type, or tries each in order")
    func importData() async throws {
        let json = try await luke.exported(as: .poster)
        #expect(try await Poster(importing: json, contentType: .poster) == luke)
        #expect(try await Poster(importing: json, contentType: nil) == luke)
        #expect(try await Poster(importing: Data("Han".utf8), contentType: .utf8PlainText) == Poster(title: "Han"))
        // Not JSON, so the Codable representation fails and the String proxy reads it.
        #expect(try await Poster(importing: Data("Han".utf8), contentType: nil) == Poster(title: "Han"))
        #expect(try await String(importing: Data("Leia".utf8), contentType: nil) == "Leia")
        // Poster only exports HTML, but an import reads as a drop would: the built-in converter derives text from it.
        #expect(try await Poster(importing: Data("<h1>Finn</h1>".utf8), contentType: .html) == Poster(title: "Finn"))
    }

    @Test("init(importing:contentType:) errors: a type it does not import, bytes no representation reads")
    func importDataErrors() async throws {
        #expect(
            await transferErrorCode { try await Poster(importing: Data(), contentType: .png) }
                == .unavailableRepresentation)
        #expect(
            await transferErrorCode { try await Poster(importing: Data("{".utf8), contentType: .poster) }
                == .decodingFailed)
        #expect(
            await transferErrorCode { try await Poster(importing: Data([0xC3]), contentType: nil) } == .decodingFailed)
        #expect(
            await transferErrorCode { try await Broken(importing: Data("x".utf8), contentType: nil) }
                == .unavailableRepresentation)
    }

    @Test("init(importing:contentType:) of a file: typed by its name, else every representation tries")
    func importFile() async throws {
        let folder = try makeTemporaryDirectory(prefix: "transferable-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.appendingPathComponent("title.txt")
        try Data("Rey".utf8).write(to: named)
        #expect(try await Poster(importing: named, contentType: nil) == Poster(title: "Rey"))

        let unnamed = folder.appendingPathComponent("poster")
        try await luke.exported(as: .poster).write(to: unnamed)
        #expect(try await Poster(importing: unnamed, contentType: nil) == luke)
        #expect(try await Poster(importing: unnamed, contentType: .poster) == luke)

        // A file representation's importer gets a temporary copy; the caller's file stays where it was.
        let clip = try await Clip(importing: named, contentType: nil)
        #expect(clip.text == "Rey")
        #expect(clip.receivedFile != named)
        #expect(FileManager.default.fileExists(atPath: named.path))
    }

    @Test("init(importing:contentType:) of a file: a missing file or a URL that is not a file is fileCoercionFailed")
    func importFileErrors() async throws {
        let folder = try makeTemporaryDirectory(prefix: "transferable-import-errors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing")
        #expect(
            await transferErrorCode { try await Poster(importing: missing, contentType: nil) } == .fileCoercionFailed)
        #expect(
            await transferErrorCode { try await Poster(importing: missing, contentType: .poster) }
                == .fileCoercionFailed)
        let remote = try #require(URL(string: "https://example.com/poster.json"))
        #expect(
            await transferErrorCode { try await Poster(importing: remote, contentType: .poster) } == .fileCoercionFailed
        )
    }
}

/// The code of the `TransferError` that `body` throws, recording an issue (and giving `nil`) when it throws anything
/// else or nothing.
private func transferErrorCode<R>(
    _ body: () async throws -> R, sourceLocation: SourceLocation = #_sourceLocation
) async -> TransferError.Code? {
    let error = await #expect(throws: TransferError.self, sourceLocation: sourceLocation) { _ = try await body() }
    return error?.code
}
