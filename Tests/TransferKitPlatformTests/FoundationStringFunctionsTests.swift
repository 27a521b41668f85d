import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

/// The plain-Swift stand-ins for the `NSString` functions the tool's modules used: each must give Foundation's own
/// result (this process links the full Foundation, so the comparison is with the real thing).
@Suite("Foundation's string functions in plain Swift")
struct FoundationStringFunctionsTests {
    @Test(
        "Each scalar set holds exactly the BMP scalars of its CharacterSet",
        arguments: [
            ("whitespaces", ScalarSet.whitespaces, CharacterSet.whitespaces),
            ("whitespacesAndNewlines", .whitespacesAndNewlines, .whitespacesAndNewlines),
            ("controlCharacters", .controlCharacters, .controlCharacters),
        ])
    func scalarSetsMatchCharacterSets(name: String, set: ScalarSet, foundation: CharacterSet) {
        var differences: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if set.contains(scalar) != foundation.contains(scalar) { differences.append(String(value, radix: 16)) }
        }
        #expect(differences.isEmpty, "\(name): \(differences.prefix(20))")
    }

    /// Pieces the random strings are made of: members of the sets, combining marks, scalars beyond U+FFFF (which
    /// Foundation never trims), a NUL, quotes and plain letters.
    static let pieces = [
        " ", "\t", "\n", "\r\n", "\u{85}", "\u{A0}", "\u{200B}", "\u{2028}", "\u{3000}", "\u{0}", "\u{7F}", "\u{AD}",
        "\u{FEFF}", "\u{E0001}", "\u{1D173}", "\u{301}", "\"", "a", "é", "e\u{301}", "😀", "/", ".", "%", "k", ":",
    ]

    static func randomStrings(count: Int, seed: UInt64) -> [String] {
        var generator = SplitMix64(state: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined()
        }
    }

    @Test("Trimming removes what trimmingCharacters(in:) removes")
    func trimmingMatchesFoundation() {
        let sets: [(ScalarSet, CharacterSet)] = [
            (.whitespaces, .whitespaces), (.whitespacesAndNewlines, .whitespacesAndNewlines),
            (.controlCharacters, .controlCharacters),
            (ScalarSet("\""), CharacterSet(charactersIn: "\"")),
            (
                ScalarSet("\0").union(.whitespacesAndNewlines),
                CharacterSet(charactersIn: "\0").union(.whitespacesAndNewlines)
            ),
        ]
        for text in Self.randomStrings(count: 4000, seed: 38) {
            for (set, foundation) in sets {
                #expect(text.trimming(set) == text.trimmingCharacters(in: foundation), "\(Array(text.unicodeScalars))")
                let substring = Substring(text)
                #expect(substring.trimming(set) == substring.trimmingCharacters(in: foundation))
            }
        }
    }

    /// Paths Foundation can take: it crashes on some with a run of slashes and a character of several bytes after
    /// it (`//é`, see `fixingSlashes`), so those are ASCII only.
    static let paths = [
        "", "/", "//", "///", ".", "..", "...", "a", "a.", "a..", ".a", "..a", "a.b", "a.b.c", "a.b/", "a.b//", "/a.b",
        "//a.b", "a/.b", "a/..", "a/...", "a/b.c/", "a/b.c/d", "a.b/c", "a./b", "/.", "/..", "/.a", "/a.", "é.txt",
        "e\u{301}.t\u{301}xt", "x/\u{301}.b", "a.\u{301}", "😀.😀", "a.tar.gz", " .a", ". ", "a .b", "card.", "Luke.card",
        "a///b//c.txt", "a//b.c", "///a.b", "a/é.b", "é/a.b/",
    ]

    @Test("filenameExtension and deletingFilenameExtension are NSString's")
    func pathExtensionsMatchFoundation() {
        var generator = SplitMix64(state: 3)
        func random(_ pieces: [String]) -> String {
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined()
        }
        let ascii = (0..<4000).map { _ in random(["a", ".", "/", "//", " ", "..", "b."]) }
        let unicode = (0..<2000).map { _ in random(["a", "é", ".", "/", "\u{301}", " ", "😀", "..", "e\u{301}"]) }
            .filter { !$0.contains("//") }
        for path in Self.paths + ascii + unicode {
            // Foundation's stale index can leave a trailing slash (`a///b//` gives `a/b/`), on which it traps.
            let fixed = path.deletingFilenameExtension
            if fixed.utf16.count > 1 && fixed.hasSuffix("/") {
                #expect(path.filenameExtension == "")
                continue
            }
            #expect(path.filenameExtension == (path as NSString).pathExtension, "\(Array(path.unicodeScalars))")
            #expect(
                path.deletingFilenameExtension == (path as NSString).deletingPathExtension,
                "\(Array(path.unicodeScalars))")
        }
    }

    @Test("Paths that crash Foundation have an extension here", arguments: ["//é.txt", "a///b//", "x//😀/y.z"])
    func pathsFoundationCrashesOn(path: String) {
        #expect(path.filenameExtension == (path.hasSuffix("y.z") ? "z" : path.hasSuffix(".txt") ? "txt" : ""))
    }

    @Test("percentEncodedURLPath is addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)")
    func percentEncodingMatchesFoundation() {
        var texts = Self.randomStrings(count: 2000, seed: 52)
        texts += (UInt32(0)...0x2FF).compactMap(Unicode.Scalar.init).map { String(Character($0)) }
        texts += ["/tmp/a b/c;d?e#f[g]h", "/home/ü/😀.txt", "", ":", "a:b", "a:/b:c", "/a:b", "é:/:", "::/"]
        for text in texts {
            #expect(text.percentEncodedURLPath == text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
        }
    }

    @Test("DecimalText.fixed is String(format: \"%.Nf\")")
    func decimalTextMatchesFormat() {
        var generator = SplitMix64(state: 1)
        var values: [Double] = [0, -0.0, 0.05, 0.15, 0.25, 0.35, 1.25, 1.35, 2.5, 1023.95, 1023.96, 1e300, -1.5, 0.1]
        values += (0..<2000).map { _ in Double.random(in: 0..<1024, using: &generator) }
        values += (0..<200).map { _ in Double(Int.random(in: 0..<1_000_000, using: &generator)) / 1024 }
        for value in values {
            for digits in [0, 1, 2, 6] {
                #expect(DecimalText.fixed(value, fractionDigits: digits) == String(format: "%.\(digits)f", value))
            }
        }
    }
}

