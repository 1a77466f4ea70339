#!/usr/bin/env bash
# `npm run bench`: gridsample against onnxruntime-node, measured in the same run, as one
# Markdown table on stdout and in test-output/bench.md (progress goes to stderr).
#   1. bootstrap  the Debian packages, libbenchmark-dev included (scripts/bootstrap.sh), and
#                 onnxruntime-node (the package.json devDependency) when node_modules lacks it
#   2. build      $BUILD_ROOT/bench: Release, tests/bench only (gridsample_bench and
#                 gridsample_workloads)
#   3. data       gridsample_workloads writes the workload table (tests/bench/workloads.h) and
#                 every workload's tensors to $BUILD_ROOT/bench/data
#   4. native     gridsample_bench: Google Benchmark, 1 thread and all threads
#   5. ort        scripts/bench_ort.mjs: onnxruntime-node on the models in tests/bench/models
#                 (4 and 5 alternate for BENCH_ROUNDS rounds, 2 by default: a shared machine's
#                 load comes and goes, and each cell keeps its runner's best round)
#   6. table      scripts/bench_table.mjs merges 4 and 5
# About a minute on 2 cores once built (a first build adds about as much). BUILD_ROOT defaults
# to build/; BENCH_REPETITIONS (5) and BENCH_MIN_TIME (seconds per repetition, 0.1) tune the
# native side, BENCH_ORT_MIN_TIME (seconds per workload and thread count, 0.5) the onnxruntime
# side. BENCH_STAT=min shows each runner's fastest run instead of its median (steadier on a
# busy machine). The raw results stay in test-output/ as bench-gridsample.ROUND.json and
# bench-ort.ROUND.json.
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
if ! node -e "require.resolve('onnxruntime-node')" >/dev/null 2>&1; then
  if [ -z "$(node -p "require('./package.json').devDependencies?.['onnxruntime-node'] ?? ''")" ]
  then
    echo "bench.sh: package.json has no devDependency on onnxruntime-node" >&2
    exit 1
  fi
  # The package ships its CPU binaries; skip its optional download of GPU ones.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund >&2
fi

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

say "data: $dir/data"
mkdir -p "$dir/data"
"$dir/tests/bench/gridsample_workloads" --write "$dir/data"

rounds=${BENCH_ROUNDS:-2}
results=()
rm -f "$out"/bench-gridsample.*.json "$out"/bench-ort.*.json
for round in $(seq 1 "$rounds"); do
  say "native, round $round/$rounds: gridsample_bench"
  "$dir/tests/bench/gridsample_bench" \
    --benchmark_repetitions="${BENCH_REPETITIONS:-5}" \
    --benchmark_min_time="${BENCH_MIN_TIME:-0.1}" \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/bench-gridsample.$round.json" --benchmark_out_format=json >&2
  results+=(--gridsample "$out/bench-gridsample.$round.json")

  say "ort, round $round/$rounds: onnxruntime-node"
  node scripts/bench_ort.mjs --data "$dir/data" --min-time "${BENCH_ORT_MIN_TIME:-0.5}" \
    --out "$out/bench-ort.$round.json"
  results+=(--peer "$out/bench-ort.$round.json")
done

say "table: $out/bench.md"
node scripts/bench_table.mjs --workloads "$dir/data/workloads.json" "${results[@]}" \
  --stat "${BENCH_STAT:-median}" --out "$out/bench.md"
