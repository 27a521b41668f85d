// The baseline for the CLI start benchmark: the smallest Swift program, built by SwiftPM's default release build
// (dynamically linked, as a Swift program is unless told otherwise).
print("Hello, world!")