@Suite("ConditionLock", .timeLimit(.minutes(5)))
struct ConditionLockTests {
    @Test("A timed wait without a signal times out")
    func timedWaitTimesOut() {
        let condition = ConditionLock()
        condition.lock()
        let signalled = condition.wait(for: .milliseconds(20))
        condition.unlock()
        #expect(!signalled)
    }

    @Test("A negative or zero timeout waits no time; a huge one does not overflow")
    func extremeTimeouts() async {
        let condition = ConditionLock()
        condition.lock()
        #expect(!condition.wait(for: .seconds(-5)))
        #expect(!condition.wait(for: .zero))
        condition.unlock()
        let woken = Latch<Void>()
        let waiting = Latch<Void>()
        DedicatedThread.start {
            condition.lock()
            waiting.open()
            let signalled = condition.wait(for: .seconds(Int64.max))
            condition.unlock()
            if signalled { woken.open() }
        }
        await waiting.wait()
        // The waiter holds the lock until it waits; taking it here means it is waiting (or about to be woken).
        condition.lock()
        condition.broadcast()
        condition.unlock()
        await woken.wait()
        #expect(woken.isOpen)
    }
}

@Suite("Syscall.readToEnd")
struct ReadToEndTests {
    @Test("Reads a /proc file, whose size says 0, to its end")
    func readsProcFiles() throws {
        let bytes = try #require(Syscall.readToEnd(atPath: "/proc/self/status", limit: 1 << 20))
        #expect(String(decoding: bytes, as: UTF8.self).contains("Threads:"))
        #expect(Syscall.readToEnd(atPath: "/proc/self/status", limit: 10)?.count == 10)
        #expect(Syscall.readToEnd(atPath: "/nonexistent/file", limit: 10) == nil)
    }
}
