import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// The README's text between a heading and the next heading.
private func readmeSection(_ heading: String) throws -> String {
    let text = try String(contentsOf: repositoryFile("README.md"), encoding: .utf8)
    let start = try #require(text.range(of: "\n" + heading + "\n"))
    let rest = text[start.upperBound...]
    // The nearest next heading of either level (`### The clipboard` follows `### The tool`, and needs a display).
    let end =
        [rest.range(of: "\n## ")?.lowerBound, rest.range(of: "\n### ")?.lowerBound].compactMap { $0 }.min()
        ?? rest.endIndex
    return String(rest[..<end])
}

/// Whether `.ci/run` has a line `command` (indented or not) and runs its `stage`, which holds it, by default.
private func ciRunsByDefault(_ stage: String, _ command: String) throws -> Bool {
    let lines = try String(contentsOf: repositoryFile(".ci/run"), encoding: .utf8).split(separator: "\n")
    let hasCommand = lines.contains { $0.trimmingCharacters(in: .whitespaces) == command }
    let defaults = lines.first { $0.hasPrefix("all_stages=(") } ?? ""
    return hasCommand && defaults.split(whereSeparator: { " ()".contains($0) }).contains(Substring(stage))
}

@Suite("README", .timeLimit(.minutes(5)))
struct ReadmeTests {
    @Test("the installation lines name products this package has, under the identity of the URL")
    func installationProducts() throws {
        let section = try readmeSection("## Installation")
        let url = try #require(section.firstMatch(of: /\.package\(url: "([^"]+)", from: "[0-9.]+"\)/)).1
        let identity = url.split(separator: "/").last.map { $0.replacingOccurrences(of: ".git", with: "") }
        let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
        let products = Set(manifest.matches(of: /\.(?:library|executable)\(name: "([^"]+)"/).map { String($0.1) })
        let named = section.matches(of: /\.product\(name: "([^"]+)", package: "([^"]+)"\)/)
        #expect(named.count >= 4)
        for match in named {
            #expect(products.contains(String(match.1)), "no product \(match.1)")
            #expect(String(match.2) == identity, "package: must be the URL's last component, \(identity ?? "?")")
        }
        for mentioned in ["TransferArchive", "CBOR", "TransferKitCLI"] {
            #expect(products.contains(mentioned))
        }
    }

    @Test("the tool's command lines run as written from the checkout, in order")
    func toolLines() async throws {
        let section = try readmeSection("### The tool")
        let lines = section.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("swift run transferkit") || $0.hasPrefix("head ") || $0.contains("| swift run")
        }
        #expect(lines.count >= 7)
        let folder = try makeTemporaryDirectory(prefix: "readme-tool")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Examples"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryFile("Examples/Files"), to: folder.appendingPathComponent("Examples/Files"))
        try FileManager.default.copyItem(
            at: repositoryFile("Examples/ExampleTypes.json"),
            to: folder.appendingPathComponent("Examples/ExampleTypes.json"))
        let tool = TransferKitExecutable.product(named: "transferkit")
        for line in lines {
            // `swift run transferkit` is the built binary; the comment after '#' is not part of the command.
            let command = (line.components(separatedBy: "  #").first ?? line)
                .replacingOccurrences(of: "swift run transferkit", with: "'\(tool)'")
            let run = try await ChildProcess.run("/bin/sh", arguments: ["-c", "cd '\(folder.path)' && \(command)"])
            let allowed: Set<Int32> = line.contains("--conforms") ? [0, 1] : [0]
            #expect(allowed.contains(run.status), "\(line)\n\(run.errorText)")
        }
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("copy.bin"))
                == Data(contentsOf: folder.appendingPathComponent("big.bin")))
    }
}

