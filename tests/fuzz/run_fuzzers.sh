#!/usr/bin/env bash
# Runs every fuzz harness of the fuzz build over its corpus (make fuzz):
#   run_fuzzers.sh BUILD_DIR RUNS SECONDS
# RUNS inputs per harness at least (libFuzzer's -runs), or SECONDS each when SECONDS > 0. A crash,
# a leak, a timeout (10 s per input) or running out of memory (2 GiB) stops with the harness's
# report; the reproducer stays in BUILD_DIR/artifacts. Prints one line per harness: its inputs.
set -euo pipefail
build=${1:?build folder}
runs=${2:-10000}
seconds=${3:-0}
here=$(cd "$(dirname "$0")" && pwd)
corpus=$build/corpus
mkdir -p "$corpus" "$build/artifacts"
"$build/tests/fuzz/make_fuzz_seeds" "$corpus"
status=0
summary=()
for harness in "$build"/tests/fuzz/fuzz_*; do
  [ -x "$harness" ] || continue
  name=$(basename "$harness")
  mkdir -p "$corpus/$name"
  options=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1
           "-artifact_prefix=$build/artifacts/$name-")
  if [ "$seconds" -gt 0 ]; then
    options+=("-max_total_time=$seconds")
  else
    options+=("-runs=$runs")
  fi
  dict=$here/${name#fuzz_}.dict
  [ -f "$dict" ] && options+=("-dict=$dict")
  log=$build/$name.log
  if "$harness" "${options[@]}" "$corpus/$name" >"$log" 2>&1; then
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    summary+=("$name: ${executed:-?} inputs, nothing found")
  else
    status=1
    summary+=("$name: FAILED (see $log; reproducer in $build/artifacts)")
    tail -n 40 "$log" >&2
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
