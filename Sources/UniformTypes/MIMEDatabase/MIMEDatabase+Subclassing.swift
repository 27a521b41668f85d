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

        var reachable = explicitClosure(of: result)
        if key.hasPrefix("text/"), key != Self.textPlain, !reachable.contains(where: { $0.hasPrefix("text/") }) {
            result.append(typeSpellings[Self.textPlain] ?? Self.textPlain)
            reachable.insert(Self.textPlain)
        }
        let reachesStream = reachable.contains { !$0.hasPrefix("inode/") }
        if !key.hasPrefix("inode/"), key != Self.octetStream, !reachesStream {
            result.append(typeSpellings[Self.octetStream] ?? Self.octetStream)
        }
        return result
    }

    /// Every ancestor of `mimeType` (parents, their parents, …), nearest first, without duplicates.
    func ancestors(of mimeType: String) -> [String] {
        var result: [String] = []
        var seen: Set<String> = [(canonical(for: mimeType) ?? mimeType).asciiLowercased]
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
        let target = (canonical(for: ancestor) ?? ancestor).asciiLowercased
        if (canonical(for: mimeType) ?? mimeType).asciiLowercased == target { return true }
        return ancestors(of: mimeType).contains { $0.asciiLowercased == target }
    }

    /// The lowercased names reachable from `types` through explicit `subclasses` entries, `types` included.
    private func explicitClosure(of types: [String]) -> Set<String> {
        var seen: Set<String> = []
        var stack = types.map(\.asciiLowercased)
        while let type = stack.popLast() {
            guard seen.insert(type).inserted else { continue }
            for parent in explicitParents[type] ?? [] {
                stack.append((canonical(for: parent) ?? parent).asciiLowercased)
            }
        }
        return seen
    }
}
