#if !canImport(Darwin)

    /// CoreTransferable's `TransferRepresentation`: one or more representations of `Item`.
    ///
    /// Use the built-in ones (``CodableRepresentation``, ``DataRepresentation``, ``FileRepresentation``,
    /// ``ProxyRepresentation``) or compose your own in ``body``.
    public protocol TransferRepresentation<Item>: Sendable {
        /// The type represented.
        associatedtype Item: Transferable
        /// The type of ``body``.
        associatedtype Body: TransferRepresentation

        /// The representations this one is made of.
        @TransferRepresentationBuilder<Item> var body: Body { get }

        /// The representations as TransferKit's native list; by default ``body``'s.
        var transferRepresentations: RepresentationList<Item> { get }
    }

    extension TransferRepresentation {
        /// ``body``'s representations; if they are of another item type, an empty list whose loads fail with a
        /// `TransferError` naming both types (see ``Transferable/transferRepresentations``).
        public var transferRepresentations: RepresentationList<Item> {
            let declared = body.transferRepresentations
            guard let representations = declared as? RepresentationList<Item> else {
                return RepresentationList(
                    failure: .representations(of: Body.Item.self, for: Item.self, declaredIn: "\(Self.self).body"))
            }
            return representations
        }

        /// Exports only when `condition` holds for the item; imports are unaffected.
        ///
        /// - Parameter condition: Decides per item.
        /// - Returns: The representation with the condition.
        public func exportingCondition(
            _ condition: @escaping @Sendable (Item) -> Bool
        ) -> some TransferRepresentation<Item> {
            TransferRepresentationGroup(transferRepresentations.exportingCondition(condition))
        }

        /// A file name for receivers that save the representation.
        ///
        /// - Parameter fileName: The name.
        /// - Returns: The representation with the name.
        public func suggestedFileName(_ fileName: String) -> some TransferRepresentation<Item> {
            TransferRepresentationGroup(transferRepresentations.suggestedFileName(fileName))
        }

        /// A file name per item for receivers that save the representation.
        ///
        /// - Parameter fileName: The name for an item, or `nil`.
        /// - Returns: The representation with the name.
        public func suggestedFileName(
            _ fileName: @escaping @Sendable (Item) -> String?
        ) -> some TransferRepresentation<Item> {
            TransferRepresentationGroup(transferRepresentations.suggestedFileName(fileName))
        }

        /// Which processes may see the representation.
        ///
        /// - Parameter visibility: The visibility.
        /// - Returns: The representation with the visibility.
        public func visibility(_ visibility: TransferRepresentationVisibility) -> some TransferRepresentation<Item> {
            TransferRepresentationGroup(transferRepresentations.visibility(visibility.transferVisibility))
        }
    }

    /// A list of representations made by ``TransferRepresentationBuilder`` or a modifier.
    public struct TransferRepresentationGroup<Item: Transferable>: TransferRepresentation, @unchecked Sendable {
        /// The native list.
        public let transferRepresentations: RepresentationList<Item>

        /// A group of a native list.
        ///
        /// - Parameter representations: The list.
        public init(_ representations: RepresentationList<Item>) {
            self.transferRepresentations = representations
        }

        /// The group itself.
        public var body: Self { self }
    }

    /// CoreTransferable's result builder for ``Transferable/transferRepresentation`` and
    /// ``TransferRepresentation/body``.
    @resultBuilder
    public enum TransferRepresentationBuilder<Item: Transferable> {
        /// A representation as written.
        public static func buildExpression<R: TransferRepresentation>(
            _ representation: R
        ) -> TransferRepresentationGroup<Item> where R.Item == Item {
            TransferRepresentationGroup(representation.transferRepresentations)
        }

        /// The representations of a block, in order.
        public static func buildBlock(
            _ parts: TransferRepresentationGroup<Item>...
        ) -> TransferRepresentationGroup<Item> {
            TransferRepresentationGroup(RepresentationList(concatenating: parts.map(\.transferRepresentations)))
        }

        /// An `if` without `else`.
        public static func buildOptional(
            _ part: TransferRepresentationGroup<Item>?
        ) -> TransferRepresentationGroup<Item> {
            part ?? TransferRepresentationGroup(RepresentationList())
        }

        /// The taken branch of an `if`/`else`.
        public static func buildEither(
            first part: TransferRepresentationGroup<Item>
        ) -> TransferRepresentationGroup<Item> {
            part
        }

        /// The taken branch of an `if`/`else`.
        public static func buildEither(
            second part: TransferRepresentationGroup<Item>
        ) -> TransferRepresentationGroup<Item> {
            part
        }
    }
#endif
