#!/usr/bin/env bash
# The plugins under AddressSanitizer + UndefinedBehaviorSanitizer inside the
# real daemons: builds libtofa, the plugins and the tools with clang
# -fsanitize=address,undefined -shared-libasan (outside the tree, see
# scripts/lib/sanitizer_tree.sh), preloads clang's ASan runtime into munged,
# slurmctld, slurmd, slurmstepd and the clients (Slurm itself is not
# instrumented: it is Debian's build), runs integration tests on that
# cluster and fails on any sanitizer report. Root only. Ends with
# "N passed, N failed". Usage: asan-daemons.sh [TEST...] (default:
# tofa_cluster shared_cluster untrusted_input).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/sanitizer_tree.sh
. scripts/lib/sanitizer_tree.sh
[ "$(id -u)" -eq 0 ] || { echo "asan-daemons: needs root (starts munged, slurmctld, slurmd)"; exit 77; }
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tofa_cluster shared_cluster untrusted_input)

passed=0 failed=0
fail() { echo "asan-daemons: $*"; failed=$((failed + 1)); }
refresh_sanitizer_tree || fail "autoreconf failed (log in $root/autoreconf.log)"

dir=$root/asan-daemons
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -shared-libasan"
runtime=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
mkdir -p "$dir"
if ! { [ -f "$dir/Makefile" ] && [ "$dir/config.status" -nt "$src/configure" ]; }; then
  (cd "$dir" && "$src/configure" CC="$ccache clang" CXX="$ccache clang++" \
    CFLAGS="$common_flags $flags" CXXFLAGS="$common_flags $flags" LDFLAGS="$flags") \
    >"$dir/configure.log" 2>&1 || { tail -n 20 "$dir/configure.log"; fail "configure failed"; }
fi
echo "== building libtofa, plugins and tools with ASan+UBSan in $dir"
if ! LD_LIBRARY_PATH=$(dirname "$runtime") ASAN_OPTIONS=detect_leaks=0 \
     make -C "$dir" -j2 all tests/integration/tofa_query >"$dir/build.log" 2>&1; then
  tail -n 30 "$dir/build.log"
  fail "build failed (log in $dir/build.log)"
  echo "$passed passed, $failed failed"
  exit 1
fi
[ -f "$dir/plugins/select/.libs/select_cons_tres.so" ] || fail "no plugins built (Slurm source tree?)"

reports=$root/asan-daemons-reports
rm -rf "$reports" && mkdir -p "$reports"
# Slurm's daemons keep memory until exit by design: leaks are not checked.
export LD_PRELOAD=$runtime
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:log_path=$reports/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
for test in "${tests[@]}"; do
  echo "== tests/integration/$test.sh with ASan-built plugins in the daemons"
  log=$reports/$test.log
  top_builddir=$dir top_srcdir=$src TOFA_CLUSTER_DIR=/tmp/tofa-asan-daemons \
    TOFA_CLUSTER_PORT_BASE=21500 timeout 1200 bash "$src/tests/integration/$test.sh" >"$log" 2>&1
  cat "$log"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -n "$line" ]; then
    passed=$((passed + $(awk '{print $1}' <<<"$line")))
    failed=$((failed + $(awk '{print $3}' <<<"$line")))
  else
    fail "$test ended without a summary"
  fi
done
unset LD_PRELOAD
found=$(grep -lE 'ERROR: AddressSanitizer|runtime error' "$reports"/asan.* "$reports"/ubsan.* 2>/dev/null)
if [ -n "$found" ]; then
  for f in $found; do head -n 40 "$f"; done
  fail "sanitizer reports: $found"
else
  echo "no sanitizer report from any process ($(find "$reports" -name 'asan.*' -o -name 'ubsan.*' | wc -l) report files)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
