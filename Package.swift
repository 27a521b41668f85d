// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TransferKit",
    products: [
        .library(name: "UniformTypes", targets: ["UniformTypes"]),
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "TransferArchive", targets: ["TransferArchive"]),
        .library(name: "TransferImaging", targets: ["TransferImaging"]),
        .library(name: "TransferKit", targets: ["TransferKit"]),
        .library(name: "TransferKitTesting", targets: ["TransferKitTesting"]),
        .library(name: "TransferKitCompatibility", targets: ["TransferKitCompatibility"]),
        .library(name: "TransferSessions", targets: ["TransferSessions"]),
        .library(name: "TransferClipboard", targets: ["TransferClipboard"]),
        .library(name: "TransferDesktop", targets: ["TransferDesktop"]),
        .library(name: "TransferKitCLI", targets: ["TransferKitCLI"]),
        .library(name: "TransferClipboardCLI", targets: ["TransferClipboardCLI"]),
        .executable(name: "transferkit", targets: ["transferkit"]),
    ],
    dependencies: [],
    targets: [
        // MARK: - Library (lowest layer first; a target imports only those above it in this list)

        // The one error shape every domain shares (DomainError, ErrorCode, ErrorDomain): public on purpose and tiny,
        // re-exported by each library that has an error type of its own. Not a product; it depends on nothing.
        .target(name: "TransferKitErrors"),
        // The libc switch, EINTR-safe system calls, files, sockets, processes, threads, the lock and the wire layer
        // (frame buffer, framed connection, mailbox, timer). Package API only; every other target calls libc
        // through it. Not a product.
        .target(name: "TransferKitPlatform"),
        // The package's one strict JSON parser (archives' text form, type declaration files). Package API only.
        .target(name: "TransferKitJSON", dependencies: ["TransferKitPlatform"]),
        .target(name: "UniformTypes", dependencies: ["TransferKitErrors", "TransferKitPlatform", "TransferKitJSON"]),
        .target(name: "CBOR", dependencies: ["TransferKitErrors", "TransferKitPlatform"]),
        // The archive's CRC-32 fast path (PCLMULQDQ): C because Swift has no carry-less-multiply intrinsic.
        // Used only by TransferArchive's CRC32; depends on nothing.
        .target(name: "CTransferKitCRC32"),
        // CRC-32 (zlib's), the archive's checksum and PNG's: a module of its own, below both, so that neither
        // codec depends on the other. Not a product.
        .target(name: "TransferChecksum", dependencies: ["CTransferKitCRC32"]),
        // The archive format: its deterministic CBOR and JSON forms, streaming reader and writer, limits.
        .target(
            name: "TransferArchive",
            dependencies: [
                "TransferKitErrors", "TransferKitPlatform", "TransferKitJSON", "UniformTypes", "CBOR",
                "TransferChecksum",
            ]),
        // Image codecs (issue 25): PNG (with zlib inflate and deflate written in Swift), BMP, PPM and PAM, to and from
        // RGBAImage. It depends on nothing above the error module and the checksum.
        .target(name: "TransferImaging", dependencies: ["TransferKitErrors", "TransferChecksum"]),
        // Providers, protocols, progress, the registry, the converters (images through TransferImaging) and the provider ⇄
        // archive bridge; re-exports TransferArchive.
        .target(
            name: "TransferKit",
            dependencies: [
                "TransferKitErrors", "TransferKitPlatform", "UniformTypes", "CBOR", "TransferArchive",
                "TransferImaging",
            ]),
        // Round-trip assertions for adopters' tests; the cross-process ones run the built `transferkit`.
        .target(
            name: "TransferKitTesting",
            dependencies: ["TransferKitErrors", "TransferKitPlatform", "TransferKit", "UniformTypes"]),
        // Apple's spellings (NSItemProvider, kUTType…, UTType, CoreTransferable) over TransferKit's types, so files
        // shared with Apple platforms compile with one import changed; compiles to re-exports only on Apple platforms.
        .target(
            name: "TransferKitCompatibility", dependencies: ["TransferKitPlatform", "TransferKit", "UniformTypes"]),

        // Drag and drop sessions with exactly-once moves, in one process and across processes (CBOR frames over a
        // Unix socket, Schemas/transfer-session.md), and ordered lists that take part in them.
        .target(
            name: "TransferSessions",
            dependencies: ["TransferKitErrors", "TransferKitPlatform", "UniformTypes", "CBOR", "TransferKit"]),

        // The display layer (issue 41): X11 and Wayland spoken directly over their Unix sockets (connections, wires,
        // atom and registry caches, the selection owner and reader machines, transfers), the session bus and the
        // document portal, and the uniform-type ⇄ display-name mapping. Not a product: its API is package, but for
        // the clipboard's vocabulary (ClipboardError, ClipboardSelection, ClipboardTypeMapping…), which both modules
        // above it re-export and TransferClipboard documents, as every library re-exports TransferKitErrors.
        .target(
            name: "TransferDisplay",
            dependencies: ["TransferKitErrors", "TransferKitPlatform", "UniformTypes", "TransferKit"]),

        // The Linux clipboard (issue 12): the Clipboard, a write's lifetime, the keeper, OSC 52, over the display
        // layer.
        .target(
            name: "TransferClipboard",
            dependencies: [
                "TransferKitErrors", "TransferKitPlatform", "UniformTypes", "TransferKit", "TransferDisplay",
            ]),

        // Drag and drop with the real desktop (issue 23): TransferKit's own windows, whose drags are DragSessions and
        // whose drops deliver DropSessions, over the display layer's X11 and Wayland connections, beside the
        // clipboard rather than on it; between two TransferKit processes a drag also offers its session, so a move
        // is exactly-once.
        .target(
            name: "TransferDesktop",
            dependencies: [
                "TransferKitPlatform", "UniformTypes", "CBOR", "TransferKit", "TransferSessions", "TransferDisplay",
            ]),

        // MARK: - Tools

        // The tool framework adopters build their own tools on, and the archive commands. It must not depend on
        // TransferClipboard: a tool that does not offer the clipboard should not link X11 and Wayland clients.
        .target(
            name: "TransferKitCLI",
            dependencies: ["TransferKitErrors", "TransferKitPlatform", "UniformTypes", "TransferKit"]),
        // The clipboard and drag-and-drop commands (copy, paste, drag, drop, watch) on the tool framework: a product of
        // its own, so that a tool opts into the display-server code by naming it.
        .target(
            name: "TransferClipboardCLI",
            dependencies: [
                "TransferKitPlatform", "UniformTypes", "TransferKit", "TransferKitCLI", "TransferClipboard",
                "TransferSessions", "TransferDesktop", "CBOR",
            ]),
        // Released static (`Scripts/release.sh`: `--static-swift-stdlib`), not by linker flags here: SwiftPM refuses a
        // versioned dependency whose products carry unsafe flags, and every adopter's tests build this product.
        .executableTarget(
            name: "transferkit", dependencies: ["TransferKitCLI", "TransferClipboardCLI", "TransferKitPlatform"]),

        // MARK: - Examples (the seed scenarios, `swift run <Name>`; their archives live in Examples/Archives)

        // The examples use only the products' public API; the one piece they share, starting the "other app" as a
        // child process, is Foundation's `Process` in ExampleSupport.
        .target(name: "ExampleSupport", path: "Examples/Support"),
        .executableTarget(
            name: "CharacterCards",
            dependencies: ["ExampleSupport", "TransferKitCLI", "TransferKit", "TransferSessions", "UniformTypes"],
            path: "Examples/CharacterCards", exclude: ["README.md"]),
        .executableTarget(
            name: "ModulePalette",
            dependencies: ["ExampleSupport", "TransferKitCLI", "TransferKit", "TransferSessions", "UniformTypes"],
            path: "Examples/ModulePalette", exclude: ["README.md"]),
        // Seed 000's two lists in two windows of two processes: the one example that links the desktop code.
        .executableTarget(
            name: "DesktopLists", dependencies: ["TransferDesktop", "TransferSessions", "TransferKit", "UniformTypes"],
            path: "Examples/DesktopLists", exclude: ["README.md"]),
        .executableTarget(
            name: "BookShelf", dependencies: ["TransferKit", "TransferSessions", "UniformTypes"],
            path: "Examples/BookShelf", exclude: ["README.md"]),

        // MARK: - Benchmarks (`swift run -c release transferkit-bench`: the project against baselines, ratios)

        // It depends on the two executables it times, so that `swift run` builds them with the same flags.
        .executableTarget(
            name: "transferkit-bench",
            dependencies: [
                "TransferKitPlatform", "CBOR", "TransferKit", "TransferImaging", "TransferSessions", "UniformTypes",
                "transferkit", "transferkit-bench-hello",
                // The loopback sshd of the remote clipboard's rows, the one the tests start.
                "TransferKitTestSupport",
            ],
            path: "Benchmarks/transferkit-bench"),
        .executableTarget(name: "transferkit-bench-hello", path: "Benchmarks/HelloWorld"),

        // MARK: - Fuzzing (Fuzz/README.md: libFuzzer entry points with `Fuzz/replay.sh`'s flags, replay tools
        // in an ordinary build)

        // The replay `main` of an ordinary build, shared by every fuzzer.
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .target(name: "ArchiveFuzzing", dependencies: ["TransferArchive"], path: "Fuzz/ArchiveFuzzing"),
        .executableTarget(
            name: "ArchiveCBORFuzzer", dependencies: ["ArchiveFuzzing", "FuzzSupport"], path: "Fuzz/ArchiveCBORFuzzer",
            exclude: ["corpus"]),
        .executableTarget(
            name: "ArchiveJSONFuzzer", dependencies: ["ArchiveFuzzing", "FuzzSupport"], path: "Fuzz/ArchiveJSONFuzzer",
            exclude: ["corpus"]),
        // The type-declaration loader and the shared-mime-info parser (package API of UniformTypes).
        .target(name: "TypesFuzzing", dependencies: ["UniformTypes"], path: "Fuzz/TypesFuzzing"),
        .executableTarget(
            name: "DeclarationsFuzzer", dependencies: ["TypesFuzzing", "FuzzSupport"], path: "Fuzz/DeclarationsFuzzer",
            exclude: ["corpus"]),
        .executableTarget(
            name: "MIMEDatabaseFuzzer", dependencies: ["TypesFuzzing", "FuzzSupport"], path: "Fuzz/MIMEDatabaseFuzzer",
            exclude: ["corpus"]),
        .executableTarget(
            name: "MIMEMagicFuzzer", dependencies: ["TypesFuzzing", "FuzzSupport"], path: "Fuzz/MIMEMagicFuzzer",
            exclude: ["corpus"]),

        // The Codable CBOR coder (CBOREncoder, CBORDecoder): what decodes must round-trip to the same bytes.
        .target(name: "CoderFuzzing", dependencies: ["CBOR"], path: "Fuzz/CoderFuzzing"),
        .executableTarget(
            name: "CBORCodableFuzzer", dependencies: ["CoderFuzzing", "FuzzSupport"], path: "Fuzz/CBORCodableFuzzer",
            exclude: ["corpus"]),

        // The PNG decoder and its zlib inflater (TransferImaging): what a hostile PNG or zlib stream can do.
        .target(name: "ImagingFuzzing", dependencies: ["TransferImaging"], path: "Fuzz/ImagingFuzzing"),
        .executableTarget(
            name: "PNGFuzzer", dependencies: ["ImagingFuzzing", "FuzzSupport"], path: "Fuzz/PNGFuzzer",
            exclude: ["corpus"]),

        // The drag session protocol's frames (the wire layer's LengthPrefixedFrames, the messages of TransferSessions).
        .target(name: "SessionFuzzing", dependencies: ["TransferSessions"], path: "Fuzz/SessionFuzzing"),
        .executableTarget(
            name: "SessionFrameFuzzer", dependencies: ["SessionFuzzing", "FuzzSupport"],
            path: "Fuzz/SessionFrameFuzzer",
            exclude: ["corpus"]),

        // The X11 wire decoder and XDND's messages (package API of TransferDisplay and TransferDesktop): what a hostile X server can send.
        .target(
            name: "X11WireFuzzing", dependencies: ["TransferDisplay", "TransferDesktop"], path: "Fuzz/X11WireFuzzing"),
        .executableTarget(
            name: "X11WireFuzzer", dependencies: ["X11WireFuzzing", "FuzzSupport"], path: "Fuzz/X11WireFuzzer",
            exclude: ["corpus"]),
        // …and its Wayland wire decoder: what a hostile compositor can send.
        .target(name: "WaylandWireFuzzing", dependencies: ["TransferDisplay"], path: "Fuzz/WaylandWireFuzzing"),
        .executableTarget(
            name: "WaylandWireFuzzer", dependencies: ["WaylandWireFuzzing", "FuzzSupport"],
            path: "Fuzz/WaylandWireFuzzer", exclude: ["corpus"]),
        // …and its D-Bus wire decoder (issue 40): what a hostile bus or peer can send.
        .target(name: "DBusWireFuzzing", dependencies: ["TransferDisplay"], path: "Fuzz/DBusWireFuzzing"),
        .executableTarget(
            name: "DBusWireFuzzer", dependencies: ["DBusWireFuzzing", "FuzzSupport"], path: "Fuzz/DBusWireFuzzer",
            exclude: ["corpus"]),

        // MARK: - Tests

        // Helpers shared by the test targets (temporary folders, the checkout's files, the choice-rule table, the
        // xdotool pointer driver of the drag-and-drop tests).
        .target(name: "TransferKitTestSupport", dependencies: ["TransferKitPlatform"], path: "Tests/TestSupport"),
        // The display servers, compositors, toolkit peers and virtual pointer that the clipboard's and the desktop's
        // integration tests share (package API: a test target of this package uses it, nothing else).
        .target(
            name: "TransferDisplayTestSupport",
            dependencies: [
                "TransferClipboard", "TransferDisplay", "TransferKit", "TransferKitPlatform", "TransferKitTestSupport",
                "TransferKitTesting",
            ],
            path: "Tests/DisplayTestSupport"),
        // The sessions' test rows and socket folders, shared by their unit and integration tests.
        .target(
            name: "TransferSessionsTestSupport",
            dependencies: [
                "TransferKit", "TransferSessions", "TransferKitPlatform", "UniformTypes", "TransferKitTestSupport",
            ],
            path: "Tests/SessionsTestSupport"),
        // The tool with a peak-memory report at exit, for the streaming test; never shipped.
        .executableTarget(
            name: "transferkit-memory-probe",
            dependencies: ["TransferKitCLI", "TransferClipboardCLI", "TransferKitPlatform"],
            path: "Tests/MemoryProbe"),
        // The writer of the two-process clipboard tests: reports each loader call on its standard output.
        .executableTarget(
            name: "transferkit-clipboard-probe",
            dependencies: ["TransferClipboard", "TransferKit", "UniformTypes", "TransferKitTestSupport"],
            path: "Tests/ClipboardProbe"),
        // The seeds' classes, copied verbatim with only their import lines changed, in Swift 5 mode as such apps
        // are; shared by the compatibility tests and the probe they run as a child process. The seeds' classes are
        // internal, as the seeds wrote them, so the probe imports the module `@testable`; a release build enables
        // testing for this module too, or `swift build -c release` of the whole package fails at the probe.
        .target(
            name: "TransferKitCompatibilitySeeds", dependencies: ["TransferKitCompatibility"],
            path: "Tests/CompatibilitySeeds",
            swiftSettings: [
                .swiftLanguageMode(.v5), .unsafeFlags(["-enable-testing"], .when(configuration: .release)),
            ]),
        // A tool that knows the seeds' classes (TRANSFERKIT_SEED picks one), and the destination of a cross-process
        // drag of seed 000's Model: the child of the cross-process tests.
        .executableTarget(
            name: "transferkit-compatibility-probe",
            dependencies: [
                "TransferKitCompatibility", "TransferKitCompatibilitySeeds", "TransferKitCLI", "TransferSessions",
            ],
            path: "Tests/CompatibilityProbe"),
        // Tests come in two kinds (CONTRIBUTING.md): a module's unit tests (machines, codecs, in-memory fakes: no display
        // server, no child process, no system tool), and its integration tests in a target named …IntegrationTests,
        // so that `swift test --skip IntegrationTests` runs the unit tests alone.
        .testTarget(
            name: "TransferKitPlatformTests",
            dependencies: ["TransferKitErrors", "TransferKitPlatform", "TransferKitJSON", "TransferKitTestSupport"]),
        // Child processes started, signalled and killed for real.
        .testTarget(
            name: "TransferKitPlatformIntegrationTests",
            dependencies: ["TransferKitErrors", "TransferKitPlatform", "TransferKitTestSupport"]),
        .testTarget(
            name: "UniformTypesTests", dependencies: ["UniformTypes", "TransferKitPlatform", "TransferKitTestSupport"],
            resources: [.copy("Resources")]),
        // The system's MIME database compared with GLib's `gio` over every glob and real files.
        .testTarget(
            name: "UniformTypesIntegrationTests",
            dependencies: ["UniformTypes", "TransferKitPlatform", "TransferKitTestSupport"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "TransferKitTestSupport"]),
        .testTarget(
            name: "TransferArchiveTests",
            dependencies: [
                "TransferArchive", "TransferChecksum", "UniformTypes", "TransferKitPlatform", "TransferKitTestSupport",
            ],
            resources: [.copy("Resources")]),
        .testTarget(
            name: "TransferImagingTests",
            dependencies: [
                "TransferImaging", "TransferChecksum", "TransferArchive", "TransferKitPlatform",
                "TransferKitTestSupport",
            ],
            exclude: ["make_fixtures.py"], resources: [.copy("Resources")]),
        // The deflater's streams inflated by Python's zlib.
        .testTarget(
            name: "TransferImagingIntegrationTests",
            dependencies: ["TransferImaging", "TransferKitPlatform", "TransferKitTestSupport"]),
        .testTarget(
            name: "TransferKitTests",
            dependencies: [
                "TransferKit", "TransferImaging", "TransferChecksum", "CBOR", "UniformTypes", "TransferKitPlatform",
                "TransferKitTestSupport",
            ]),
        .testTarget(
            name: "TransferSessionsTests",
            dependencies: [
                "TransferSessions", "TransferKit", "TransferKitPlatform", "UniformTypes", "TransferKitTestSupport",
                "TransferSessionsTestSupport",
            ]),
        // Sessions against hostile peers that are real processes (Tests/Interop/session_peer.py), and over a command's
        // standard streams (`transferkit serve --stdio`, a shell that fails).
        .testTarget(
            name: "TransferSessionsIntegrationTests",
            dependencies: [
                "TransferSessions", "TransferKit", "UniformTypes", "TransferKitTestSupport",
                "TransferSessionsTestSupport", "TransferKitTesting",
            ]),
        // The display layer's machines, wire codecs and in-memory fakes (a fake X server on a Unix socket): no
        // display server, no child process.
        .testTarget(
            name: "TransferDisplayTests",
            dependencies: [
                "TransferDisplay", "TransferKit", "UniformTypes", "TransferKitPlatform", "TransferKitTestSupport",
            ]),
        // The clipboard's machines (a write's lifetime, the keeper), OSC 52's sequences, the toolkit bridge: no
        // display server, no child process.
        .testTarget(
            name: "TransferClipboardTests",
            dependencies: [
                "TransferClipboard", "TransferDisplay", "TransferKit", "UniformTypes", "TransferKitPlatform",
                "TransferKitTestSupport",
            ]),
        // The clipboard and drag and drop against real servers (Xvfb, headless sway, weston), the stock tools,
        // toolkits, hostile peers as processes and the tool end to end.
        .testTarget(
            name: "TransferClipboardIntegrationTests",
            dependencies: [
                "TransferClipboard", "TransferDisplay", "TransferDesktop", "TransferKit", "UniformTypes",
                "TransferKitPlatform", "TransferSessions",
                "TransferKitTestSupport",
                "TransferKitTesting", "TransferImaging", "TransferChecksum", "transferkit", "transferkit-memory-probe",
                "transferkit-clipboard-probe", "CharacterCardsGTK", "CBOR", "TransferDisplayTestSupport",
            ]),
        .testTarget(
            name: "TransferDesktopTests",
            dependencies: [
                "TransferDesktop", "TransferClipboard", "TransferDisplay", "TransferSessions", "TransferKit",
                "UniformTypes",
                "TransferKitPlatform", "TransferKitTestSupport",
            ]),
        // Drag and drop and file promises against real servers (Xvfb, headless sway), GTK and Qt peers, hostile
        // peers as processes, and the tool's drag and drop end to end.
        .testTarget(
            name: "TransferDesktopIntegrationTests",
            dependencies: [
                "TransferDesktop", "TransferClipboard", "TransferDisplay", "TransferSessions", "TransferKit",
                "UniformTypes", "TransferKitPlatform", "TransferKitTestSupport", "TransferSessionsTestSupport",
                "TransferDisplayTestSupport", "TransferKitTesting", "TransferChecksum", "transferkit", "CBOR",
            ]),
        // Round trips in this process and through the `transferkit` tool in a child process.
        .testTarget(
            name: "TransferKitTestingIntegrationTests",
            dependencies: [
                "TransferKitPlatform", "TransferKitTesting", "TransferKit", "UniformTypes", "transferkit",
                "TransferKitTestSupport",
            ]),
        .testTarget(
            name: "TransferKitCLITests",
            dependencies: ["TransferKitPlatform", "TransferKitCLI", "TransferKit", "TransferKitTestSupport"]),
        // The `transferkit` tool end to end: every command in a child process, with the system's MIME tools.
        .testTarget(
            name: "TransferKitCLIIntegrationTests",
            dependencies: [
                "TransferKitPlatform", "TransferKitCLI", "TransferKit", "TransferImaging", "TransferChecksum",
                "TransferKitTesting", "transferkit", "transferkit-memory-probe", "TransferKitTestSupport",
            ]),
        // Compiles every Swift snippet of the README and the DocC catalogs against the built modules.
        .testTarget(
            name: "DocumentationIntegrationTests",
            dependencies: [
                "TransferKitPlatform", "TransferKitTestSupport", "TransferKitTesting", "TransferKit", "TransferArchive",
                "TransferImaging", "CBOR", "UniformTypes", "TransferKitCLI", "TransferClipboardCLI", "TransferSessions",
                "TransferClipboard", "TransferDesktop",
            ]),
        .testTarget(
            name: "TransferKitCompatibilityTests",
            dependencies: [
                "TransferKitPlatform", "TransferKitCompatibility", "TransferKitCompatibilitySeeds",
                "transferkit-compatibility-probe", "TransferKitTesting", "TransferKitTestSupport",
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // The seeds' code in Swift 6 mode (the package's default): a @MainActor controller whose handlers hop to the
        // main actor, the type checks that make an unhopped handler a compile-time error, and the seeds' classes in
        // TransferSessions' lists through the compatibility module's bridge.
        .testTarget(
            name: "TransferKitCompatibilitySwift6Tests",
            dependencies: [
                "TransferKitPlatform", "TransferKitCompatibility", "TransferKitCompatibilitySeeds",
                "TransferKitTesting", "TransferKitTestSupport", "TransferSessions",
            ]),
        // The compatibility layer with real parts: `swiftc` building the seeds in Swift 6 mode, and a drop into the
        // compatibility probe's process.
        .testTarget(
            name: "TransferKitCompatibilityIntegrationTests",
            dependencies: [
                "TransferKitPlatform", "TransferKitCompatibility", "TransferKitCompatibilitySeeds",
                "TransferKitTestSupport", "TransferKitTesting", "TransferSessions", "transferkit-compatibility-probe",
            ]),
        // The examples' scenarios end to end: their executables, two processes, Xvfb.
        .testTarget(
            name: "ExamplesIntegrationTests",
            dependencies: [
                "TransferKitPlatform", "CharacterCards", "ModulePalette", "BookShelf", "DesktopLists",
                "TransferKitTesting",
                "TransferSessions",
                "TransferKitCLI", "TransferKit", "UniformTypes", "transferkit", "TransferKitTestSupport",
            ]),
    ]
)

// MARK: - GTK 4 (issue 36): an optional product behind the package trait `GTK`, so that nothing else needs GTK's
// headers. An adopter writes `.package(url: …, from: …, traits: ["GTK"])`; here, `swift build --traits GTK`. The
// targets always exist, but only the trait brings in the system library, and their code is under `#if GTK`.
package.traits = [.trait(name: "GTK", description: "Builds TransferGTK over GTK 4 (pkg-config gtk4, libgtk-4-dev).")]
package.products.append(.library(name: "TransferGTK", targets: ["TransferGTK"]))
let gtk4: Target.Dependency = .target(name: "CGtk4", condition: .when(traits: ["GTK"]))
package.targets += [
    // GTK 4's C API (Debian libgtk-4-dev).
    .systemLibrary(name: "CGtk4", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
    // GdkContentProvider and GdkClipboard over TransferKit's providers, through TransferClipboard's TransferOffer.
    .target(
        name: "TransferGTK",
        dependencies: [
            gtk4, "TransferKitPlatform", "TransferClipboard", "TransferDesktop", "TransferSessions", "TransferKit",
            "UniformTypes",
        ]),
    // The GTK program of TransferGTK's tests: it owns or reads GTK's clipboard while its main loop runs.
    .executableTarget(
        name: "transferkit-gtk-clipboard-probe",
        dependencies: [gtk4, "TransferGTK", "TransferDesktop", "TransferSessions", "TransferKit", "UniformTypes"],
        path: "Tests/GTKClipboardProbe"),
    // Seed 000's two tables as a Swift GTK 4 app (issue 36); without the trait it only says how to build it.
    .executableTarget(
        name: "CharacterCardsGTK",
        dependencies: [gtk4, "TransferGTK", "TransferDesktop", "TransferSessions", "TransferKit", "UniformTypes"],
        path: "Examples/CharacterCardsGTK", exclude: ["README.md"]),
    .testTarget(
        name: "TransferGTKIntegrationTests",
        dependencies: [
            "TransferGTK", "TransferKitPlatform", "TransferKitTesting", "TransferKitTestSupport",
            "transferkit-gtk-clipboard-probe", "CharacterCardsGTK", "transferkit",
        ]),
]

// Targets that hold adopters' Apple-platform code verbatim: built as such apps are, without the upcoming features
// below (ExistentialAny would warn on their `Error` where Apple's compilers do not).
let adopterCodeTargets: Set = ["TransferKitCompatibilitySeeds"]

// Upcoming language features, enabled for every other target.
for target in package.targets
where target.type != .plugin && target.type != .binary && target.type != .system
    && !adopterCodeTargets.contains(target.name)
{
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        // SE-0335: existential types are spelled `any P`.
        .enableUpcomingFeature("ExistentialAny"),
        // SE-0444: a file sees only the members of modules it imports itself.
        .enableUpcomingFeature("MemberImportVisibility"),
        // SE-0409: imports are internal unless marked `public import`.
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
