#!/usr/bin/env bash
# `npm run bench`: gridsample against its peers, measured in the same run, as Markdown tables on
# stdout and in test-output/bench.md (progress goes to stderr): the native build against
# onnxruntime-node, ncnn, OpenCV (cv2.remap), PyTorch (grid_sample) and OpenVINO, and the npm
# package's WebAssembly build against onnxruntime-web (wasm backend) and opencv.js (cv.remap, on
# the image workloads), all in Node, at 1 thread and all hardware threads, with a fresh output
# per call for the JavaScript runners (and for the package, a second table with `out` reused).
#   1. bootstrap  the Debian packages, libbenchmark-dev included (scripts/bootstrap.sh), and
#                 onnxruntime-node, onnxruntime-web and @techstark/opencv-js (package.json
#                 devDependencies) when node_modules lacks them
#   2. peers      the native peers from PyPI (scripts/bench_peers.requirements.txt, pinned) in a
#                 venv of their own, PEERS_VENV (default ~/.cache/gridsample/peers-venv, outside
#                 the repo), made with PEERS_PYTHON (python3): installed on first use, which takes
#                 minutes (torch's wheel pulls some GB of CUDA libraries it never uses here), and
#                 again only when the requirements file changes (the venv keeps a copy of it)
#   3. build      $BUILD_ROOT/bench: Release, tests/bench only (gridsample_bench and
#                 gridsample_workloads); and dist/, the npm package (scripts/build_wasm.sh and,
#                 on linux-x64 and linux-arm64, its Node.js addon: scripts/build_addon.sh;
#                 incremental: a missing or stale dist/ is rebuilt, an up-to-date one costs
#                 a second or two)
#   4. data       gridsample_workloads writes the workload table (tests/bench/workloads.h) and
#                 every workload's tensors to $BUILD_ROOT/bench/data, which every runner reads
#   5. native     gridsample_bench: Google Benchmark, 1 thread and all threads, once per SIMD
#                 target this CPU runs (BENCH_TARGETS=AVX2,SSE4 names them), and a 64 MiB copy:
#                 the memory bandwidth the image workloads are held against
#   6. ort        scripts/bench_ort.mjs: onnxruntime-node on the models in tests/bench/models,
#                 1 thread and all threads
#   7. peers      scripts/bench_peers.py in the venv, one process per peer: 1 thread and all
#                 threads, each output checked against gridsample's native one
#   8. wasm       scripts/bench_wasm.mjs: the package in dist/, 1 thread and all threads, each
#                 with fresh outputs and with `out` reused; then the same through its native
#                 backend (--backend native) where it has an addon for this platform: a table
#                 of its own, against the WebAssembly build; and the two backends on 1 thread
#                 side by side, their calls taking turns in one process (scripts/bench_builds.mjs:
#                 the host's load moves both alike, where runs minutes apart can differ 2x)
#   9. ort-web    scripts/bench_ort.mjs --runtime web: onnxruntime-web, 1 thread, then all
#                 threads (a process each: its thread count is fixed per process)
#  10. opencv.js  scripts/bench_opencvjs.mjs: cv.remap of opencv.js (@techstark/opencv-js) on
#                 the channels-last image workloads, 1 thread (it has none other)
#                 (5 to 10 alternate for BENCH_ROUNDS rounds, 2 by default: a shared machine's
#                 load comes and goes, and each cell keeps its runner's best round)
#  11. table      scripts/bench_table.mjs merges 5 to 10: a table per platform and thread count
#                 (ms, the fastest peer whose output is exact, gridsample's speed-up over it),
#                 OpenCV's and opencv.js's other variants apart, the image workloads against
#                 every variant, every output's largest difference from the native one, and the
#                 package's fresh against reused outputs
# About five minutes on 2 cores once built and installed (a first build adds about two).
# BENCH_PEERS picks the native peers: a comma-separated subset of ncnn,opencv,torch,openvino
# (default all of them), or 0 for none (then no venv either; onnxruntime stays). BUILD_ROOT
# defaults to build/; BENCH_REPETITIONS (5) and BENCH_MIN_TIME (seconds per repetition, 0.1)
# tune the native side, BENCH_JS_MIN_TIME (seconds per workload and thread count, 0.5; the older
# name BENCH_ORT_MIN_TIME works too) the JavaScript and Python runners, and
# BENCH_JS_WARMUP_TIME (seconds of warm-up per JavaScript timing, 1: V8 optimises WebAssembly
# late). BENCH_STAT=min shows each runner's fastest run instead of its median (steadier on a
# busy machine). The raw results stay in test-output/ as bench-gridsample.TARGET.ROUND.json,
# bench-ort.ROUND.json, bench-peer-PEER.ROUND.json, bench-wasm.ROUND.json,
# bench-node-native.ROUND.json, bench-node-pair.ROUND.json, bench-ort-web.ROUND.THREADS.json and
# bench-opencvjs.ROUND.json.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build_root=${BUILD_ROOT:-$repo/build}
mkdir -p "$build_root" test-output
build_root=$(cd "$build_root" && pwd)
dir=$build_root/bench
out=$repo/test-output

