#!/usr/bin/env bash
# Builds the query fuzzer for part 4 of `make stress` into OUT (default .build/stress):
#   OUT/query-fuzz             libFuzzer, coverage-guided over the Indexer's read path and the C++ shim, with
#                              AddressSanitizer on both and UndefinedBehaviorSanitizer on the C++ shim (swiftc has
#                              no -sanitize=undefined on Linux; its arithmetic and bounds are checked anyway)
#   OUT/query-fuzz-standalone  the same checks driven by a seeded generator (when libFuzzer cannot be linked)
# Prints the path of the binary to use; rebuilds only when a source is newer than the binary.
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.build/stress}
mkdir -p "$OUT/obj"
OUT=$(cd "$OUT" && pwd)
# The read path of the Indexer module: what IndexReader.search needs, nothing that touches the store.
swift_sources=(
  Sources/Indexer/{IndexReader,SearchRequest,SearchResults,SearchHit,Snippet,IndexError,ShimCall,ShimResults,ByteArena,IndexKind,DocumentData,RelatedHit,IndexDocument}.swift Sources/Indexer/QueryShape.swift
  Sources/EngramRules/{Limits,WallClock,Timestamp,CivilDate}.swift
  scripts/stress/query-fuzz/QueryFuzz.swift
)
cxx_sources=(Sources/CXapian/*.cc)
newest=$(ls -t "${swift_sources[@]}" "${cxx_sources[@]}" Sources/CXapian/*.h Sources/CXapian/include/*.h "$0" | head -1)

cat > "$OUT/module.modulemap" <<MAP
module CXapian {
  header "$PWD/Sources/CXapian/include/cxapian.h"
  export *
}
MAP

build() {  # build NAME SWIFT_FLAGS CXX_FLAGS
  local name=$1 swift_flags=$2 cxx_flags=$3 bin="$OUT/$1"
  if [ -x "$bin" ] && [ "$bin" -nt "$newest" ]; then echo "$bin"; return 0; fi
  local objs=()
  for cc in "${cxx_sources[@]}"; do
    local o="$OUT/obj/$name-$(basename "$cc" .cc).o"
    objs+=("$o")
    if [ "$o" -nt "$cc" ] && [ "$o" -nt "$0" ] && [ "$o" -nt Sources/CXapian/shim.h ] && [ "$o" -nt Sources/CXapian/include/cxapian.h ]; then continue; fi
    clang++ -std=c++17 -O2 -g0 $cxx_flags -ISources/CXapian/include -ISources/CXapian -c "$cc" -o "$o"
  done
  # shellcheck disable=SC2086
  swiftc -O -parse-as-library -module-name QueryFuzz $swift_flags -I "$OUT" -Xcc -fmodule-map-file="$OUT/module.modulemap" \
    "${swift_sources[@]}" "${objs[@]}" -lxapian -lstdc++ -o "$bin.tmp"
  mv "$bin.tmp" "$bin"
  echo "$bin"
}

if [ "${QUERY_FUZZ_STANDALONE:-0}" = 1 ]; then
  build query-fuzz-standalone "-D QUERY_FUZZ_STANDALONE" ""
else
  build query-fuzz "-sanitize=fuzzer,address" "-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
fi
