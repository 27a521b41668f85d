import Foundation
import Testing
import TransferDesktop

/// `DesktopSessionOffer.isOfferName` ignores case without Foundation: it must agree with the
/// `caseInsensitiveCompare` it replaced, which folds case by Unicode's rules.
@Suite("The session offer's names, case-insensitively", .timeLimit(.minutes(5)))
struct SessionOfferNameTests {
    static func foundationSays(_ name: String) -> Bool {
        DesktopSessionOffer.names.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    @Test("Each name with one letter or pair of letters replaced by any BMP scalar is judged as Foundation judges it")
    func everySubstitutionAgrees() {
        var disagreements: [String] = []
        for name in DesktopSessionOffer.names {
            // One position per distinct letter, and the pairs that some scalar folds to (ß, ﬁ, ﬆ, …).
            var replaced: [Range<String.Index>] = []
            var seen: Set<Character> = []
            for index in name.indices where seen.insert(name[index]).inserted {
                replaced.append(index..<name.index(after: index))
            }
            for pair in ["ss", "fi", "st", "ff", "fl"] {
                if let range = name.range(of: pair) { replaced.append(range) }
            }
            for range in replaced {
                for value in UInt32(0)...0xFFFF {
                    guard let scalar = Unicode.Scalar(value) else { continue }
                    var candidate = name
                    candidate.replaceSubrange(range, with: String(Character(scalar)))
                    if DesktopSessionOffer.isOfferName(candidate) != Self.foundationSays(candidate) {
                        disagreements.append(candidate)
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test(
        "Names in other cases, with extra characters or decomposed letters",
        arguments: [
            "APPLICATION/X-TRANSFERKIT-DRAG-SESSION", "Org.TransferKit.Drag-Session", "org.transferkit.drag-session ",
            "org.transferkit.drag-sessio", "", "org.transferkit.drag-ſeßion", "org.transferkit.drag-session\u{301}",
            "org.transferkit.drag-sess\u{131}on", "org.transfer\u{212A}it.drag-session", "org.transferkit.drag‐session",
        ])
    func otherSpellings(name: String) {
        #expect(DesktopSessionOffer.isOfferName(name) == Self.foundationSays(name))
    }
}
