import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import UniformTypes

/// A value-type model with an extra plain-text representation.
struct Card: TransferCodable, Equatable {
    var title: String
    var score: Double

    static var contentType: UniformType { UniformType(exportedAs: "com.example.card", conformingTo: .json) }
    static var writableTypes: [UniformType] { [contentType, .utf8PlainText] }

    func visibility(for type: UniformType) -> TransferVisibility {
        type == .utf8PlainText ? .ownProcess : .all
    }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        type == .utf8PlainText ? Data(title.utf8) : try transferEncodedData()
    }
}

/// A model stored as a binary property list.
struct Settings: TransferCodable, Equatable {
    var volume: Int
    var name: String

    static var contentType: UniformType {
        UniformType(exportedAs: "com.example.settings", conformingTo: .propertyList)
    }
    static var transferCoding: TransferCoding<Settings> { .propertyList }
}

/// A model with a custom coding: a line of `key=value`.
struct Pair: TransferCodable, Equatable {
    var key: String
    var value: String

    static var contentType: UniformType { UniformType(exportedAs: "com.example.pair", conformingTo: .plainText) }
    static var transferCoding: TransferCoding<Pair> {
        TransferCoding(
            encode: { Data("\($0.key)=\($0.value)".utf8) },
            decode: { data in
                let parts = String(decoding: data, as: UTF8.self).split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected key=value."))
                }
                return Pair(key: String(parts[0]), value: String(parts[1]))
            })
    }
}

/// A reader that records which registered type it was given; the readable types come from a task local.
struct Probe: TransferProviderReading {
    @TaskLocal static var wanted: [UniformType] = []
    var type: UniformType
    var data: Data

    static var readableTypes: [UniformType] { wanted }

    static func object(from data: Data, type: UniformType) throws -> Probe {
        Probe(type: type, data: data)
    }
}

/// An error that a failing loader throws.
struct LoaderBroke: Error, Equatable {}

/// The names inside a folder.
func contents(of folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path)
}

/// Tells a test that a loader has started, once.
final class StartSignal: Sendable {
    let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    func fire() {
        continuation.yield()
    }

    func wait() async {
        for await _ in stream {
            return
        }
    }
}

/// Waits (without a time limit) until `progress` is cancelled, then throws `CancellationError`.
func waitForCancellation(of progress: TransferProgress) async throws -> Never {
    while true {
        try progress.checkCancellation()
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// A value shared between a loader and a test.
final class Box<Value: Sendable>: Sendable {
    private let storage: SanitizedMutex<Value>

    init(_ value: Value) {
        storage = SanitizedMutex(value)
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    func update(_ body: (inout Value) -> Void) {
        storage.withLock { body(&$0) }
    }
}
