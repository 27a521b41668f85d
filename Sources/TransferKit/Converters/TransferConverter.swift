public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A conversion of bytes of one uniform type into bytes of another, which providers use to offer representations
/// they did not register (the counterpart of GTK's content serializers and NSItemProvider's coercions).
///
/// A converter declares the type it reads (``source``), the type it writes (``destination``), what it costs
/// (``cost``, which ranks the representations it derives) and a streaming transform: a fresh
/// ``TransferChunkConversion`` for each conversion, fed the source's chunks in order and then finished. Register it
/// with ``TransferConverterRegistry/register(_:)`` and every provider that uses the registry offers the destination
/// type after its own (see ``TransferProvider/offeredTypes``); the transform runs only when a reader loads it.
///
/// ```swift
/// TransferConverterRegistry.shared.register(
///     TransferConverter(from: .utf8PlainText, to: .html, cost: .lossless) { text in
///         Data("<pre>\(String(decoding: text, as: UTF8.self))</pre>".utf8)
///     })
/// ```
public struct TransferConverter: Sendable, CustomStringConvertible {
    /// The type the converter reads; a registered representation of this type or a subtype can be converted.
    public let source: UniformType
    /// The type the converter writes.
    public let destination: UniformType
    /// What a conversion costs in fidelity; derived representations are offered cheapest first.
    public let cost: Cost
    /// Whether a representation this converter derived may be converted again, beyond the registry's
    /// ``TransferConverterRegistry/maximumSteps`` (a declared chain; see ``TransferConverterRegistry``).
    public let allowsLongerChains: Bool

    let makeConversion: @Sendable () -> any TransferChunkConversion

    /// A converter with a streaming transform.
    ///
    /// - Parameters:
    ///   - source: The type it reads.
    ///   - destination: The type it writes.
    ///   - cost: Its rank among converters; ``Cost/lossless`` when the destination keeps everything.
    ///   - allowsLongerChains: See ``allowsLongerChains``; `false` by default.
    ///   - makeConversion: Makes the state of one conversion; called once per load of a derived representation.
    public init(
        from source: UniformType, to destination: UniformType, cost: Cost, allowsLongerChains: Bool = false,
        makeConversion: @escaping @Sendable () -> any TransferChunkConversion
    ) {
        self.source = source
        self.destination = destination
        self.cost = cost
        self.allowsLongerChains = allowsLongerChains
        self.makeConversion = makeConversion
    }

    /// A converter that converts the whole of its input at once (the input is collected into one `Data` first).
    ///
    /// - Parameters:
    ///   - source: The type it reads.
    ///   - destination: The type it writes.
    ///   - cost: Its rank among converters.
    ///   - allowsLongerChains: See ``allowsLongerChains``; `false` by default.
    ///   - convert: Converts the input; what it throws reaches the reader as
    ///     `TransferError.Code.conversionFailed` with the error as `cause`.
    public init(
        from source: UniformType, to destination: UniformType, cost: Cost, allowsLongerChains: Bool = false,
        convert: @escaping @Sendable (Data) throws -> Data
    ) {
        self.init(from: source, to: destination, cost: cost, allowsLongerChains: allowsLongerChains) {
            WholeConversion(convert: convert)
        }
    }

    /// The converter as `source → destination (cost N)`.
    public var description: String { "\(source) → \(destination) (cost \(cost.rawValue))" }

    /// Converts a stream of the source type into a stream of the destination type; nothing runs until the result
    /// is iterated, and each iteration converts anew.
    ///
    /// - Parameter input: Bytes of ``source``.
    /// - Returns: Bytes of ``destination``, of unknown length. Iterating it throws ``TransferError`` with
    ///   `TransferError.Code.conversionFailed` when the input is not valid for the conversion.
    public func convert(_ input: TransferByteStream) -> TransferByteStream {
        TransferByteStream(ConvertedChunks(input: input, converter: self))
    }

    /// Converts bytes in memory.
    ///
    /// - Parameter input: Bytes of ``source``.
    /// - Returns: Bytes of ``destination``.
    /// - Throws: ``TransferError`` with `TransferError.Code.conversionFailed`.
    public func convert(_ input: Data) throws -> Data {
        var conversion = makeConversion()
        do {
            var output = try conversion.convert(input)
            output.append(try conversion.finish())
            return output
        } catch {
            throw failure(error)
        }
    }

