#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, ASan, UBSan; outside the
# source tree) and runs each one on its seed corpus fuzz/corpus/TARGET.
#   scripts/fuzz.sh [--seconds N | --runs N] [TARGET...]
# Default: a bounded run of 20 s per target. Prints "fuzz TARGET: N execs,
# no finding" or the finding (the input that triggers it is kept in
# $TOFA_FUZZ_BUILD/artifacts), then "N passed, N failed", one per target.
set -uo pipefail
cd "$(dirname "$0")/.."
src=$PWD

seconds=20 runs=
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done

# One build directory per checkout: make compares modification times, which
# mean nothing across checkouts (ccache shares the compiler's work anyway).
checkout=$(printf '%s' "$src" | md5sum | cut -c1-8)
build=${TOFA_FUZZ_BUILD:-/var/cache/tofa/fuzz-build/$checkout}
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tofa/ccache}
export CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=1  # cache hits across checkouts and build directories
mkdir -p "$build" "$CCACHE_DIR"
if ! make -s -f fuzz/build.mk BUILD="$build" -j2 >"$build/build.log" 2>&1; then
  tail -n 30 "$build/build.log"
  echo "fuzz: build failed (log: $build/build.log)"
  echo "0 passed, 1 failed"
  exit 1
fi

if [ ${#targets[@]} -eq 0 ]; then
  for file in fuzz/*_fuzzer.cpp; do
    name=$(basename "$file" _fuzzer.cpp)
    targets+=("$name")
  done
fi

# Findings: a crash, a sanitizer report, an uncaught exception, an input over
# 10 s, one allocation over 1 GiB or a resident size over 2 GiB.
limits=(-rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -print_final_stats=1)
if [ -n "$runs" ]; then limits+=(-runs="$runs"); else limits+=(-max_total_time="$seconds"); fi

export LSAN_OPTIONS=suppressions=$src/fuzz/lsan.supp:print_suppressions=0

# run_target TARGET: fuzzes it, writes its one-line verdict (and the lines
# that show a finding) to $build/logs/TARGET.result; exit 0 when no finding.
run_target() {
  local target=$1 binary=$build/bin/fuzz_$1 corpus=$build/corpus/$1  # the corpus grows across runs
  local log=$build/logs/$1.log result=$build/logs/$1.result status execs
  if [ ! -x "$binary" ]; then
    echo "fuzz $target: no such target" >"$result"
    return 1
  fi
  mkdir -p "$corpus"
  "$binary" "${limits[@]}" -artifact_prefix="$build/artifacts/$target-" \
    "$corpus" "fuzz/corpus/$target" >"$log" 2>&1
  status=$?
  execs=$(awk '/stat::number_of_executed_units:/ { print $2 }' "$log" | tail -n 1)
  if [ "$status" -eq 0 ]; then
    echo "fuzz $target: ${execs:-?} execs, no finding" >"$result"
    return 0
  fi
  {
    echo "fuzz $target: FINDING after ${execs:-?} execs (exit $status, log $log)"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|terminate called|  what|.*runtime error|.*invariant violated|.*out-of-memory|.*malloc\(|.*Test unit written|.*ALARM)' "$log" |
      head -n 8 | sed 's/^/  /'
    grep -E '^ +#[0-9]+ .* in .*'"$src"'/' "$log" | head -n 8 | sed 's/^/  /'
  } >"$result"
  return 1
}

# One target per CPU at a time (each fuzzer is single-threaded).
mkdir -p "$build/logs" "$build/artifacts"
jobs_max=$(nproc)
for target in "${targets[@]}"; do
  rm -f "$build/logs/$target.result"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  run_target "$target" &
done
wait

passed=0 failed=0
for target in "${targets[@]}"; do
  cat "$build/logs/$target.result" 2>/dev/null || echo "fuzz $target: no verdict"
  if grep -q "no finding$" "$build/logs/$target.result" 2>/dev/null; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
