import Foundation
import Synchronization
import Testing
import TransferChecksum
import TransferImaging
import UniformTypes

@testable import TransferKit

/// The image memory budget (issue 35, severe item 2): image conversions reserve what they will hold from a budget
/// shared by concurrent conversions; over it they wait (streaming) or fail (synchronous), and an image larger than
/// the whole budget fails alone. Each test has its own budget, so the process's shared one is never touched.
@Suite("The image conversions' shared memory budget", .timeLimit(.minutes(5)))
struct ImageBudgetTests {
    /// A `side × side` opaque PNG.
    static func png(side: Int) throws -> Data {
        var pixels: [UInt8] = []
        for index in 0..<side * side { pixels += [UInt8(index & 0xff), UInt8(index >> 8 & 0xff), 7, 255] }
        return try RGBAImage(width: side, height: side, pixels: pixels).encoded(as: .png)
    }

    static func converter(_ budget: ImageMemoryBudget, to destination: UniformType = .bmp) throws -> TransferConverter {
        try #require(
            TransferConverter.makeImageConverters(budget: budget).first {
                $0.source == .png && $0.destination == destination
            })
    }

    /// Every chunk of `stream`.
    static func collect(_ stream: TransferByteStream) async throws -> Data {
        var data = Data()
        for try await chunk in stream { data.append(chunk) }
        return data
    }

    /// What a conversion of `png` reserves.
    static func cost(_ png: Data) -> Int { 3 * ImageFormat.png.decodedByteCountBound(of: png) + png.count }

    static func expectBudgetError(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        let transfer = error as? TransferError
        #expect(transfer?.code == .conversionFailed, sourceLocation: sourceLocation)
        #expect((transfer?.cause as? ImagingError)?.code == .limitExceeded, sourceLocation: sourceLocation)
    }

    @Test("the books: first come, first served; a large waiter is not overtaken; release admits in order")
    func booksInOrder() {
        var books = ImageMemoryBudget.Books<Int>(limit: 10)
        let first = books.newTicket()
        guard case .granted = books.request(ticket: first, bytes: 6, continuation: 1) else {
            Issue.record("the first request was not granted")
            return
        }
        // 8 does not fit beside 6: it waits, and 3, which would fit, waits behind it rather than overtake it.
        guard case .waits = books.request(ticket: books.newTicket(), bytes: 8, continuation: 2),
            case .waits = books.request(ticket: books.newTicket(), bytes: 3, continuation: 3)
        else {
            Issue.record("later requests did not wait")
            return
        }
        guard case .refused(let limit) = books.request(ticket: books.newTicket(), bytes: 11, continuation: 4) else {
            Issue.record("a request over the limit was not refused")
            return
        }
        #expect(limit == 10)
        let afterFirst = books.release(6)
        #expect(afterFirst == [2])
        #expect(books.reserved == 8)
        let afterSecond = books.release(8)
        #expect(afterSecond == [3])
        #expect(books.peak == 8)
        let afterThird = books.release(3)
        #expect(afterThird.isEmpty)
        #expect(books.reserved == 0)
    }

    @Test("the books: a ticket cancelled before it queues is refused when it arrives; a queued one leaves the queue")
    func booksCancel() {
        var books = ImageMemoryBudget.Books<Int>(limit: 4)
        let early = books.newTicket()
        let cancelledEarly = books.cancel(ticket: early)
        #expect(cancelledEarly == nil)
        guard case .cancelled = books.request(ticket: early, bytes: 1, continuation: 1) else {
            Issue.record("an early-cancelled ticket was admitted")
            return
        }
        let admitted = books.requestNow(bytes: 4)
        #expect(admitted)
        let queued = books.newTicket()
        guard case .waits = books.request(ticket: queued, bytes: 2, continuation: 2) else {
            Issue.record("the request did not wait")
            return
        }
        let cancelled = books.cancel(ticket: queued)
        #expect(cancelled == 2)
        let released = books.release(4)
        #expect(released.isEmpty)
        #expect(books.queue.isEmpty)
    }

    @Test("the process's budget is 1.5 GiB by default: one image at the 64 Mi pixel limit, its 256 MiB BMP file too")
    func defaultBudget() {
        #expect(TransferConverter.imageMemoryBudget == 1536 << 20)
        // An uncompressed 32-bit BMP at the limit: the file is as large as the pixels.
        let pixels = ImageLimits.default.maximumPixelCount * 4
        #expect(ImageMemoryBudget.shared.limit >= 3 * pixels + pixels + 122)
    }

    @Test("an image that needs more than the whole budget fails alone with limitExceeded; a smaller one converts")
    func overBudgetFailsAlone() async throws {
        let large = try Self.png(side: 64)
        let small = try Self.png(side: 8)
        let budget = ImageMemoryBudget(limit: Self.cost(large) - 1)
        let converter = try Self.converter(budget)
        await #expect {
            _ = try await ImageBudgetTests.collect(converter.convert(TransferByteStream(data: large)))
        } throws: { error in
            Self.expectBudgetError(error)
            return true
        }
        #expect(throws: TransferError.self) { _ = try converter.convert(large) }
        let bmp = try await ImageBudgetTests.collect(converter.convert(TransferByteStream(data: small)))
        #expect(try RGBAImage(decoding: bmp, as: .bmp) == RGBAImage(decoding: small, as: .png))
        #expect(budget.usage.reserved == 0)
    }

    @Test("a hostile PNG through a provider: a huge IHDR fails that load with limitExceeded, nothing reserved")
    func hostileHeaderThroughProvider() async throws {
        var header = [UInt8](repeating: 0, count: 13)
        header[0...7] = [0x7f, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff]
        header[8] = 8
        header[9] = 6
        let typed = Array("IHDR".utf8) + header
        let crc = CRC32.checksum(typed)
        let file = Data(
            [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] + typed
                + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xff), UInt8(crc >> 8 & 0xff), UInt8(crc & 0xff)])
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .png) { _ in file }
        await #expect {
            _ = try await provider.loadDataRepresentation(for: .bmp)
        } throws: { error in
            Self.expectBudgetError(error)
            return true
        }
    }

    @Test("conversions beyond the budget wait in order and all finish; never more than the budget is reserved")
    func concurrentConversionsWait() async throws {
        let png = try Self.png(side: 48)
        let cost = Self.cost(png)
        // Room for two at once.
        let budget = ImageMemoryBudget(limit: 2 * cost + cost / 2)
        let converter = try Self.converter(budget)
        let expected = try RGBAImage(decoding: png, as: .png)
        // Hold the whole budget, so every conversion must queue.
        try await budget.reserve(budget.limit)
        let finished = FinishedCount()
        let results = Task {
            try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let data = try await ImageBudgetTests.collect(converter.convert(TransferByteStream(data: png)))
                        finished.add()
                        return data
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        await budget.waitUntilWaiting(atLeast: 6)
        #expect(budget.usage.waiting == 6)
        #expect(finished.count == 0)
        // The synchronous form cannot wait: it fails at once while the budget is in use.
        #expect {
            _ = try converter.convert(png)
        } throws: { error in
            Self.expectBudgetError(error)
            return true
        }
        budget.release(budget.limit)
        let outputs = try await results.value
        #expect(outputs.count == 6)
        for output in outputs { #expect(try RGBAImage(decoding: output, as: .bmp) == expected) }
        #expect(budget.usage.peak == budget.limit)  // the test's own reservation
        #expect(budget.usage.reserved == 0)
        #expect(budget.usage.waiting == 0)
    }

    @Test("while the budget is held, conversions run at most two at a time when two fit")
    func admittedTwoAtATime() async throws {
        let png = try Self.png(side: 32)
        let cost = Self.cost(png)
        let budget = ImageMemoryBudget(limit: 2 * cost + cost / 2)
        let converter = try Self.converter(budget, to: .pam)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    _ = try await ImageBudgetTests.collect(converter.convert(TransferByteStream(data: png)))
                }
            }
            try await group.waitForAll()
        }
        #expect(budget.usage.peak <= 2 * cost)
        #expect(budget.usage.peak >= cost)
        #expect(budget.usage.reserved == 0)
    }

    @Test("a conversion cancelled while it waits ends with an error and leaves nothing reserved or queued")
    func cancelledWhileWaiting() async throws {
        let png = try Self.png(side: 16)
        let budget = ImageMemoryBudget(limit: Self.cost(png))
        let converter = try Self.converter(budget)
        try await budget.reserve(budget.limit)
        let task = Task { try await ImageBudgetTests.collect(converter.convert(TransferByteStream(data: png))) }
        await budget.waitUntilWaiting(atLeast: 1)
        #expect(budget.usage.waiting == 1)
        task.cancel()
        await #expect(throws: (any Error).self) { _ = try await task.value }
        #expect(budget.usage.waiting == 0)
        budget.release(budget.limit)
        #expect(budget.usage.reserved == 0)
    }

    @Test("lowering the budget below a waiting image fails it; raising it admits the waiting")
    func changingTheLimit() async throws {
        let png = try Self.png(side: 16)
        let cost = Self.cost(png)
        let budget = ImageMemoryBudget(limit: cost)
        let converter = try Self.converter(budget)
        try await budget.reserve(cost)
        let waiting = Task { try await ImageBudgetTests.collect(converter.convert(TransferByteStream(data: png))) }
        await budget.waitUntilWaiting(atLeast: 1)
        #expect(budget.usage.waiting == 1)
        budget.limit = cost - 1
        await #expect {
            _ = try await waiting.value
        } throws: { error in
            Self.expectBudgetError(error)
            return true
        }
        budget.limit = 2 * cost
        let admitted = try await ImageBudgetTests.collect(converter.convert(TransferByteStream(data: png)))
        #expect(ImageFormat(sniffing: admitted) == .bmp)
        budget.release(cost)
        #expect(budget.usage.reserved == 0)
    }
}

/// Counts finished conversions across tasks.
final class FinishedCount: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func add() { value.withLock { $0 += 1 } }
}
