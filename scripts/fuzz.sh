#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, ASan, UBSan; outside the
# source tree) and runs each one on its seed corpus fuzz/corpus/TARGET.
#   scripts/fuzz.sh [--seconds N | --runs N] [TARGET...]
#   scripts/fuzz.sh --total N [--hours H] [TARGET...]    (make fuzz-long)
#   scripts/fuzz.sh --report                             (docs/fuzzing.md's table)
# Default: a bounded run of 20 s per target. Prints "fuzz TARGET: N execs,
# no finding" or the finding (the input that triggers it is kept in
# $TOFA_FUZZ_BUILD/artifacts), then "N passed, N failed", one per target.
# --total fuzzes each target in slices of at most 5 minutes until its
# executions, summed over every run recorded in $TOFA_FUZZ_LONG (one line per
# slice: date, commit, executions), reach N, or H hours have passed; it can
# be stopped and resumed. Its corpus is kept there too, so a resumed run goes
# on from where the last one stopped.
set -uo pipefail
cd "$(dirname "$0")/.."
src=$PWD

seconds=20 runs= total= hours=
targets=()
long=${TOFA_FUZZ_LONG:-/var/cache/tofa/fuzz-long}
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --total) total=$2; shift 2 ;;
    --hours) hours=$2; shift 2 ;;
    --report) exec bash "$(dirname "$0")/fuzz-report.sh" "$long" ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
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
if [ -n "$runs" ]; then limits+=(-runs="$runs"); elif [ -z "$total" ]; then limits+=(-max_total_time="$seconds"); fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && commit+="+changes"
stop_at=$(awk -v h="${hours:-100000}" -v now="$(date +%s)" 'BEGIN { printf "%d", now + h * 3600 }')
mkdir -p "$long"

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
  if [ -n "$total" ]; then
    run_long "$target"
    return
  fi
  mkdir -p "$corpus"
  "$binary" "${limits[@]}" -artifact_prefix="$build/artifacts/$target-" \
    "$corpus" "fuzz/corpus/$target" >"$log" 2>&1
  status=$?
  execs=$(executions "$log")
  if [ "$status" -eq 0 ]; then
    echo "fuzz $target: ${execs:-?} execs, no finding" >"$result"
    return 0
  fi
  if load_induced_timeout "$target" "$log"; then
    echo "fuzz $target: ${execs:-?} execs, no finding (a timeout that did not recur alone)" >"$result"
    return 0
  fi
  report_finding "$target" "$status" "${execs:-?}" "$log" >"$result"
  return 1
}

executions() { awk '/stat::number_of_executed_units:/ { print $2 }' "$1" | tail -n 1; }

recorded_executions() {
  awk '{ sum += $3 } END { print sum + 0 }' "$long/$1.runs" 2>/dev/null || echo 0
}

# run_long TARGET: slices of at most 5 minutes until the recorded total is reached
# (a slice stopped early records nothing: libFuzzer counts only when it ends).
run_long() {
  local target=$1 binary=$build/bin/fuzz_$1 corpus=$long/corpus/$1
  local log=$build/logs/$1.log result=$build/logs/$1.result status execs done_so_far left slice
  # Scotch 7.0.3 keeps ~100 bytes per SCOTCH_graphPart reachable (bgraphBipartGg):
  # libFuzzer's leak check then runs a fifth of the mapping inputs twice and scans
  # the heap, finding nothing, at half the target's speed. Bounded runs keep it.
  local leak_check=()
  [ "$target" = mapping ] && leak_check=(-detect_leaks=0)
  mkdir -p "$corpus"
  while :; do
    done_so_far=$(recorded_executions "$target")
    left=$(( total - done_so_far ))
    slice=$(( stop_at - $(date +%s) ))
    if [ "$left" -le 0 ] || [ "$slice" -le 0 ]; then break; fi
    [ "$slice" -gt 300 ] && slice=300
    "$binary" "${limits[@]}" "${leak_check[@]}" -runs="$left" -max_total_time="$slice" \
      -artifact_prefix="$build/artifacts/$target-" "$corpus" "fuzz/corpus/$target" >"$log" 2>&1
    status=$?
    execs=$(executions "$log")
    if [ "$status" -ne 0 ] && load_induced_timeout "$target" "$log"; then
      continue  # libFuzzer prints no count when it stops on a timeout: the slice counts nothing
    fi
    if [ "$status" -ne 0 ]; then
      report_finding "$target" "$status" "${execs:-?}" "$log" >"$result"
      return 1
    fi
    echo "$(date -u +%FT%TZ) $commit ${execs:-0}" >>"$long/$target.runs"
    [ -t 1 ] && echo "fuzz $target: $(recorded_executions "$target") of $total executions"
  done
  done_so_far=$(recorded_executions "$target")
  if [ "$done_so_far" -ge "$total" ]; then
    echo "fuzz $target: $done_so_far execs in all recorded runs, no finding" >"$result"
  else
    echo "fuzz $target: $done_so_far of $total execs when time ran out, no finding" >"$result"
  fi
}

# load_induced_timeout TARGET LOG: true when LOG ends in libFuzzer's timeout
# (wall-clock: a niced fuzzer on a loaded machine can wait that long for a
# CPU) and its input, replayed alone, finishes using less than the 10 s of
# CPU the limit allows (wall-clock again would only measure the load). The
# input moves to artifacts/unconfirmed/, and the log says so.
load_induced_timeout() {
  local binary=$build/bin/fuzz_$1 log=$2 input cpu
  grep -q 'SUMMARY: libFuzzer: timeout' "$log" || return 1
  input=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
  [ -f "$input" ] || return 1
  cpu=$( { TIMEFORMAT='%3U %3S'; time "$binary" -timeout=300 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
             "$input" >"$log.replay" 2>&1; } 2>&1 ) || return 1
  awk -v cpu="$cpu" 'BEGIN { split(cpu, t, " "); exit !(t[1] + t[2] < 10) }' || return 1
  mkdir -p "$build/artifacts/unconfirmed"
  mv "$input" "$build/artifacts/unconfirmed/"
  echo "fuzz $1: timeout under load, replayed alone in $cpu s of CPU (user, system); going on" >&2
}

report_finding() {  # TARGET STATUS EXECS LOG
  echo "fuzz $1: FINDING after $3 execs (exit $2, log $4)"
  grep -E '^(==[0-9]+==ERROR|SUMMARY|terminate called|  what|.*runtime error|.*invariant violated|.*out-of-memory|.*malloc\(|.*Test unit written|.*ALARM)' "$4" |
    head -n 8 | sed 's/^/  /'
  grep -E '^ +#[0-9]+ .* in .*'"$src"'/' "$4" | head -n 8 | sed 's/^/  /'
}

# One target per CPU at a time (each fuzzer is single-threaded).
mkdir -p "$build/logs" "$build/artifacts"
# Started with nice from its own session (setsid), the fuzzers form an
# autogroup of their own, which the kernel schedules as fairly as any other
# session whatever their nice value: give the group that niceness too.
if [ "$(nice)" -gt 0 ] && [ -w /proc/self/autogroup ]; then
  echo "$(nice)" >/proc/self/autogroup 2>/dev/null || true
fi
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
