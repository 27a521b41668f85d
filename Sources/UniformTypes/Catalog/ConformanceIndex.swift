/// Answers "does the type at index `a` conform to the type at index `b`?" for a catalog's declarations, in
/// memory linear in the number of declarations and their parents.
///
/// It replaces a bitset of every type's supertypes, which took n²/8 bytes: 1.25 GB for 100 000 declared
/// types. The structure:
///
/// - **A spanning forest.** Each declaration's first parent is its *primary* parent. Following primary parents
///   from a type gives its *tree ancestors*. With each type's depth in that forest and one skip pointer per type
///   (the deterministic skip list of Bitcoin's block index), the tree ancestor at any depth is found in
///   O(log depth) steps, so "is `b` a tree ancestor of `x`?" is a depth comparison and a short walk.
/// - **A cover per type.** The types that `a` conforms to are the tree ancestors of a few types: `a` itself,
///   and for each other parent the covers of that parent. The cover is that set with every member that is a tree
///   ancestor of another member removed, so a type with one parent chain has a cover of one, and the built-in
///   types have covers of one to four. A query tests `b` against each member of the cover.
/// - **A bounded fallback.** A cover larger than ``coverLimit`` is not stored: such a type (and any type built
///   on one) is answered by a search over its parents that stops at types with covers. Only declarations made
///   to grow covers (long chains in which every type has another parent) reach it; its work is linear in the
///   number of types searched, never quadratic in memory.
///
/// Appending declarations extends the arrays without touching the existing types' entries, since a new
/// declaration never becomes a parent of an existing one.
struct ConformanceIndex: Sendable {
    /// The largest cover stored; a type with more is answered by search.
    static let coverLimit = 32
    /// Marks a type without a stored cover in ``coverCount``.
    private static let searched: Int32 = -1

    /// Each type's first parent, or -1.
    private var primary: [Int32] = []
    /// Each type's depth in the forest of primary parents; a type without parents has depth 0.
    private var depth: [Int32] = []
    /// Each type's tree ancestor at depth `skipDepth(depth)`, or -1 for a type without parents.
    private var skip: [Int32] = []
    /// Where each type's parents start in ``parentList``, and how many it has.
    private var parentStart: [Int32] = []
    private var parentCount: [Int32] = []
    private var parentList: [Int32] = []
    /// Where each type's cover starts in ``coverList``, and its size (or ``searched``).
    private var coverStart: [Int32] = []
    private var coverCount: [Int32] = []
    private var coverList: [Int32] = []

    /// The number of types.
    var count: Int { primary.count }

    /// The number of types answered by search rather than by a stored cover.
    var searchedCount: Int { coverCount.lazy.filter { $0 == Self.searched }.count }

    /// An index of no types.
    init() {}

    /// An index of `parents.count` types.
    /// - Parameters:
    ///   - parents: The indexes of each type's parents, the primary one first.
    ///   - order: Every index once, parents before children (see `ConformanceGraph`).
    init(parents: [[Int32]], order: [Int32]) {
        append(parents: parents, order: order)
    }

    /// Adds types after the existing ones.
    /// - Parameters:
    ///   - parents: The parents of each new type, existing or new; the first new type's index is ``count``.
    ///   - order: The new types' indexes (from ``count``), each once, parents before children.
    mutating func append(parents: [[Int32]], order: [Int32]) {
        let start = count
        let total = start + parents.count
        primary.append(contentsOf: parents.lazy.map { $0.first ?? -1 })
        depth.append(contentsOf: repeatElement(0, count: parents.count))
        skip.append(contentsOf: repeatElement(-1, count: parents.count))
        coverStart.append(contentsOf: repeatElement(0, count: parents.count))
        coverCount.append(contentsOf: repeatElement(0, count: parents.count))
        parentStart.reserveCapacity(total)
        parentCount.reserveCapacity(total)
        for list in parents {
            parentStart.append(Int32(parentList.count))
            parentCount.append(Int32(list.count))
            parentList.append(contentsOf: list)
        }
        var candidates: [Int32] = []
        for node in order {
            let index = Int(node)
            let first = primary[index]
            if first >= 0 {
                let nodeDepth = depth[Int(first)] + 1
                depth[index] = nodeDepth
                skip[index] = ancestor(of: first, atDepth: Self.skipDepth(nodeDepth))
            }
            linkCover(of: node, candidates: &candidates)
        }
    }

