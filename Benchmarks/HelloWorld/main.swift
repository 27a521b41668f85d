// The baseline for the CLI start benchmark: the smallest Swift program, built by SwiftPM with the same release
// flags as `transferkit`.
print("Hello, world!")
