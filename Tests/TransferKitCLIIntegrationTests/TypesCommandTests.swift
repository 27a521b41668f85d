import Foundation
import Testing
import TransferKitCLI
import TransferKitTestSupport

private let exampleTypes = repositoryFile("Examples/ExampleTypes.json").path

@Suite("transferkit types", .timeLimit(.minutes(5)))
struct TypesCommandTests {
    @Test func extensionLookupShowsTheTypeAndItsConformanceTree() async throws {
        let run = try await runBinary(["types", "--extension", "py"])
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        // The Linux database's name for *.py follows the declared one, where the database is installed.
        let database = FileManager.default.fileExists(atPath: "/usr/share/mime/globs2") ? " text/x-python" : ""
        #expect(
            run.output == """
                public.python-script
                  description:  Python script
                  declared:     yes
                  extensions:   py
                  MIME types:   text/x-python-script\(database)
                  conformance:
                    public.python-script
                    └─ public.shell-script
                       └─ public.script
                          └─ public.source-code
                             └─ public.plain-text
                                └─ public.text
                                   ├─ public.data
                                   │  └─ public.item
                                   └─ public.content

                """)
    }

    @Test func identifierLookupAsJSON() async throws {
        let run = try await runBinary(["types", "public.utf8-plain-text", "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["identifier"] as? String == "public.utf8-plain-text")
        #expect(object["conformsTo"] as? [String] == ["public.plain-text"])
        #expect((object["supertypes"] as? [String])?.contains("public.text") == true)
        #expect(object["isDeclared"] as? Bool == true)
    }

    @Test func mimeLookupGoesThroughTheLinuxDatabaseAliases() async throws {
        let alias = try await runBinary(["types", "--mime", "text/x-markdown", "--json"])
        let canonical = try await runBinary(["types", "--mime", "text/markdown", "--json"])
        #expect(alias.status == 0)
        let aliasObject = try JSONSerialization.jsonObject(with: Data(alias.output.utf8)) as? [String: Any]
        let canonicalObject = try JSONSerialization.jsonObject(with: Data(canonical.output.utf8)) as? [String: Any]
        #expect(aliasObject?["identifier"] as? String == canonicalObject?["identifier"] as? String)
        #expect((aliasObject?["supertypes"] as? [String])?.contains("public.plain-text") == true)
    }

    @Test(
        "conformance answers with the exit code",
        arguments: [
            ("public.png", "public.image", Int32(0), "public.png conforms to public.image\n"),
            ("public.png", "public.text", 1, "public.png does not conform to public.text\n"),
            ("PUBLIC.JSON", "public.text", 0, "PUBLIC.JSON conforms to public.text\n"),
        ])
    func conforms(type: String, parent: String, status: Int32, output: String) async throws {
        let run = try await runBinary(["types", "--conforms", type, parent])
        #expect(run.status == status)
        #expect(run.output == output)
    }

    @Test(
        "a built-in type carries the MIME type the Linux database merged into it",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/globs2"), "needs shared-mime-info"))
    func mergedMIMETypesAreTags() async throws {
        let run = try await runBinary(["types", "--extension", "c", "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["identifier"] as? String == "public.c-source")
        #expect((object["mimeTypes"] as? [String])?.first == "text/x-csrc")
        let text = try await runBinary(["types", "public.c-source"])
        #expect(text.output.contains("MIME types:   text/x-csrc"))
    }

    @Test(
        "the type of an extension lists the Linux database's MIME type for it, after its own preferred one",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/globs2"), "needs shared-mime-info"),
        arguments: [
            ("php", "public.php-script", "text/php", ["application/x-php"]),
            ("py", "public.python-script", "text/x-python-script", ["text/x-python"]),
            ("pl", "public.perl-script", "text/x-perl-script", ["application/x-perl"]),
            ("pm", "public.perl-script", "text/x-perl-script", ["application/x-perl"]),
            ("rb", "public.ruby-script", "text/x-ruby-script", ["application/x-ruby"]),
            ("cer", "public.x509-certificate", "application/x-x509-ca-cert", ["application/pkix-cert"]),
            (
                "exe", "com.microsoft.windows-executable", "application/x-msdownload",
                ["application/x-ms-dos-executable"]
            ),
            ("j2c", "public.jpeg-2000", "image/jp2", ["image/x-jp2-codestream", "image/jpx"]),
            ("j2k", "public.jpeg-2000", "image/jp2", ["image/x-jp2-codestream", "image/jpx"]),
            ("jpf", "public.jpeg-2000", "image/jp2", ["image/x-jp2-codestream", "image/jpx"]),
            ("svgz", "public.svg-image", "image/svg+xml", ["image/svg+xml-compressed"]),
        ])
    func databaseMIMETypesAreTags(
        filenameExtension: String, identifier: String, preferred: String, database: [String]
    ) async throws {
        let run = try await runBinary(["types", "--extension", filenameExtension, "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["identifier"] as? String == identifier)
        let mimeTypes = try #require(object["mimeTypes"] as? [String])
        #expect(mimeTypes.first == preferred)
        for name in database {
            #expect(mimeTypes.contains(name), "\(mimeTypes)")
        }
        let text = try await runBinary(["types", "--extension", filenameExtension])
        #expect(text.output.contains(database[0]))
    }

    @Test(
        "--file gives a file's type from its name and content",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/magic"), "needs shared-mime-info"))
    func fileType() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("picture")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]).write(to: png)
        let run = try await runBinary(["types", "--file", png.path, "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["identifier"] as? String == "public.png")
        let missing = try await runBinary(["types", "--file", directory.appendingPathComponent("none").path])
        #expect(missing.status != 0)
        #expect(missing.error.contains("(unreadableFile)"))
    }

    @Test func unknownExtensionsGiveADynamicTypeWhenAskedFor() async throws {
        let refused = try await runBinary(["types", "--extension", "zzq"])
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        #expect(
            refused.error
                == "transferkit types: no declared type; the dynamic type dyn.ext.zzq stands for it (--dynamic describes "
                + "it, --declarations FILE declares it) (notDeclared)\n")
        let run = try await runBinary(["types", "--extension", "zzq", "--dynamic"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("dyn.ext.zzq\n"))
        #expect(run.output.contains("declared:     no (dynamic type)"))
    }

    @Test(
        "usage and input errors",
        arguments: [
            (
                ["types"],
                "transferkit types: give a TYPE, --extension, --mime, --file, --conforms or --export-mime (usage: see 'transferkit types --help')\n"
            ),
            (
                ["types", "not a type"],
                "transferkit types: 'not a type' is not a valid uniform type identifier (usage: see 'transferkit types --help')\n"
            ),
            (
                ["types", "--mime", "nonsense"],
                "transferkit types: 'nonsense' is not a valid MIME type (expected type/subtype) (usage: see 'transferkit types --help')\n"
            ),
            (
                ["types", "--conforms", "public.png"],
                "transferkit types: option '--conforms' needs 2 values: --conforms TYPE PARENT (usage: see 'transferkit types --help')\n"
            ),
        ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) async throws {
        let run = try await runBinary(arguments)
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error == message)
    }

    @Test func declarationsFilesTeachTheToolNewTypes() async throws {
        let unknown = try await runBinary(["types", "--conforms", "com.example.book-cover", "public.json"])
        #expect(unknown.status == 1)
        let known = try await runBinary(
            ["types", "--declarations", exampleTypes, "--conforms", "com.example.book-cover", "public.json"])
        #expect(known.status == 0)
        let undeclared = try await runBinary(["types", "com.example.book-cover"])
        #expect(undeclared.status == 1)
        #expect(undeclared.output.isEmpty)
        #expect(
            undeclared.error
                == "transferkit types: com.example.book-cover is not a declared type; --declarations FILE declares it "
                + "(notDeclared)\n")
        let described = try await runBinary(["types", "--declarations", exampleTypes, "com.example.book-cover"])
        #expect(described.output.contains("description:  Book cover (BookShelf example)"))
    }

    @Test func badDeclarationsFilesAreInputErrorsNamingTheFile() async throws {
        let space = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: space) }
        let path = space.appendingPathComponent("Bad.json").path
        try Data(#"{"exported": [{"identifier": "com.example.x", "conformsTo": ["com.example.nowhere"]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let run = try await runBinary(["types", "--declarations", path, "public.data"])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("transferkit types: 'com.example.x' conforms to 'com.example.nowhere'"))
        #expect(run.error.hasSuffix(" (unknownParent)\n"))
        #expect(run.error.contains("Bad.json"))
        let missing = try await runBinary(["types", "--declarations", space.appendingPathComponent("no.json").path])
        #expect(missing.status == 2)
        #expect(missing.error.contains("unreadableFile"))
    }

    @Test func aFIFOAsDeclarationsFileIsRefusedWithoutWaitingForAWriter() async throws {
        let space = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: space) }
        let path = space.appendingPathComponent("types.json").path
        #expect(mkfifo(path, 0o600) == 0)
        // The audit's reproducer: nobody ever writes to the FIFO, so a blocking open would never return.
        let run = try await runBinary(["types", "--declarations", path, "public.data"])
        #expect(run.status == 2)
        #expect(run.error.contains("unreadableFile"))
        #expect(run.error.contains("not a regular file"))
    }
}

@Suite("The README's main command", .timeLimit(.minutes(5)))
struct MainCommandTests {
    @Test func checksTheExampleArchivesAcrossProcesses() async throws {
        let archives = try FileManager.default.contentsOfDirectory(
            atPath: repositoryRoot.appendingPathComponent("Examples/Archives").path
        ).sorted().map { repositoryRoot.appendingPathComponent("Examples/Archives/\($0)").path }
        #expect(archives.count >= 6)
        let run = try await runBinary(["check", "--cross-process", "--declarations", exampleTypes] + archives)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let lines = run.output.split(separator: "\n")
        #expect(lines.last == "20 passed, 0 failed")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("✓ ") })
        // With the declarations every example type is decoded and re-encoded, not just checksummed.
        #expect(!run.output.contains("com.example.character-card ✓ checksum"))
        #expect(run.output.contains("com.example.character-card ✓ bytes"))
    }
}
