// The baseline of the CLI start benchmark built beside `transferkit`: the smallest Swift program, linked as that
// build links the tool (statically under `--static-swift-stdlib`, as Scripts/release.sh builds it). The benchmark
// compiles the same line itself for its other baseline, SwiftPM's default (dynamic) link.
print("Hello, world!")
