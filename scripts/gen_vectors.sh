#!/usr/bin/env bash
# Regenerates tests/data/reference_vectors.txt: the native scalar reference's output on cases of
# every dtype, rank 1-4, mode, padding and align_corners (bindings/tools/gen_vectors.cc), which
# the package's JS suite compares the WebAssembly build against. Builds the generator in the
# release build folder ($BUILD_ROOT/release, see scripts/build.sh). Extra arguments go to the
# generator (e.g. --seed N).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build_root=${BUILD_ROOT:-$repo/build}
bash scripts/build.sh release --target gridsample_gen_vectors
trap 'rm -f tests/data/reference_vectors.txt.tmp' EXIT
mkdir -p "$build_root"
"$(cd "$build_root" && pwd)/release/bindings/gridsample_gen_vectors" "$@" \
  >tests/data/reference_vectors.txt.tmp
mv tests/data/reference_vectors.txt.tmp tests/data/reference_vectors.txt
echo "wrote tests/data/reference_vectors.txt ($(wc -c <tests/data/reference_vectors.txt) bytes)"
