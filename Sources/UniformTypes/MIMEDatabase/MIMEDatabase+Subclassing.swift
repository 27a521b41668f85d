extension MIMEDatabase {
    private static let textPlain = "text/plain"
    private static let octetStream = "application/octet-stream"

    /// The direct parents of `mimeType`: those of the `subclasses` files, plus the spec's implicit rules.
    ///
    /// The implicit rules: every `text/*` type is a subclass of `text/plain`, and every type except `inode/*`
    /// ones is a subclass of `application/octet-stream`. An implicit parent is added only when no explicit
    /// parent already leads to it, so the graph has no redundant edges: `image/svg+xml` has the parent
    /// `application/xml` (which leads to `text/plain`, then `application/octet-stream`), `image/png` has
    /// `application/octet-stream`, `inode/directory` has none. The rules apply to any well-formed name, known
    /// or not. Aliases are resolved, in the argument and in the answer.
    func parents(of mimeType: String) -> [String] {
        let name = canonical(for: mimeType) ?? mimeType
        let key = name.asciiLowercased
        var result: [String] = []
        var seen: Set<String> = [key]
        for parent in explicitParents[key] ?? [] {
            let canonicalParent = canonical(for: parent) ?? parent
            if seen.insert(canonicalParent.asciiLowercased).inserted { result.append(canonicalParent) }
        }

        var reached = result.reduce(into: MIMEReach()) { $0.formUnion(reach(of: $1.asciiLowercased)) }
        if key.hasPrefix("text/"), key != Self.textPlain, !reached.contains(.text) {
            result.append(typeSpellings[Self.textPlain] ?? Self.textPlain)
            reached.formUnion(MIMEReach(ownName: Self.textPlain))
        }
        if !key.hasPrefix("inode/"), key != Self.octetStream, !reached.contains(.nonInode) {
            result.append(typeSpellings[Self.octetStream] ?? Self.octetStream)
        }
        return result
    }

    /// Every ancestor of `mimeType` (parents, their parents, …), nearest first, without duplicates.
    package func ancestors(of mimeType: String) -> [String] {
        var result: [String] = []
        var seen: Set<String> = [canonicalKey(for: mimeType)]
        var queue = parents(of: mimeType)
        var index = 0
        while index < queue.count {
            let type = queue[index]
            index += 1
            guard seen.insert(type.asciiLowercased).inserted else { continue }
            result.append(type)
            queue.append(contentsOf: parents(of: type))
        }
        return result
    }

    /// Whether `mimeType` is `ancestor` (after resolving aliases) or one of its subclasses.
    ///
    /// `isSubclass("image/svg+xml", of: "text/plain")` is `true`.
    func isSubclass(_ mimeType: String, of ancestor: String) -> Bool {
        let target = canonicalKey(for: ancestor)
        if canonicalKey(for: mimeType) == target { return true }
        return ancestors(of: mimeType).contains { $0.asciiLowercased == target }
    }

    /// What the explicit `subclasses` entries lead to from `node` (a lowercased canonical name), `node` included.
    private func reach(of node: String) -> MIMEReach {
        explicitReach[node] ?? MIMEReach(ownName: node)
    }

    /// ``MIMEReach`` of every type that has explicit parents and of everything they lead to, keyed by lowercased
    /// canonical name, computed once per database.
    ///
    /// One pass of Tarjan's strongly-connected-components algorithm (iterative, so a chain of any length cannot
    /// overflow the stack): components are finished successors first, so each one's reach is its members' own
    /// names plus the finished reach of the components it points to. Linear in types plus `subclasses` lines;
    /// computing each type's closure separately made a chain of 10 000 types quadratic (about a minute).
    /// - Returns: The reach of each type, and the steps taken (types entered plus parent links followed, each
    ///   counted once per visit), which tests bound to prove the pass linear.
    static func explicitReach(
        explicitParents: [String: [String]], canonical: (String) -> String?
    ) -> (reach: [String: MIMEReach], steps: Int) {
        var steps = 0
        var edges: [String: [String]] = [:]
        func successors(_ node: String) -> [String] {
            if let known = edges[node] { return known }
            let found = (explicitParents[node] ?? []).map { (canonical($0) ?? $0).asciiLowercased }
            edges[node] = found
            return found
        }
        var result: [String: MIMEReach] = [:]
        var order: [String: Int] = [:]
        var low: [String: Int] = [:]
        var stack: [String] = []
        var onStack: Set<String> = []
        var frames: [(node: String, next: Int)] = []
        func enter(_ node: String) {
            steps += 1
            order[node] = order.count
            low[node] = order[node]
            stack.append(node)
            onStack.insert(node)
            frames.append((node, 0))
        }
        for root in explicitParents.keys where order[root] == nil {
            enter(root)
            while let (node, next) = frames.last {
                let out = successors(node)
                if next < out.count {
                    steps += 1
                    frames[frames.count - 1].next += 1
                    let target = out[next]
                    if order[target] == nil {
                        enter(target)
                    } else if onStack.contains(target), let targetOrder = order[target] {
                        low[node] = min(low[node] ?? targetOrder, targetOrder)
                    }
                    continue
                }
                frames.removeLast()
                let nodeLow = low[node] ?? 0
                if let caller = frames.last?.node {
                    low[caller] = min(low[caller] ?? nodeLow, nodeLow)
                }
                guard nodeLow == order[node] else { continue }
                var members: [String] = []
                var reach = MIMEReach()
                while let member = stack.popLast() {
                    onStack.remove(member)
                    members.append(member)
                    reach.formUnion(MIMEReach(ownName: member))
                    for target in successors(member) { reach.formUnion(result[target] ?? []) }
                    if member == node { break }
                }
                for member in members { result[member] = reach }
            }
        }
        return (result, steps)
    }
}

/// Which kinds of type a MIME type leads to through explicit `subclasses` entries (itself included): what
/// decides the implicit parents of ``MIMEDatabase/parents(of:)``.
struct MIMEReach: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    /// Some `text/*` type.
    static let text = MIMEReach(rawValue: 1)
    /// Some type that is not `inode/*`.
    static let nonInode = MIMEReach(rawValue: 2)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// What the lowercased `name` itself counts as.
    init(ownName name: String) {
        var value = MIMEReach()
        if name.hasPrefix("text/") { value.insert(.text) }
        if !name.hasPrefix("inode/") { value.insert(.nonInode) }
        self = value
    }
}
