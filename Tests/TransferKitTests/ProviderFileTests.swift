import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import UniformTypes

@Suite("Data and file representations", .timeLimit(.minutes(5)))
struct ProviderFileTests {
    @Test("A data representation loads as a temporary file that is deleted afterwards")
    func dataAsFile() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = TransferProvider(temporaryDirectory: folder)
        provider.suggestedName = "photo"
        provider.registerDataRepresentation(for: .png) { _ in Data([1, 2, 3]) }

        let (name, bytes) = try await provider.loadFileRepresentation(for: .image) { url in
            (url.lastPathComponent, try Data(contentsOf: url))
        }
        #expect(name == "photo" + (UniformType.png.preferredFilenameExtension.map { "." + $0 } ?? ""))
        #expect(bytes == Data([1, 2, 3]))
        #expect(try contents(of: folder).isEmpty)
    }

    @Test("An empty data representation, and a large one, load as files of exactly their bytes")
    func dataSizesAsFiles() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for bytes in [Data(), large] {
            let provider = TransferProvider(temporaryDirectory: folder)
            provider.registerDataRepresentation(for: .png) { _ in bytes }
            let loaded = try await provider.loadFileRepresentation(for: .png) { url in try Data(contentsOf: url) }
            #expect(loaded == bytes)
        }
        #expect(try contents(of: folder).isEmpty)
    }

    @Test(
        "A temporary file of a type without an extension of its own takes its nearest supertype's",
        arguments: [
            (UniformType.utf8PlainText, "item.txt"),
            (UniformType(exportedAs: "com.example.note", conformingTo: .json), "item.json"),
            (UniformType.png, "item.png"), (UniformType(exportedAs: "com.example.blob"), "item"),
        ])
    func inheritedExtension(type: UniformType, name: String) async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = TransferProvider(temporaryDirectory: folder)
        provider.registerDataRepresentation(for: type) { _ in Data([1]) }
        let written = try await provider.loadFileRepresentation(for: type) { $0.lastPathComponent }
        #expect(written == name)
    }

    @Test("A file representation loads as data, and as a copy that is deleted while the original stays")
    func fileAsDataAndCopy() async throws {
        let folder = try makeTemporaryDirectory()
        let source = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: source)
        }
        let original = source.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: original)
        let provider = TransferProvider(contentsOf: original)
        provider.temporaryDirectory = folder

        #expect(provider.suggestedName == "notes.txt")
        #expect(provider.registeredTypes.first?.conforms(to: .text) == true)
        #expect(try await provider.loadDataRepresentation(for: .text) == Data("hello".utf8))
        let copied = try await provider.loadFileRepresentation(for: .data) { url in
            #expect(url != original)
            #expect(url.lastPathComponent == "notes.txt")
            return try Data(contentsOf: url)
        }
        #expect(copied == Data("hello".utf8))
        #expect(try contents(of: folder).isEmpty)
        #expect(FileManager.default.fileExists(atPath: original.path))
    }

    @Test("A file with an unknown extension is public.data")
    func unknownExtension() {
        let provider = TransferProvider(contentsOf: URL(fileURLWithPath: "/tmp/archive.unknown-extension-xyz"))
        #expect(provider.registeredTypes == [.data])
    }

    @Test("A file opened in place is handed over as it is and not deleted")
    func openInPlace() async throws {
        let source = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: source) }
        let original = source.appendingPathComponent("in-place.png")
        try Data([9]).write(to: original)
        let provider = TransferProvider()
        provider.registerFileRepresentation(for: .png, openInPlace: true) { _ in original }

        let url = try await provider.loadFileRepresentation(for: .png) { $0 }
        #expect(url == original)
        #expect(FileManager.default.fileExists(atPath: original.path))
    }

    @Test("Temporary files are deleted when the closure throws")
    func cleanupAfterBodyFailure() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = TransferProvider(temporaryDirectory: folder)
        provider.registerDataRepresentation(for: .png) { _ in Data([1]) }

        await #expect(throws: LoaderBroke.self) {
            try await provider.loadFileRepresentation(for: .png) { url -> Void in
                #expect(FileManager.default.fileExists(atPath: url.path))
                throw LoaderBroke()
            }
        }
        #expect(try contents(of: folder).isEmpty)
    }

    @Test("Temporary files are deleted when the loader fails, which is a loaderFailed error keeping the cause")
    func cleanupAfterLoaderFailure() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = TransferProvider(temporaryDirectory: folder)
        provider.registerDataRepresentation(for: .png) { _ in throw LoaderBroke() }

        let error = await #expect(throws: TransferError.self) {
            try await provider.loadFileRepresentation(for: .png) { _ in Issue.record("The body must not run") }
        }
        #expect(error?.code == .loaderFailed)
        #expect(error?.cause as? LoaderBroke == LoaderBroke())
        #expect(try contents(of: folder).isEmpty)
    }

    @Test("Temporary files are deleted when the load is cancelled")
    func cleanupAfterCancellation() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = StartSignal()
        let provider = TransferProvider(temporaryDirectory: folder)
        provider.registerDataRepresentation(for: .png) { progress in
            started.fire()
            try await waitForCancellation(of: progress)
        }
        let progress = TransferProgress()
        let load = Task {
            try await provider.loadFileRepresentation(for: .png, progress: progress) { _ in
                Issue.record("The body must not run")
            }
        }
        await started.wait()
        #expect(try contents(of: folder).count == 1)  // the load's folder exists while it runs
        progress.cancel()
        let error = await #expect(throws: TransferError.self) { try await load.value }
        #expect(error?.code == .cancelled)
        #expect(try contents(of: folder).isEmpty)
    }

    @Test("A missing file is a fileCoercionFailed error when loaded as data")
    func missingFile() async throws {
        let provider = TransferProvider(contentsOf: URL(fileURLWithPath: "/nonexistent/TransferKit/gone.png"))
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: .data)
        }
        #expect(error?.code == .fileCoercionFailed)
        #expect(error?.cause != nil)
    }

    @Test("An unwritable temporary directory is a fileCoercionFailed error")
    func unwritableTemporaryDirectory() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("file")
        try Data().write(to: blocker)
        let provider = TransferProvider(temporaryDirectory: blocker)  // a file, not a folder
        provider.registerDataRepresentation(for: .png) { _ in Data([1]) }

        let error = await #expect(throws: TransferError.self) {
            try await provider.loadFileRepresentation(for: .png) { _ in Issue.record("The body must not run") }
        }
        #expect(error?.code == .fileCoercionFailed)
    }
}
