import Foundation
import Synchronization
import Testing
import TransferKitCompatibility
import TransferKitTestSupport

/// The `NSItemProvider` members of issue 42 item 9 that porting code calls: the content-type lists of iOS 16,
/// `preferredPresentationSize`, and the oldest registration, `registerItem(forTypeIdentifier:loadHandler:)`.
@Suite("NSItemProvider parity", .timeLimit(.minutes(5)))
struct ItemProviderParityTests {
    /// A provider with PNG bytes, a JPEG file that opens in place, and UTF-8 text, in that order.
    private func mixedProvider(file: URL) -> NSItemProvider {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(forTypeIdentifier: kUTTypePNG as String, visibility: .all) { completion in
            completion(Data([0x89]), nil)
            return nil
        }
        provider.registerFileRepresentation(
            forTypeIdentifier: kUTTypeJPEG as String, fileOptions: [.openInPlace], visibility: .all
        ) { completion in
            completion(file, false, nil)
            return nil
        }
        provider.registerDataRepresentation(forTypeIdentifier: kUTTypeUTF8PlainText as String, visibility: .all) {
            completion in
            completion(Data("hi".utf8), nil)
            return nil
        }
        return provider
    }

    @Test("registeredContentTypes lists UTTypes in fidelity order; the open-in-place list has only such files")
    func contentTypes() throws {
        let provider = mixedProvider(file: URL(fileURLWithPath: "/tmp/photo.jpg"))
        #expect(provider.registeredContentTypes == [UTType.png, .jpeg, .utf8PlainText])
        #expect(provider.registeredContentTypes.map(\.identifier) == provider.registeredTypeIdentifiers)
        #expect(provider.registeredContentTypesForOpenInPlace == [UTType.jpeg])
        #expect(NSItemProvider(object: "text" as NSString).registeredContentTypesForOpenInPlace.isEmpty)
    }

    @Test("registeredContentTypes(conformingTo:) keeps the registered types that conform, in order, itself included")
    func conformingTypes() throws {
        let provider = mixedProvider(file: URL(fileURLWithPath: "/tmp/photo.jpg"))
        #expect(provider.registeredContentTypes(conformingTo: .image) == [UTType.png, .jpeg])
        #expect(provider.registeredContentTypes(conformingTo: .data) == [UTType.png, .jpeg, .utf8PlainText])
        #expect(provider.registeredContentTypes(conformingTo: .png) == [UTType.png])
        #expect(provider.registeredContentTypes(conformingTo: .text) == [UTType.utf8PlainText])
        #expect(provider.registeredContentTypes(conformingTo: .movie).isEmpty)
        // A type that only a converter could derive (HTML from text, say) is not registered, so it does not count.
        #expect(provider.registeredContentTypes(conformingTo: .html).isEmpty)
    }

    @Test("preferredPresentationSize starts at zero, keeps what iOS code sets, and travels through an archive")
    func presentationSize() async throws {
        let provider = NSItemProvider(object: "card" as NSString)
        #expect(provider.preferredPresentationSize == .zero)
        provider.preferredPresentationSize = CGSize(width: 320, height: 200.5)
        #expect(provider.preferredPresentationSize == CGSize(width: 320, height: 200.5))
        #expect(
            provider.transferProvider.metadata[NSItemProvider.presentationSizeMetadataKey]
                == .array([.double(320), .double(200.5)]))

