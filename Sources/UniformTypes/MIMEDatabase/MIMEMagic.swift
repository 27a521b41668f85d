/// The content rules of a shared-mime-info `magic` file: which MIME type a file's first bytes stand for.
///
/// The format (freedesktop shared-mime-info spec, "The magic files"): the header `MIME-Magic\0\n`, then sections
/// `[priority:mime/type]\n`, each with lines `[indent]>start-offset=value[&mask][~word-size][+range-length]\n`, where
/// `value` is a two-byte big-endian length and that many bytes, and `mask` as many bytes again. A line at indent
/// `n + 1` refines the nearest line above it at indent `n`: a line matches when its value is found and, if it has
/// such children, one of them matches; a section matches when one of its indent-0 lines does.
///
/// The parser is total and bounded: every number has a limit, a value or mask that runs past the end, a missing
/// header, a nesting jump or an unknown word size throws ``UniformTypeError`` with code `invalidMagic` and the byte
/// offset; a line with unknown trailing fields is skipped to its newline, as the spec asks; bytes of the file quoted in
/// an error are escaped and cut short. Matching looks at a prefix at most ``maximumExtent`` bytes long and makes at
/// most as many byte comparisons as ``ContentSniffingLimits`` allow, per rule and in all.
package struct MIMEMagic: Sendable, Equatable {
    /// One `>`-line.
    struct Line: Sendable, Equatable {
        var indent: Int
        var offset: Int
        var range: Int
        /// The value, already in the host's byte order for word sizes 2 and 4.
        var value: [UInt8]
        /// The mask, as long as `value`, or `nil` for all ones.
        var mask: [UInt8]?
        /// The index past this line's last descendant in its rule's `lines`.
        var subtreeEnd: Int
    }

    /// One section: a MIME type, its priority and its lines.
    struct Rule: Sendable, Equatable {
        var priority: Int
        var mimeType: String
        var lines: [Line]
    }

    /// The rules, highest priority first; rules of one priority in file order (as `xdgmime` keeps them).
    let rules: [Rule]
    /// How many leading bytes of a file the rules can look at: the largest offset + range + value length.
    package let maximumExtent: Int

    /// Limits that keep a hostile file from costing more than a real one: the system's largest start offset is
    /// 65 536-ish, its largest range a few thousand, its deepest nesting 5.
    static let maximumOffset = 1 << 20
    static let maximumRange = 1 << 20
    static let maximumIndent = 64
    static let maximumPriority = 100
    /// The most bytes of a file a sniff reads, whatever a magic file asks for.
    package static let maximumPrefix = 1 << 20

    /// An empty rule set: sniffing finds nothing and falls back to the text-or-binary rule.
    package init() {
        rules = []
        maximumExtent = 0
    }

    /// Parses magic files, highest precedence first; their rules are merged by priority.
    /// - Parameter files: Each file's bytes and a name for errors (its path).
    /// - Throws: ``UniformTypeError`` with code `invalidMagic`, `source` the file's name and `offset` the byte.
    package init(files: [(name: String, bytes: [UInt8])]) throws(UniformTypeError) {
        var all: [Rule] = []
        for file in files {
            var parser = MIMEMagicParser(bytes: file.bytes, source: file.name)
            all += try parser.parse()
        }
        // A stable sort: equal priorities keep the order of the files and of the sections in them.
        let indexed = all.enumerated().sorted { lhs, rhs in
            lhs.element.priority != rhs.element.priority
                ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
        }
        rules = indexed.map(\.element)
        var extent = 0
        for rule in rules {
            for line in rule.lines {
                extent = max(extent, line.offset + line.range - 1 + line.value.count)
            }
        }
        maximumExtent = min(extent, Self.maximumPrefix)
    }

    /// What one sniff found and what it cost.
    package struct Report: Sendable, Equatable {
        /// The matching rule's MIME type, or `nil` when no rule matched (or the work ran out first).
        package var mimeType: String?
        /// The matching rule's priority; 0 without a match.
        package var priority: Int
        /// The byte comparisons made, at most ``ContentSniffingLimits/maximumMatchWork``.
        package var work: Int
        /// How many rules reached ``ContentSniffingLimits/maximumRuleWork`` and counted as not matching.
        package var rulesOutOfWork: Int
        /// Whether the whole sniff reached ``ContentSniffingLimits/maximumMatchWork``, so that the rules after the
        /// one it stopped in were not tried.
        package var isOutOfWork: Bool
    }

    /// The MIME type the rules give `data` and the matching rule's priority, or `nil` when no rule matches within
    /// `limits`.
    package func match(
        _ data: some RandomAccessCollection<UInt8>, limits: ContentSniffingLimits = .default
    ) -> (mimeType: String, priority: Int)? {
        let report = evaluate(data, limits: limits)
        return report.mimeType.map { ($0, report.priority) }
    }

    /// Tries the rules on `data`, highest priority first, within the work `limits` allow (see
    /// ``ContentSniffingLimits``): a rule that reaches its own limit counts as not matching; once the whole
    /// sniff reaches its limit, no further rule is tried.
    package func evaluate(
        _ data: some RandomAccessCollection<UInt8>, limits: ContentSniffingLimits = .default
    ) -> Report {
        let bytes = Array(data.prefix(maximumExtent))
        let matchLimit = max(0, limits.maximumMatchWork)
        var budget = Budget(match: matchLimit, rule: 0)
        var report = Report(mimeType: nil, priority: 0, work: 0, rulesOutOfWork: 0, isOutOfWork: false)
        for rule in rules {
            budget.rule = max(0, limits.maximumRuleWork)
            let outcome = Self.matches(rule.lines, from: 0, to: rule.lines.count, in: bytes, budget: &budget)
            report.work = matchLimit - budget.match
            switch outcome {
            case .matched:
                report.mimeType = rule.mimeType
                report.priority = rule.priority
                return report
            case .failed:
                continue
            case .outOfWork:
                report.rulesOutOfWork += 1
                if budget.match <= 0 {
                    report.isOutOfWork = true
                    return report
                }
            }
        }
        return report
    }

    /// The comparisons left to the whole sniff and to the rule being tried.
    private struct Budget {
        var match: Int
        var rule: Int

        var allowed: Int { min(match, rule) }

        mutating func spend(_ count: Int) {
            match -= count
            rule -= count
        }
    }

    private enum Outcome {
        case matched
        case failed
        /// The budget ran out before the answer was known.
        case outOfWork
    }

    /// Whether one of the sibling lines in `start..<end` (all at one indent) matches with its subtree.
    private static func matches(
        _ lines: [Line], from start: Int, to end: Int, in data: [UInt8], budget: inout Budget
    ) -> Outcome {
        var index = start
        while index < end {
            let line = lines[index]
            let childrenEnd = line.subtreeEnd
            switch matches(line, in: data, budget: &budget) {
            case .matched:
                if childrenEnd == index + 1 { return .matched }
                switch matches(lines, from: index + 1, to: childrenEnd, in: data, budget: &budget) {
                case .matched: return .matched
                case .outOfWork: return .outOfWork
                case .failed: break
                }
            case .outOfWork:
                return .outOfWork
            case .failed:
                break
            }
            index = max(childrenEnd, index + 1)
        }
        return .failed
    }

    /// Whether `line`'s value (under its mask) occurs at one of its offsets in `data`; each byte compared costs one
    /// unit of `budget`, and the line gives up (``Outcome/outOfWork``) when no unit is left.
    private static func matches(_ line: Line, in data: [UInt8], budget: inout Budget) -> Outcome {
        let length = line.value.count
        var position = line.offset
        let last = line.offset + line.range - 1
        while position <= last, position + length <= data.count {
            let allowed = budget.allowed
            guard allowed > 0 else { return .outOfWork }
            let limit = min(length, allowed)
            var compared = limit
            var differs = false
            if let mask = line.mask {
                for index in 0..<limit where data[position + index] & mask[index] != line.value[index] & mask[index] {
                    compared = index + 1
                    differs = true
                    break
                }
            } else {
                for index in 0..<limit where data[position + index] != line.value[index] {
                    compared = index + 1
                    differs = true
                    break
                }
            }
            budget.spend(compared)
            if !differs { return limit == length ? .matched : .outOfWork }
            position += 1
        }
        return .failed
    }
}

