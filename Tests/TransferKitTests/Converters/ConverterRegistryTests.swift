import Foundation
import Synchronization
import Testing
import TransferKit
import UniformTypes

@Suite("The converter registry", .timeLimit(.minutes(5)))
struct ConverterRegistryTests {
    /// Counts how often its conversions ran, across tasks.
    final class Counter: Sendable {
        let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// A converter that prefixes its input with its destination's identifier, counting its runs.
    static func tagging(
        _ source: UniformType, _ destination: UniformType, cost: TransferConverter.Cost, counter: Counter? = nil,
        allowsLongerChains: Bool = false
    ) -> TransferConverter {
        TransferConverter(from: source, to: destination, cost: cost, allowsLongerChains: allowsLongerChains) { input in
            counter?.increment()
            return Data("\(destination.identifier)(".utf8) + input + Data(")".utf8)
        }
    }

    static func provider(_ types: [UniformType], registry: TransferConverterRegistry) -> TransferProvider {
        let provider = TransferProvider()
        provider.converters = registry
        for type in types {
            provider.registerDataRepresentation(for: type) { _ in Data(type.identifier.utf8) }
        }
        return provider
    }

    @Test("Derived types follow the registered ones, cheapest first, chaining at most once unless declared")
    func ordering() {
        let registry = TransferConverterRegistry(converters: [
            Self.tagging(.html, .rtf, cost: 20),
            Self.tagging(.html, .xml, cost: 10),
            Self.tagging(.rtf, .yaml, cost: 5),
            Self.tagging(.yaml, .css, cost: 1),
            Self.tagging(.json, .xml, cost: 1),  // from a later registered type: cheaper, so it wins for xml
        ])
        let provider = Self.provider([.html, .json], registry: registry)
        #expect(provider.registeredTypes == [.html, .json])
        #expect(provider.offeredTypes == [.html, .json, .xml, .rtf, .yaml])
        let derivations = registry.derivations(from: [.html, .json])
        #expect(
            derivations.map(\.description) == [
                "public.json → public.xml", "public.html → public.rtf",
                "public.html → public.rtf → public.yaml",
            ])
        #expect(derivations.map(\.cost.rawValue) == [1, 20, 25])

        // A converter that declares longer chains lets the next one run past the limit.
        let declared = TransferConverterRegistry(converters: [
            Self.tagging(.html, .rtf, cost: 20),
            Self.tagging(.rtf, .yaml, cost: 5, allowsLongerChains: true),
            Self.tagging(.yaml, .css, cost: 1),
        ])
        #expect(Self.provider([.html], registry: declared).offeredTypes == [.html, .rtf, .yaml, .css])
        declared.maximumSteps = 1
        #expect(Self.provider([.html], registry: declared).offeredTypes == [.html, .rtf])
    }

    @Test("A converter runs only when its type is loaded, and never for a registered type")
    func laziness() async throws {
        let counter = Counter()
        let registry = TransferConverterRegistry(converters: [
            Self.tagging(.html, .rtf, cost: 10, counter: counter),
            Self.tagging(.rtf, .yaml, cost: 10, counter: counter),
        ])
        let provider = Self.provider([.html, .json], registry: registry)
        #expect(provider.offeredTypes == [.html, .json, .rtf, .yaml])
        #expect(provider.hasRepresentation(conformingTo: .rtf))
        #expect(counter.count == 0)
        #expect(try await provider.loadDataRepresentation(for: .html) == Data("public.html".utf8))
        #expect(try await provider.loadDataRepresentation(for: .json) == Data("public.json".utf8))
        #expect(counter.count == 0)
        let rtf = try await provider.loadDataRepresentation(for: .rtf)
        #expect(String(decoding: rtf, as: UTF8.self) == "public.rtf(public.html)")
        #expect(counter.count == 1)
        var chunks = Data()
        for try await chunk in try await provider.loadStream(for: .yaml) {
            chunks.append(chunk)
        }
        #expect(String(decoding: chunks, as: UTF8.self) == "public.yaml(public.rtf(public.html))")
        #expect(counter.count == 3)
        let size = try await provider.loadFileRepresentation(for: .rtf) { url in
            try Data(contentsOf: url).count
        }
        #expect(size == rtf.count)
        #expect(counter.count == 4)
    }

    @Test("A registered type is never replaced by a derived one, and the one choice rule ranks derived types last")
    func choice() async throws {
        let registry = TransferConverterRegistry(converters: [Self.tagging(.html, .utf8PlainText, cost: 10)])
        let both = Self.provider([.html, .utf8PlainText], registry: registry)
        #expect(try await both.loadDataRepresentation(for: .utf8PlainText) == Data("public.utf8-plain-text".utf8))
        #expect(both.offeredTypes == [.html, .utf8PlainText])

        // public.text: the registered HTML conforms, so it wins over derived plain text.
        let html = Self.provider([.html], registry: registry)
        #expect(try await html.loadDataRepresentation(for: .text) == Data("public.html".utf8))
        let plain = try await html.loadDataRepresentation(for: .plainText)
        #expect(String(decoding: plain, as: UTF8.self) == "public.utf8-plain-text(public.html)")
        // A reader that prefers plain text gets the derived plain text, as the rule over the offered list says.
        let text = try await html.loadObject(ofClass: String.self)
        #expect(text == "public.utf8-plain-text(public.html)")
    }

    @Test("Adopters register their own converter with one call; without converters nothing is derived")
    func adopterConverterAndEmptyRegistry() async throws {
        let vCard = UniformType.vCard
        let registry = TransferConverterRegistry()
        registry.register(
            TransferConverter(from: .json, to: vCard, cost: .lossy) { json in
                let name = String(decoding: json, as: UTF8.self)
                return Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:\(name)\r\nEND:VCARD\r\n".utf8)
            })
        let provider = Self.provider([.json], registry: registry)
        #expect(provider.offeredTypes == [.json, vCard])
        let card = try await provider.loadDataRepresentation(for: vCard)
        #expect(String(decoding: card, as: UTF8.self).contains("FN:public.json"))

        provider.converters = TransferConverterRegistry()
        #expect(provider.offeredTypes == [.json])
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: vCard)
        }
        #expect(error?.code == .unavailableRepresentation)
    }

    @Test("A conversion that fails reaches the reader as conversionFailed")
    func conversionFailure() async throws {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data([0x41, 0xC0, 0x80]) }  // overlong NUL
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: .utf16ExternalPlainText)
        }
        #expect(error?.code == .conversionFailed)
        let streamError = await #expect(throws: TransferError.self) {
            for try await _ in try await provider.loadStream(for: .utf16PlainText) {}
        }
        #expect(streamError?.code == .conversionFailed)
    }

    @Test("The shared registry derives the built-in text types from UTF-8 text")
    func sharedRegistry() async throws {
        let provider = TransferProvider(data: Data("héllo".utf8), type: .utf8PlainText)
        #expect(provider.offeredTypes.first == .utf8PlainText)
        #expect(provider.offeredTypes.contains(.utf16ExternalPlainText))
        #expect(provider.offeredTypes.contains(.latin1PlainText))
        let utf16 = try await provider.loadDataRepresentation(for: .utf16ExternalPlainText)
        #expect(Array(utf16) == [0xFF, 0xFE, 0x68, 0, 0xE9, 0, 0x6C, 0, 0x6C, 0, 0x6F, 0])
    }
}