say() { printf '\n== %s\n' "$*" >&2; }

all_peers=(ncnn opencv torch openvino)
case "${BENCH_PEERS:-all}" in
  0 | none) peers=() ;;
  all) peers=("${all_peers[@]}") ;;
  *)
    IFS=, read -r -a peers <<<"$BENCH_PEERS"
    for peer in "${peers[@]}"; do
      if [[ " ${all_peers[*]} " != *" $peer "* ]]; then
        echo "bench.sh: BENCH_PEERS: no peer '$peer' (${all_peers[*]}, or 0 for none)" >&2
        exit 2
      fi
    done ;;
esac
peers_venv=${PEERS_VENV:-$HOME/.cache/gridsample/peers-venv}
peers_python=$peers_venv/bin/python

say "bootstrap"
# python3-venv: Debian's python3 makes no venv with pip without it.
bash scripts/bootstrap.sh libbenchmark-dev ${peers[@]:+python3-venv} >&2
for package in onnxruntime-node onnxruntime-web @techstark/opencv-js; do
  node -e "require.resolve('$package')" >/dev/null 2>&1 && continue
  if [ -z "$(node -p "require('./package.json').devDependencies?.['$package'] ?? ''")" ]; then
    echo "bench.sh: package.json has no devDependency on $package" >&2
    exit 1
  fi
  # onnxruntime-node ships its CPU binaries; skip its optional download of GPU ones.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund >&2
  break
done

