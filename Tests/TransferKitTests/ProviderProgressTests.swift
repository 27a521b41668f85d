import Foundation
import Testing
import TransferKit
import UniformTypes

@Suite("Progress, cancellation and concurrency", .timeLimit(.minutes(5)))
struct ProviderProgressTests {
    @Test("A chunked loader's progress shows in the caller's progress")
    func chunkedFractions() async throws {
        let caller = TransferProgress(totalUnitCount: 10)
        let seen = Box<[Double]>([])
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .data) { progress in
            progress.totalUnitCount = 4
            var data = Data()
            for chunk in 0..<4 {
                try progress.checkCancellation()
                data.append(UInt8(chunk))
                progress.advance()
                seen.update { $0.append(caller.fractionCompleted) }
            }
            return data
        }

        let data = try await provider.loadDataRepresentation(for: .data, progress: caller)
        #expect(data == Data([0, 1, 2, 3]))
        #expect(seen.value == [0.25, 0.5, 0.75, 1.0])
        #expect(caller.fractionCompleted == 1.0)
    }

    @Test("A caller progress without a total gets one unit and completes")
    func indeterminateCaller() async throws {
        let caller = TransferProgress()
        let provider = TransferProvider(data: Data([1]), type: .data)
        _ = try await provider.loadDataRepresentation(for: .data, progress: caller)
        #expect(caller.totalUnitCount == 1)
        #expect(caller.fractionCompleted == 1.0)
    }

    @Test("Cancelling the progress cancels the loader, which sees it, and the caller gets .cancelled")
    func progressCancelsLoad() async throws {
        let started = StartSignal()
        let loaderSawCancellation = Box(false)
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .data) { progress in
            started.fire()
            do {
                try await waitForCancellation(of: progress)
            } catch {
                loaderSawCancellation.value = progress.isCancelled
                throw error
            }
        }
        let caller = TransferProgress()
        let load = Task { try await provider.loadDataRepresentation(for: .data, progress: caller) }
        await started.wait()
        caller.cancel()

        let error = await #expect(throws: TransferError.self) { try await load.value }
        #expect(error?.code == .cancelled)
        #expect(loaderSawCancellation.value)
    }

    @Test("Cancelling the calling task cancels the progress, and the caller gets .cancelled")
    func taskCancelsProgress() async throws {
        let started = StartSignal()
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: Model.contentType) { progress in
            started.fire()
            try await waitForCancellation(of: progress)
        }
        let caller = TransferProgress()
        let load = Task { try await provider.loadObject(ofClass: Model.self, progress: caller) }
        await started.wait()
        load.cancel()

        let error = await #expect(throws: TransferError.self) { try await load.value }
        #expect(error?.code == .cancelled)
        #expect(caller.isCancelled)
    }

    @Test("An already cancelled progress fails the load without running the loader")
    func alreadyCancelled() async throws {
        let calls = Box(0)
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .data) { _ in
            calls.update { $0 += 1 }
            return Data()
        }
        let caller = TransferProgress()
        caller.cancel()
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: .data, progress: caller)
        }
        #expect(error?.code == .cancelled)
        #expect(calls.value == 0)
    }

    @Test("1 000 concurrent loads of one provider each invoke the loader and get the right result")
    func concurrentLoads() async throws {
        let calls = Box(0)
        let model = Model(name: "Panther", character: "calm", favorite: "tea")
        let provider = TransferProvider(object: model)
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in
            calls.update { $0 += 1 }
            return Data("text".utf8)
        }
        provider.loadOptions.allowsInProcessFastPath = false

        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try await provider.loadObject(ofClass: Model.self) == model
                    }
                    let progress = TransferProgress(totalUnitCount: 1)
                    let text = try await provider.loadDataRepresentation(for: .plainText, progress: progress)
                    return text == Data("text".utf8) && progress.fractionCompleted == 1
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 1_000)
        #expect(results.allSatisfy { $0 })
        #expect(calls.value == 500)
    }
}
