/// Orders a conformance graph so parents come before children, or finds a cycle.
///
/// Iterative, so a long chain of declarations cannot overflow the stack.
enum ConformanceGraph {
    enum Outcome {
        /// Every node once, parents before children.
        case ordered([Int32])
        /// A cycle: each node conforms to the next, and the last to the first.
        case cycle([Int32])
    }

    /// Orders the nodes `0..<parents.count`.
    /// - Parameters:
    ///   - parents: Each node's parents, as `base` plus the parent's node; values below `base` name nodes outside
    ///     the graph (existing types that cannot conform to these), which are left out.
    ///   - base: What each parent value is offset by.
    static func order(parents: [[Int32]], from base: Int32 = 0) -> Outcome {
        enum Mark { case unvisited, inProgress, done }
        var marks = [Mark](repeating: .unvisited, count: parents.count)
        var order: [Int32] = []
        order.reserveCapacity(parents.count)
        var stack: [(node: Int, next: Int)] = []
        for root in parents.indices where marks[root] == .unvisited {
            stack.removeAll(keepingCapacity: true)
            stack.append((root, 0))
            marks[root] = .inProgress
            while let (node, next) = stack.last {
                guard next < parents[node].count else {
                    marks[node] = .done
                    order.append(Int32(node))
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let parent = Int(parents[node][next] - base)
                guard parent >= 0 else {
                    continue
                }
                switch marks[parent] {
                case .unvisited:
                    marks[parent] = .inProgress
                    stack.append((parent, 0))
                case .inProgress:
                    let start = stack.firstIndex { $0.node == parent } ?? 0
                    return .cycle(stack[start...].map { Int32($0.node) })
                case .done:
                    break
                }
            }
        }
        return .ordered(order)
    }
}
