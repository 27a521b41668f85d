import TransferKitPlatform

/// The answers a snapshot has given to ``TypeCatalog/type(filenameExtension:conformingTo:)`` and
/// ``TypeCatalog/type(mimeType:conformingTo:)``, by the tag as the caller wrote it.
///
/// A first lookup normalizes the tag, gathers the declared claims, asks the MIME database's glob
/// rules and may make a dynamic type: a few microseconds. Programs look the same few tags up
/// again and again, so each snapshot keeps its answers; a repeated lookup is one hash of the tag.
/// A snapshot never changes, so its answers never go stale: a registration or an import makes a
/// new snapshot, with an empty memo. At most ``capacity`` answers per tag class are kept, so a
/// stream of distinct tags (from hostile input, say) cannot grow memory; past that, lookups
/// compute their answer each time.
final class TagAnswerMemo: Sendable {
    /// The most answers kept per tag class.
    static let capacity = 4096

    struct Key: Hashable {
        var tag: String
        var supertype: UniformType?
    }

    /// An answer, and whether it holds whatever MIME database the catalog imports later: true when a
    /// declared type (not one made from a database) claims the tag, for such claims come first.
    private struct Answer {
        var type: UniformType
        var holdsForAnyDatabase: Bool
    }

    private struct Tables {
        var byExtension: [Key: Answer] = [:]
        var byMIMEType: [Key: Answer] = [:]
    }

    private let tables = SanitizedMutex(Tables())

    /// The answer kept for `key`, if any; only one that holds for any database when `anyDatabase` is set.
    ///
    /// Catalogs that start alike share their first snapshot, memo included. One that has yet to import the
    /// system's MIME database lazily must not take the answers of one that has no database (a dynamic type for
    /// `blend`), so it asks with `anyDatabase`.
    func answer(_ key: Key, tagClass: UniformTypeTagClass, anyDatabase: Bool) -> UniformType? {
        let found: Answer?
        if tagClass == .filenameExtension {
            found = tables.withLock { $0.byExtension[key] }
        } else if tagClass == .mimeType {
            found = tables.withLock { $0.byMIMEType[key] }
        } else {
            found = nil
        }
        guard let found, found.holdsForAnyDatabase || !anyDatabase else {
            return nil
        }
        return found.type
    }

    /// How many answers are kept for `tagClass`.
    func count(of tagClass: UniformTypeTagClass) -> Int {
        tables.withLock { tagClass == .filenameExtension ? $0.byExtension.count : $0.byMIMEType.count }
    }

    /// Keeps `answer` for `key` while there is room; `holdsForAnyDatabase` when a declared type (not one made
    /// from a MIME database) claims the tag.
    func keep(_ answer: UniformType, for key: Key, tagClass: UniformTypeTagClass, holdsForAnyDatabase: Bool) {
        let value = Answer(type: answer, holdsForAnyDatabase: holdsForAnyDatabase)
        tables.withLock { tables in
            if tagClass == .filenameExtension,
                tables.byExtension.count < Self.capacity || tables.byExtension[key] != nil
            {
                tables.byExtension[key] = value
            } else if tagClass == .mimeType, tables.byMIMEType.count < Self.capacity || tables.byMIMEType[key] != nil {
                tables.byMIMEType[key] = value
            }
        }
    }
}