    /// Computes and stores the cover of `node`, whose parents have theirs.
    private mutating func linkCover(of node: Int32, candidates: inout [Int32]) {
        candidates.removeAll(keepingCapacity: true)
        candidates.append(node)
        let index = Int(node)
        let parentsStart = Int(parentStart[index])
        for parent in parentList[parentsStart..<parentsStart + Int(parentCount[index])] {
            let size = Int(coverCount[Int(parent)])
            guard size != Int(Self.searched), candidates.count + size <= 2 * Self.coverLimit else {
                coverCount[index] = Self.searched
                return
            }
            let from = Int(coverStart[Int(parent)])
            candidates.append(contentsOf: coverList[from..<from + size])
        }
        // A root's cover is itself: nothing to sort or prune.
        if candidates.count > 1 {
            candidates.sort()
            var unique = 0
            for candidate in candidates where unique == 0 || candidates[unique - 1] != candidate {
                candidates[unique] = candidate
                unique += 1
            }
            candidates.removeLast(candidates.count - unique)
        }
        // A member that is a tree ancestor of another member adds nothing. The others go straight to the end of
        // the shared list (no array per type), and come off again if there are too many.
        let listStart = coverList.count
        for member in candidates
        where !candidates.contains(where: { other in other != member && isTreeAncestor(Int(member), of: Int(other)) }) {
            coverList.append(member)
        }
        let kept = coverList.count - listStart
        guard kept <= Self.coverLimit else {
            coverList.removeLast(kept)
            coverCount[index] = Self.searched
            return
        }
        coverStart[index] = Int32(listStart)
        coverCount[index] = Int32(kept)
    }

    /// Whether the type at `index` conforms to the one at `other`: reflexive and transitive.
    @inline(__always)
    func conforms(_ index: Int, to other: Int) -> Bool {
        if index == other {
            return true
        }
        let size = Int(coverCount[index])
        if size == Int(Self.searched) {
            return searchConforms(index, to: other)
        }
        return coverContains(from: Int(coverStart[index]), count: size, ancestor: other)
    }

    /// Whether `ancestor` is a tree ancestor of (or is) one of the cover members stored at `start`.
    @inline(__always)
    private func coverContains(from start: Int, count size: Int, ancestor: Int) -> Bool {
        for position in start..<start + size where isTreeAncestor(ancestor, of: Int(coverList[position])) {
            return true
        }
        return false
    }

    /// Whether `ancestor` is `node` or one of its tree ancestors.
    @inline(__always)
    private func isTreeAncestor(_ ancestor: Int, of node: Int) -> Bool {
        let target = depth[ancestor]
        return target <= depth[node] && self.ancestor(of: Int32(node), atDepth: target) == Int32(ancestor)
    }

    /// The answer for a type without a stored cover: a search over parents that stops at types with one.
    private func searchConforms(_ index: Int, to other: Int) -> Bool {
        var visited: Set<Int32> = [Int32(index)]
        var pending: [Int32] = [Int32(index)]
        while let node = pending.popLast() {
            let start = Int(parentStart[Int(node)])
            for parent in parentList[start..<start + Int(parentCount[Int(node)])] where visited.insert(parent).inserted
            {
                let size = Int(coverCount[Int(parent)])
                if size == Int(Self.searched) {
                    if Int(parent) == other {
                        return true
                    }
                    pending.append(parent)
                } else if coverContains(from: Int(coverStart[Int(parent)]), count: size, ancestor: other) {
                    return true
                }
            }
        }
        return false
    }

    /// The indexes of every type that the type at `index` conforms to, itself excluded, in no particular order.
    func supertypes(of index: Int) -> [Int32] {
        var visited: Set<Int32> = [Int32(index)]
        var pending: [Int32] = [Int32(index)]
        while let node = pending.popLast() {
            let start = Int(parentStart[Int(node)])
            for parent in parentList[start..<start + Int(parentCount[Int(node)])] where visited.insert(parent).inserted
            {
                pending.append(parent)
            }
        }
        visited.remove(Int32(index))
        return Array(visited)
    }

    /// The tree ancestor of `node` at depth `target` (at most `node`'s depth), in O(log depth) steps.
    private func ancestor(of node: Int32, atDepth target: Int32) -> Int32 {
        var walk = node
        var walkDepth = depth[Int(node)]
        // Most hierarchies are a few levels deep: plain parent steps are cheapest there.
        while walkDepth > target, walkDepth - target <= 4 {
            walk = primary[Int(walk)]
            walkDepth -= 1
        }
        while walkDepth > target {
            let skipDepth = Self.skipDepth(walkDepth)
            let previousSkipDepth = Self.skipDepth(walkDepth - 1)
            let jump = skip[Int(walk)]
            // Take the skip unless it overshoots, or the parent's skip would get closer (Bitcoin's rule).
            if jump >= 0
                && (skipDepth == target
                    || (skipDepth > target && !(previousSkipDepth < skipDepth - 2 && previousSkipDepth >= target)))
            {
                walk = jump
                walkDepth = skipDepth
            } else {
                walk = primary[Int(walk)]
                walkDepth -= 1
            }
        }
        return walk
    }

    /// The depth a type at `depth` skips to: chosen so any ancestor is reached in O(log depth) steps.
    @inline(__always)
    private static func skipDepth(_ depth: Int32) -> Int32 {
        if depth < 2 {
            return 0
        }
        return depth & 1 != 0 ? clearLowestOne(clearLowestOne(depth - 1)) + 1 : clearLowestOne(depth)
    }

    @inline(__always)
    private static func clearLowestOne(_ value: Int32) -> Int32 {
        value & (value - 1)
    }
}
