#!/usr/bin/env bash
# Builds libtofa, the tools and the GoogleTest unit tests with clang under
# AddressSanitizer + UndefinedBehaviorSanitizer and runs the unit tests and
# the tofa-map command-line test; builds the service and network tests under
# ThreadSanitizer and runs them. Everything is built outside the source tree
# (a copy of the tracked and new files, configured --without-slurm-source);
# ccache keeps rebuilds short. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/sanitizer_tree.sh
. scripts/lib/sanitizer_tree.sh
asan="-fsanitize=address,undefined -fno-sanitize-recover=all"
tsan="-fsanitize=thread"
export LSAN_OPTIONS="suppressions=$here/fuzz/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"

passed=0 failed=0
fail() { echo "sanitizers: $*"; failed=$((failed + 1)); }

refresh_sanitizer_tree || fail "autoreconf failed (log in $root/autoreconf.log)"

# configure_in DIR SANITIZER_FLAGS: a static, plugin-less build in DIR.
configure_in() {
  local dir=$1 flags=$2
  mkdir -p "$dir"
  [ -f "$dir/Makefile" ] && [ "$dir/config.status" -nt "$src/configure" ] && return 0
  (cd "$dir" && "$src/configure" --without-slurm-source --disable-shared --enable-static \
    CC="$ccache clang" CXX="$ccache clang++" CFLAGS="$common_flags $flags" \
    CXXFLAGS="$common_flags $flags" LDFLAGS="$flags") >"$dir/configure.log" 2>&1
}

# gtest_counts LOG STATUS: adds a GoogleTest run's passed and failed tests;
# a run that exited non-zero with no failed test (a sanitizer's report at
# exit, a crash after the summary) is one more failure.
gtest_counts() {
  local log=$1 status=$2 ok bad
  ok=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  bad=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  passed=$((passed + ${ok:-0}))
  failed=$((failed + ${bad:-0}))
  if [ -z "$ok" ] && [ -z "$bad" ]; then fail "$log: the test binary ended without a summary"
  elif [ "$status" -ne 0 ] && [ "${bad:-0}" -eq 0 ]; then fail "$log: exit $status with no failed test"; fi
  grep -E 'ERROR: (Address|Leak|Thread|UndefinedBehavior)Sanitizer|runtime error|WARNING: ThreadSanitizer|^\[  FAILED  \] [A-Za-z]' "$log" |
    head -n 20
}

asan_dir=$root/asan
echo "== ASan+UBSan: library, tools, unit tests"
if configure_in "$asan_dir" "$asan" &&
   make -C "$asan_dir" -j2 tests/unit_tests tools/tofa-map tools/tofactl tools/tofa-rubik \
     tools/tofa-map-worker >"$asan_dir/build.log" 2>&1; then
  # AnnealCubic anneals the cubic problems to their optimum (quality, 32 of
  # the 56 s under ASan); the other anneal tests run the same code.
  (cd "$asan_dir" && top_srcdir=$src top_builddir=$asan_dir ./tests/unit_tests --gtest_filter='-AnnealCubic.*') \
    >"$root/asan-unit.log" 2>&1
  gtest_counts "$root/asan-unit.log" $?
  top_srcdir=$src top_builddir=$asan_dir bash "$src/tests/cli/test_tofa_map.sh" \
    >"$root/asan-cli.log" 2>&1
  cli_status=$?
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$root/asan-cli.log" | tail -n 1)
  if [ -n "$line" ]; then
    passed=$((passed + $(echo "$line" | awk '{print $1}')))
    failed=$((failed + $(echo "$line" | awk '{print $3}' | tr -d ',')))
    grep -E '^(FAIL:|not ok)|Sanitizer|runtime error' "$root/asan-cli.log" | head -n 20
    [ "$cli_status" -eq 0 ] || grep -qE '^[0-9]+ passed, [1-9]' <<<"$line" ||
      fail "tests/cli/test_tofa_map.sh under ASan: exit $cli_status with no failed check"
  else
    fail "tests/cli/test_tofa_map.sh under ASan ended without a summary"
  fi
else
  tail -n 30 "$asan_dir/configure.log" "$asan_dir/build.log" 2>/dev/null
  fail "ASan build failed (logs in $asan_dir)"
fi

tsan_dir=$root/tsan
echo "== TSan: service and network tests"
if configure_in "$tsan_dir" "$tsan" &&
   make -C "$tsan_dir" -j2 common/libtofa.la >"$tsan_dir/build.log" 2>&1 &&
   make -f "$src/scripts/lib/tsan_tests.mk" -j2 SRC="$src" BUILD="$tsan_dir" \
     CXX="$ccache clang++" SANITIZE="$tsan" >>"$tsan_dir/build.log" 2>&1; then
  # Placements go through the ASan build's mapping worker (a process of its own).
  top_builddir=$asan_dir LD_LIBRARY_PATH=$asan_dir/common/.libs \
    "$tsan_dir/service_net_tests" >"$root/tsan-service.log" 2>&1
  gtest_counts "$root/tsan-service.log" $?
else
  tail -n 30 "$tsan_dir/configure.log" "$tsan_dir/build.log" 2>/dev/null
  fail "TSan build failed (logs in $tsan_dir)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
