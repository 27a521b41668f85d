#if !canImport(Darwin)
    public import UniformTypes

    /// CoreTransferable's `Transferable`: a type that declares its representations with a builder.
    ///
    /// The declaration maps onto TransferKit's `RepresentationList`, in order; providers
    /// offer the exported representations in that order and loads try the imported ones in that order.
    ///
    /// ```swift
    /// struct Card: Codable, Transferable {
    ///     var title: String
    ///     static var transferRepresentation: some TransferRepresentation {
    ///         CodableRepresentation(contentType: .card)
    ///         ProxyRepresentation(exporting: \.title, importing: { Card(title: $0) })
    ///     }
    /// }
    /// ```
    public protocol Transferable: SendableMetatype {
        /// The type of the representation list.
        associatedtype Representation: TransferRepresentation

        /// The representations, highest fidelity first.
        @TransferRepresentationBuilder<Self> static var transferRepresentation: Representation { get }
    }

    extension Transferable {
        /// The declared representations as TransferKit's native list.
        ///
        /// A declaration of representations of another type (an explicit `return` skips
        /// ``TransferRepresentationBuilder``, which checks the item type) cannot be used: the list is then empty, and
        /// loads of the type, decodes and registry registrations throw a `TransferError` with
        /// `TransferError.Code.unavailableRepresentation` that names both types.
        public static var transferRepresentations: RepresentationList<Self> {
            let declared = transferRepresentation.transferRepresentations
            guard let representations = declared as? RepresentationList<Self> else {
                return RepresentationList(
                    failure: .representations(
                        of: Representation.Item.self, for: Self.self,
                        declaredIn: "\(Self.self).transferRepresentation"))
            }
            return representations
        }

        /// The types the type exports to receivers of the given visibility, in order.
        ///
        /// - Parameter visibility: `.all` for what other processes (and archives) get; `.ownProcess` for
        ///   everything.
        /// - Returns: The types, without duplicates.
        public static func exportedContentTypes(visibility: TransferRepresentationVisibility = .all) -> [UTType] {
            let audience: TransferVisibility.Audience = visibility == .all ? .otherProcesses : .ownProcess
            var seen = Set<UTType>()
            return transferRepresentations.elements.filter { $0.visibility.isVisible(to: audience) }
                .flatMap(\.exportedTypes).filter { seen.insert($0).inserted }
        }

        /// The types the type imports, in order.
        ///
        /// - Returns: The types, without duplicates.
        public static func importedContentTypes() -> [UTType] {
            var seen = Set<UTType>()
            return transferRepresentations.elements.flatMap(\.importedTypes).filter { seen.insert($0).inserted }
        }
    }

    /// A value of a ``Transferable`` type as a native `TransferRepresentable` value, so that a
    /// `TransferProvider` or a registry can hold it.
    ///
    /// It is `@unchecked Sendable` because `Transferable` does not require `Sendable`: the value is only passed to
    /// the representations' own closures.
    public struct TransferableValue<Value: Transferable>: TransferRepresentable, @unchecked Sendable {
        /// The value.
        public let value: Value

        /// Wraps a value.
        ///
        /// - Parameter value: The value.
        public init(_ value: Value) {
            self.value = value
        }

        /// `Value`'s representations.
        public static var transferRepresentations: RepresentationList<TransferableValue<Value>> {
            Value.transferRepresentations.bridged(wrap: { TransferableValue($0) }, unwrap: { $0.value })
        }
    }

    /// Values are equal when the wrapped values are.
    extension TransferableValue: Equatable where Value: Equatable {}

    extension TransferError {
        /// The failure of a declaration of `Item` that is made of representations of `Other`.
        ///
        /// - Parameters:
        ///   - other: The item type of the declared representations.
        ///   - item: The type being declared.
        ///   - place: The declaration, such as `Card.transferRepresentation`.
        static func representations(of other: Any.Type, for item: Any.Type, declaredIn place: String) -> Self {
            TransferError(
                code: .unavailableRepresentation,
                message: "\(place) declares representations of \(other), not of \(item), so TransferKit cannot use it "
                    + "and \(item) exports and imports nothing. Declare representations of \(item) (an explicit "
                    + "`return` skips TransferRepresentationBuilder, which would have rejected them).",
                source: place)
        }
    }

    /// CoreTransferable's visibility of a representation. There are no teams or app groups on Linux: ``team`` and
    /// ``group`` mean ``ownProcess``.
    public struct TransferRepresentationVisibility: Hashable, Sendable {
        private let rawValue: Int

        /// Every process.
        public static let all = Self(rawValue: 0)
        /// Apple: the same team's apps. Here: the own process.
        public static let team = Self(rawValue: 1)
        /// Apple: the same app group. Here: the own process.
        public static let group = Self(rawValue: 2)
        /// Only the own process.
        public static let ownProcess = Self(rawValue: 3)

        /// The native visibility.
        public var transferVisibility: TransferVisibility {
            self == .all ? .all : .ownProcess
        }
    }
#endif
