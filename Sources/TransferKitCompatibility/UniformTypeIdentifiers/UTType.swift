#if !canImport(Darwin)
    public import UniformTypes

    /// The UniformTypeIdentifiers name of `UniformType`: `UTType.plainText`, `UTType("public.png")`,
    /// `UTType(filenameExtension: "json")`, `conforms(to:)`, `tags`, `preferredMIMEType` and the rest work as on Apple
    /// platforms, against TransferKit's type catalogue.
    public typealias UTType = UniformType

    /// The UniformTypeIdentifiers name of `UniformTypeTagClass`: `.filenameExtension`, `.mimeType`.
    public typealias UTTagClass = UniformTypeTagClass
#endif
