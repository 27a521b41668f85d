import Testing
import TransferKitPlatform
import TransferKitTestSupport
import UniformTypes

/// `TypeCatalog.shared` answers `UniformType`'s questions from a per-thread copy of its snapshot while nothing has
/// changed: a registration must still be seen at once, by the thread that made it and by one that asked before.
@Suite("The shared catalog's answers across threads", .timeLimit(.minutes(1)))
struct SharedCatalogThreadTests {
    /// An identifier no other test declares.
    private static func freshType() throws -> UniformType {
        try #require(UniformType("com.example.thread-cache.t\(UInt64.random(in: 0...UInt64.max))"))
    }

    @Test("the thread that registers a type sees it in its next question")
    func sameThread() async throws {
        let type = try Self.freshType()
        let answers = try await onThreadOfItsOwn { () -> [Bool] in
            let before = [type.conforms(to: .json), type.isDeclared]
            _ = UniformType(exportedAs: type.identifier, conformingTo: .json)
            return before + [type.conforms(to: .json), type.isDeclared, type.conforms(to: .text)]
        }
        #expect(answers == [false, false, true, true, true])
    }

    @Test("a thread that asked before another registers a type sees it when it asks again")
    func otherThread() async throws {
        let type = try Self.freshType()
        let asked = Latch<Void>()
        let registered = Latch<Void>()
        let answers = Task {
            try await onThreadOfItsOwn { () -> [Bool] in
                let before = [type.conforms(to: .json), type.isDeclared]
                _ = asked.open(())
                _ = registered.block(until: .after(.seconds(30)))
                return before + [type.conforms(to: .json), type.isDeclared]
            }
        }
        _ = try await asked.wait(until: .after(.seconds(30)))
        _ = UniformType(exportedAs: type.identifier, conformingTo: .json)
        _ = registered.open(())
        #expect(try await answers.value == [false, false, true, true])
    }

    @Test("threads asking while types are registered see all of them once the registrations are done")
    func concurrentQuestions() async throws {
        let types = try (0..<40).map { _ in try Self.freshType() }
        let done = Latch<Void>()
        let askers = (0..<4).map { _ in
            Task {
                try await onThreadOfItsOwn { () -> [Bool] in
                    // Ask a bounded number of rounds while the registrations run (filling this thread's copy again
                    // and again, without spinning on the machine's two cores), then once more after the last one.
                    for _ in 0..<20 {
                        for type in types { _ = type.conforms(to: .json) }
                    }
                    _ = done.block(until: .after(.seconds(30)))
                    return types.map { $0.conforms(to: .json) && $0.isDeclared }
                }
            }
        }
        _ = try await onThreadOfItsOwn {
            for type in types {
                _ = UniformType(exportedAs: type.identifier, conformingTo: .json)
            }
        }
        _ = done.open(())
        for asker in askers {
            #expect(try await asker.value == Array(repeating: true, count: types.count))
        }
    }
}
