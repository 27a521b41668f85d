public import UniformTypes

/// One name a selection offers, and the uniform type it stands for.
public struct ClipboardOfferedType: Sendable, Hashable, CustomStringConvertible {
    /// The name on the wire: a MIME type, an X11 target such as `UTF8_STRING`, or a uniform type identifier.
    public var name: String
    /// The uniform type it maps to (``ClipboardTypeMapping/type(forOffered:catalog:)``), if any.
    public var type: UniformType?

    /// An offered name and its type.
    public init(name: String, type: UniformType?) {
        self.name = name
        self.type = type
    }

    /// The name, and the type when it differs.
    public var description: String {
        guard let type, type.identifier != name else { return name }
        return "\(name) (\(type))"
    }
}
