#!/usr/bin/env bash
# `npm test`: every native check, stopping at the first failure.
#   1. bootstrap     every stage's Debian packages in one apt-get run (scripts/bootstrap.sh), and
#                    the npm devDependencies when missing (downloading while stages 2-5 build)
#   2. format        clang-format --dry-run --Werror on the C++ of src/, bindings/ and tests/
#   2b. release      Release build + its Catch2 suite through ctest
#   3. aarch64       the same suite cross-built for 64-bit ARM ($BUILD_ROOT/aarch64) and run
#                    under qemu-aarch64: the whole suite with NEON alone and with SVE at 512 bits,
#                    the target-dependent suites ([simd]) with SVE at 128, 256 and 2048 bits, each
#                    target once; each run's Highway targets printed; every compiled target must
#                    run in one
#   4. asan          the suite built with clang's AddressSanitizer + UndefinedBehaviorSanitizer,
#                    in the build that also makes the libFuzzer target (tests/fuzz)
#   5. tsan          the concurrency suites (tests/concurrency_test.cc, thread_pool_test.cc)
#                    built with ThreadSanitizer
#   6. find_package  install the release build into a temporary prefix and build and run
#                    tests/find_package against it, as another CMake project would
#   7. wasm          the npm package: the Emscripten build into dist/ (scripts/build_wasm.sh,
#                    $BUILD_ROOT/wasm) and the Node.js addons into dist/native/
#                    (scripts/build_addon.sh): this platform's ($BUILD_ROOT/addon) and
#                    linux-arm64's, cross-built ($BUILD_ROOT/addon-arm64)
#   8. js            the package's node:test suites (tests/js/): the native reference's vectors
#                    and the golden file through the JS API, loading, errors, hostile inputs,
#                    memory, threads, the native backend against WebAssembly, npm pack, publish
#                    --dry-run and install, headless Chromium (static server, cross-origin
#                    isolated and not, and a Vite build), and the demo page (web/) in Chromium
#                    against the package in Node; the vector, AffineGrid, API and hostile-input
#                    suites once more on the native backend; beside them, the fuzzer for
#                    $FUZZ_SECONDS (default 60) seconds (scripts/fuzz.sh), one test, then the GPU
#                    suites in Node.js through Dawn
#   9. js-arm64      the native backend on linux-arm64: the native-backend suite and the vector
#                    and AffineGrid suites on the native backend, in Debian's Node.js 18 for arm64
#                    under qemu-aarch64 (scripts/node_arm64.sh), with NEON alone and with SVE at
#                    512 bits, each checked to run the kernels on its target
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
# Stops process $1 and every process under it (a background job's shell leaves its node or
# fuzzer child running when it is killed alone).
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
on_exit() {
  local rc=$? job
  # A stage that failed may leave the fuzzer or the GPU suites running beside it.
  for job in $(jobs -p); do kill_tree "$job"; done
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
# Adds the tests a node:test run passed (its spec reporter's log) to tests_run.
add_node_passes() {
  local count
  count=$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$1" | tail -n 1)
  tests_run=$((tests_run + ${count:-0}))
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

stage bootstrap "Debian packages and the npm devDependencies"
# Every stage's packages in one apt-get run: the aarch64 cross toolchain, qemu and Highway for
# arm64; clang-14 and its sanitizer and libFuzzer runtimes; clang-format; Emscripten and
# Chromium; the JavaScript that the arm64 Node.js reads from /usr/share/nodejs
# (scripts/node_arm64.sh).
# On an arm64 machine the native g++ is aarch64-linux-gnu-g++ already (and libhwy-dev native).
packages=(qemu-user libhwy-dev:arm64 clang-14 libclang-rt-14-dev clang-format-14 emscripten
          chromium libc6:arm64 libstdc++6:arm64 node-acorn node-cjs-module-lexer node-undici)
[ "$(dpkg --print-architecture)" = arm64 ] || packages+=(g++-aarch64-linux-gnu)
bash scripts/bootstrap.sh "${packages[@]}"
# The devDependencies (esbuild, onnxruntime-web, playwright-core, typescript, vite) download
# while the native stages compile; the wasm stage waits for them (its assemble.mjs bundles with
# esbuild). onnxruntime-node ships its CPU binaries: its optional download of GPU ones is skipped.
npm_install=""
if ! npm ls --depth=0 esbuild onnxruntime-web playwright-core typescript vite >/dev/null 2>&1; then
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund \
    >"$BUILD_ROOT/npm-install.log" 2>&1 &
  npm_install=$!
fi
stage_done bootstrap

stage format "the C++ of src/, bindings/ and tests/ as .clang-format has it"
mapfile -d '' cxx < <(find src bindings tests -type f \
                         \( -name '*.cc' -o -name '*.h' -o -name '*.inc' \) -print0)
clang-format-14 --dry-run --Werror "${cxx[@]}"
echo "format: ${#cxx[@]} files as .clang-format has them"
stage_done format

stage release "build and test ($BUILD_ROOT/release)"
bash scripts/build.sh release
run_ctest "$BUILD_ROOT/release"
stage_done release

stage aarch64 "cross-built for ARM64, run under qemu-aarch64 ($BUILD_ROOT/aarch64)"
bash scripts/build.sh aarch64 -j "$jobs"
# The emulated CPUs (QEMU_CPU) and what each runs. NEON's code is the same under every SVE
# width, so it runs once, with the whole suite, on a CPU without SVE. SVE at 512 bits (qemu's
# default) runs the whole suite, on SVE2 (the best target there). The suites that depend on the
# target ([simd]: tests/targets.h) run on every other target at one width each: SVE2_128 and
# SVE_256 at the one width they are compiled for, and SVE, whose code differs from SVE2's only in
# the instructions SVE2 adds, at 2048 bits, the widest vectors. So every target runs once and
# every width once. In qemu-user sve-max-vq above 2 does not widen the default. A job is
# "name|QEMU_CPU|GRIDSAMPLE_TEST_TARGETS|Catch filter", the longest first; each half of a whole
# suite is a job of its own, so that the two cores stay busy to the end.
aarch64_jobs=(
  "sve512-rest|max||~[simd]"
  "neon-rest|max,sve=off||~[simd]"
  "sve2048|max,sve-default-vector-length=256|SVE|[simd]"
  "sve512-simd|max|SVE2|[simd]"
  "sve256|max,sve-max-vq=2|SVE_256|[simd]"
  "sve128|max,sve-max-vq=1|SVE2_128|[simd]"
  "neon-simd|max,sve=off||[simd]"
)
# Catch runs through qemu-aarch64 without -L (cmake/aarch64-linux-gnu.cmake says why).
run_aarch64_job() {
  local name cpu targets filter
  IFS='|' read -r name cpu targets filter <<<"$1"
  local log=$BUILD_ROOT/aarch64/logs/$name.log start=$SECONDS
  if QEMU_CPU=$cpu GRIDSAMPLE_TEST_TARGETS=$targets timeout 1800 qemu-aarch64 \
       "$BUILD_ROOT/aarch64/tests/gridsample_tests" "$filter" >"$log" 2>&1; then
    printf -- '-- %s (QEMU_CPU=%s, %s), %ss: %s%s\n' "$name" "$cpu" "$filter" \
      "$((SECONDS - start))" "$(grep -E '^All tests passed' "$log" | tail -n 1)" \
      "$(sed -n 's/^supported targets:/; targets/p' "$log")"
  else
    printf -- '-- %s FAILED (QEMU_CPU=%s, GRIDSAMPLE_TEST_TARGETS=%s, %s); its log %s ends:\n' \
      "$name" "$cpu" "$targets" "$filter" "$log" >&2
    tail -n 60 "$log" >&2
    return 1
  fi
}
export -f run_aarch64_job
export BUILD_ROOT
mkdir -p "$BUILD_ROOT/aarch64/logs"
rm -f "$BUILD_ROOT"/aarch64/logs/*.log
printf '%s\0' "${aarch64_jobs[@]}" | xargs -0 -P "$jobs" -I{} bash -c 'run_aarch64_job "$1"' _ {}
# Every target Highway compiled ran in some job (tests/targets_test.cc prints both lists).
compiled=$(sed -n 's/^compiled targets: //p' "$BUILD_ROOT"/aarch64/logs/*.log | head -n 1)
ran=" $(sed -n 's/^supported targets: //p' "$BUILD_ROOT"/aarch64/logs/*.log |
        sed 's/ ([0-9]* bits)//g' | tr '\n' ' ') "
[ -n "$compiled" ] || { echo "aarch64: no compiled targets printed" >&2; exit 1; }
for target in $compiled; do
  case "$ran" in
    *" $target "*) ;;
    *) echo "aarch64: the compiled target $target ran in none of the jobs" >&2; exit 1 ;;
  esac
done
count=$(sed -n 's/^All tests passed (.* in \([0-9]*\) test cases)$/\1/p' \
          "$BUILD_ROOT"/aarch64/logs/*.log | awk '{ n += $1 } END { print n + 0 }')
tests_run=$((tests_run + count))
stage_done aarch64

stage asan "the suite with -fsanitize=address,undefined ($BUILD_ROOT/asan)"
# One clang build for the suite and the fuzzer (scripts/build.sh says why); the fuzzer runs in
# the js stage.
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
if [ -n "$npm_install" ] && ! wait "$npm_install"; then
  cat "$BUILD_ROOT/npm-install.log" >&2
  exit 1
fi
SKIP_BOOTSTRAP=1 bash scripts/build_wasm.sh
# The Node.js addons ($BUILD_ROOT/addon and addon-arm64; the package's prepack builds them too).
bash scripts/build_addon.sh
bash scripts/build_addon.sh linux-arm64
stage_done wasm

stage js "node:test suites of the package (tests/js/), and libFuzzer beside them"
# node:test runs one file at a time and leaves most of one of 2 cores idle, so the fuzzer (one
# process, $FUZZ_SECONDS, default 60 s, counted as one test) and then the GPU suites once more
# in Node.js itself, through Dawn (the `webgpu` devDependency) on the SwiftShader and Vulkan
# loader that Debian's chromium installs beside the browser, run there meanwhile. Their logs
# are printed once the suites in front are done; beside() returns which of the two failed.
beside() {
  SKIP_BOOTSTRAP=1 bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}" >"$BUILD_ROOT/fuzz-stage.log" 2>&1 ||
    return 1
  GRIDSAMPLE_WEBGPU=dawn LD_LIBRARY_PATH=/usr/lib/chromium \
    VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node --test --test-reporter=spec \
    tests/js/webgpu.test.mjs tests/js/webgpu_types.test.mjs tests/js/webgpu_affine.test.mjs \
    >"$BUILD_ROOT/js-dawn-test.log" 2>&1 || return 2
}
beside &
beside_pid=$!
# pipefail passes node's exit code on through tee.
node --test --test-reporter=spec tests/js/ 2>&1 | tee "$BUILD_ROOT/js-test.log"
add_node_passes "$BUILD_ROOT/js-test.log"
# The suites that hold both backends to the same vectors and errors, once more on the native one.
GRIDSAMPLE_TEST_BACKEND=native node --test --test-reporter=spec tests/js/vectors.test.mjs \
  tests/js/api.test.mjs tests/js/hostile.test.mjs \
  tests/js/affine_grid.test.mjs 2>&1 | tee "$BUILD_ROOT/js-native-test.log"
add_node_passes "$BUILD_ROOT/js-native-test.log"
beside_status=0
wait "$beside_pid" || beside_status=$?
if [ "$beside_status" -eq 1 ]; then
  cat "$BUILD_ROOT/fuzz-stage.log" >&2
  exit 1
fi
cat "$BUILD_ROOT/js-dawn-test.log"
[ "$beside_status" -eq 0 ] || exit 1
add_node_passes "$BUILD_ROOT/js-dawn-test.log"
cat "$BUILD_ROOT/fuzz-stage.log"
tests_run=$((tests_run + 1))
stage_done js

stage js-arm64 "the linux-arm64 addon in Node.js for arm64 under qemu-aarch64"
# Debian's Node.js 18 for arm64, downloaded and unpacked into $BUILD_ROOT/node-arm64 on the first
# run, before the jobs share it.
SKIP_BOOTSTRAP=1 bash scripts/node_arm64.sh -p "'node ' + process.version + ', ' + process.arch"
# The emulated CPUs, as in the aarch64 stage: NEON alone, and SVE at 512 bits (qemu's default),
# where Highway picks SVE2; native.test.mjs checks that the addon's kernels run that target. A
# job is "name|QEMU_CPU|target", running each suite in a node of its own (not `node --test`:
# node_arm64.sh says why).
arm64_jobs=("sve512|max|SVE2" "neon|max,sve=off|NEON")
run_arm64_job() {
  local name cpu target suite log start=$SECONDS
  IFS='|' read -r name cpu target <<<"$1"
  for suite in native vectors affine_grid; do
    log=$BUILD_ROOT/node-arm64/logs/$name-$suite.log
    if ! QEMU_CPU=$cpu GRIDSAMPLE_TEST_BACKEND=native GRIDSAMPLE_TEST_KERNEL_TARGET=$target \
         SKIP_BOOTSTRAP=1 timeout 900 bash scripts/node_arm64.sh --test-reporter=spec \
         "tests/js/$suite.test.mjs" >"$log" 2>&1; then
      printf -- '-- %s FAILED (QEMU_CPU=%s, tests/js/%s.test.mjs); its log %s ends:\n' \
        "$name" "$cpu" "$suite" "$log" >&2
      tail -n 60 "$log" >&2
      return 1
    fi
  done
  printf -- '-- %s (QEMU_CPU=%s, kernels on %s), %ss: %s tests passed\n' "$name" "$cpu" \
    "$target" "$((SECONDS - start))" \
    "$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$BUILD_ROOT/node-arm64/logs/$name"-*.log |
       awk '{ n += $1 } END { print n + 0 }')"
}
export -f run_arm64_job
mkdir -p "$BUILD_ROOT/node-arm64/logs"
rm -f "$BUILD_ROOT"/node-arm64/logs/*.log
printf '%s\0' "${arm64_jobs[@]}" | xargs -0 -P "$jobs" -I{} bash -c 'run_arm64_job "$1"' _ {}
count=$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$BUILD_ROOT"/node-arm64/logs/*.log |
          awk '{ n += $1 } END { print n + 0 }')
tests_run=$((tests_run + count))
stage_done js-arm64

printf -v summary '%s, ' "${times[@]}"
printf '\n== summary: %stotal %ss\n' "$summary" "$SECONDS"
echo "gridsample: $tests_run passed, 0 failed"
