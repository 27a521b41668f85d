import TransferArchive

/// Archive equality for the round-trip checks (items and declarations): `==`, except that NaN equals NaN (NaN metadata is valid in the
/// binary form, and `Double`'s `==` never holds for it).
enum ArchiveComparison {
    static func same(_ a: TransferArchive, _ b: TransferArchive) -> Bool {
        guard a.items.count == b.items.count, a.declarations == b.declarations else { return false }
        return zip(a.items, b.items).allSatisfy { x, y in
            x.suggestedName == y.suggestedName && x.representations == y.representations
                && same(x.metadata, y.metadata)
        }
    }

    private static func same(_ a: [String: TransferMetadataValue], _ b: [String: TransferMetadataValue]) -> Bool {
        a.count == b.count
            && a.allSatisfy { key, value in
                guard let other = b[key] else { return false }
                return same(value, other)
            }
    }

    private static func same(_ a: TransferMetadataValue, _ b: TransferMetadataValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)):
            return x == y || (x.isNaN && y.isNaN)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return same(x, y)
        default:
            return a == b
        }
    }
}
