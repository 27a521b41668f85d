import TransferKitPlatform

/// Gives every distinct canonical identifier a small process-wide number, its key.
///
/// Keys let a catalog answer "which declaration is this?" with one array access instead of
/// hashing and comparing strings, which is what makes warm conformance queries cheap. To bound
/// memory when identifiers come from untrusted input, at most ``maximumUnforcedKeys`` identifiers
/// get keys on demand; past that, new identifiers get ``UniformType/unkeyed`` and take the slower
/// string path. Identifiers that a catalog declares are always given keys (`force`).
final class IdentifierTable: Sendable {
    /// The table every `UniformType` uses.
    static let shared = IdentifierTable()

    /// How many identifiers get keys without being declared.
    static let maximumUnforcedKeys = 1 << 16

    private struct State {
        /// Room for the built-in types and their neighbours from the start, so that making them at
        /// launch does not grow the table step by step.
        var keys = [String: Int32](minimumCapacity: 512)
        /// By key, the first type made for it (once it has been made): a type made again with the same spelling
        /// shares its storage instead of allocating another, which a declaration file's parents do by the
        /// thousand. Bounded like the keys.
        var types: [UniformType?] = []
    }

    private let state = SanitizedMutex(State())

    /// Makes room for `count` more keys at once, so that a batch of many new identifiers (a large declaration
    /// file, whose types all get keys once declared) does not grow the table step by step. The caller bounds
    /// `count` (a declaration file has at most 16 MiB).
    func reserveCapacity(forAdditional count: Int) {
        state.withLock { state in
            let wanted = state.keys.count + count
            if wanted > state.keys.capacity {
                state.keys.reserveCapacity(wanted)
                state.types.reserveCapacity(wanted)
            }
        }
    }

    /// The key of `canonical` if it has one, without assigning one; ``UniformType/unkeyed`` otherwise.
    func existingKey(for canonical: String) -> Int32 {
        state.withLock { $0.keys[canonical] ?? UniformType.unkeyed }
    }

    /// The type made earlier for `canonical` and spelled exactly `identifier`, or else the key to make it with,
    /// assigned as ``key(for:force:)`` assigns one without `force`.
    func lookUp(_ canonical: String, spelledAs identifier: String) -> (key: Int32, earlier: UniformType?) {
        state.withLock { state in
            if let key = state.keys[canonical] {
                // Strings compare by canonical equivalence; a type keeps its exact spelling, so compare bytes.
                if let earlier = state.types[Int(key)], Self.sameBytes(earlier.identifier, identifier) {
                    return (key, earlier)
                }
                return (key, nil)
            }
            return (Self.assign(canonical, force: false, in: &state), nil)
        }
    }

    /// Whether two strings have the same UTF-8 bytes, compared in place (the UTF-8 view's generic comparison was a
    /// tenth of looking an identifier up).
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        var first = first
        var second = second
        return first.withUTF8 { lhs in
            second.withUTF8 { rhs in UnsafeRawBufferPointer(lhs).hasSameBytes(as: UnsafeRawBufferPointer(rhs)) }
        }
    }

    /// Keeps `type` as the one to share for its key, unless one is kept already.
    func remember(_ type: UniformType) {
        guard type.key != UniformType.unkeyed else {
            return
        }
        state.withLock { state in
            let key = Int(type.key)
            if key < state.types.count, state.types[key] == nil {
                state.types[key] = type
            }
        }
    }

    private static func assign(_ canonical: String, force: Bool, in state: inout State) -> Int32 {
        let count = state.keys.count
        guard force || count < maximumUnforcedKeys, count < Int(Int32.max) else {
            return UniformType.unkeyed
        }
        let key = Int32(count)
        state.keys[canonical] = key
        state.types.append(nil)
        return key
    }

    /// The key of `canonical`, assigning a new one when there is room or when `force` is set;
    /// ``UniformType/unkeyed`` when the table is full.
    func key(for canonical: String, force: Bool) -> Int32 {
        state.withLock { state in
            if let key = state.keys[canonical] {
                return key
            }
            return Self.assign(canonical, force: force, in: &state)
        }
    }
}