if [ ${#peers[@]} -gt 0 ]; then
  say "peers: $peers_venv (${peers[*]})"
  requirements=$repo/scripts/bench_peers.requirements.txt
  # The copy of the requirements that were installed: a second run installs nothing.
  installed=$peers_venv/gridsample-requirements.txt
  if [ -x "$peers_python" ] && cmp -s "$requirements" "$installed"; then
    echo "bench.sh: the peers in $peers_venv are up to date" >&2
  else
    echo "bench.sh: installing the peers from PyPI into $peers_venv: this takes minutes the" \
      "first time (torch's wheel and its CUDA libraries are some GB)" >&2
    [ -x "$peers_python" ] || "${PEERS_PYTHON:-python3}" -m venv "$peers_venv"
    "$peers_python" -m pip install --disable-pip-version-check --progress-bar off \
      -r "$requirements" >&2 || {
      echo "bench.sh: could not install the peers into $peers_venv (BENCH_PEERS=0 skips them)" >&2
      exit 1
    }
    cp "$requirements" "$installed"
  fi
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

say "build: dist/ (scripts/build_wasm.sh, scripts/build_addon.sh)"
bash scripts/build_wasm.sh >&2
# The package's Node.js addon, where it has one for this platform (its own table, against wasm).
node_platform=$(node -p "process.platform + '-' + process.arch")
case $node_platform in
  linux-x64 | linux-arm64) bash scripts/build_addon.sh >&2 ;;
esac

say "data: $dir/data"
mkdir -p "$dir/data"
"$dir/tests/bench/gridsample_workloads" --write "$dir/data"

rounds=${BENCH_ROUNDS:-2}
js_min_time=${BENCH_JS_MIN_TIME:-${BENCH_ORT_MIN_TIME:-0.5}}
js_timing=(--min-time "$js_min_time" --warmup-time "${BENCH_JS_WARMUP_TIME:-1}")
all_threads=$(node -p "require('$dir/data/workloads.json').hardware_threads")
results=()
rm -f "$out"/bench-gridsample.*.json "$out"/bench-ort.*.json "$out"/bench-wasm.*.json \
  "$out"/bench-ort-web.*.json "$out"/bench-peer-*.json "$out"/bench-opencvjs.*.json \
  "$out"/bench-node-native.*.json "$out"/bench-node-pair.*.json
# The SIMD targets the native build is timed on: every one Highway compiled that this CPU runs
# (best first; not the scalar fallbacks), or those BENCH_TARGETS names (comma-separated).
if [ -n "${BENCH_TARGETS:-}" ]; then
  IFS=, read -r -a targets <<<"$BENCH_TARGETS"
else
  mapfile -t targets < <("$dir/tests/bench/gridsample_bench" --gridsample_targets |
    grep -v -x -e SCALAR -e EMU128)
fi
for round in $(seq 1 "$rounds"); do
  for target in "${targets[@]}"; do
    say "native, round $round/$rounds: gridsample_bench, $target"
    "$dir/tests/bench/gridsample_bench" --gridsample_target="$target" \
      --benchmark_repetitions="${BENCH_REPETITIONS:-5}" \
      --benchmark_min_time="${BENCH_MIN_TIME:-0.1}" \
      --benchmark_report_aggregates_only=true \
      --benchmark_out="$out/bench-gridsample.$target.$round.json" --benchmark_out_format=json >&2
    results+=(--gridsample "$out/bench-gridsample.$target.$round.json")
  done

  say "ort, round $round/$rounds: onnxruntime-node"
  node scripts/bench_ort.mjs --runtime node --data "$dir/data" "${js_timing[@]}" \
    --out "$out/bench-ort.$round.json"
  results+=(--peer "$out/bench-ort.$round.json")

  for peer in "${peers[@]}"; do
    say "$peer, round $round/$rounds: scripts/bench_peers.py"
    report=$out/bench-peer-$peer.$round.json
    # A peer that crashes loses this round's cells, not the whole run.
    if "$peers_python" scripts/bench_peers.py --peer "$peer" --data "$dir/data" \
      --min-time "$js_min_time" --out "$report"; then
      results+=(--peer "$report")
    else
      echo "bench.sh: $peer failed in round $round (exit status $?)" >&2
    fi
  done

  say "wasm, round $round/$rounds: dist/ (the npm package)"
  node scripts/bench_wasm.mjs --data "$dir/data" "${js_timing[@]}" \
    --out "$out/bench-wasm.$round.json"
  results+=(--ours "$out/bench-wasm.$round.json")

  if [ -f "dist/native/$node_platform/gridsample.node" ]; then
    say "node-native, round $round/$rounds: dist/native/$node_platform (the package's addon)"
    node scripts/bench_wasm.mjs --backend native --data "$dir/data" "${js_timing[@]}" \
      --out "$out/bench-node-native.$round.json"
    results+=(--ours "$out/bench-node-native.$round.json")
    say "node-pair, round $round/$rounds: the native backend and WebAssembly in turns, 1 thread"
    node scripts/bench_builds.mjs --data "$dir/data" --a dist --b dist --backend-a wasm \
      --backend-b native --threads 1 --warmup-time "${BENCH_JS_WARMUP_TIME:-1}" \
      --out "$out/bench-node-pair.$round.json" >&2
    results+=(--pair "$out/bench-node-pair.$round.json")
  fi

  for threads in $(printf '%s\n' 1 "$all_threads" | sort -un); do
    say "ort-web, round $round/$rounds: onnxruntime-web (wasm, $threads thread(s))"
    node scripts/bench_ort.mjs --runtime web --threads "$threads" --data "$dir/data" \
      "${js_timing[@]}" --out "$out/bench-ort-web.$round.$threads.json"
    results+=(--peer "$out/bench-ort-web.$round.$threads.json")
  done

  say "opencv.js, round $round/$rounds: cv.remap on the image workloads"
  node scripts/bench_opencvjs.mjs --data "$dir/data" "${js_timing[@]}" \
    --out "$out/bench-opencvjs.$round.json"
  results+=(--peer "$out/bench-opencvjs.$round.json")
done

say "table: $out/bench.md"
node scripts/bench_table.mjs --workloads "$dir/data/workloads.json" "${results[@]}" \
  --stat "${BENCH_STAT:-median}" --out "$out/bench.md"

# ---------------------------------------------------------------------------------------------
# The GPU path, apart from the tables above: gridsample/webgpu against onnxruntime-web's WebGPU
# EP and the package's wasm path on W1-W6, in headless Chromium on SwiftShader (a CPU emulation
# of a GPU: its ratios show work done, not GPU speed), where the chromium package is installed.
# BENCH_WEBGPU_ADAPTER=gpu takes the browser's own adapter instead (a real GPU).
chromium=${GRIDSAMPLE_CHROMIUM:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
  say "webgpu: $out/bench-webgpu.md (scripts/bench_webgpu.mjs," \
    "${BENCH_WEBGPU_ADAPTER:-swiftshader})"
  node scripts/bench_webgpu.mjs --data "$dir/data" --chromium "$chromium" \
    --adapter "${BENCH_WEBGPU_ADAPTER:-swiftshader}" "${js_timing[@]}" \
    --out "$out/bench-webgpu.md"
else
  say "webgpu: skipped, no Chromium at $chromium (Debian's chromium package)"
fi
