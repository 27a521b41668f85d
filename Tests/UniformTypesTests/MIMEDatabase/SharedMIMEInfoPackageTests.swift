import Testing
import UniformTypes

private func type(_ identifier: String) throws -> UniformType {
    try #require(UniformType(identifier))
}

private func declaration(
    _ identifier: String, _ parents: [UniformType], extensions: [String] = [], mimeTypes: [String] = [],
    description: String? = nil
) throws -> UniformTypeDeclaration {
    var tags: [UniformTypeTagClass: [String]] = [:]
    if !extensions.isEmpty { tags[.filenameExtension] = extensions }
    if !mimeTypes.isEmpty { tags[.mimeType] = mimeTypes }
    return UniformTypeDeclaration(
        identifier: try type(identifier), conformsTo: parents, tags: tags, description: description)
}

@Suite("Shared-mime-info packages of declared types", .timeLimit(.minutes(5)))
struct SharedMIMEInfoPackageTests {
    /// Declarations that exercise every element and every reason to leave something out.
    static func declarations() throws -> [UniformTypeDeclaration] {
        [
            try declaration(
                "com.example.note", [.json], extensions: ["note", ".nte"],
                mimeTypes: ["application/vnd.example.note+json", "application/x-example-note"],
                description: "Example note"),
            // Conforms to a type of the package and to plain text: both MIME types, sorted.
            try declaration(
                "com.example.signed-note", [try type("com.example.note"), .plainText], extensions: ["snote"],
                mimeTypes: ["application/vnd.example.signed-note+json; charset=utf-8", "application/x-example-note"],
                description: "Signed <note> & \"quote\" 'apostrophe'\u{7}"),
            // public.text has no MIME type: the line goes on to public.data (application/octet-stream) and
            // public.content (none, and no parents).
            try declaration("com.example.scribble", [.text], extensions: ["scribble"], mimeTypes: ["text/x-scribble"]),
            // Nothing but public.data: application/octet-stream, the only thing found. No description.
            try declaration("com.example.blob", [.data], mimeTypes: ["application/x-example-blob"]),
            try declaration("com.example.plain", [.json], extensions: ["plain"]),
            try declaration("com.example.bad-media", [.data], mimeTypes: ["vnd/example"]),
            try declaration("com.example.bad-subtype", [.data], mimeTypes: ["application/-dash"]),
            try declaration("com.example.note-copy", [.json], mimeTypes: ["application/vnd.example.note+json"]),
            try declaration(
                "com.example.globby", [.data], extensions: ["a*b", "ok"], mimeTypes: ["application/x-globby"]),
        ]
    }

    static let golden = """
        <?xml version="1.0" encoding="UTF-8"?>
        <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
          <!-- left out: com.example.bad-media: its MIME type 'vnd/example' has a media type that update-mime-database does not know (application, audio, font, image, inode, message, model, multipart, text, video, x-content, x-epoc, x-scheme-handler) -->
          <!-- left out: com.example.bad-subtype: its MIME type 'application/-dash' has a subtype that is not an RFC 6838 name (a letter or digit, then letters, digits and !#$&-^_.+) -->
          <!-- left out: com.example.globby: its extension 'a*b' has a glob metacharacter (*, ?, [ or ]) and is left out -->
          <!-- left out: com.example.note-copy: its MIME type application/vnd.example.note+json is exported for com.example.note already -->
          <!-- left out: com.example.plain: it declares no MIME type; add a public.mime-type tag such as application/vnd.<owner>.<name> to export it -->
          <!-- left out: com.example.signed-note: its MIME type application/x-example-note is an alias of com.example.note already; no alias is made -->
          <mime-type type="application/vnd.example.note+json">
            <comment>Example note</comment>
            <glob pattern="*.note"/>
            <glob pattern="*.nte"/>
            <sub-class-of type="application/json"/>
            <alias type="application/x-example-note"/>
          </mime-type>
          <mime-type type="application/vnd.example.signed-note+json">
            <comment>Signed &lt;note&gt; &amp; &quot;quote&quot; &apos;apostrophe&apos;\u{FFFD}</comment>
            <glob pattern="*.snote"/>
            <sub-class-of type="application/vnd.example.note+json"/>
            <sub-class-of type="text/plain"/>
          </mime-type>
          <mime-type type="application/x-example-blob">
            <comment>com.example.blob</comment>
            <sub-class-of type="application/octet-stream"/>
          </mime-type>
          <mime-type type="application/x-globby">
            <comment>com.example.globby</comment>
            <glob pattern="*.ok"/>
            <sub-class-of type="application/octet-stream"/>
          </mime-type>
          <mime-type type="text/x-scribble">
            <comment>com.example.scribble</comment>
            <glob pattern="*.scribble"/>
            <sub-class-of type="application/octet-stream"/>
          </mime-type>
        </mime-info>

        """

