/// The few `NSString` functions the package used, in plain Swift with Foundation's results: with them, the layers
/// of the `transferkit` tool import `FoundationEssentials` only, which has none of these, and a static build of the
/// tool leaves out the full Foundation and ICU's data (most of its size and a good part of its start).
///
/// Each reproduces swift-corelibs-foundation's behaviour on Linux exactly, quirks included; the platform tests
/// compare them with Foundation's own over every Unicode scalar or a table of paths.
package struct ScalarSet: Sendable {
    private let isMember: @Sendable (Unicode.Scalar) -> Bool

    private init(_ isMember: @escaping @Sendable (Unicode.Scalar) -> Bool) {
        self.isMember = isMember
    }

    /// Exactly the scalars of `characters`.
    package init(_ characters: String) {
        let members = Set(characters.unicodeScalars)
        self.init { members.contains($0) }
    }

    /// Whether `scalar` is in the set.
    package func contains(_ scalar: Unicode.Scalar) -> Bool {
        isMember(scalar)
    }

    /// The scalars of this set and of `other`.
    package func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet { self.isMember($0) || other.isMember($0) }
    }

    /// Foundation's `CharacterSet.whitespaces`: the space separators (general category Zs), the tab, and the zero
    /// width space U+200B, which Foundation counts as a space too.
    package static var whitespaces: ScalarSet {
        ScalarSet(isWhitespace)
    }

    /// Foundation's `CharacterSet.whitespacesAndNewlines`: ``whitespaces``, U+000A to U+000D, U+0085 and the line and
    /// paragraph separators U+2028 and U+2029.
    package static var whitespacesAndNewlines: ScalarSet {
        ScalarSet {
            switch $0.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: isWhitespace($0)
            }
        }
    }

    /// Foundation's `CharacterSet.controlCharacters`: the general categories Cc (controls) and Cf (format).
    package static var controlCharacters: ScalarSet {
        ScalarSet {
            let category = $0.properties.generalCategory
            return category == .control || category == .format
        }
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

extension StringProtocol {
    /// The string without the scalars of `set` at its start and end, as Foundation's `trimmingCharacters(in:)`
    /// trims: scalar by scalar (even inside a grapheme cluster), and never a scalar beyond U+FFFF (Foundation looks at
    /// UTF-16 code units, and a surrogate is in no set).
    package func trimming(_ set: ScalarSet) -> String {
        let scalars = unicodeScalars
        func isTrimmed(_ scalar: Unicode.Scalar) -> Bool { scalar.value <= 0xFFFF && set.contains(scalar) }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension String {
    /// The string with every byte of its UTF-8 form that may not stand in a URL's path written as `%XX` (upper-case
    /// hex), as `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)` writes it: letters and digits of
    /// ASCII and `!$&'()*+,-./:=@_~` stay, except a `:` before the first `/` (Foundation encodes it there, so that a
    /// relative path's first segment cannot read as a scheme).
    package var percentEncodedURLPath: String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var inFirstSegment = true
        for byte in utf8 {
            if byte == UInt8(ascii: "/") { inFirstSegment = false }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
            case UInt8(ascii: ":") where inFirstSegment:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            case _ where "!$&'()*+,-./:=@_~".utf8.contains(byte):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The extension of the last path component, as `NSString.pathExtension` finds it: the part after the last `.`
    /// of the last component (one trailing slash ignored), or `""` when there is none, when the component starts with
    /// its only `.` (`.profile`), or when it is `..`.
    package var filenameExtension: String {
        let path = Self.fixingSlashes(self)
        guard path.utf16.count > 1, let start = Self.startOfFilenameExtension(path) else { return "" }
        return String(path[start...])
    }

    /// The path without the extension of its last component and its dot, as `NSString.deletingPathExtension` makes
    /// it (runs of slashes made one as Foundation does, and one trailing slash removed, whether or not there is an
    /// extension).
    package var deletingFilenameExtension: String {
        let path = Self.fixingSlashes(self)
        guard path.utf16.count > 1, let start = Self.startOfFilenameExtension(path) else { return path }
        return String(path[..<path.index(before: start)])
    }

    /// `/` stays; any other path has its runs of slashes made one, then one trailing slash removed, as
    /// swift-corelibs-foundation does it: after shortening a run of k slashes, its loop goes on from where the run
    /// ended before (a stale index), so it skips the k − 1 characters that moved there, and may leave a later run
    /// (`a///b//c` gives `a/b//c`). Foundation crashes when that index lands inside a character of several bytes
    /// (`//é`); this counts characters and never does, and gives Foundation's result for every ASCII path.
    private static func fixingSlashes(_ path: String) -> String {
        if path == "/" { return path }
        var characters = Array(path)
        var position = 0
        while position < characters.count {
            guard characters[position] == "/" else {
                position += 1
                continue
            }
            var end = position + 1
            while end < characters.count, characters[end] == "/" { end += 1 }
            if end != position + 1 { characters.replaceSubrange(position..<end, with: ["/"]) }
            position = end
        }
        if characters.last == "/" { characters.removeLast() }
        return String(characters)
    }

    /// Where the extension of the last component of `path` (fixed, longer than one UTF-16 unit) starts, after its dot.
    private static func startOfFilenameExtension(_ path: String) -> String.Index? {
        var componentStart = path.endIndex
        while componentStart > path.startIndex, path[path.index(before: componentStart)] != "/" {
            componentStart = path.index(before: componentStart)
        }
        var position = path.endIndex
        while position > componentStart {
            let previous = path.index(before: position)
            if path[previous] == "." {
                if previous == componentStart { return nil }
                let beforeDot = path.index(before: previous)
                if previous == path.index(before: path.endIndex) && beforeDot == componentStart
                    && path[beforeDot] == "."
                {
                    return nil
                }
                return position
            }
            position = previous
        }
        return nil
    }
}
