// Fuzzes the D-Bus wire decoder (message framing, marshalling of every type, header fields): see
// DBusWireFuzzing.check and Fuzz/README.md.
import DBusWireFuzzing
import Foundation
import FuzzSupport

/// libFuzzer's entry point: one input per call; a return of 0 means "done", traps are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    DBusWireFuzzing.check(Data(bytes: data, count: size))
    return 0
}

#if !TRANSFERKIT_FUZZING
    // An ordinary build replays the files named on the command line (see ArchiveCBORFuzzer/main.swift for why
    // this is a global's initializer).
    private let replay: Void = FuzzReplay.run(check: DBusWireFuzzing.check)
#endif
