/// The coding key of an array index or a `super` entry, and of keys a strategy converts.
///
/// An index key makes its string only when asked: the decoder makes one per array item it decodes.
///
/// It takes three words (a name or an index, not an optional of each), so that it fits an `any CodingKey`'s inline
/// buffer: the key pushed for each decoded array item costs no heap box.
struct CBORCodingKey: CodingKey {
    private let name: String?
    private let index: Int

    init(stringValue: String) {
        name = stringValue
        index = 0
    }

    init(intValue: Int) {
        name = nil
        index = intValue
    }

    var intValue: Int? {
        name == nil ? index : nil
    }

    var stringValue: String {
        name ?? "Index \(intValue ?? 0)"
    }

    /// The key of a superclass's part, as Foundation's coders name it.
    static let `super` = CBORCodingKey(stringValue: "super")
}

/// The snake-case conversions of Foundation's `JSONEncoder` and `JSONDecoder`, so keys come out the same.
enum SnakeCase {
    /// `myURLProperty` → `my_url_property`: a word starts at each uppercase letter that follows a lowercase one,
    /// and at the last uppercase letter of a run that a lowercase letter follows.
    static func fromCamelCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upperCaseRange = key.rangeOfCharacter(where: SnakeCase.isUppercase, in: searchRange) {
            let untilUpperCase = wordStart..<upperCaseRange.lowerBound
            words.append(untilUpperCase)
            searchRange = upperCaseRange.lowerBound..<searchRange.upperBound
            guard let lowerCaseRange = key.rangeOfCharacter(where: SnakeCase.isLowercase, in: searchRange) else {
                wordStart = searchRange.lowerBound
                break
            }
            // The classes are disjoint, so the lowercase letter comes after the uppercase one; never build an
            // inverted range whatever the input.
            guard lowerCaseRange.lowerBound > upperCaseRange.lowerBound else { break }
            let nextCharacterAfterCapital = key.index(after: upperCaseRange.lowerBound)
            if lowerCaseRange.lowerBound == nextCharacterAfterCapital {
                wordStart = upperCaseRange.lowerBound
            } else {
                let beforeLowerIndex = key.index(before: lowerCaseRange.lowerBound)
                words.append(upperCaseRange.lowerBound..<beforeLowerIndex)
                wordStart = beforeLowerIndex
            }
            searchRange = lowerCaseRange.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }

    /// Whether `character` starts with an uppercase or titlecase letter (general categories Lu and Lt), as
    /// `CharacterSet.uppercaseLetters` says. `Character.isUppercase` will not do: a titlecase letter such as `ǅ` is
    /// both upper- and lowercase by it, and the word split needs the two classes disjoint.
    static func isUppercase(_ character: Character) -> Bool {
        let category = character.unicodeScalars.first?.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }

    /// Whether `character` starts with a lowercase letter (general category Ll).
    static func isLowercase(_ character: Character) -> Bool {
        character.unicodeScalars.first?.properties.generalCategory == .lowercaseLetter
    }

    /// `my_url_property` → `myUrlProperty`; leading and trailing underscores are kept.
    static func toCamelCase(_ key: String) -> String {
        guard !key.isEmpty, let firstNonUnderscore = key.firstIndex(where: { $0 != "_" }) else { return key }
        var lastNonUnderscore = key.index(before: key.endIndex)
        while lastNonUnderscore > firstNonUnderscore && key[lastNonUnderscore] == "_" {
            key.formIndex(before: &lastNonUnderscore)
        }
        let keyRange = firstNonUnderscore...lastNonUnderscore
        let leading = key[key.startIndex..<firstNonUnderscore]
        let trailing = key[key.index(after: lastNonUnderscore)..<key.endIndex]
        let components = key[keyRange].split(separator: "_")
        guard components.count > 1 else { return key }
        let joined =
            components[0].lowercased()
            + components.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return String(leading) + joined + String(trailing)
    }
}

extension String {
    /// The range of the first character in `range` that `predicate` accepts.
    fileprivate func rangeOfCharacter(
        where predicate: (Character) -> Bool, in range: Range<String.Index>
    ) -> Range<String.Index>? {
        var index = range.lowerBound
        while index < range.upperBound {
            let next = self.index(after: index)
            if predicate(self[index]) {
                return index..<next
            }
            index = next
        }
        return nil
    }
}
