import Foundation
import Testing
import TransferKitCompatibility
import TransferKitTestSupport

/// The rest of Apple's `NSItemProvider` surface: lazy objects, files, in-place files, options and names.
@Suite("NSItemProvider API", .timeLimit(.minutes(5)))
struct ItemProviderAPITests {
    @Test("registerObject(ofClass:) creates the object per load; a handler giving another class is -1100")
    func lazyObject() async throws {
        let provider = NSItemProvider()
        provider.registerObject(ofClass: ThrowingModel.self, visibility: .all) { completion in
            completion(ThrowingModel(name: "lazy"), nil)
            return nil
        }
        #expect(provider.registeredTypeIdentifiers == [kUTTypeJSON as String])
        let (object, _) = await completion { provider.loadObject(ofClass: ThrowingModel.self, completionHandler: $0) }
        #expect((object as? ThrowingModel)?.name == "lazy")

        let wrong = NSItemProvider()
        wrong.registerObject(ofClass: ThrowingModel.self, visibility: .all) { completion in
            completion("not a model" as NSString, nil)
            return nil
        }
        let (_, error) = await completion { wrong.loadObject(ofClass: ThrowingModel.self, completionHandler: $0) }
        #expect(domainAndCode(error)! == (NSItemProviderErrorDomain, -1100))
    }

    @Test("File representations load as files and data; in place only when registered so")
    func files() async throws {
        let folder = try makeTemporaryDirectory(prefix: "compatibility-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("note.txt")
        try Data("on disk".utf8).write(to: file)
        let provider = NSItemProvider()
        provider.registerFileRepresentation(
            forTypeIdentifier: kUTTypePlainText as String, fileOptions: [.openInPlace], visibility: .all
        ) { completion in
            completion(file, false, nil)
            return nil
        }
        provider.registerFileRepresentation(forTypeIdentifier: kUTTypePNG as String, visibility: .ownProcess) {
            completion in
            completion(file, false, nil)
            return nil
        }
        #expect(provider.registeredTypeIdentifiers(fileOptions: [.openInPlace]) == [kUTTypePlainText as String])
        #expect(provider.registeredTypeIdentifiers(fileOptions: []).count == 2)
        #expect(
            provider.hasRepresentationConforming(toTypeIdentifier: kUTTypeText as String, fileOptions: [.openInPlace]))
        #expect(
            !provider.hasRepresentationConforming(toTypeIdentifier: kUTTypeImage as String, fileOptions: [.openInPlace])
        )
        #expect(provider.hasItemConformingToTypeIdentifier(kUTTypeImage as String))