        let archive = try await TransferArchive(providers: [provider.transferProvider])
        for format in [TransferArchiveFormat.json, .cbor] {
            let bytes = try archive.encoded(as: format)
            let received = try TransferArchive(decoding: bytes).makeProviders()[0]
            #expect(
                NSItemProvider(transferProvider: received).preferredPresentationSize
                    == CGSize(width: 320, height: 200.5))
        }

        provider.preferredPresentationSize = .zero
        #expect(provider.transferProvider.metadata[NSItemProvider.presentationSizeMetadataKey] == nil)
        provider.transferProvider.metadata[NSItemProvider.presentationSizeMetadataKey] = .array([.string("wide")])
        #expect(provider.preferredPresentationSize == .zero)
        provider.transferProvider.metadata[NSItemProvider.presentationSizeMetadataKey] = .array([
            .integer(4), .integer(3),
        ])
        #expect(provider.preferredPresentationSize == CGSize(width: 4, height: 3))
    }

    @Test("registerItem's handler runs per load with NSData expected and no options; NSString arrives as UTF-8")
    func registerItemText() async throws {
        let calls = Mutex<[(String, Bool)]>([])
        let provider = NSItemProvider()
        provider.registerItem(forTypeIdentifier: kUTTypePlainText as String) { completion, expectedClass, options in
            calls.withLock { $0.append((expectedClass.map { "\($0)" } ?? "nil", options == nil)) }
            completion?("Luke" as NSString, nil)
        }
        #expect(provider.registeredContentTypes == [UTType.plainText])
        let (item, _) = await loadedItem(provider, kUTTypeText as String)
        #expect((item as? NSData).map { Data(referencing: $0) } == Data("Luke".utf8))
        let (text, _) = await completion { provider.loadObject(ofClass: String.self, completionHandler: $0) }
        #expect(text == "Luke")
        #expect(calls.withLock { $0.map(\.0) } == ["NSData", "NSData"])
        #expect(calls.withLock { $0.allSatisfy(\.1) })
        let archive = try await TransferArchive(providers: [provider.transferProvider])
        #expect(archive.items[0].representations.map(\.data) == [Data("Luke".utf8)])
    }

    @Test("registerItem for a URL type expects NSURL and hands the URL back as NSURL")
    func registerItemURL() async throws {
        let url = try #require(URL(string: "https://example.com/card"))
        let expected = Mutex<String?>(nil)
        let provider = NSItemProvider()
        provider.registerItem(forTypeIdentifier: kUTTypeURL as String) { completion, expectedClass, _ in
            expected.withLock { $0 = expectedClass.map { "\($0)" } }
            completion?(url as NSURL, nil)
        }
        let (item, _) = await loadedItem(provider, kUTTypeURL as String)
        #expect((item as? NSURL)?.absoluteString == "https://example.com/card")
        #expect(expected.withLock { $0 } == "NSURL")
        let (loaded, _) = await completion { provider.loadObject(ofClass: URL.self, completionHandler: $0) }
        #expect(loaded == url)
    }

    @Test(
        "registerItem: the handler's error arrives unchanged; another class is -1100; a bad identifier registers nothing"
    )
    func registerItemErrors() async throws {
        let failing = NSItemProvider()
        failing.registerItem(forTypeIdentifier: kUTTypeData as String) { completion, _, _ in
            completion?(nil, NSError(domain: "com.example.cards", code: 7))
        }
        let (_, error) = await loadedItem(failing, kUTTypeData as String)
        #expect(domainAndCode(error)! == ("com.example.cards", 7))

        let number = NSItemProvider()
        number.registerItem(forTypeIdentifier: kUTTypeData as String) { completion, _, _ in
            completion?(NSNumber(value: 42), nil)
        }
        let (_, wrongClass) = await loadedItem(number, kUTTypeData as String)
        #expect(domainAndCode(wrongClass)! == (NSItemProviderErrorDomain, -1100))
        let (_, wrongData) = await completion {
            number.loadDataRepresentation(forTypeIdentifier: kUTTypeData as String, completionHandler: $0)
        }
        #expect(domainAndCode(wrongData)! == (NSItemProviderErrorDomain, -1100))

        let empty = NSItemProvider()
        empty.registerItem(forTypeIdentifier: kUTTypeData as String) { completion, _, _ in completion?(nil, nil) }
        let (_, nothing) = await loadedItem(empty, kUTTypeData as String)
        #expect(domainAndCode(nothing)! == (NSItemProviderErrorDomain, -1))

        let invalid = NSItemProvider()
        invalid.registerItem(forTypeIdentifier: "not a type!") { completion, _, _ in completion?(Data() as NSData, nil)
        }
        #expect(invalid.registeredContentTypes.isEmpty)
    }
}