    @Test("the package of a catalogue's exported types, every element and every omission")
    func golden() throws {
        let catalog = TypeCatalog()
        try catalog.register(try Self.declarations(), as: .exported)
        let package = catalog.sharedMIMEInfoPackage()
        #expect(package.xml == Self.golden)
        #expect(
            package.entries.map(\.mimeType) == [
                "application/vnd.example.note+json", "application/vnd.example.signed-note+json",
                "application/x-example-blob", "application/x-globby", "text/x-scribble",
            ])
        #expect(
            package.omissions.map(\.uniformType.identifier) == [
                "com.example.bad-media", "com.example.bad-subtype", "com.example.globby", "com.example.note-copy",
                "com.example.plain", "com.example.signed-note",
            ])
    }

    @Test("the output does not depend on the order of the declarations")
    func deterministic() throws {
        let catalog = TypeCatalog()
        try catalog.register(try Self.declarations().reversed(), as: .exported)
        #expect(catalog.sharedMIMEInfoPackage().xml == Self.golden)
        let reversed = SharedMIMEInfoPackage(declarations: try Self.declarations().reversed(), catalog: catalog)
        #expect(reversed.xml == Self.golden)
    }

    @Test("built-in and imported types are not exported unless asked for")
    func origins() throws {
        let catalog = TypeCatalog()
        try catalog.register(
            [try declaration("com.other.thing", [.json], extensions: ["thing"], mimeTypes: ["application/x-thing"])],
            as: .imported)
        let exported = catalog.sharedMIMEInfoPackage()
        #expect(exported.entries.isEmpty)
        #expect(exported.omissions.isEmpty)
        #expect(
            exported.xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
                </mime-info>

                """)
        let both = catalog.sharedMIMEInfoPackage(origins: [.exported, .imported])
        #expect(both.entries.map(\.mimeType) == ["application/x-thing"])
        #expect(both.entries.first?.subclassOf == ["application/json"])
    }

    @Test("a nearest supertype wins over the ones above it, and a MIME type with parameters is exported without them")
    func nearestSupertype() throws {
        let catalog = TypeCatalog()
        try catalog.register(
            [try declaration("com.example.log", [.utf8PlainText], extensions: ["log2"], mimeTypes: ["text/x-log2"])],
            as: .exported)
        let entry = try #require(catalog.sharedMIMEInfoPackage().entries.first)
        // public.utf8-plain-text is text/plain;charset=utf-8: its essence, not public.text's or public.data's.
        #expect(entry.subclassOf == ["text/plain"])
        #expect(entry.globs == ["*.log2"])
        #expect(entry.aliases.isEmpty)
    }

    @Test(
        "one user's MIME directory follows the XDG Base Directory rules",
        arguments: [
            (["XDG_DATA_HOME": "/data/home/", "HOME": "/home/ada"], "/data/home/mime"),
            (["XDG_DATA_HOME": "relative", "HOME": "/home/ada/"], "/home/ada/.local/share/mime"),
            (["XDG_DATA_HOME": "", "HOME": "/home/ada"], "/home/ada/.local/share/mime"),
            (["HOME": "/home/ada"], "/home/ada/.local/share/mime"),
        ] as [([String: String], String)])
    func userDirectory(environment: [String: String], expected: String) {
        #expect(SharedMIMEInfoPackage.userMIMEDirectory(environment: environment) == expected)
    }

    @Test func noUserDirectoryWithoutAnAbsoluteHome() {
        #expect(SharedMIMEInfoPackage.userMIMEDirectory(environment: ["HOME": "home"]) == nil)
        #expect(SharedMIMEInfoPackage.userMIMEDirectory(environment: [:]) == nil)
    }
}
