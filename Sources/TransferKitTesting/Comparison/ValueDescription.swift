/// Describes a value for a message: `String(describing:)` (a struct's fields, or the value's own description),
/// except that a class without a description shows its stored properties (`Model(name: "Luke")`), so that two
/// unequal instances do not both print as the bare class name.
enum ValueDescription {
    static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .class, !(value is any CustomStringConvertible), !mirror.children.isEmpty else {
            return String(describing: value)
        }
        let fields = mirror.children.map { child in
            "\(child.label ?? "_"): \(String(reflecting: child.value))"
        }
        return "\(type(of: value))(\(fields.joined(separator: ", ")))"
    }
}
