import Foundation
import Testing
import TransferKitCompatibility

/// Bad data and bad requests through the Apple spellings give Apple's error domain and codes, never a crash.
@Suite("Apple's error codes", .timeLimit(.minutes(5)))
struct AppleErrorTests {
    @Test("A type that nothing conforms to is itemUnavailable (-1000); so is an invalid identifier")
    func itemUnavailable() async {
        let provider = NSItemProvider(item: Data("x".utf8) as NSData, typeIdentifier: kUTTypePlainText as String)
        for identifier in [kUTTypePNG as String, "not an identifier"] {
            let (data, error) = await completion {
                provider.loadDataRepresentation(forTypeIdentifier: identifier, completionHandler: $0)
            }
            #expect(data == nil)
            #expect(domainAndCode(error)! == (NSItemProviderErrorDomain, -1000))
        }
        let (url, fileError) = await completion {
            provider.loadFileRepresentation(forTypeIdentifier: kUTTypeJPEG as String, completionHandler: $0)
        }
        #expect(url == nil)
        #expect(
            domainAndCode(fileError)! == (
                NSItemProviderErrorDomain, NSItemProvider.ErrorCode.itemUnavailableError.rawValue
            ))
    }

    @Test("A class none of whose types is offered is unavailableCoercion (-1200)")
    func unavailableCoercion() async {
        let provider = NSItemProvider(item: Data([0x89]) as NSData, typeIdentifier: kUTTypePNG as String)
        #expect(!provider.canLoadObject(ofClass: String.self))
        let (text, error) = await completion { provider.loadObject(ofClass: String.self, completionHandler: $0) }
        #expect(text == nil)
        #expect(domainAndCode(error)! == (NSItemProviderErrorDomain, -1200))
    }

    @Test(
        "Bytes the class cannot read are unexpectedValueClass (-1100), with the reader's error underneath",
        arguments: [
            ("{", kUTTypeJSON as String), ("\u{FF}", kUTTypeUTF8PlainText as String), ("no url", kUTTypeURL as String),
        ])
    func unexpectedValueClass(text: String, identifier: String) async throws {
        let bytes = text == "\u{FF}" ? Data([0xFF, 0xFE, 0x00]) : Data(text.utf8)
        let provider = NSItemProvider(item: bytes as NSData, typeIdentifier: identifier)
        let error: (any Error)?
        if identifier == kUTTypeJSON as String {
            error = await completion { provider.loadObject(ofClass: ThrowingModel.self, completionHandler: $0) }.error
        } else if identifier == kUTTypeURL as String {
            error = await completion { provider.loadObject(ofClass: URL.self, completionHandler: $0) }.error
        } else {
            error = await completion { provider.loadObject(ofClass: String.self, completionHandler: $0) }.error
        }
        #expect(domainAndCode(error)! == (NSItemProviderErrorDomain, -1100))
        #expect((error as NSError?)?.userInfo[NSUnderlyingErrorKey] != nil)
    }

    @Test("A load handler's own error reaches the caller unchanged")
    func handlerError() async {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(forTypeIdentifier: kUTTypeJSON as String, visibility: .all) { completion in
            completion(nil, CocoaError(.fileReadNoPermission))
            return nil
        }
        let (_, error) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: kUTTypeJSON as String, completionHandler: $0)
        }
        #expect((error as? CocoaError)?.code == .fileReadNoPermission)
    }

    @Test("Cancelling the returned Progress of a running load cancels it and the handler's own Progress")
    func cancel() async throws {
        let handlerProgress = Progress(totalUnitCount: 1)
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let provider = NSItemProvider()
        provider.registerDataRepresentation(forTypeIdentifier: kUTTypeData as String, visibility: .all) { completion in
            handlerProgress.cancellationHandler = { completion(nil, CocoaError(.userCancelled)) }
            startedContinuation.yield()
            return handlerProgress
        }
        var returned: Progress?
        let result = await withCheckedContinuation { continuation in
            returned = provider.loadDataRepresentation(forTypeIdentifier: kUTTypeData as String) { data, error in
                continuation.resume(returning: (data, error))
            }
            Task {
                for await _ in started { break }
                returned?.cancel()
            }
        }
        #expect(result.0 == nil)
        #expect(domainAndCode(result.1)! == (NSCocoaErrorDomain, CocoaError.userCancelled.rawValue))
        #expect(handlerProgress.isCancelled)
        #expect(returned?.isCancelled == true)
    }
}
