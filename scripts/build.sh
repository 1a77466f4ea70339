#!/usr/bin/env bash
# Configures and builds one of the project's native builds, reusing its build folder when it
# exists. Usage: scripts/build.sh release|asan|tsan|fuzz|aarch64 [extra `cmake --build`
# arguments, e.g. --target X]
#
#   release  $BUILD_ROOT/release: Release, tests and example on, benchmarks off, install rules on.
#   asan     $BUILD_ROOT/asan: clang-14 at -O1 with -fsanitize=address,undefined: the tests and
#            the libFuzzer target (tests/fuzz; scripts/fuzz.sh runs it). The two share the
#            library's objects, which carry libFuzzer's coverage hooks (fuzzer-no-link): one
#            sanitizer build of the library, not two. -O1 is AddressSanitizer's advice and
#            compiles far faster than -O2 (docs/benchmarks.md, "The test suite's time"); line
#            tables are all the sanitizers' reports need.
#   fuzz     the same build as asan (its fuzz target only).
#   tsan     $BUILD_ROOT/tsan: RelWithDebInfo with -fsanitize=thread, only the concurrency tests.
#   aarch64  $BUILD_ROOT/aarch64: Release, cross-built for 64-bit ARM with
#            cmake/aarch64-linux-gnu.cmake (Debian's g++-aarch64-linux-gnu, libhwy-dev:arm64),
#            tests only; ctest runs them through qemu-aarch64 (QEMU_CPU picks the CPU).
#
# BUILD_ROOT defaults to build/ in the repository.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${BUILD_ROOT:-$repo/build}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd)

name=${1:?usage: scripts/build.sh release|asan|tsan|fuzz|aarch64 [cmake --build arguments]}
shift
case "$name" in
  release)
    options=(-DCMAKE_BUILD_TYPE=Release -DGRIDSAMPLE_SANITIZE=OFF
             -DGRIDSAMPLE_BUILD_TESTS=ON -DGRIDSAMPLE_BUILD_EXAMPLES=ON
             -DGRIDSAMPLE_BUILD_BENCHMARKS=OFF -DGRIDSAMPLE_INSTALL=ON) ;;
  asan | fuzz)
    [ "$name" = asan ] || set -- --target gridsample_fuzz "$@"
    name=asan
    options=(-DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo
             "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
             -DGRIDSAMPLE_SANITIZE=ON -DGRIDSAMPLE_BUILD_FUZZER=ON
             -DGRIDSAMPLE_BUILD_TESTS=ON -DGRIDSAMPLE_BUILD_EXAMPLES=OFF
             -DGRIDSAMPLE_BUILD_BENCHMARKS=OFF -DGRIDSAMPLE_INSTALL=OFF) ;;
  tsan)
    options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRIDSAMPLE_SANITIZE=thread
             -DGRIDSAMPLE_BUILD_TESTS=ON -DGRIDSAMPLE_BUILD_EXAMPLES=OFF
             -DGRIDSAMPLE_BUILD_BENCHMARKS=OFF -DGRIDSAMPLE_INSTALL=OFF) ;;
  aarch64)
    options=(-DCMAKE_TOOLCHAIN_FILE="$repo/cmake/aarch64-linux-gnu.cmake"
             -DCMAKE_BUILD_TYPE=Release -DGRIDSAMPLE_SANITIZE=OFF
             -DGRIDSAMPLE_BUILD_TESTS=ON -DGRIDSAMPLE_BUILD_EXAMPLES=OFF
             -DGRIDSAMPLE_BUILD_BENCHMARKS=OFF -DGRIDSAMPLE_INSTALL=OFF) ;;
  *) echo "build.sh: unknown build '$name' (release|asan|tsan|fuzz|aarch64)" >&2; exit 2 ;;
esac

dir=$build_root/$name
# A folder configured before keeps its generator; a new one gets Ninja.
generator=()
[ -f "$dir/CMakeCache.txt" ] || generator=(-G Ninja)
mkdir -p "$dir"
cmake -S "$repo" -B "$dir" "${generator[@]}" "${options[@]}" >"$dir/configure.log" 2>&1 || {
  cat "$dir/configure.log" >&2
  exit 1
}
cmake --build "$dir" "$@"
