#!/usr/bin/env bash
# `npm start`: the demo page (web/) on http://localhost:8080 (PORT overrides). Installs the npm
# devDependencies when onnxruntime-web or esbuild is missing from node_modules, builds the
# package into dist/ (scripts/build_wasm.sh, which installs Emscripten through
# scripts/bootstrap.sh) when dist/ is missing or older than its sources, then serves web/, dist/
# and onnxruntime-web with scripts/serve.mjs until stopped. Nothing beyond localhost is needed
# once that is done. (The native example is the CMake target gridsample_example.)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

if ! npm ls --depth=0 esbuild onnxruntime-web >/dev/null 2>&1; then
  # onnxruntime-node ships its CPU binaries; skip its optional download of GPU ones.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund
fi

# dist/ is stale when anything the build reads changed since this script last built it (a
# stamp of its own: the build leaves unchanged files of dist/ untouched, old times included).
stamp=${BUILD_ROOT:-$repo/build}/wasm/start.stamp
if [ ! -f dist/index.js ] || [ ! -f dist/gridsample.wasm ] || [ ! -f "$stamp" ] ||
   [ -n "$(find src bindings CMakeLists.txt scripts/build_wasm.sh -newer "$stamp" -print -quit)" ]
then
  bash scripts/build_wasm.sh
  touch "$stamp"
fi

exec node scripts/serve.mjs
