import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import UniformTypes

/// Registration's duplicate rule at the size of a peer's flood: a set lookup per registration, so 100 000 distinct
/// types register in linear time (a linear scan each made a provider of 30 000 offered names take 35 s); the first
/// registration of a type wins, case-insensitively, whatever the kind of representation.
@Suite("Provider registration at scale", .timeLimit(.minutes(5)))
struct ProviderRegistrationTests {
    @Test("100 000 distinct types register once each, in order; equal types (any case, any kind) are refused")
    func manyTypesOnceEach() async throws {
        let count = 100_000
        // Seconds of synchronous work in a debug build, a minute under the thread sanitizer: on a thread of its own,
        // not one of the test pool's two.
        let (provider, accepted) = try await onThreadOfItsOwn { () throws -> (TransferProvider, Int) in
            let provider = TransferProvider()
            var accepted = 0
            for index in 0..<count {
                guard let type = UniformType("com.example.flood-\(index)") else { throw CocoaError(.coderInvalidValue) }
                if provider.registerDataRepresentation(for: type, loadHandler: { _ in Data() }) { accepted += 1 }
            }
            return (provider, accepted)
        }
        #expect(accepted == count)
        let again = try #require(UniformType("COM.EXAMPLE.FLOOD-7"))
        #expect(!provider.registerDataRepresentation(for: again) { _ in Data() })
        #expect(!provider.registerFileRepresentation(for: again) { _ in URL(fileURLWithPath: "/dev/null") })
        #expect(!provider.registerStreamRepresentation(for: again) { _ in TransferByteStream(data: Data()) })
        let types = provider.registeredTypes
        #expect(types.count == count)
        #expect(types.first?.identifier == "com.example.flood-0")
        #expect(types.last?.identifier == "com.example.flood-\(count - 1)")
        #expect(provider.representations[7].kind == .data, "the first registration of a type stays")
    }
}

/// The duplicate rule on both sides of the point where a provider stops comparing types one by one and keeps a set.
@Suite("Provider registration: the duplicate rule around the set's threshold")
struct ProviderDuplicateThresholdTests {
    @Test(
        "every type registered again, in any case and any kind, is refused at every count",
        arguments: [1, 2, 15, 16, 17, 40])
    func duplicatesRefusedAtEveryCount(count: Int) throws {
        let provider = TransferProvider()
        let types = try (0..<count).map { try #require(UniformType("com.example.threshold-\($0)")) }
        for type in types {
            #expect(provider.registerDataRepresentation(for: type) { _ in Data() })
        }
        for index in 0..<count {
            let again = try #require(UniformType("COM.EXAMPLE.THRESHOLD-\(index)"))
            #expect(!provider.registerDataRepresentation(for: again) { _ in Data() })
            #expect(!provider.registerFileRepresentation(for: again) { _ in URL(fileURLWithPath: "/dev/null") })
        }
        #expect(provider.registeredTypes == types)
        #expect(provider.registeredTypes.map(\.identifier) == types.map(\.identifier), "the first spelling stays")
        let next = try #require(UniformType("com.example.threshold-\(count)"))
        #expect(provider.registerDataRepresentation(for: next) { _ in Data() })
        #expect(provider.registeredTypes.last == next)
    }
}
