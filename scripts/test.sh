#!/usr/bin/env bash
# `npm test`: every native check, stopping at the first failure.
#   1. bootstrap     the Debian packages (scripts/bootstrap.sh)
#   2. release       Release build + its Catch2 suite through ctest
#   2b. aarch64      the same suite cross-built for 64-bit ARM (bootstrap: g++-aarch64-linux-gnu,
#                    qemu-user, libhwy-dev:arm64; $BUILD_ROOT/aarch64) and run through ctest under
#                    qemu-aarch64 five times: NEON alone, then SVE at 128, 256, 512 and 2048 bits,
#                    each run's Highway targets printed; every compiled target must run under one
#   3. asan          the same suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#   3b. tsan         the concurrency suites (tests/concurrency_test.cc, thread_pool_test.cc)
#                    built with ThreadSanitizer
#   3c. fuzz         the libFuzzer target (tests/fuzz; clang-14, ASan + UBSan) for $FUZZ_SECONDS
#                    (default 60) seconds through scripts/fuzz.sh, counted as one test
#   4. find_package  install the release build into a temporary prefix and build and run
#                    tests/find_package against it, as another CMake project would
#   5. wasm          the npm package: Emscripten and Chromium (bootstrap), the Emscripten build
#                    into dist/ (scripts/build_wasm.sh, $BUILD_ROOT/wasm), the devDependencies
#                    (onnxruntime-web, playwright-core, typescript, vite) when missing
#   6. js            the package's node:test suites (tests/js/): the native reference's vectors
#                    and the golden file through the JS API, loading, errors, hostile inputs,
#                    memory, threads, npm pack and install, headless Chromium (static server,
#                    cross-origin isolated and not, and a Vite build), and the demo page (web/)
#                    in Chromium against the package in Node
# Build folders live in $BUILD_ROOT (default: build/) and are reused between runs.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
export BUILD_ROOT=${BUILD_ROOT:-$repo/build}
mkdir -p "$BUILD_ROOT"
BUILD_ROOT=$(cd "$BUILD_ROOT" && pwd)
jobs=2

times=()
tests_run=0
stage_name=""
stage_start=0
scratch=""
on_exit() {
  local rc=$?
  [ -z "$scratch" ] || rm -rf "$scratch"
  [ "$rc" -eq 0 ] || printf '\n== FAILED in stage %s (exit code %s)\n' "$stage_name" "$rc" >&2
}
trap on_exit EXIT
stage() {
  stage_name=$1
  stage_start=$SECONDS
  printf '\n== %s%s\n' "$1" "${2:+: $2}"
}
stage_done() {
  times+=("$1 $((SECONDS - stage_start))s")
}
# Runs ctest in a build folder and adds the number of tests it ran to tests_run.
run_ctest() {
  local log=$1/ctest.log
  ctest --test-dir "$1" --output-on-failure --no-tests=error -j "$jobs" --timeout 300 \
    | tee "$log"
  local count
  count=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
  tests_run=$((tests_run + ${count:-0}))
}

stage bootstrap "Debian packages"
bash scripts/bootstrap.sh
stage_done bootstrap

stage release "build and test ($BUILD_ROOT/release)"
bash scripts/build.sh release
run_ctest "$BUILD_ROOT/release"
stage_done release

