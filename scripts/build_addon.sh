#!/usr/bin/env bash
# Builds the npm package's Node.js addon for this machine's platform into dist/native/PLATFORM/
# (PLATFORM: Node.js's process.platform-process.arch, e.g. linux-x64): gridsample.node (the C++
# core over Node-API, bindings/node/, Release, Highway's dynamic dispatch over every target of
# the architecture) and libhwy.so.1 beside it, both stripped. The package's Node.js entries load
# it where it fits (bindings/js/native.js) and take the WebAssembly build elsewhere.
#
#   $BUILD_ROOT/addon   the CMake build folder (reused; default BUILD_ROOT: build/)
#
# Needs node-addon-api and node-api-headers (npm devDependencies: their headers only, so
# nothing is downloaded from nodejs.org) and Debian's libhwy-dev.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build_root=${BUILD_ROOT:-$repo/build}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd)
dir=$build_root/addon

headers=$(node -e "
  const path = require('node:path');
  console.log([require('node-api-headers').include_dir,
               path.resolve(require('node-addon-api').include_dir)].join(';'));
" 2>/dev/null) || {
  echo "build_addon.sh: node-addon-api or node-api-headers is missing: run npm install" >&2
  exit 1
}
platform=$(node -p "process.platform + '-' + process.arch")

generator=()
[ -f "$dir/CMakeCache.txt" ] || generator=(-G Ninja)
cmake -S "$repo" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DGRIDSAMPLE_NODE_API_INCLUDE_DIRS="$headers" \
  -DGRIDSAMPLE_SANITIZE=OFF -DGRIDSAMPLE_BUILD_TESTS=OFF -DGRIDSAMPLE_BUILD_EXAMPLES=OFF \
  -DGRIDSAMPLE_BUILD_BENCHMARKS=OFF -DGRIDSAMPLE_INSTALL=OFF >"$dir.configure.log" 2>&1 || {
  cat "$dir.configure.log" >&2
  exit 1
}
cmake --build "$dir" --target gridsample_node

# Highway's shared library, as the addon was linked against it (the soname it asks for).
hwy=$(ldd "$dir/bindings/gridsample.node" | awk '/libhwy\.so/ { print $3 }')
[ -f "$hwy" ] || { echo "build_addon.sh: the addon does not link libhwy" >&2; exit 1; }
out=$repo/dist/native/$platform
mkdir -p "$out"
install -m 0755 "$dir/bindings/gridsample.node" "$out/gridsample.node"
install -m 0644 "$hwy" "$out/$(basename "$hwy")"
strip --strip-unneeded "$out/gridsample.node" "$out/$(basename "$hwy")"
ls -l "$out" | awk 'NR > 1 { printf "%s: %s bytes\n", $9, $5 }' | sed "s|^|dist/native/$platform/|"