    /// `error` as the ``TransferError`` a reader of the converted bytes gets.
    func failure(_ error: any Error) -> TransferError {
        TransferError.wrapping(
            error, as: .conversionFailed,
            message: "Converting \(source) to \(destination) failed: \(error). Load a registered type instead, or "
                + "fix the \(source) representation.",
            source: destination.identifier)
    }

    /// How much a conversion loses, as a rank: lower is better. A derivation through several converters costs their
    /// sum.
    public struct Cost: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral {
        /// The rank; lower is offered first.
        public var rawValue: Int

        /// A cost with the given rank.
        ///
        /// - Parameter rawValue: The rank; negative values count as 0.
        public init(_ rawValue: Int) { self.rawValue = max(0, rawValue) }

        /// A cost from an integer literal.
        public init(integerLiteral value: Int) { self.init(value) }

        /// A conversion that keeps everything and can be undone (UTF-8 to UTF-16): 10.
        public static var lossless: Self { Self(10) }
        /// A conversion that keeps the content but not every detail (line endings, a byte-order mark): 20.
        public static var nearlyLossless: Self { Self(20) }
        /// A conversion that drops information (HTML to plain text, or text to Latin-1 with replacements): 50.
        public static var lossy: Self { Self(50) }

        /// Orders by rank.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}

/// The state of one streaming conversion: it is given the input's chunks in order, then finished once.
///
/// Not `Sendable`: a conversion lives inside one pass over one stream. A conversion that needs the whole input
/// (an image codec) may keep the chunks and convert in ``finish()``.
public protocol TransferChunkConversion {
    /// Converts the next chunk of input.
    ///
    /// - Parameter chunk: The next input bytes; a chunk may end inside a character or a token, so keep what is
    ///   incomplete for the next call.
    /// - Returns: The output bytes ready so far (possibly none).
    /// - Throws: Any error when the input cannot be converted.
    mutating func convert(_ chunk: Data) throws -> Data

    /// Ends the conversion after the last chunk.
    ///
    /// - Returns: The rest of the output.
    /// - Throws: Any error when the input ended in an invalid place.
    mutating func finish() throws -> Data
}

/// A conversion that collects its input and converts it in ``finish()``.
struct WholeConversion: TransferChunkConversion {
    let convert: @Sendable (Data) throws -> Data
    var input = Data()

    mutating func convert(_ chunk: Data) throws -> Data {
        input.append(chunk)
        return Data()
    }

    mutating func finish() throws -> Data {
        defer { input = Data() }
        return try convert(input)
    }
}

/// A conversion that must be admitted before it finishes (an image conversion waits for its memory): a stream
/// finishes it with ``finishAdmitted()``, which may wait; the synchronous path calls ``finish()``, which may not.
protocol AdmittedConversion: TransferChunkConversion {
    /// Ends the conversion after the last chunk, once admitted.
    mutating func finishAdmitted() async throws -> Data
}

/// A stream's chunks through a converter.
private struct ConvertedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let input: TransferByteStream
    let converter: TransferConverter

    func makeAsyncIterator() -> Iterator {
        Iterator(base: input.makeAsyncIterator(), conversion: converter.makeConversion(), converter: converter)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: TransferByteStream.AsyncIterator
        var conversion: any TransferChunkConversion
        let converter: TransferConverter
        var isDone = false

        mutating func next() async throws -> Data? {
            while !isDone {
                guard let chunk = try await base.next() else {
                    isDone = true
                    let rest: Data
                    do {
                        if var admitted = conversion as? any AdmittedConversion {
                            rest = try await admitted.finishAdmitted()
                            conversion = admitted
                        } else {
                            rest = try conversion.finish()
                        }
                    } catch {
                        throw converter.failure(error)
                    }
                    return rest.isEmpty ? nil : rest
                }
                let output: Data
                do {
                    output = try conversion.convert(chunk)
                } catch {
                    isDone = true
                    throw converter.failure(error)
                }
                if !output.isEmpty {
                    return output
                }
            }
            return nil
        }
    }
}
