import Testing
import UniformTypes

@Suite("Concurrent use", .timeLimit(.minutes(5)))
struct ConcurrencyTests {
    @Test("many tasks query one catalog while others register")
    func readersAndWriters() async throws {
        let catalog = TypeCatalog()
        let writers = 4
        let batchesPerWriter = 25
        let readers = 8

        let failures = await withTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var failures = 0
                    for batch in 0..<batchesPerWriter {
                        let base = "com.example.concurrent.w\(writer).b\(batch)"
                        guard let parent = UniformType(base), let child = UniformType(base + ".child") else {
                            return failures + 1
                        }
                        let declarations = [
                            UniformTypeDeclaration(
                                identifier: child, conformsTo: [parent],
                                tags: [.filenameExtension: ["w\(writer)b\(batch)"]]),
                            UniformTypeDeclaration(identifier: parent, conformsTo: [.json]),
                        ]
                        do {
                            try catalog.register(declarations, as: .exported)
                        } catch {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            for reader in 0..<readers {
                group.addTask {
                    var failures = 0
                    for round in 0..<2_000 {
                        if !catalog.conforms(.utf8PlainText, to: .item) || catalog.conforms(.png, to: .text) {
                            failures += 1
                        }
                        if catalog.type(filenameExtension: "png") != .png {
                            failures += 1
                        }
                        // A child, once visible, is always complete: it conforms through its parent.
                        let writer = (reader + round) % writers
                        let batch = round % batchesPerWriter
                        if let child = UniformType("com.example.concurrent.w\(writer).b\(batch).child"),
                            catalog.isDeclared(child), !catalog.conforms(child, to: .text)
                        {
                            failures += 1
                        }
                        _ = catalog.supertypes(of: .zip)
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(catalog.declarations.count == UniformType.systemDeclarations.count + writers * batchesPerWriter * 2)
        for writer in 0..<writers {
            let type = try #require(catalog.type(filenameExtension: "w\(writer)b0"))
            #expect(catalog.conforms(type, to: .json))
        }
    }

    @Test("the shared catalog and new types can be used from many tasks")
    func sharedCatalog() async {
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let type = UniformType(exportedAs: "com.example.concurrent.shared\(index % 4)", conformingTo: .text)
                    let dynamic = UniformType(filenameExtension: "conc\(index)")
                    return type.conforms(to: .data) && type.isDeclared && dynamic?.isDynamic == true
                        && UniformType.png.conforms(to: .image)
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(results)
    }
}
