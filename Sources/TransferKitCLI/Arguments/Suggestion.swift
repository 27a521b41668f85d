/// The "did you mean" of a mistyped word: the nearest of the words a command knows, as git and cargo suggest.
package enum Suggestion {
    /// The candidate nearest to `word`, when it is near enough to be a slip of the keyboard: at most a third of the
    /// longer word's length in edits (one for short words), compared without case; the first of equally near ones.
    ///
    /// ```swift
    /// Suggestion.nearest(to: "pste", in: ["copy", "paste"])  // "paste"
    /// ```
    package static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let known = Array(candidate.lowercased())
            let limit = max(1, max(typed.count, known.count) / 3)
            guard abs(typed.count - known.count) <= limit else { continue }
            let distance = editDistance(typed, known)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `; did you mean 'word'?` for the nearest candidate, or an empty text when none is near: the tail of a message.
    package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours (`tpye`
    /// is one edit from `type`), each counting one.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
