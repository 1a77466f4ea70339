#!/usr/bin/env bash
# `npm run fuzz`: installs clang-14 if needed (scripts/bootstrap.sh; SKIP_BOOTSTRAP=1 skips it),
# builds the libFuzzer target (scripts/build.sh fuzz: clang-14 with AddressSanitizer +
# UndefinedBehaviorSanitizer, in the sanitizer build $BUILD_ROOT/asan, whose library the test
# suite shares) and runs it, one process.
#
#   scripts/fuzz.sh [SECONDS]   fuzz for SECONDS (default $FUZZ_SECONDS, else 60), e.g.
#                               `npm run fuzz -- 3600`; prints executions and coverage
#   scripts/fuzz.sh FILE...     run these inputs once each (a finding's reproducer), saying
#                               what each one decodes to
#
# The seeds in tests/fuzz/corpus are read, never written; what the fuzzer learns goes to the
# working corpus $BUILD_ROOT/fuzz/corpus, which the next run starts from. A finding (a failed
# check or a sanitizer report) fails the run and is saved in $BUILD_ROOT/fuzz/findings/. The
# whole libFuzzer log is $BUILD_ROOT/fuzz/fuzz.log. Extra libFuzzer flags: FUZZ_FLAGS.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
export BUILD_ROOT=${BUILD_ROOT:-$repo/build}
dir=$BUILD_ROOT/fuzz
fuzzer=$BUILD_ROOT/asan/tests/fuzz/gridsample_fuzz

# clang-14 and its libFuzzer/sanitizer runtimes, with the native build's packages.
[ "${SKIP_BOOTSTRAP:-0}" = 1 ] || bash scripts/bootstrap.sh clang-14 libclang-rt-14-dev >/dev/null
mkdir -p "$dir"
bash scripts/build.sh fuzz >"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; exit 1; }

if [ $# -gt 0 ] && [ -f "$1" ]; then
  GRIDSAMPLE_FUZZ_VERBOSE=1 exec "$fuzzer" "$@"
fi

seconds=${1:-${FUZZ_SECONDS:-60}}
case "$seconds" in
  '' | *[!0-9]*) echo "fuzz.sh: '$seconds' is neither a number of seconds nor a file" >&2; exit 2 ;;
esac
mkdir -p "$dir/corpus" "$dir/findings"
log=$dir/fuzz.log
echo "fuzzing for ${seconds}s: $fuzzer, corpus $dir/corpus + tests/fuzz/corpus, log $log"
# -timeout catches hangs, -rss_limit_mb (also the largest single allocation) runaway memory.
# shellcheck disable=SC2086
if "$fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=4096 \
     -print_final_stats=1 -artifact_prefix="$dir/findings/" ${FUZZ_FLAGS:-} \
     "$dir/corpus" tests/fuzz/corpus >"$log" 2>&1; then
  status=0
else
  status=$?
fi

# The last status line ("#N DONE cov: C ft: F corp: U/B ...") and the final stats.
last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -n 1 || true)
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
if [ "$status" -ne 0 ]; then
  echo "== fuzz: FINDING after ${runs:-?} executions; the log's end:" >&2
  grep -v -E '^#[0-9]+[[:space:]]|^[[:space:]]+NEW_FUNC' "$log" | tail -n 40 >&2
  finding=$(ls -t "$dir"/findings/* 2>/dev/null | head -n 1)
  echo "== reproduce with: bash scripts/fuzz.sh $finding" >&2
  exit 1
fi
echo "fuzz: ${runs:-?} executions in ${seconds}s, cov ${cov:-?}, ft ${ft:-?}," \
  "corpus ${corp:-?} inputs, no findings"
