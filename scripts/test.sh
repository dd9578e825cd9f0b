#!/usr/bin/env bash
# The test command: installs dependencies, builds, runs the unit, command-line
# and MPI profiler tests (make check), then the Slurm integration tests on a
# real mini-cluster and a bounded run of Slurm's own test suite against it,
# plain and with tofa, and the integration tests on Slurm 24.11 and 26.05
# (root only), the sanitizer builds (scripts/sanitizers.sh)
# and a bounded fuzzing run (scripts/fuzz.sh). Every stage is counted by
# scripts/lib/tally.py from what it was seen to do (a stage that crashed, timed
# out or printed no count is a failure; skips are named), which prints a table
# of the stages and ends with "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
started=$(date +%s)
# For the README's test-times block (scripts/test-times.py reads this log).
caches=warm
[ -d /var/cache/tofa ] || caches=fresh
load_at_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)
bash scripts/install-deps.sh || exit 1
bash scripts/build.sh || { echo "build failed"; exit 1; }

results=out/test-results
rm -rf "$results" && mkdir -p "$results"
# One line per stage for scripts/lib/tally.py: NAME, exit status, log[, xml:REPORT | status].
stages=$results/stages.tsv
: >"$stages"
stage() { printf '%s\t%s\t%s%s\n' "$1" "$2" "$3" "${4:+	$4}" >>"$stages"; }

# Slurm 24.11 and 26.05 and tofa's plugins for them (cached in
# /var/cache/tofa; about 4 minutes each the first time) build in the
# background at the lowest priority from here on; their integration tests
# (tests/integration/releases.sh: tests a-g, the unpatched --tofa-matrix
# spelling, several tasks per node, failing nodes, a shared cluster) start once
# make check is done (its unit tests kill stray map workers by name), beside
# the 22.05 clusters: every cluster has its own ports and directories, and the
# clusters mostly wait. The sanitizer and fuzzing runs (below) take the lowest
# priority beside them.
releases_job=
if [ "$(id -u)" -eq 0 ]; then
  (for release in 24.11 26.05; do
     nice -n 19 bash scripts/slurm-release.sh "$release" &&
       nice -n 19 bash scripts/build-slurm-release.sh "$release"
   done >"$results/release-builds.log" 2>&1
   while [ ! -e "$results/.make-check-done" ]; do sleep 2; done
   top_builddir=$PWD top_srcdir=$PWD TOFA_RELEASES_LOG_DIR="$results/releases" timeout 1800 \
     bash tests/integration/releases.sh 24.11 26.05 >"$results/releases.log" 2>&1) &
  releases_job=$!
fi

make -j"$(nproc)" check GTEST_OUTPUT="xml:$PWD/$results/" >"$results/make-check.log" 2>&1
check_rc=$?
[ "$(id -u)" -eq 0 ] && make -s tests/integration/tofa_query bench/service_load >/dev/null
touch "$results/.make-check-done"
for log in tests/*.log tests/*/*.log; do [ -f "$log" ] && cat "$log"; done
grep -E '^(PASS|FAIL|ERROR|XFAIL|XPASS|SKIP):' "$results/make-check.log" || true
# Every test make check should have run is a stage, whether it ran or not.
for test in $(make -s list-check-tests 2>/dev/null | tail -n 1); do
  case $(sed -n 's/^:test-result: //p' "$test.trs" 2>/dev/null) in
    PASS) rc=0 ;; SKIP) rc=77 ;; FAIL) rc=1 ;; ERROR) rc=99 ;; *) rc=1 ;;  # no result: it never ran
  esac
  case $test in
    *.sh) stage "make check: $test" $rc "$test.log" ;;
    *) stage "make check: $test" $rc "$test.log" "xml:$results/$(basename "$test").xml" ;;
  esac
  [ $rc -eq 0 ] || [ $rc -eq 77 ] || check_rc=0   # counted there
done
# make check failed with every test passing: the build of a test program.
[ "$check_rc" -eq 0 ] || stage "make check (build)" "$check_rc" "$results/make-check.log" status

# ASan/UBSan and TSan builds of the unit tests, then a bounded fuzzing run
# (clang, built outside the tree; each ends with "N passed, N failed"): in
# the background from here, at the lowest priority beside the Slurm clusters
# (which mostly wait on jobs that sleep); their output is printed after them.
lowest_priority=()
[ "$(id -u)" -eq 0 ] && lowest_priority=(nice -n 19)
("${lowest_priority[@]}" bash scripts/sanitizers.sh >"$results/sanitizers.log" 2>&1
 echo $? >"$results/sanitizers.rc"
 "${lowest_priority[@]}" bash scripts/fuzz.sh --seconds 10 >"$results/fuzz.log" 2>&1
 echo $? >"$results/fuzz.rc") &
checks_job=$!

# Integration tests: real munged, slurmctld and 8 or 16 slurmd with the
# plugins, in two lanes at once (each cluster on its own ports and
# directories), then Slurm's own test suite, bounded subset, plain cons_tres
# and with tofa: fails on any test that passes plain and not with tofa (issue 16).
integration_lane() {   # integration_lane TEST...
  local test
  for test in "$@"; do
    top_builddir=$PWD top_srcdir=$PWD timeout 1200 bash "tests/integration/$test.sh" \
      >"$results/$test.log" 2>&1
    stage "tests/integration/$test.sh" $? "$results/$test.log"
  done
}
if [ "$(id -u)" -eq 0 ]; then
  lane_a=(smoke_cluster tofa_cluster tofa_distribution untrusted_input failing_nodes graph_quota job_stream)
  lane_b=(shared_cluster state_kill9)
  integration_lane "${lane_a[@]}" &
  lane_a_job=$!
  integration_lane "${lane_b[@]}"
  wait "$lane_a_job"
  for test in "${lane_a[@]}" "${lane_b[@]}"; do
    echo "== tests/integration/$test.sh"
    cat "$results/$test.log"
  done
  echo "== tests/slurm_testsuite/run.sh --list bounded.txt"
  timeout 1200 bash tests/slurm_testsuite/run.sh --list bounded.txt --mode both \
    >"$results/slurm_testsuite.log" 2>&1
  stage "tests/slurm_testsuite/run.sh" $? "$results/slurm_testsuite.log"
  cat "$results/slurm_testsuite.log"
else
  echo "SKIP: the integration tests start slurmctld/slurmd and need root" >"$results/integration.log"
  stage "tests/integration (not root)" 77 "$results/integration.log"
fi

wait "$checks_job"
for check in sanitizers "fuzz --seconds 10"; do
  name=${check%% *}
  echo "== scripts/$name.sh${check#$name}"
  stage "scripts/$name.sh${check#$name}" "$(cat "$results/$name.rc" 2>/dev/null || echo 1)" "$results/$name.log"
  cat "$results/$name.log"
done
if [ -n "$releases_job" ]; then
  echo "== tests/integration/releases.sh 24.11 26.05"
  wait "$releases_job"
  stage "tests/integration/releases.sh 24.11 26.05" $? "$results/releases.log"
  cat "$results/releases.log"
fi

echo "test command: $(( $(date +%s) - started )) s"
echo "test command run: commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown) caches=$caches date=$(date +%F) load=$load_at_start-$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)"
python3 scripts/lib/tally.py "$stages"
