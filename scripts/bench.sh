#!/usr/bin/env bash
# `npm run bench`: gridsample against onnxruntime, measured in the same run, as one Markdown
# table on stdout and in test-output/bench.md (progress goes to stderr): the native build against
# onnxruntime-node, and the npm package's WebAssembly build against onnxruntime-web (wasm
# backend), both in Node, at 1 thread and all hardware threads, with a fresh output per call
# for both (and for the package, a second table with `out` reused).
#   1. bootstrap  the Debian packages, libbenchmark-dev included (scripts/bootstrap.sh), and
#                 onnxruntime-node and onnxruntime-web (package.json devDependencies) when
#                 node_modules lacks them
#   2. build      $BUILD_ROOT/bench: Release, tests/bench only (gridsample_bench and
#                 gridsample_workloads); and dist/, the npm package (scripts/build_wasm.sh,
#                 incremental: a missing or stale dist/ is rebuilt, an up-to-date one costs
#                 a second or two)
#   3. data       gridsample_workloads writes the workload table (tests/bench/workloads.h) and
#                 every workload's tensors to $BUILD_ROOT/bench/data
#   4. native     gridsample_bench: Google Benchmark, 1 thread and all threads
#   5. ort        scripts/bench_ort.mjs: onnxruntime-node on the models in tests/bench/models,
#                 1 thread and all threads
#   6. wasm       scripts/bench_wasm.mjs: the package in dist/, 1 thread and all threads, each
#                 with fresh outputs and with `out` reused
#   7. ort-web    scripts/bench_ort.mjs --runtime web: onnxruntime-web, 1 thread, then all
#                 threads (a process each: its thread count is fixed per process)
#                 (4 to 7 alternate for BENCH_ROUNDS rounds, 2 by default: a shared machine's
#                 load comes and goes, and each cell keeps its runner's best round)
#   8. table      scripts/bench_table.mjs merges 4 to 7: native vs onnxruntime-node, wasm vs
#                 onnxruntime-web, ms and speed-ups, and every output's largest difference from
#                 the native one; then the package's fresh against reused outputs
# About two minutes on 2 cores once built (a first build adds about as much). BUILD_ROOT
# defaults to build/; BENCH_REPETITIONS (5) and BENCH_MIN_TIME (seconds per repetition, 0.1)
# tune the native side, BENCH_JS_MIN_TIME (seconds per workload and thread count, 0.5; the older
# name BENCH_ORT_MIN_TIME works too) and BENCH_JS_WARMUP_TIME (seconds of warm-up per timing, 1:
# V8 optimises WebAssembly late) the JavaScript runners. BENCH_STAT=min shows each runner's
# fastest run instead of its median (steadier on a busy machine). The raw results stay in
# test-output/ as bench-gridsample.ROUND.json, bench-ort.ROUND.json, bench-wasm.ROUND.json and
# bench-ort-web.ROUND.THREADS.json.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build_root=${BUILD_ROOT:-$repo/build}
mkdir -p "$build_root" test-output
build_root=$(cd "$build_root" && pwd)
dir=$build_root/bench
out=$repo/test-output

say() { printf '\n== %s\n' "$*" >&2; }

say "bootstrap"
bash scripts/bootstrap.sh libbenchmark-dev >&2
for package in onnxruntime-node onnxruntime-web; do
  node -e "require.resolve('$package')" >/dev/null 2>&1 && continue
  if [ -z "$(node -p "require('./package.json').devDependencies?.['$package'] ?? ''")" ]; then
    echo "bench.sh: package.json has no devDependency on $package" >&2
    exit 1
  fi
  # onnxruntime-node ships its CPU binaries; skip its optional download of GPU ones.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund >&2
  break
done

say "build: $dir (Release)"
if ! grep -q 'add_subdirectory(tests/bench)' CMakeLists.txt; then
  echo "bench.sh: CMakeLists.txt does not add tests/bench to the build" >&2
  exit 1
fi
generator=()
[ -f "$dir/CMakeCache.txt" ] || generator=(-G Ninja)
mkdir -p "$dir"
cmake -S "$repo" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DGRIDSAMPLE_SANITIZE=OFF -DGRIDSAMPLE_BUILD_TESTS=OFF -DGRIDSAMPLE_BUILD_EXAMPLES=OFF \
  -DGRIDSAMPLE_BUILD_BENCHMARKS=ON -DGRIDSAMPLE_INSTALL=OFF >"$dir.configure.log" 2>&1 || {
  cat "$dir.configure.log" >&2
  exit 1
}
cmake --build "$dir" --target gridsample_bench gridsample_workloads >&2

say "build: dist/ (scripts/build_wasm.sh)"
bash scripts/build_wasm.sh >&2

say "data: $dir/data"
mkdir -p "$dir/data"
"$dir/tests/bench/gridsample_workloads" --write "$dir/data"

rounds=${BENCH_ROUNDS:-2}
js_min_time=${BENCH_JS_MIN_TIME:-${BENCH_ORT_MIN_TIME:-0.5}}
js_timing=(--min-time "$js_min_time" --warmup-time "${BENCH_JS_WARMUP_TIME:-1}")
all_threads=$(node -p "require('$dir/data/workloads.json').hardware_threads")
results=()
rm -f "$out"/bench-gridsample.*.json "$out"/bench-ort.*.json "$out"/bench-wasm.*.json \
  "$out"/bench-ort-web.*.json
for round in $(seq 1 "$rounds"); do
  say "native, round $round/$rounds: gridsample_bench"
  "$dir/tests/bench/gridsample_bench" \
    --benchmark_repetitions="${BENCH_REPETITIONS:-5}" \
    --benchmark_min_time="${BENCH_MIN_TIME:-0.1}" \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/bench-gridsample.$round.json" --benchmark_out_format=json >&2
  results+=(--gridsample "$out/bench-gridsample.$round.json")

  say "ort, round $round/$rounds: onnxruntime-node"
  node scripts/bench_ort.mjs --runtime node --data "$dir/data" "${js_timing[@]}" \
    --out "$out/bench-ort.$round.json"
  results+=(--peer "$out/bench-ort.$round.json")

  say "wasm, round $round/$rounds: dist/ (the npm package)"
  node scripts/bench_wasm.mjs --data "$dir/data" "${js_timing[@]}" \
    --out "$out/bench-wasm.$round.json"
  results+=(--ours "$out/bench-wasm.$round.json")

  for threads in $(printf '%s\n' 1 "$all_threads" | sort -un); do
    say "ort-web, round $round/$rounds: onnxruntime-web (wasm, $threads thread(s))"
    node scripts/bench_ort.mjs --runtime web --threads "$threads" --data "$dir/data" \
      "${js_timing[@]}" --out "$out/bench-ort-web.$round.$threads.json"
    results+=(--peer "$out/bench-ort-web.$round.$threads.json")
  done
done

say "table: $out/bench.md"
node scripts/bench_table.mjs --workloads "$dir/data/workloads.json" "${results[@]}" \
  --stat "${BENCH_STAT:-median}" --out "$out/bench.md"