        let inPlace: (URL?, Bool) = await withCheckedContinuation { continuation in
            provider.loadInPlaceFileRepresentation(forTypeIdentifier: kUTTypePlainText as String) { url, isInPlace, _ in
                continuation.resume(returning: (url, isInPlace))
            }
        }
        #expect(inPlace.0 == file && inPlace.1)
        let copy: (URL?, Bool) = await withCheckedContinuation { continuation in
            provider.loadInPlaceFileRepresentation(forTypeIdentifier: kUTTypePNG as String) { url, isInPlace, _ in
                continuation.resume(returning: (url, isInPlace))
            }
        }
        #expect(copy.0 != file && !copy.1)
        let (data, _) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: kUTTypePNG as String, completionHandler: $0)
        }
        #expect(data == Data("on disk".utf8))
        let archive = try await TransferArchive(providers: [provider.transferProvider])
        #expect(archive.items[0].representations.map(\.type.identifier) == [kUTTypePlainText as String])
    }

    @Test("init(contentsOf:) types the file by extension and names the item; nil for a missing file")
    func contentsOf() async throws {
        let folder = try makeTemporaryDirectory(prefix: "compatibility-contents")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("card.json")
        try Data("{}".utf8).write(to: file)
        let provider = try #require(NSItemProvider(contentsOf: file))
        #expect(provider.registeredTypeIdentifiers == [kUTTypeJSON as String])
        #expect(provider.suggestedName == "card.json")
        #expect(NSItemProvider(contentsOf: folder.appendingPathComponent("missing.json")) == nil)
        #expect(NSItemProvider(contentsOf: URL(string: "https://example.com/a.json")) == nil)
    }

    @Test("URLs and NSStrings write and read as Apple's do; init(item:) without a type uses the item's own")
    func foundationObjects() async throws {
        let url = URL(fileURLWithPath: "/tmp/a.txt")
        let provider = NSItemProvider(object: url as NSURL)
        #expect(provider.registeredTypeIdentifiers == [kUTTypeFileURL as String, kUTTypeURL as String])
        let (copy, _) = await completion { provider.loadObject(ofClass: URL.self, completionHandler: $0) }
        #expect(copy == url)
        let text = NSItemProvider(object: "hi" as NSString)
        #expect(text.registeredTypeIdentifiers == [kUTTypeUTF8PlainText as String])
        #expect(
            NSItemProvider(item: "hi" as NSString, typeIdentifier: nil).registeredTypeIdentifiers == [
                kUTTypeUTF8PlainText
            ])
        #expect(NSItemProvider(item: url as NSURL, typeIdentifier: nil).registeredTypeIdentifiers == [kUTTypeFileURL])
        #expect(NSItemProvider(item: nil, typeIdentifier: kUTTypeData).registeredTypeIdentifiers.isEmpty)
        let invalid = NSItemProvider()
        invalid.registerDataRepresentation(forTypeIdentifier: "not valid", visibility: .all) { _ in nil }
        invalid.registerFileRepresentation(forTypeIdentifier: "not valid", visibility: .all) { _ in nil }
        #expect(invalid.registeredTypeIdentifiers.isEmpty)
    }

    @Test("Asking for a subclass of NSString is unexpectedValueClass (-1100)")
    func subclass() async {
        let provider = NSItemProvider(item: Data("x".utf8) as NSData, typeIdentifier: kUTTypePlainText as String)
        let (_, error) = await completion { provider.loadObject(ofClass: NSMutableString.self, completionHandler: $0) }
        #expect(domainAndCode(error)! == (NSItemProviderErrorDomain, -1100))
    }

    @Test("Visibility other than all keeps a representation out of archives")
    func visibility() async throws {
        let provider = NSItemProvider()
        provider.registerObject(ThrowingModel(name: "private"), visibility: .group)
        #expect(provider.registeredTypeIdentifiers == [kUTTypeJSON as String])
        let archive = try await TransferArchive(providers: [provider.transferProvider])
        #expect(archive.items[0].representations.isEmpty)
    }

    @Test("loadItem(forTypeIdentifier:options:completionHandler:) hands over NSData, or NSURL for URL types")
    func loadItem() async throws {
        let text = NSItemProvider(item: Data("hi".utf8) as NSData, typeIdentifier: kUTTypePlainText as String)
        let (item, error) = await loadedItem(text, kUTTypeText as String)
        #expect((item as? NSData).map { Data(referencing: $0) } == Data("hi".utf8))
        #expect(error == nil)

        let url = try #require(URL(string: "https://example.com/a"))
        let link = NSItemProvider(item: url as NSURL, typeIdentifier: nil)
        let (linkItem, _) = await loadedItem(link, kUTTypeURL as String)
        #expect((linkItem as? NSURL)?.absoluteString == "https://example.com/a")

        let (_, missing) = await loadedItem(text, kUTTypePNG as String)
        #expect(domainAndCode(missing)! == (NSItemProviderErrorDomain, -1000))
        let (_, invalid) = await loadedItem(text, "not a type!")
        #expect(domainAndCode(invalid)! == (NSItemProviderErrorDomain, -1000))
        let broken = NSItemProvider(item: Data([0xFF]) as NSData, typeIdentifier: kUTTypeURL as String)
        let (_, undecodable) = await loadedItem(broken, kUTTypeURL as String)
        #expect(domainAndCode(undecodable)! == (NSItemProviderErrorDomain, -1100))
    }
}
