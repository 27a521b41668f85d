// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TransferKit",
    products: [
        .library(name: "UniformTypes", targets: ["UniformTypes"])
    ],
    dependencies: [],
    targets: [
        .target(name: "UniformTypes"),
        .testTarget(name: "UniformTypesTests", dependencies: ["UniformTypes"]),
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
