package import Foundation
import TransferKitPlatform
import TransferKitTestSupport

/// Counts calls from loaders that run on other tasks.
package final class CallCounter: Sendable {
    private let counts = SanitizedMutex<[String: Int]>([:])
    /// A counter at zero for every name.
    package init() {}
    package func hit(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    package func count(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
}

/// A deterministic byte pattern in 1 MiB chunks, made as it is read.
package struct PatternChunks: AsyncSequence, Sendable {
    package typealias Element = Data
    package let total: Int

    /// The first `total` bytes of the pattern.
    package init(total: Int) { self.total = total }

    /// A period that is not a multiple of any chunk size, so a shifted chunk never matches by accident.
    package static let period = (1 << 20) + 7
    package static let table: [UInt8] = (0..<(2 * period)).map {
        UInt8(truncatingIfNeeded: ($0 % period) &* 31 &+ ($0 % period) >> 12)
    }

    package static func chunk(at offset: Int, count: Int) -> Data {
        var data = Data(capacity: count)
        var position = offset
        while data.count < count {
            let start = position % period
            let length = Swift.min(count - data.count, period)
            data.append(contentsOf: table[start..<(start + length)])
            position += length
        }
        return data
    }

    package func makeAsyncIterator() -> Iterator { Iterator(total: total) }

    /// Writes the first `count` bytes of the pattern (a multiple of 1 MiB) to `url`.
    package static func write(_ count: Int, to url: URL) throws {
        var pattern = Data()
        for offset in stride(from: 0, to: count, by: 1 << 20) {
            pattern += chunk(at: offset, count: 1 << 20)
        }
        try pattern.write(to: url)
    }

    package struct Iterator: AsyncIteratorProtocol {
        package let total: Int
        var offset = 0
        package mutating func next() async -> Data? {
            guard offset < total else { return nil }
            let count = Swift.min(1 << 20, total - offset)
            defer { offset += count }
            return PatternChunks.chunk(at: offset, count: count)
        }
    }
}