stage aarch64 "cross-built for ARM64, run under qemu-aarch64 ($BUILD_ROOT/aarch64)"
# On an arm64 machine the native g++ is aarch64-linux-gnu-g++ already (and libhwy-dev native).
aarch64_packages=(qemu-user libhwy-dev:arm64)
[ "$(dpkg --print-architecture)" = arm64 ] || aarch64_packages+=(g++-aarch64-linux-gnu)
bash scripts/bootstrap.sh "${aarch64_packages[@]}"
bash scripts/build.sh aarch64 -j "$jobs"
# The emulated CPUs (QEMU_CPU): NEON alone, then SVE vectors of 128, 256, 512 (qemu's default)
# and 2048 bits; in qemu-user sve-max-vq above 2 does not widen the default. ctest runs the
# tests through qemu-aarch64 without -L (cmake/aarch64-linux-gnu.cmake says why).
aarch64_cpus=(max,sve=off max,sve-max-vq=1 max,sve-max-vq=2 max max,sve-default-vector-length=256)
compiled="" ran=" "
for cpu in "${aarch64_cpus[@]}"; do
  # tests/targets_test.cc's first case prints the compiled targets and those this CPU runs.
  targets=$(QEMU_CPU=$cpu qemu-aarch64 "$BUILD_ROOT/aarch64/tests/gridsample_tests" \
            "The targets this CPU runs") || { echo "$targets" >&2; exit 1; }
  compiled=$(sed -n 's/^compiled targets: //p' <<<"$targets")
  supported=$(sed -n 's/^supported targets: //p' <<<"$targets")
  printf '\n-- QEMU_CPU=%s: Highway targets %s\n' "$cpu" "$supported"
  for target in $(sed 's/ ([0-9]* bits)//g' <<<"$supported"); do
    case "$ran" in *" $target "*) ;; *) ran+="$target " ;; esac
  done
  QEMU_CPU=$cpu run_ctest "$BUILD_ROOT/aarch64"
done
[ -n "$compiled" ] || { echo "aarch64: no compiled targets printed" >&2; exit 1; }
for target in $compiled; do
  case "$ran" in
    *" $target "*) ;;
    *) echo "aarch64: the compiled target $target ran under none of the CPUs" >&2; exit 1 ;;
  esac
done
echo "aarch64: every compiled target ran:$ran"
stage_done aarch64

stage asan "build and test with -fsanitize=address,undefined ($BUILD_ROOT/asan)"
bash scripts/build.sh asan
# Any finding fails the test that made it. The user's own options, if any, come last and win.
ASAN_OPTIONS="halt_on_error=1:print_stacktrace=1:detect_leaks=1:strict_string_checks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
  run_ctest "$BUILD_ROOT/asan"
stage_done asan

stage tsan "the concurrency suites with -fsanitize=thread ($BUILD_ROOT/tsan)"
bash scripts/build.sh tsan
TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}" run_ctest "$BUILD_ROOT/tsan"
stage_done tsan

stage fuzz "libFuzzer over the C++ API for ${FUZZ_SECONDS:-60}s ($BUILD_ROOT/fuzz)"
bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
tests_run=$((tests_run + 1))
stage_done fuzz

stage find_package "install the release build and use it from tests/find_package"
scratch=$(mktemp -d)
cmake --install "$BUILD_ROOT/release" --prefix "$scratch/prefix" >/dev/null
cmake -S tests/find_package -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  >"$scratch/configure.log" 2>&1 || { cat "$scratch/configure.log" >&2; exit 1; }
found=$(sed -n 's/^gridsample_DIR:PATH=//p' "$scratch/build/CMakeCache.txt")
case "$found" in
  "$scratch/prefix"/*) echo "found the installed package: $found" ;;
  *) echo "find_package found gridsample in '$found', not in the installed prefix" >&2; exit 1 ;;
esac
cmake --build "$scratch/build"
"$scratch/build/find_package_test"
tests_run=$((tests_run + 1))
stage_done find_package

stage wasm "the npm package: Emscripten build into dist/ ($BUILD_ROOT/wasm)"
# Emscripten for the build, Chromium for the browser tests (tests/js/browser.test.mjs).
bash scripts/bootstrap.sh emscripten chromium
SKIP_BOOTSTRAP=1 bash scripts/build_wasm.sh
if ! npm ls --depth=0 onnxruntime-web playwright-core typescript vite >/dev/null 2>&1; then
  # onnxruntime-node ships its CPU binaries; skip its optional download of GPU ones.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund
fi
stage_done wasm

stage js "node:test suites of the package (tests/js/)"
# pipefail passes node's exit code on through tee.
node --test --test-reporter=spec tests/js/ 2>&1 | tee "$BUILD_ROOT/js-test.log"
count=$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$BUILD_ROOT/js-test.log" | tail -n 1)
tests_run=$((tests_run + ${count:-0}))
stage_done js

printf -v summary '%s, ' "${times[@]}"
printf '\n== summary: %stotal %ss\n' "$summary" "$SECONDS"
echo "gridsample: $tests_run passed, 0 failed"
