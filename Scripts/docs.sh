#!/usr/bin/env bash
# Builds the documentation: one DocC archive per public module (each library product), from a fresh clone, with
# the toolchain alone (no SwiftPM plugin). Fails on any DocC warning, such as a link DocC cannot resolve.
#
#   Scripts/docs.sh                 # every library product, into .build/docs/<Module>.doccarchive
#   Scripts/docs.sh TransferKit     # only the modules named
#   DOCS_OUTPUT=/tmp/docs Scripts/docs.sh
#
# Open an archive with `docc preview`, or serve .build/docs/<Module>.doccarchive with any static web server. The
# Swift Package Index hosts the same modules' documentation (.spi.yml).
set -euo pipefail
cd "$(dirname "$0")/.."
output=${DOCS_OUTPUT:-.build/docs}
work=.build/docs-work
docc=$(command -v docc || true)
if [ -z "$docc" ]; then
  docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
if [ ! -x "$docc" ]; then
  echo "docs: docc not found (it comes with the Swift toolchain, beside swift)" >&2
  exit 2
fi

# The public modules: the targets of the library products in Package.swift (one target each).
if [ $# -gt 0 ]; then
  modules=("$@")
else
  mapfile -t modules < <(sed -n 's/^ *\.library(name: "[^"]*", targets: \["\([^"]*\)"\]).*/\1/p' Package.swift)
fi
if [ ${#modules[@]} -eq 0 ]; then
  echo "docs: no library products found in Package.swift" >&2
  exit 2
fi

# Symbol graphs of public declarations only. dump-symbol-graph writes every module's graphs into one folder (test
# support, fuzzers and examples too); each archive is built from its own module's graphs alone (the module's and its
# extensions of other modules, Module@Other.symbols.json), so that no other module's symbols join it.
# On a fresh clone it also tries the test runner's module, which only a test build makes, and exits 1 after writing
# every other graph: what counts is that each public module's graph was written.
rm -rf "$work" && mkdir -p "$work" "$output"
dumped=0
swift package dump-symbol-graph --minimum-access-level public > "$work/symbolgraph.log" 2>&1 || dumped=$?
graphs=$(sed -n 's/^Files written to //p' "$work/symbolgraph.log" | tail -n 1)
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
  cat "$work/symbolgraph.log" >&2
  echo "docs: swift package dump-symbol-graph wrote no graphs (exit status $dumped)" >&2
  exit 1
fi
for module in "${modules[@]}"; do
  if ! grep -q -e "^-- Emitting symbol graph for $module\$" "$work/symbolgraph.log" || [ ! -f "$graphs/$module.symbols.json" ]; then
    cat "$work/symbolgraph.log" >&2
    echo "docs: no symbol graph for $module (dump-symbol-graph exit status $dumped)" >&2
    exit 1
  fi
done

# A module that re-exports a non-product module of its own vocabulary documents that vocabulary as its own:
# TransferClipboard re-exports the display layer's public types (ClipboardError, ClipboardTypeMapping…). `swift
# package dump-symbol-graph` leaves re-exported symbols out, so such a module's graph is extracted again with the
# extractor's flag that lets them in.
declare -A reexports=([TransferClipboard]=TransferDisplay)
extract="$(dirname "$(readlink -f "$(command -v swift)")")/swift-symbolgraph-extract"
bin=$(swift build --show-bin-path)

failed=0
for module in "${modules[@]}"; do
  catalog="Sources/$module/Documentation.docc"
  if [ ! -d "$catalog" ]; then
    echo "docs: $module has no catalog ($catalog); every public module needs one" >&2
    failed=1
    continue
  fi
  mkdir -p "$work/graphs-$module"
  cp "$graphs/$module.symbols.json" "$work/graphs-$module/"
  for extension in "$graphs/$module"@*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$work/graphs-$module/"
  done
  if [ -n "${reexports[$module]:-}" ]; then
    rm -f "$work/graphs-$module"/*.symbols.json
    modulemaps=()
    for map in "$bin"/*.build/module.modulemap; do
      [ -e "$map" ] && modulemaps+=(-Xcc "-fmodule-map-file=$map")
    done
    if ! "$extract" -module-name "$module" -target "$(uname -m)-unknown-linux-gnu" -I "$bin/Modules" \
        "${modulemaps[@]}" -minimum-access-level public -output-dir "$work/graphs-$module" \
        "-experimental-allowed-reexported-modules=${reexports[$module]}" > "$work/extract-$module.log" 2>&1; then
      cat "$work/extract-$module.log" >&2
      echo "docs: swift-symbolgraph-extract failed for $module" >&2
      failed=1
      continue
    fi
  fi
  rm -rf "$output/$module.doccarchive"
  if ! "$docc" convert "$catalog" --additional-symbol-graph-dir "$work/graphs-$module" \
      --output-path "$output/$module.doccarchive" --fallback-display-name "$module" \
      --fallback-bundle-identifier "org.transferkit.$module" > "$work/docc-$module.log" 2>&1; then
    cat "$work/docc-$module.log" >&2
    echo "docs: docc convert failed for $module" >&2
    failed=1
    continue
  fi
  if grep -q 'warning' "$work/docc-$module.log"; then
    grep -A3 'warning' "$work/docc-$module.log" >&2
    echo "docs: the $module documentation has warnings" >&2
    failed=1
    continue
  fi
  echo "docs: $output/$module.doccarchive"
done
if [ "$failed" -ne 0 ]; then exit 1; fi
echo "docs: ${#modules[@]} archives, 0 warnings"
