// Fuzzes the PNG decoder and its zlib inflater (and the BMP, PPM and PAM decoders): see ImagingFuzzing.check and
// Fuzz/README.md.
import Foundation
import FuzzSupport
import ImagingFuzzing

/// libFuzzer's entry point: one input per call; a return of 0 means "done", traps are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    ImagingFuzzing.check(Data(bytes: data, count: size))
    return 0
}

#if !TRANSFERKIT_FUZZING
    // An ordinary build replays the files named on the command line (see ArchiveCBORFuzzer/main.swift for why
    // this is a global's initializer).
    private let replay: Void = FuzzReplay.run(check: ImagingFuzzing.check)
#endif
