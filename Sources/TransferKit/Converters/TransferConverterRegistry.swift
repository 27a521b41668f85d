import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The converters that providers use to derive representations they did not register.
///
/// A provider offers its registered types first, in its own fidelity order, and then the types its converters can
/// derive from them (see ``TransferProvider/offeredTypes``). A derived representation is computed only when a reader
/// loads it, by streaming the registered representation through the converters.
///
/// ```swift
/// TransferConverterRegistry.shared.register(
///     TransferConverter(from: .utf8PlainText, to: .html, cost: .lossy) { text in
///         Data("<pre>\(String(decoding: text, as: UTF8.self))</pre>".utf8)
///     })
/// ```
///
/// ## Which types are derived, in which order
/// A converter applies to a registered type that conforms to its ``TransferConverter/source`` (an equal type
/// conforms). Its destination is offered unless the provider registered that type itself. A derivation may chain
/// converters, at most ``maximumSteps`` of them (2 by default: a conversion chains at most once, such as HTML to
/// UTF-8 to UTF-16); a longer chain continues only past converters that declare
/// ``TransferConverter/allowsLongerChains``. When several derivations reach one type, the cheapest wins (the sum of
/// its converters' ``TransferConverter/Cost``), then the one from the provider's earlier registered type, then the
/// one with fewer steps, then the converter registered first.
///
/// Derived types are ordered the same way — cheapest first — and all come after the registered ones, so the one
/// representation-choice rule, `TypeCatalog.chooseRepresentation(offered:requested:)`, run over the offered types
/// picks a derived representation only when no registered one conforms to the requested type (or, for a reader that
/// accepts several types, to a type it prefers).
///
/// ## The shared registry
/// ``shared`` starts with TransferKit's built-in converters (``TransferConverter/builtIn``) and is what every
/// provider uses unless given another (``TransferProvider/converters``).
public final class TransferConverterRegistry: Sendable {
    /// The process-wide registry, which starts with ``TransferConverter/builtIn``.
    public static let shared = TransferConverterRegistry(state: State(registered: nil))

    private let state: SanitizedMutex<State>

    private struct State: Sendable {
        /// `nil` until first used in ``shared``, which then makes ``TransferConverter/builtIn``: making them declares
        /// their types in the catalog, which a program that never converts (`transferkit --version`) need not pay for.
        var registered: [TransferConverter]?
        var maximumSteps = 2

        var converters: [TransferConverter] {
            mutating get {
                if let registered { return registered }
                let builtIn = TransferConverter.builtIn
                registered = builtIn
                return builtIn
            }
            set { registered = newValue }
        }
    }

    private init(state: State) {
        self.state = SanitizedMutex(state)
    }

    /// A registry with the given converters.
    ///
    /// - Parameter converters: The converters, in registration order; pass ``TransferConverter/builtIn`` to keep
    ///   TransferKit's own, or nothing for a registry that derives only what you register.
    public init(converters: [TransferConverter] = []) {
        state = SanitizedMutex(State(registered: converters))
    }

    /// Adds a converter; providers that use this registry offer its destination from then on.
    ///
    /// - Parameter converter: The converter. One registered earlier wins over it where both derive a type at the
    ///   same cost from the same registered type.
    public func register(_ converter: TransferConverter) {
        state.withLock { $0.converters.append(converter) }
    }

    /// The registered converters, in registration order.
    public var converters: [TransferConverter] {
        state.withLock { $0.converters }
    }

    /// The most converters a derivation chains (2 by default, at least 1); a chain goes further only past
    /// converters that declare ``TransferConverter/allowsLongerChains``.
    public var maximumSteps: Int {
        get { state.withLock { $0.maximumSteps } }
        set { state.withLock { $0.maximumSteps = max(1, newValue) } }
    }

    /// A type that converters derive from a registered type.
    public struct Derivation: Sendable, CustomStringConvertible {
        /// The derived type.
        public let type: UniformType
        /// The index of the registered type it starts from, in the list given to
        /// ``TransferConverterRegistry/derivations(from:catalog:)``.
        public let sourceIndex: Int
        /// The converters, in the order they run.
        public let converters: [TransferConverter]
        /// The sum of the converters' costs.
        public let cost: TransferConverter.Cost