@Suite("Installing and documenting", .timeLimit(.minutes(5)))
struct InstallAndDocsTests {
    @Test("the README's path dependency names its folder as the package identity, and says why")
    func pathDependency() throws {
        let section = try readmeSection("## Installation")
        let path = try #require(section.firstMatch(of: /\.package\(path: "([^"]+)"\)/)).1
        let identity = try #require(path.split(separator: "/").last.map(String.init))
        #expect(identity == "transferkit")
        let block = try #require(section.components(separatedBy: ".package(path:").last)
        let named = block.matches(of: /\.product\(name: "[^"]+", package: "([^"]+)"\)/)
        #expect(named.count >= 3)
        for match in named { #expect(String(match.1) == identity) }
        #expect(block.contains(#".product(name: "TransferKitTesting", package: "transferkit")"#))
        #expect(section.contains("A path dependency's identity is its **folder's name**"))
        // CI builds a package from exactly these lines.
        let consumer = try String(contentsOf: repositoryFile(".ci/consumer"), encoding: .utf8)
        #expect(consumer.contains(#"block ~ /\.package\(path:/"#))
        #expect(FileManager.default.fileExists(atPath: repositoryFile(".ci/adopter/Tests/CardsTests").path))
        #expect(try ciRunsByDefault("consumers", ".ci/consumer path"))
    }

    @Test("CI builds a package from the installation lines against a tag, by version, with every product named")
    func versionedDependency() throws {
        let consumer = try String(contentsOf: repositoryFile(".ci/consumer"), encoding: .utf8)
        #expect(consumer.contains(#"block ~ /\.package\(url:/"#))
        #expect(consumer.contains(#"awk '/^The other products are/, /^$/' README.md"#))
        let section = try readmeSection("## Installation")
        #expect(section.contains("\nThe other products are "))
        #expect(try ciRunsByDefault("consumers", ".ci/consumer version"))
        #expect(FileManager.default.fileExists(atPath: repositoryFile(".ci/adopter/Tests/ProductsTests").path))
    }

    @Test("the one target with unsafe flags is a test helper no product builds; the tool links static by a script")
    func noUnsafeFlagsInProducts() throws {
        let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
        // A versioned dependency is refused when a product it uses builds a target with unsafe flags.
        #expect(manifest.ranges(of: "unsafeFlags").count == 1)
        let seeds = try #require(manifest.range(of: #"name: "TransferKitCompatibilitySeeds""#))
        let flags = try #require(manifest.range(of: "unsafeFlags"))
        #expect(seeds.upperBound < flags.lowerBound)
        #expect(!manifest[seeds.upperBound..<flags.lowerBound].contains(".target("), "the flag is the seeds' own")
        #expect(!manifest.contains(#"targets: ["TransferKitCompatibilitySeeds"]"#))
        let script = try String(contentsOf: repositoryFile("Scripts/release.sh"), encoding: .utf8)
        #expect(script.contains("swift build \"${flags[@]}\" --product transferkit >&2"))
        // The benchmark times the tool as released and is itself compiled as an adopter compiles the library.
        #expect(script.contains("swift build \"${tool_flags[@]}\" --product transferkit >&2"))
        #expect(script.contains("swift build \"${library_flags[@]}\" --product transferkit-bench >&2"))
        #expect(script.contains("--static-swift-stdlib"))
    }

    /// The public modules: the targets of the library products.
    func libraryModules() throws -> [String] {
        let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
        return manifest.matches(of: /\n *\.library\(name: "[^"]+", targets: \["([^"]+)"\]\)/).map { String($0.1) }
    }

    @Test("Scripts/docs.sh builds one archive per public module; .ci/run calls it; .spi.yml names the same modules")
    func docsCommand() throws {
        let modules = try libraryModules()
        #expect(modules.count == 12)
        for module in modules {
            #expect(
                FileManager.default.fileExists(atPath: repositoryFile("Sources/\(module)/Documentation.docc").path),
                "\(module) has no catalog")
        }
        let script = repositoryFile("Scripts/docs.sh")
        #expect(FileManager.default.isExecutableFile(atPath: script.path))
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(
            text.contains(#"sed -n 's/^ *\.library(name: "[^"]*", targets: \["\([^"]*\)"\]).*/\1/p' Package.swift"#))
        let ci = try String(contentsOf: repositoryFile(".ci/run"), encoding: .utf8)
        #expect(ci.contains("Scripts/docs.sh"))
        #expect(!ci.contains("docc convert"), "CI builds the docs with the README's command, not a loop of its own")
        let spi = try String(contentsOf: repositoryFile(".spi.yml"), encoding: .utf8)
        let targets = spi.split(separator: "\n").compactMap {
            $0.wholeMatch(of: /\ +- ([A-Za-z]+)/).map { String($0.1) }
        }
        #expect(targets == modules)
        #expect(spi.contains("platform: linux"))
    }
}
