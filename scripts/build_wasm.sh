#!/usr/bin/env bash
# Builds the npm package into dist/: the WebAssembly module (Emscripten, Release -O3, Highway's
# static WASM SIMD128 target) and the JS around it (bindings/js/assemble.mjs). `npm pack` runs
# it as `prepack`; `npm test` runs it once per run. Prints the .wasm size, raw and gzipped.
#
#   $BUILD_ROOT/wasm   the emcmake build folder (reused; default BUILD_ROOT: build/)
#   dist/              gridsample.wasm, the Emscripten glue (ESM, and a CommonJS copy), the JS
#                      wrapper (ESM for browsers and Node, CommonJS for require) and index.d.ts
#
# Installs Emscripten through scripts/bootstrap.sh when it is missing (Debian's 3.1.6).
# SKIP_BOOTSTRAP=1 skips that step (the caller ran it).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build_root=${BUILD_ROOT:-$repo/build}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd)
dir=$build_root/wasm

[ "${SKIP_BOOTSTRAP:-0}" = 1 ] || bash scripts/bootstrap.sh emscripten
# assemble.mjs bundles the JS with esbuild, an npm devDependency: checked before the long build.
node -e "require.resolve('esbuild')" 2>/dev/null || {
  echo "build_wasm.sh: esbuild is missing: run npm install (the devDependencies) first" >&2
  exit 1
}

# Debian's emscripten runs its JS optimiser with the system node, which finds acorn only here.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# Highway's headers without the rest of /usr/include (whose glibc headers must not shadow
# Emscripten's): a folder holding only a link named hwy.
hwy_headers=/usr/include/hwy  # libhwy-dev (scripts/bootstrap.sh installs it)
[ -f "$hwy_headers/highway.h" ] || { echo "build_wasm.sh: no $hwy_headers/highway.h" >&2; exit 1; }
mkdir -p "$dir/hwy_include"
ln -sfn "$hwy_headers" "$dir/hwy_include/hwy"

# A folder configured before keeps its generator; a new one gets Ninja.
generator=()
[ -f "$dir/CMakeCache.txt" ] || generator=(-G Ninja)
emcmake cmake -S "$repo" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DGRIDSAMPLE_HWY_INCLUDE_DIR="$dir/hwy_include" -DGRIDSAMPLE_SANITIZE=OFF \
  -DGRIDSAMPLE_BUILD_TESTS=OFF -DGRIDSAMPLE_BUILD_EXAMPLES=OFF \
  -DGRIDSAMPLE_BUILD_BENCHMARKS=OFF -DGRIDSAMPLE_INSTALL=OFF >"$dir/configure.log" 2>&1 || {
  cat "$dir/configure.log" >&2
  exit 1
}
cmake --build "$dir" --target gridsample_wasm

node bindings/js/assemble.mjs --glue "$dir/bindings/gridsample.mjs" \
  --wasm "$dir/bindings/gridsample.wasm" --worker "$dir/bindings/gridsample.worker.js" \
  --out "$repo/dist"

raw=$(stat -c %s dist/gridsample.wasm)
gzipped=$(gzip -9 -c dist/gridsample.wasm | wc -c)
printf 'dist/gridsample.wasm: %s bytes raw, %s bytes gzipped (gzip -9)\n' "$raw" "$gzipped"
