import Foundation

/// How figures print in the table.
enum Format {
    /// A figure with three significant digits or so: `0.123`, `1.23`, `12.3`, `123`, `12345`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        let magnitude = abs(value)
        let digits =
            switch magnitude {
            case 100...: 0
            case 10..<100: 1
            case 1..<10: 2
            default: 3
            }
        return String(format: "%.\(digits)f", value)
    }

    /// A ratio such as `1.07×`.
    static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        return String(format: "%.2f×", value)
    }

    /// Best and median as `best / median`.
    static func summary(_ summary: Summary?) -> String {
        guard let summary else { return "—" }
        return "\(number(summary.best)) / \(number(summary.median))"
    }

    /// `text` padded with spaces to `width` characters (counting Unicode characters, not bytes).
    static func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
