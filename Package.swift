// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TransferKit",
    products: [
        .library(name: "UniformTypes", targets: ["UniformTypes"]),
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "TransferKit", targets: ["TransferKit"]),
        .library(name: "TransferKitCLI", targets: ["TransferKitCLI"]),
        .executable(name: "transferkit", targets: ["transferkit"]),
        .library(name: "TransferKitTesting", targets: ["TransferKitTesting"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "UniformTypes"),
        .target(name: "CBOR"),
        .target(name: "TransferKit", dependencies: ["UniformTypes", "CBOR", "CTransferKitCRC32"]),
        // The archive's CRC-32 fast path (PCLMULQDQ): C because Swift has no carry-less-multiply
        // intrinsic. Used only by TransferKit's CRC32; depends on nothing.
        .target(name: "CTransferKitCRC32"),
        .target(name: "TransferKitCLI", dependencies: ["UniformTypes", "TransferKit"]),
        .executableTarget(name: "transferkit", dependencies: ["TransferKitCLI"]),
        // `swift run -c release transferkit-bench`: the project against baselines, one run, ratios.
        // It depends on the two executables it times, so that `swift run` builds them with the same flags.
        .executableTarget(
            name: "transferkit-bench",
            dependencies: ["TransferKit", "UniformTypes", "transferkit", "transferkit-bench-hello"],
            path: "Benchmarks/transferkit-bench"),
        .executableTarget(name: "transferkit-bench-hello", path: "Benchmarks/HelloWorld"),
        // Fuzz targets (Fuzz/README.md): libFuzzer entry points when built with `Fuzz/replay.sh`'s flags,
        // corpus-replay tools in an ordinary build.
        .target(name: "ArchiveFuzzing", dependencies: ["TransferKit"], path: "Fuzz/ArchiveFuzzing"),
        .executableTarget(
            name: "ArchiveCBORFuzzer", dependencies: ["ArchiveFuzzing"], path: "Fuzz/ArchiveCBORFuzzer",
            exclude: ["corpus"]),
        .executableTarget(
            name: "ArchiveJSONFuzzer", dependencies: ["ArchiveFuzzing"], path: "Fuzz/ArchiveJSONFuzzer",
            exclude: ["corpus"]),
        .testTarget(name: "UniformTypesTests", dependencies: ["UniformTypes"], resources: [.copy("Resources")]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR"]),
        .testTarget(
            name: "TransferKitTests", dependencies: ["TransferKit", "UniformTypes"], resources: [.copy("Resources")]),
        .testTarget(name: "TransferKitCLITests", dependencies: ["TransferKitCLI", "TransferKit", "transferkit"]),

        // Round-trip assertions for adopters' tests; the cross-process tests need the built `transferkit`.
        .target(name: "TransferKitTesting", dependencies: ["TransferKit", "UniformTypes"]),
        .testTarget(
            name: "TransferKitTestingTests",
            dependencies: ["TransferKitTesting", "TransferKit", "UniformTypes", "transferkit"]),

        // The seed scenarios, runnable with `swift run <Name>`; their archives live in Examples/Archives.
        .executableTarget(
            name: "CharacterCards", dependencies: ["TransferKitCLI", "TransferKit", "UniformTypes"],
            path: "Examples/CharacterCards", exclude: ["README.md"]),
        .executableTarget(
            name: "ModulePalette", dependencies: ["TransferKitCLI", "TransferKit", "UniformTypes"],
            path: "Examples/ModulePalette", exclude: ["README.md"]),
        .executableTarget(
            name: "BookShelf", dependencies: ["TransferKit", "UniformTypes"],
            path: "Examples/BookShelf", exclude: ["README.md"]),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "CharacterCards", "ModulePalette", "BookShelf", "TransferKitTesting", "TransferKitCLI", "TransferKit",
                "UniformTypes", "transferkit",
            ]),
    ]
)

// Upcoming language features, enabled for every target.
for target in package.targets where target.type != .plugin && target.type != .binary {
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
