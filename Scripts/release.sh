#!/usr/bin/env bash
# The release build of the `transferkit` tool: `swift build -c release` with the Swift runtime and FoundationEssentials
# linked statically (SwiftPM's own `--static-swift-stdlib`), then checks that the binary loads no Swift library at run
# time and carries no full Foundation.
#
#   Scripts/release.sh [SWIFT-BUILD-OPTION…]   # builds the tool and prints its path (.build/release/transferkit)
#   Scripts/release.sh bench [BENCH-OPTION…]    # builds the tool so, and the benchmark apart, and runs the benchmark
#
# `swift run` has no `--static-swift-stdlib`, so the benchmark is built and run in steps here: it times the
# `transferkit` (and the hello world) built as released in `.build`, which it finds through `TRANSFERKIT_BENCH_TOOLS`,
# and is itself built in `.build-bench` as an adopter compiles the library (Benchmarks/README.md, the cli rows).
#
# Why static: a dynamic start spends about half of a short command's time in the dynamic loader binding Foundation.
# Why on the command line and not in Package.swift: SwiftPM refuses a versioned dependency whose products carry unsafe
# flags (`linkerSettings: [.unsafeFlags(…)]`), and every adopter's tests build the `transferkit` product. Debug
# builds, which the tests spawn, stay dynamic.
#
# The binary stays position-independent. `-no-pie` started `types public.png` about 1 ms sooner (it skips some 80 000
# relocations), but would load the tool, which reads archives and clipboard contents from other programs, at a fixed
# address; packed relative relocations (`-z pack-relative-relocs`) gain most of that with ASLR kept, but need glibc 2.36
# at run time, so a build on Ubuntu 22.04 would make a tool that does not start.
#
# The full Foundation: no module of the tool imports it (they import FoundationEssentials), so the static link leaves
# out Foundation, CoreFoundation, FoundationInternationalization and ICU's 34 MB of data, which were 60 % of the
# binary. One `import Foundation` in any of them brings them all back; the check below fails the build then.
#
# The binary carries no DWARF and fewer local symbols (`--strip-debug --discard-all`): 16 MB of debug information and
# 3 MB of symbol table that nothing loads at run time (47.6 MB → 28.7 MB). Function names stay, so a crash's backtrace
# still names them; for file and line, build without these two flags.
#
# The C++ standard library, which the Swift runtime calls, is linked statically as well when the toolchain's compiler
# finds `libstdc++.a` (Debian: libstdc++-12-dev, which Swift requires anyway): `--static-swift-stdlib` links it
# dynamically, and loading `libstdc++.so` (mapping it, relocating it, running its static constructors) cost about
# 1 ms of every start here, half of a hello world's. A directory holding a linker script named `libstdc++.so` that
# names the archive makes the toolchain's own `-lstdc++` take the archive. libgcc_s, libm and libc stay shared.
#
# The Swift symbols are the binary's own (a version script makes every `$s…` name local): `--static-swift-stdlib`
# exports every symbol (`-export-dynamic`), so the tool's 7 500 public Swift functions were in the dynamic symbol
# table, which nothing looks up, and which the runtime's start walks once (`dladdr`, for the backtracer's path). They
# stay in the symbol table, so a crash's backtrace still names them.
#
# Concrete generic types' metadata comes from their accessor functions, not from their mangled names
# (`-disable-concrete-type-metadata-mangled-name-accessors`, a flag of the compiler's frontend). By default a module
# asks the runtime for, say, `[UniformTypeTagClass: [String]]` by its mangled name, which is smaller code, but the
# runtime then checks the key's `Hashable` requirement by scanning every protocol conformance record of the binary
# (4 000 in the static tool) once per type: 1.6 M of the 7.2 M instructions of `transferkit types public.png` went
# to those scans and 2.3 M to demangling. An accessor passes the witness tables it already has. `types public.png`
# 7.2 → 5.4 M instructions (callgrind, empty XDG data path); 400 alternating runs, median wall time: `types
# public.png` 6.79 → 5.87 ms, `--version` 2.51 → 2.26 ms; copy + paste on Xvfb, 80 alternating pairs, median 20.7 →
# 18.8 ms; 0.06 MB more code, 1 300 fewer relocations. The library's own builds (an adopter's, the tests', the
# benchmark's in-process rows: see below) keep the compiler's default.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib -Xlinker --strip-debug -Xlinker --discard-all)
metadata=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
link=.build/release-link
mkdir -p "$link"
printf '{\n  local: $s*;\n};\n' >"$link/local-swift-symbols.map"
flags+=(-Xlinker "--version-script=$PWD/$link/local-swift-symbols.map")
cxx_archive="$(clang -print-file-name=libstdc++.a 2>/dev/null || true)"
if [ -f "$cxx_archive" ]; then
  echo "INPUT($cxx_archive)" >"$link/libstdc++.so"
  flags+=(-Xlinker "-L$PWD/$link")
else
  rm -f "$link/libstdc++.so"
  echo "release.sh: no libstdc++.a found (clang -print-file-name): the tool will load libstdc++.so at run time" >&2
fi
if [ "${1:-}" = bench ]; then
  shift
  # The tool and the hello world it is timed against, as released; the benchmark itself, whose in-process rows
  # measure the library, as an adopter's build compiles the library (without the metadata flag, which made the
  # coder's rows 3-10 % slower: each generic type's metadata an accessor call in the hot loops), in a build folder
  # of its own. It finds the tools through TRANSFERKIT_BENCH_TOOLS.
  tool_flags=("${flags[@]}" "${metadata[@]}")
  swift build "${tool_flags[@]}" --product transferkit >&2
  swift build "${tool_flags[@]}" --product transferkit-bench-hello >&2
  tools="$(swift build "${tool_flags[@]}" --show-bin-path)"
  library_flags=("${flags[@]}" --scratch-path .build-bench)
  swift build "${library_flags[@]}" --product transferkit-bench >&2
  bench="$(swift build "${library_flags[@]}" --show-bin-path)/transferkit-bench"
  TRANSFERKIT_BENCH_TOOLS="$tools" exec "$bench" "$@"
fi
flags+=("${metadata[@]}" "$@")
swift build "${flags[@]}" --product transferkit >&2
tool="$(swift build "${flags[@]}" --show-bin-path)/transferkit"
if ldd "$tool" | grep -E 'libswift|libFoundation|lib_Foundation' >&2; then
  echo "release.sh: $tool loads the Swift libraries above at run time; it should link them statically" >&2
  exit 1
fi
if [ -f "$cxx_archive" ] && ldd "$tool" | grep -E 'libstdc\+\+' >&2; then
  echo "release.sh: $tool loads libstdc++ at run time although $cxx_archive was to be linked in" >&2
  exit 1
fi
# ICU's data names its package (`icudt76l`), and Foundation's types keep their mangled names (`10Foundation8NSString…`)
# in the binary's metadata, symbols or not.
if LC_ALL=C grep -a -q -E 'icudt[0-9]+l|10Foundation[0-9]+[A-Z]' "$tool"; then
  echo "release.sh: $tool links the full Foundation and ICU's data: a module of the tool imports Foundation where" \
    "FoundationEssentials would do (CONTRIBUTING.md)" >&2
  exit 1
fi
echo "$tool"
