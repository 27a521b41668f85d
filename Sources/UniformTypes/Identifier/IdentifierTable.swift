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
    }

    private let state = SanitizedMutex(State())

    /// Makes room for `count` more keys at once, so that a batch of many new identifiers (a large declaration
    /// file) does not grow the table step by step. Room beyond ``maximumUnforcedKeys`` is not reserved.
    func reserveCapacity(forAdditional count: Int) {
        state.withLock { state in
            let wanted = state.keys.count + Swift.min(count, Self.maximumUnforcedKeys)
            if wanted > state.keys.capacity {
                state.keys.reserveCapacity(wanted)
            }
        }
    }

    /// The key of `canonical` if it has one, without assigning one; ``UniformType/unkeyed`` otherwise.
    func existingKey(for canonical: String) -> Int32 {
        state.withLock { $0.keys[canonical] ?? UniformType.unkeyed }
    }

    /// The key of `canonical`, assigning a new one when there is room or when `force` is set;
    /// ``UniformType/unkeyed`` when the table is full.
    func key(for canonical: String, force: Bool) -> Int32 {
        state.withLock { state in
            if let key = state.keys[canonical] {
                return key
            }
            let count = state.keys.count
            guard force || count < Self.maximumUnforcedKeys, count < Int(Int32.max) else {
                return UniformType.unkeyed
            }
            let key = Int32(count)
            state.keys[canonical] = key
            return key
        }
    }
}
