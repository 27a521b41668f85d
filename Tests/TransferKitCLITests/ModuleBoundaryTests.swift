import Foundation
import Testing
import TransferKitTestSupport

/// The target declaration `.target(name: "<name>", …)` of Package.swift, up to its closing parenthesis.
private func targetDeclaration(_ name: String) throws -> String {
    let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
    let pattern = try Regex(#"\.(?:target|executableTarget)\(\s*name: "\#(name)""#)
    let start = try #require(manifest.firstMatch(of: pattern), "Package.swift declares no target \(name)").range
    var depth = 1
    var end = manifest.index(after: try #require(manifest[start].firstIndex(of: "(")))
    while end < manifest.endIndex, depth > 0 {
        if manifest[end] == "(" { depth += 1 }
        if manifest[end] == ")" { depth -= 1 }
        end = manifest.index(after: end)
    }
    return String(manifest[start.lowerBound..<end])
}

@Suite("The tool framework's module boundary", .timeLimit(.minutes(5)))
struct ModuleBoundaryTests {
    @Test("TransferKitCLI neither depends on TransferClipboard nor imports it: adopters' tools link no display code")
    func toolFrameworkHasNoClipboard() throws {
        let declaration = try targetDeclaration("TransferKitCLI")
        #expect(declaration.contains("\"TransferKit\""), "the declaration was not found whole: \(declaration)")
        #expect(!declaration.contains("TransferClipboard"), "\(declaration)")
        let sources = repositoryFile("Sources/TransferKitCLI")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(text.firstMatch(of: /import\s+TransferClipboard\b/) == nil, "\(file) imports TransferClipboard")
        }
    }

    @Test("the transferkit executable gets its clipboard commands from TransferClipboardCLI")
    func executableHasTheClipboardCommands() throws {
        #expect(try targetDeclaration("TransferClipboardCLI").contains("\"TransferClipboard\""))
        #expect(try targetDeclaration("transferkit").contains("\"TransferClipboardCLI\""))
    }
}
