// Fuzzes the text (JSON) form of transfer archives: see ArchiveFuzzing.checkJSON and Fuzz/README.md.
import ArchiveFuzzing
import Foundation
import FuzzSupport

/// libFuzzer's entry point: one input per call; a return of 0 means "done", traps are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    ArchiveFuzzing.checkJSON(Data(bytes: data, count: size))
    return 0
}

#if !TRANSFERKIT_FUZZING
    // An ordinary build has no libFuzzer `main`: replay the files named on the command line instead. The fuzz build
    // compiles this file with -parse-as-library, where even an inactive #if branch may hold no top-level statement,
    // so the replay runs from a global's initializer, which script mode runs in order.
    private let replay: Void = FuzzReplay.run(check: ArchiveFuzzing.checkJSON)
#endif
