extension TypeCatalog {
    /// The type a file's name implies: the declared type for its extension (including types made
    /// from an imported MIME database), or `fallback` when the name has no extension or no
    /// declaration claims it.
    ///
    /// Unlike ``type(filenameExtension:conformingTo:)``, this never returns a dynamic type: a
    /// file named `notes.xyz` is plain `public.data`, as `TransferProvider(contentsOf:)` and
    /// `transferkit pack` describe their inputs.
    /// - Parameters:
    ///   - fileName: A file name or path, such as `notes.txt`.
    ///   - fallback: The type to use when no declared type matches.
    public func declaredType(forFileName fileName: String, fallback: UniformType = .data) -> UniformType {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        let fileExtension = String(name[name.index(after: dot)...])
        guard let type = type(filenameExtension: fileExtension), !type.isDynamic else { return fallback }
        return type
    }
}
