import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `transferkit types` shows about one type, as text or JSON.
struct TypeDescription: Encodable {
    var identifier: String
    var description: String?
    var isDeclared: Bool
    var isDynamic: Bool
    var conformsTo: [String]
    var supertypes: [String]
    var filenameExtensions: [String]
    var mimeTypes: [String]
    var referenceURL: String?
    var version: Int?
    /// The conformance hierarchy above the type, one line per row of the tree.
    private var tree: [String]

    private enum CodingKeys: String, CodingKey {
        case identifier, description, isDeclared, isDynamic, conformsTo, supertypes
        case filenameExtensions, mimeTypes, referenceURL, version
    }

    init(_ type: UniformType, in catalog: TypeCatalog) {
        let declaration = catalog.declaration(for: type)
        identifier = type.identifier
        description = declaration?.description ?? type.localizedDescription
        isDeclared = declaration != nil
        isDynamic = type.isDynamic
        conformsTo = (declaration?.conformsTo ?? []).map(\.identifier)
        supertypes = catalog.supertypes(of: type).map(\.identifier).sorted()
        // The catalogue's tags, not the declaration's: they include the MIME types a database merged into the type.
        let tags = catalog.tags(of: type)
        filenameExtensions = tags[.filenameExtension] ?? []
        mimeTypes = tags[.mimeType] ?? []
        referenceURL = declaration?.referenceURL?.absoluteString
        version = declaration?.version
        tree = Self.tree(of: type, in: catalog)
    }

    func text() -> String {
        var lines = [identifier]
        func row(_ label: String, _ value: String) { lines.append("  " + (label + ":").padded(14) + value) }
        row("description", description ?? "(none)")
        row("declared", isDeclared ? "yes" : (isDynamic ? "no (dynamic type)" : "no"))
        row("extensions", filenameExtensions.isEmpty ? "(none)" : filenameExtensions.joined(separator: " "))
        row("MIME types", mimeTypes.isEmpty ? "(none)" : mimeTypes.joined(separator: " "))
        if let referenceURL { row("reference", referenceURL) }
        if let version { row("version", String(version)) }
        lines.append("  conformance:")
        lines += tree.map { "    " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// How many levels of parents the tree shows; deeper ones are summed up in one line. A chain of 50 000
    /// MIME subclasses drawn whole overflowed the stack and took gigabytes of indentation.
    static let treeDepthLimit = 24

    /// Draws the parents of `type` as a tree, ``treeDepthLimit`` levels deep; a type reached a second time is
    /// marked instead of being expanded again.
    private static func tree(of type: UniformType, in catalog: TypeCatalog) -> [String] {
        var lines = [type.identifier]
        var shown: Set<UniformType> = [type]
        func parents(of type: UniformType) -> [UniformType] {
            if let declaration = catalog.declaration(for: type) { return declaration.conformsTo }
            // A dynamic type conforms to the type it was made for; show the nearest declared ones.
            let supertypes = catalog.supertypes(of: type)
            return supertypes.filter { candidate in
                !supertypes.contains { $0 != candidate && catalog.conforms($0, to: candidate) }
            }.sorted { $0.identifier < $1.identifier }
        }
        func draw(_ type: UniformType, prefix: String, depth: Int) {
            let children = parents(of: type)
            if depth == treeDepthLimit, !children.isEmpty {
                let hidden = catalog.supertypes(of: type).subtracting(shown).count
                lines.append(prefix + "└─ … (\(hidden) more supertypes, listed by --json)")
                return
            }
            for (index, parent) in children.enumerated() {
                let last = index == children.count - 1
                let seen = !shown.insert(parent).inserted
                lines.append(prefix + (last ? "└─ " : "├─ ") + parent.identifier + (seen ? " (above)" : ""))
                if !seen { draw(parent, prefix: prefix + (last ? "   " : "│  "), depth: depth + 1) }
            }
        }
        draw(type, prefix: "", depth: 0)
        return lines
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
