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

    static func order(parents: [[Int32]]) -> Outcome {
        enum Mark { case unvisited, inProgress, done }
        var marks = [Mark](repeating: .unvisited, count: parents.count)
        var order: [Int32] = []
        order.reserveCapacity(parents.count)
        for root in parents.indices where marks[root] == .unvisited {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            marks[root] = .inProgress
            while let (node, next) = stack.last {
                guard next < parents[node].count else {
                    marks[node] = .done
                    order.append(Int32(node))
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let parent = Int(parents[node][next])
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
