import Foundation
import Testing
import TransferArchive
import UniformTypes

/// The types of consecutive items, same or different, as the streaming writer and reader see them (both remember the
/// last type they checked, and skip the duplicate check for items of one representation).
@Suite("Archive item types", .timeLimit(.minutes(5)))
struct ArchiveItemTypeTests {
    private let png = UniformType.png
    private let text = UniformType.utf8PlainText

    @Test("items with the same, then other, then mixed types read back with their own types")
    func mixedTypes() throws {
        let items: [[UniformType]] = [[png], [png], [text], [png, text], [text], [text, png], [png]]
        var bytes: [UInt8] = []
        var writer = TransferArchiveWriter { bytes.append(contentsOf: $0) }
        try writer.begin(itemCount: items.count)
        for (index, types) in items.enumerated() {
            try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: types.count)
            for type in types {
                try writer.writeRepresentation(type: type, data: Data("\(index)".utf8))
            }
        }
        try writer.finish()
        var reader = try TransferArchiveReader(bytes: bytes)
        var read: [[UniformType]] = []
        while try reader.nextItem() != nil {
            var types: [UniformType] = []
            while let representation = try reader.nextRepresentation() {
                types.append(representation.type)
                try reader.skipPayload()
            }
            read.append(types)
        }
        #expect(read == items)
    }

    @Test("a type repeated in an item after items of that one type is still a duplicate, writing and reading")
    func duplicateAfterSingles() throws {
        var bytes: [UInt8] = []
        var writer = TransferArchiveWriter { bytes.append(contentsOf: $0) }
        try writer.begin(itemCount: 2)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        try writer.writeRepresentation(type: png, data: Data())
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 2)
        try writer.writeRepresentation(type: png, data: Data())
        let error = #expect(throws: TransferArchiveError.self) {
            try writer.writeRepresentation(type: png, data: Data())
        }
        #expect(error?.code == .duplicateType)

        var builder = CBORBuilder()
        builder.header(itemCount: 2)
        builder.head(5, 1)
        builder.text("representations")
        builder.head(4, 1)
        builder.representation(type: "public.png", payload: [1])
        builder.head(5, 1)
        builder.text("representations")
        builder.head(4, 2)
        builder.representation(type: "public.png", payload: [2])
        builder.representation(type: "public.png", payload: [3])
        #expect(ArchiveFixtures.streamError(builder.bytes)?.code == .duplicateType)
    }

    @Test("an identifier the archive cannot carry fails after valid ones")
    func invalidAfterValid() throws {
        var writer = TransferArchiveWriter { _ in }
        try writer.begin(itemCount: 2)
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        try writer.writeRepresentation(type: png, data: Data())
        try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
        let accented = try #require(UniformType("com.example.café"))
        let error = #expect(throws: TransferArchiveError.self) {
            try writer.writeRepresentation(type: accented, data: Data())
        }
        #expect(error?.code == .invalidIdentifier)
    }
}
