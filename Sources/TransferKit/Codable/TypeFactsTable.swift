import Synchronization
import TransferKitPlatform

/// A process-wide table from a type's identity to an object of facts about that type, each computed once and never
/// changed or removed: what a hot path asks about a type on every call, read without a lock.
///
/// A read is a few atomic loads (plain moves on x86-64) into an open-addressing table whose slots go from empty to
/// filled once and never change again; only an insertion takes the writers' lock. When the table is half full, the
/// writer copies it into one twice the size and publishes that; readers still holding the old one find what it had,
/// and miss only what came after, which they then look up again under the lock. Tables and facts are never freed
/// (their number is bounded by the program's types, as Swift's own type metadata is), so no reader can hold a table
/// or facts object that goes away: the old tables together take less room than the newest.
final class TypeFactsTable: Sendable {
    /// One table of `capacity` slots, each two atomics: the key (a type's identity) and its facts object, 0 while the
    /// slot is empty. The facts are stored before the key, so a reader that sees the key sees its facts.
    private final class Slots: @unchecked Sendable {
        // Unchecked: the memory is only ever accessed through the atomics it holds, and never freed.
        let capacity: Int
        let shift: Int
        let words: UnsafeMutablePointer<Atomic<UInt>>

        init(capacity: Int) {
            self.capacity = capacity
            shift = UInt.bitWidth - capacity.trailingZeroBitCount
            words = .allocate(capacity: 2 * capacity)
            for index in 0..<2 * capacity {
                (words + index).initialize(to: Atomic(0))
            }
        }

        /// Where the probe for `key` starts: Fibonacci hashing of the identity's bits, whose low bits are always 0.
        func start(for key: UInt) -> Int {
            Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
        }

        /// The address of the facts stored for `key`, or 0.
        func address(for key: UInt) -> UInt {
            var index = start(for: key)
            while true {
                let found = words[2 * index].load(ordering: .acquiring)
                if found == key {
                    return words[2 * index + 1].load(ordering: .relaxed)
                }
                if found == 0 {
                    return 0
                }
                index = (index + 1) & (capacity - 1)
            }
        }

        /// Stores `facts` (already retained for ever) for `key`, which is not in the table; only under the writers'
        /// lock, with room to spare.
        func insert(_ facts: UInt, for key: UInt) {
            var index = start(for: key)
            while words[2 * index].load(ordering: .relaxed) != 0 {
                index = (index + 1) & (capacity - 1)
            }
            words[2 * index + 1].store(facts, ordering: .relaxed)
            words[2 * index].store(key, ordering: .releasing)
        }

        /// Every filled slot's key and facts.
        func forEachEntry(_ body: (UInt, UInt) -> Void) {
            for index in 0..<capacity {
                let key = words[2 * index].load(ordering: .relaxed)
                if key != 0 {
                    body(key, words[2 * index + 1].load(ordering: .relaxed))
                }
            }
        }
    }

    /// The newest table (retained for ever).
    private let current: Atomic<Unmanaged<Slots>>
    /// The writers' lock, over the number of entries.
    private let writers = SanitizedMutex(0)

    /// An empty table with room for `initialCapacity / 2` types before it grows (`initialCapacity` a power of two).
    init(initialCapacity: Int = 64) {
        let slots = Slots(capacity: max(4, initialCapacity))
        current = Atomic(Unmanaged.passRetained(slots))
    }

    /// The address of the facts kept for `type`, made by `make` on the first call for the type and kept for ever (so
    /// the address stays valid, and the facts can be used through it without a retain).
    ///
    /// `make` runs outside the lock, so it may use the table. When two threads make the facts of a type at once, the
    /// first to store them wins and both get its facts. Not generic, so that its callers' unspecialized generic code
    /// instantiates no metadata to call it.
    func address(for type: Any.Type, orMake make: () -> AnyObject) -> UnsafeRawPointer {
        let key = UInt(bitPattern: ObjectIdentifier(type))
        let address = current.load(ordering: .acquiring).takeUnretainedValue().address(for: key)
        if let known = UnsafeRawPointer(bitPattern: address) {
            return known
        }
        return insert(make(), for: key)
    }

    /// Keeps `made` for `key` unless facts are kept for it already, and returns the address of the kept ones.
    private func insert(_ made: AnyObject, for key: UInt) -> UnsafeRawPointer {
        let madeRetained = Unmanaged.passRetained(made)
        let retained = UInt(bitPattern: madeRetained.toOpaque())
        let kept = writers.withLock { count in
            let slots = current.load(ordering: .relaxed).takeUnretainedValue()
            let known = slots.address(for: key)
            if known != 0 {
                return known
            }
            if 2 * (count + 1) > slots.capacity {
                let grown = Slots(capacity: 2 * slots.capacity)
                slots.forEachEntry { grown.insert($1, for: $0) }
                grown.insert(retained, for: key)
                current.store(Unmanaged.passRetained(grown), ordering: .releasing)
            } else {
                slots.insert(retained, for: key)
            }
            count += 1
            return retained
        }
        guard kept != retained, let known = UnsafeRawPointer(bitPattern: kept) else {
            return UnsafeRawPointer(madeRetained.toOpaque())
        }
        // Another thread stored its facts first: those are the type's, and `made` goes.
        madeRetained.release()
        return known
    }
}
