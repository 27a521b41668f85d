import Synchronization
import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Finds the reader type for bytes of a given uniform type, so data from elsewhere decodes without the caller
/// naming a Swift type.
///
/// ```swift
/// try TransferRegistry.shared.register(Card.self)
/// let object = try TransferRegistry.shared.object(from: data, type: type)
/// ```
///
/// ## Choosing a reader
/// ``reader(for:)`` considers every registered type that the requested type conforms to (an equal type included)
/// and orders the candidates by:
/// 1. distance: the fewest parent steps from the requested type to the registered type through the catalogue's
///    direct parents (`conformsTo`); an exact match is 0. A registered type the catalogue says the requested type
///    conforms to but that no chain of declared parents reaches comes after all reachable ones;
/// 2. priority, higher first;
/// 3. the registered identifier, in ascending order of its lowercased spelling.
///
/// Two readers may claim one type only with different priorities: an equal-priority claim is an error, never a
/// silent "first wins".
public final class TransferRegistry: Sendable {
    /// The process-wide registry.
    public static let shared = TransferRegistry()

    private let catalog: TypeCatalog
    private let claims = SanitizedMutex<[String: [Claim]]>([:])

    /// An isolated registry.
    ///
    /// - Parameter catalog: The catalogue that says which types conform to which.
    public init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// A registry with the same readers and priorities that decides conformance with `catalog` instead, e.g. a
    /// catalogue that also knows an archive's own declarations (`TransferArchive.carriedDeclarations(in:)`). Later
    /// registrations in either registry do not reach the other.
    ///
    /// ```swift
    /// let types = archive.carriedDeclarations(in: .shared).catalog
    /// let reader = TransferRegistry.shared.using(types).reader(for: UniformType("com.example.card")!)
    /// ```
    /// - Parameter catalog: The catalogue that says which types conform to which.
    /// - Returns: The new registry.
    public func using(_ catalog: TypeCatalog) -> TransferRegistry {
        let registry = TransferRegistry(catalog: catalog)
        let claims = claims.withLock { $0 }
        registry.claims.withLock { $0 = claims }
        return registry
    }

    /// How strongly a reader claims its types when others claim them too.
    public struct Priority: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The priority's value; higher wins.
        public var rawValue: Int

        /// A priority with the given value.
        ///
        /// - Parameter rawValue: Higher wins.
        public init(_ rawValue: Int) { self.rawValue = rawValue }

        /// A priority from an integer literal.
        public init(integerLiteral value: Int) { self.rawValue = value }

        /// A fallback reader (-100).
        public static var low: Self { Self(-100) }
        /// The default (0).
        public static var `default`: Self { Self(0) }
        /// A reader that should win over default ones (100).
        public static var high: Self { Self(100) }

        /// Orders by value.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The value.
        public var description: String { String(rawValue) }
    }

    private struct Claim: Sendable {
        let type: UniformType
        let reader: any TransferProviderReading.Type
        let priority: Priority

        func isSameReader(as other: any TransferProviderReading.Type) -> Bool {
            ObjectIdentifier(reader) == ObjectIdentifier(other)
        }
    }

    /// Registers `reader` for each of its ``TransferProviderReading/readableTypes``.
    ///
    /// Registering the same reader again replaces its earlier priority. Nothing is registered if any type conflicts.
    ///
    /// - Parameters:
    ///   - reader: The reader type.
    ///   - priority: Decides between readers that claim the same type.
    /// - Throws: ``TransferError`` with `TransferError.Code.registryConflict` when another reader claims one of
    ///   the types with the same priority, or with `TransferError.Code.unavailableRepresentation` saying what is
    ///   wrong when `reader` is a ``TransferRepresentable`` whose declaration TransferKit cannot use.
    public func register<T: TransferProviderReading>(_ reader: T.Type, priority: Priority = .default) throws {
        let types = reader.readableTypes
        if types.isEmpty, let failure = representationFailure(of: reader) {
            throw failure
        }
        try claims.withLock { claims in
            for type in types {
                let key = Self.key(type)
                if let other = claims[key]?.first(where: { $0.priority == priority && !$0.isSameReader(as: reader) }) {
                    throw TransferError(
                        code: .registryConflict,
                        message: "\(reader) and \(other.reader) both read \(type) with priority \(priority); "
                            + "register one of them with a different priority.",
                        source: type.identifier)
                }
            }
            for type in types {
                let key = Self.key(type)
                var list = claims[key, default: []].filter { !$0.isSameReader(as: reader) }
                list.append(Claim(type: type, reader: reader, priority: priority))
                claims[key] = list
            }
        }
    }

    /// The registered types, sorted by identifier.
    public var registeredTypes: [UniformType] {
        let claims = claims.withLock { $0 }
        return claims.keys.sorted().compactMap { claims[$0]?.first?.type }
    }

    /// The most specific reader for `type`, by the rule in ``TransferRegistry``.
    ///
    /// - Parameter type: The type of some data.
    /// - Returns: The reader, or `nil` if no registered type is `type` or a supertype of it.
    public func reader(for type: UniformType) -> (any TransferProviderReading.Type)? {
        let claims = claims.withLock { $0 }
        if claims.isEmpty {
            return nil
        }
        let distances = parentDistances(from: type)
        var best: (distance: Int, claim: Claim, key: String)?
        for (key, list) in claims {
            guard let claim = list.max(by: { $0.priority < $1.priority }) else { continue }
            let distance: Int
            if let known = distances[key] {
                distance = known
            } else if catalog.conforms(type, to: claim.type) {
                distance = Int.max
            } else {
                continue
            }
            if let current = best {
                let isBetter =
                    distance != current.distance
                    ? distance < current.distance
                    : claim.priority != current.claim.priority
                        ? claim.priority > current.claim.priority : key < current.key
                if !isBetter {
                    continue
                }
            }
            best = (distance, claim, key)
        }
        return best?.claim.reader
    }

    /// Decodes `data` with the reader that ``reader(for:)`` finds for `type`.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - type: Their type.
    /// - Returns: The decoded object; cast it to the type you expect.
    /// - Throws: ``TransferError`` with `TransferError.Code.noReader` or `TransferError.Code.decodingFailed`.
    public func object(from data: Data, type: UniformType) throws -> any TransferProviderReading {
        guard let reader = reader(for: type) else {
            let known = registeredTypes.map(\.identifier).joined(separator: ", ")
            throw TransferError(
                code: .noReader,
                message: "No reader is registered for \(type) or any of its supertypes (registered: [\(known)]); "
                    + "register one with register(_:priority:).",
                source: type.identifier)
        }
        do {
            return try reader.object(from: data, type: type)
        } catch {
            throw TransferError.decodingFailed(error, type: type, byteCount: data.count)
        }
    }

    /// Forgets every registration; for tests of the shared registry.
    func removeAll() {
        claims.withLock { $0.removeAll() }
    }

    /// Parent steps from `type` to each type reachable through declared direct parents (breadth first).
    private func parentDistances(from type: UniformType) -> [String: Int] {
        var distances = [Self.key(type): 0]
        var frontier = [type]
        var distance = 0
        while !frontier.isEmpty {
            distance += 1
            var next: [UniformType] = []
            for current in frontier {
                for parent in catalog.declaration(for: current)?.conformsTo ?? [] {
                    let key = Self.key(parent)
                    if distances[key] == nil {
                        distances[key] = distance
                        next.append(parent)
                    }
                }
            }
            frontier = next
        }
        return distances
    }

    private static func key(_ type: UniformType) -> String {
        type.identifier.lowercased()
    }
}
