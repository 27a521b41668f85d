/// The decoder's coding path, with the index of the array item being decoded kept as a number until someone asks
/// for the path.
///
/// Each item of an array of records is decoded with the item's index pushed on the path, and its record's container
/// keeps the path. Pushed onto an `[any CodingKey]` that containers share, each item cost a copy of the array (the
/// container held the old one), an existential key and their release: about a sixth of decoding 100 000 small
/// records. Here an index pushed last is only a number; it becomes a key when another key goes on top of it or
/// when the path is read (``keys``, on an error or when a value asks for its `codingPath`).
struct CBORCodingPath {
    /// The keys, but for a pending index.
    private var settled: [any CodingKey]
    /// The index pushed last and not yet made a key, or -1.
    private var index = -1

    /// What is pushed onto a path for a nested value.
    enum Step {
        /// Nothing: the value is the container's own (a single-value container's).
        case none
        /// A key of a keyed container.
        case key(any CodingKey)
        /// An item's index in an unkeyed container or an array.
        case index(Int)

        /// Whether pushing the step adds a key to a path.
        var addsKey: Bool {
            if case .none = self {
                return false
            }
            return true
        }
    }

    /// A path of `keys`.
    init(_ keys: [any CodingKey] = []) {
        settled = keys
    }

    /// The number of keys.
    var count: Int { settled.count + (index >= 0 ? 1 : 0) }

    /// The keys, as `Decoder.codingPath` gives them.
    var keys: [any CodingKey] {
        index >= 0 ? settled + [CBORCodingKey(intValue: index)] : settled
    }

    /// Pushes `step`.
    mutating func push(_ step: consuming Step) {
        switch consume step {
        case .none:
            return
        case .key(let key):
            settle()
            settled.append(key)
        case .index(let index):
            settle()
            self.index = index
        }
    }

    /// Removes the key that the last push of a step other than ``Step/none`` added.
    mutating func pop() {
        if index >= 0 {
            index = -1
        } else {
            settled.removeLast()
        }
    }

    /// Pushes the index of an item: `push(.index(index))` without making a step.
    @inline(__always)
    mutating func pushIndex(_ index: Int) {
        settle()
        self.index = index
    }

    /// The same path, holding none of this one's storage when it has no settled keys.
    ///
    /// A record's container keeps its path. When that path is only a pending index (a record in a top-level array),
    /// sharing the decoder's array would make the record's first key push copy it (one allocation per record);
    /// the decoder's array stays unshared, and its capacity is reused from record to record.
    var unshared: CBORCodingPath {
        guard settled.isEmpty else { return self }
        var path = CBORCodingPath()
        path.index = index
        return path
    }

    /// This path with `step` pushed.
    func pushing(_ step: consuming Step) -> CBORCodingPath {
        var path = self
        path.push(step)
        return path
    }

    /// Empties the path, keeping its storage.
    mutating func removeAll() {
        settled.removeAll(keepingCapacity: true)
        index = -1
    }

    /// Makes a pending index a key.
    private mutating func settle() {
        guard index >= 0 else { return }
        settled.append(CBORCodingKey(intValue: index))
        index = -1
    }
}