        /// The path, such as `public.html → public.utf8-plain-text → public.utf16-external-plain-text`.
        public var description: String {
            ([converters.first?.source.description ?? type.description] + converters.map(\.destination.description))
                .joined(separator: " → ")
        }

        /// Converts a stream of the registered type through every converter, lazily.
        ///
        /// - Parameter input: The bytes of the registered type.
        /// - Returns: The bytes of ``type``.
        public func convert(_ input: TransferByteStream) -> TransferByteStream {
            converters.reduce(input) { stream, converter in converter.convert(stream) }
        }
    }

    /// The types derivable from `registered`, in the order providers offer them (see ``TransferConverterRegistry``).
    ///
    /// - Parameters:
    ///   - registered: A provider's registered types, in its fidelity order.
    ///   - catalog: The catalogue that says which types conform to a converter's source.
    /// - Returns: One derivation per derivable type that is not in `registered`, cheapest first.
    public func derivations(from registered: [UniformType], catalog: TypeCatalog = .shared) -> [Derivation] {
        let (converters, maximumSteps) = state.withLock { ($0.converters, $0.maximumSteps) }
        if converters.isEmpty || registered.isEmpty {
            return []
        }
        // Each candidate path remembers its order key: cost, source index, steps, then the converters' indices.
        struct Path {
            var derivation: Derivation
            var converterIndices: [Int]
            var key: (Int, Int, Int, [Int]) {
                (derivation.cost.rawValue, derivation.sourceIndex, converterIndices.count, converterIndices)
            }
            func isBetter(than other: Path) -> Bool {
                let (a, b) = (key, other.key)
                if a.0 != b.0 { return a.0 < b.0 }
                if a.1 != b.1 { return a.1 < b.1 }
                if a.2 != b.2 { return a.2 < b.2 }
                return a.3.lexicographicallyPrecedes(b.3)
            }
        }
        let own = Set(registered)
        var best: [UniformType: Path] = [:]
        var frontier = registered.enumerated().map { index, type in
            Path(
                derivation: Derivation(type: type, sourceIndex: index, converters: [], cost: 0), converterIndices: [])
        }
        // A hard bound on declared longer chains, so that converters declared in a cycle end.
        let absoluteLimit = max(maximumSteps, 8)
        var step = 0
        while !frontier.isEmpty, step < absoluteLimit {
            step += 1
            var next: [Path] = []
            for path in frontier {
                if step > maximumSteps, path.derivation.converters.last?.allowsLongerChains != true {
                    continue
                }
                for (converterIndex, converter) in converters.enumerated()
                where catalog.conforms(path.derivation.type, to: converter.source) {
                    let destination = converter.destination
                    guard !own.contains(destination),
                        !path.derivation.converters.contains(where: { $0.destination == destination })
                    else { continue }
                    let candidate = Path(
                        derivation: Derivation(
                            type: destination, sourceIndex: path.derivation.sourceIndex,
                            converters: path.derivation.converters + [converter],
                            cost: TransferConverter.Cost(path.derivation.cost.rawValue + converter.cost.rawValue)),
                        converterIndices: path.converterIndices + [converterIndex])
                    if let current = best[destination], !candidate.isBetter(than: current) {
                        continue
                    }
                    best[destination] = candidate
                    next.append(candidate)
                }
            }
            frontier = next
        }
        return best.values.sorted { $0.isBetter(than: $1) }.map(\.derivation)
    }

    /// The cheapest derivation of `destination` from `source` alone, for converting a file of a known type.
    ///
    /// - Parameters:
    ///   - source: The type of the bytes to convert.
    ///   - destination: The wanted type; a derived type that conforms to it will do.
    ///   - catalog: The catalogue for conformance.
    /// - Returns: The derivation, or `nil` when no chain of converters reaches `destination`.
    public func derivation(
        from source: UniformType, to destination: UniformType, catalog: TypeCatalog = .shared
    ) -> Derivation? {
        let derived = derivations(from: [source], catalog: catalog)
        return catalog.chooseRepresentation(offered: derived.map(\.type), requested: [destination]).map {
            derived[$0]
        }
    }
}
