extension TypeCatalog {
    /// Chooses which of several representations to load: the package's one representation-choice rule.
    ///
    /// A sender offers representations in *fidelity order* (its best first); a receiver asks for types in
    /// *preference order* (what it wants most first). The rule takes the requested types one at a time, in the
    /// receiver's order, and for each looks through the offered types in the sender's order for the first one
    /// that conforms to it (an equal type conforms). The first hit wins; the receiver's preference outranks the
    /// sender's fidelity, and an exact match does *not* outrank an earlier conforming representation.
    ///
    /// `TransferProvider`'s loads, `TransferArchive.Item.representation(for:catalog:)`, `transferkit extract` and
    /// `transferkit check --type` all call this function, so they always agree.
    ///
    /// | offered (fidelity order)                      | requested                   | chosen                   |
    /// |-----------------------------------------------|-----------------------------|--------------------------|
    /// | `public.utf8-plain-text`, `public.plain-text` | `public.plain-text`         | `public.utf8-plain-text` |
    /// | `public.png`, `public.jpeg`                   | `public.jpeg`               | `public.jpeg`            |
    /// | `public.png`, `public.jpeg`                   | `public.image`              | `public.png`             |
    /// | `public.png`, `public.jpeg`                   | `public.jpeg`, `public.png` | `public.jpeg`            |
    /// | `com.example.card` (conforms to JSON), `public.utf8-plain-text` | `public.text` | `com.example.card`  |
    /// | `public.png`                                  | `public.text`               | none                     |
    ///
    /// With a single requested type the answer is the first offered type that conforms to it, so a reader that
    /// meets representations one by one (a streaming archive reader) can stop at the first match.
    ///
    /// - Parameters:
    ///   - offered: The types the sender offers, in its fidelity order.
    ///   - requested: The types the receiver accepts, in its preference order.
    /// - Returns: The index in `offered` of the representation to load, or `nil` when none conforms to any
    ///   requested type.
    ///
    /// Inlinable, so that callers' loops are specialized for their collections: loads call it every time, and
    /// unspecialized iteration of a lazy collection cost more than the rest of a small load. An equal type is
    /// matched without the catalog's lock.
    @inlinable
    public func chooseRepresentation(
        offered: some Collection<UniformType>, requested: some Sequence<UniformType>
    ) -> Int? {
        for wanted in requested {
            for (index, type) in offered.enumerated() where type == wanted || conforms(type, to: wanted) {
                return index
            }
        }
        return nil
    }
}
