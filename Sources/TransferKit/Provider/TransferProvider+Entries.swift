import UniformTypes

extension TransferProvider {
    /// The registered representations in fidelity (registration) order, with the duplicate check of a registration.
    ///
    /// The first entry is kept inline and the others in an array, so a provider of one representation (most providers
    /// made from an object) allocates nothing but itself. Up to ``linearLimit`` entries, a registration looks for an
    /// equal type by comparing each (a type's key, an integer); past it, the types go into a set, so a provider built
    /// from a peer's offer of n names still costs O(n), not O(n²) (30 000 offered names took 35 s).
    struct Entries: RandomAccessCollection, Sendable {
        private var head: Entry?
        /// The head's type and stored object again, so that a load reads them without copying the whole entry.
        private(set) var firstType: UniformType?
        private(set) var firstStoredObject: (any TransferProviderWriting)?
        private var tail: [Entry] = []
        /// The types of all entries, once there are more than ``linearLimit``.
        private var typeSet: Set<UniformType>?

        /// The most entries checked one by one for an equal type.
        static let linearLimit = 16

        var startIndex: Int { 0 }
        var endIndex: Int { head == nil ? 0 : tail.count + 1 }

        subscript(position: Int) -> Entry {
            if position == 0, let head {
                return head
            }
            return tail[position - 1]
        }

        /// The source of the first entry whose object is of exactly the type `objectType` identifies, for the in-process
        /// fast path; found without copying the entries.
        func objectSource(of objectType: ObjectIdentifier) -> ObjectSource? {
            func source(_ entry: Entry) -> ObjectSource? {
                guard case .object(let source) = entry.source, ObjectIdentifier(source.objectType) == objectType
                else { return nil }
                return source
            }
            guard let head else { return nil }
            if let found = source(head) {
                return found
            }
            return tail.firstIndex { source($0) != nil }.flatMap { source(tail[$0]) }
        }

        /// Appends `entry` unless an entry of an equal type is there.
        ///
        /// - Returns: Whether it was appended.
        mutating func append(_ entry: consuming Entry) -> Bool {
            guard let first = head else {
                firstType = entry.type
                if case .object(let source) = entry.source {
                    firstStoredObject = source.stored
                }
                head = entry
                return true
            }
            if typeSet != nil {
                guard typeSet?.insert(entry.type).inserted == true else { return false }
            } else {
                if first.type == entry.type || tail.contains(where: { $0.type == entry.type }) {
                    return false
                }
                if tail.count + 1 >= Self.linearLimit {
                    var types = Set(tail.lazy.map(\.type))
                    types.insert(first.type)
                    types.insert(entry.type)
                    typeSet = types
                }
            }
            tail.append(entry)
            return true
        }
    }
}
