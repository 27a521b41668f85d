// The second baseline of the CLI start benchmark: the same smallest Swift program, linked as a release `transferkit`
// is (the Swift runtime and Foundation statically; `staticReleaseLinking` in Package.swift).
print("Hello, world!")