/// Reads one magic file; see ``MIMEMagic``.
struct MIMEMagicParser {
    private let bytes: [UInt8]
    private let source: String
    private var position = 0

    init(bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
    }

    static let header: [UInt8] = Array("MIME-Magic\0\n".utf8)

    mutating func parse() throws(UniformTypeError) -> [MIMEMagic.Rule] {
        guard bytes.starts(with: Self.header) else {
            throw problem("the file does not start with the MIME-Magic header", at: 0)
        }
        position = Self.header.count
        var rules: [MIMEMagic.Rule] = []
        while position < bytes.count {
            rules.append(try section())
        }
        return rules
    }

    private mutating func section() throws(UniformTypeError) -> MIMEMagic.Rule {
        let start = position
        try expect(UInt8(ascii: "["), "a section must start with '['")
        let priority = try number(limit: MIMEMagic.maximumPriority)
        try expect(UInt8(ascii: ":"), "expected ':' after the section's priority")
        let nameStart = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "]"), bytes[position] != UInt8(ascii: "\n") {
            position += 1
        }
        let nameBytes = bytes[nameStart..<position]
        let name = String(decoding: nameBytes, as: UTF8.self)
        try expect(UInt8(ascii: "]"), "expected ']' after the section's MIME type")
        try expect(UInt8(ascii: "\n"), "expected a newline after the section header")
        guard case .success = TagSyntax.normalize(name, as: .mimeType) else {
            throw problem(
                "the section's MIME type \(MessageExcerpt.quoted(nameBytes)) is not a MIME type", at: nameStart)
        }
        var lines: [MIMEMagic.Line] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "[") {
            if let line = try line(previousIndent: lines.last?.indent) {
                lines.append(line)
            }
        }
        guard !lines.isEmpty else {
            throw problem("the section for \(MessageExcerpt.quoted(nameBytes)) has no match lines", at: start)
        }
        // Each line's subtree ends at the next line whose indent is not deeper.
        var open: [Int] = []
        for index in lines.indices {
            while let top = open.last, lines[top].indent >= lines[index].indent {
                lines[top].subtreeEnd = index
                open.removeLast()
            }
            open.append(index)
        }
        for index in open { lines[index].subtreeEnd = lines.count }
        return MIMEMagic.Rule(priority: priority, mimeType: name, lines: lines)
    }

    /// One `>`-line, or `nil` when it ends in a field this parser does not know (skipped, as the spec says).
    private mutating func line(previousIndent: Int?) throws(UniformTypeError) -> MIMEMagic.Line? {
        let start = position
        var indent = 0
        if position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            indent = try number(limit: MIMEMagic.maximumIndent)
        }
        guard indent <= (previousIndent ?? -1) + 1 else {
            throw problem("a line at indent \(indent) has no parent line at indent \(indent - 1)", at: start)
        }
        try expect(UInt8(ascii: ">"), "expected '>' to start a match line")
        let offset = try number(limit: MIMEMagic.maximumOffset)
        try expect(UInt8(ascii: "="), "expected '=' after the start offset")
        guard position + 2 <= bytes.count else {
            throw problem("the value's length is cut off", at: position)
        }
        let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
        position += 2
        guard length > 0 else { throw problem("the value is empty", at: position - 2) }
        var value = try take(length, "the value")
        var mask: [UInt8]?
        if position < bytes.count, bytes[position] == UInt8(ascii: "&") {
            position += 1
            mask = try take(length, "the mask")
        }
        var wordSize = 1
        if position < bytes.count, bytes[position] == UInt8(ascii: "~") {
            position += 1
            let sizeStart = position
            wordSize = try number(limit: 4)
            guard [0, 1, 2, 4].contains(wordSize) else {
                throw problem("the word size \(wordSize) is not 1, 2 or 4", at: sizeStart)
            }
            guard wordSize <= 1 || length % wordSize == 0 else {
                throw problem(
                    "the value's length \(length) is not a multiple of the word size \(wordSize)", at: sizeStart)
            }
        }
        var range = 1
        if position < bytes.count, bytes[position] == UInt8(ascii: "+") {
            position += 1
            let rangeStart = position
            range = try number(limit: MIMEMagic.maximumRange)
            guard range > 0 else { throw problem("the range length is 0", at: rangeStart) }
        }
        guard position < bytes.count else { throw problem("the line has no newline", at: position) }
        if bytes[position] != UInt8(ascii: "\n") {
            // A field from a later version of the format: skip the line.
            while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
            guard position < bytes.count else { throw problem("the line has no newline", at: position) }
            position += 1
            return nil
        }
        position += 1
        // Words are stored big-endian; the data is compared in the host's order, as xdgmime does.
        if wordSize > 1, UInt16(1).littleEndian == 1 {
            value = Self.swapped(value, wordSize: wordSize)
            mask = mask.map { Self.swapped($0, wordSize: wordSize) }
        }
        return MIMEMagic.Line(indent: indent, offset: offset, range: range, value: value, mask: mask, subtreeEnd: 0)
    }

    private static func swapped(_ bytes: [UInt8], wordSize: Int) -> [UInt8] {
        var result = bytes
        var start = 0
        while start + wordSize <= result.count {
            result[start..<start + wordSize].reverse()
            start += wordSize
        }
        return result
    }

    /// A decimal number of at most `limit`.
    private mutating func number(limit: Int) throws(UniformTypeError) -> Int {
        let start = position
        var value = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            guard value <= limit else { throw problem("a number is larger than \(limit)", at: start) }
            position += 1
        }
        guard position > start else { throw problem("expected a decimal number", at: start) }
        return value
    }

    private mutating func take(_ count: Int, _ what: String) throws(UniformTypeError) -> [UInt8] {
        guard count <= bytes.count - position else {
            throw problem("\(what) (\(count) bytes) runs past the end of the file", at: position)
        }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    private mutating func expect(_ byte: UInt8, _ message: String) throws(UniformTypeError) {
        guard position < bytes.count, bytes[position] == byte else { throw problem(message, at: position) }
        position += 1
    }

    private func problem(_ message: String, at offset: Int) -> UniformTypeError {
        UniformTypeError(
            code: .invalidMagic,
            message: "\(message); the magic file is malformed (regenerate it with update-mime-database)",
            source: source, offset: offset)
    }
}
