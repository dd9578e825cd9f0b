#!/usr/bin/env bash
# The plugins under AddressSanitizer + UndefinedBehaviorSanitizer inside the
# real daemons: builds libtofa, the plugins and the tools with clang
# -fsanitize=address,undefined -shared-libasan (outside the tree, see
# scripts/lib/sanitizer_tree.sh), preloads clang's ASan runtime into
# slurmctld and the clients (Slurm itself is not instrumented: it is
# Debian's build; slurmd keeps the regular plugins, see below), runs
# integration tests on that cluster and fails on any sanitizer report. Root only. Ends with
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
# Programs linked with -shared-libasan (configure's tests, the tools) find
# the runtime here; the daemons get it preloaded below.
export LD_LIBRARY_PATH=$(dirname "$runtime")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ASAN_OPTIONS=detect_leaks=0
mkdir -p "$dir"
if ! { [ -f "$dir/Makefile" ] && [ "$dir/config.status" -nt "$src/configure" ]; }; then
  if ! (cd "$dir" && "$src/configure" CC="$ccache clang" CXX="$ccache clang++" \
      CFLAGS="$common_flags $flags" CXXFLAGS="$common_flags $flags" LDFLAGS="$flags") \
      >"$dir/configure.log" 2>&1; then
    tail -n 20 "$dir/configure.log"
    fail "configure failed (log in $dir/configure.log)"
    echo "$passed passed, $failed failed"
    exit 1
  fi
fi
echo "== building libtofa, plugins and tools with ASan+UBSan in $dir"
# Two goals in two runs: "all" recurses, and a second goal beside it would
# build the same objects at the same time.
if ! { make -C "$dir" -j2 all && make -C "$dir" -j2 tests/integration/tofa_query; } >"$dir/build.log" 2>&1; then
  tail -n 30 "$dir/build.log"
  fail "build failed (log in $dir/build.log)"
  echo "$passed passed, $failed failed"
  exit 1
fi
[ -f "$dir/plugins/select/.libs/select_cons_tres.so" ] || fail "no plugins built (Slurm source tree?)"

reports=$root/asan-daemons-reports
rm -rf "$reports" && mkdir -p "$reports"
# The runtime goes into slurmctld and the clients only, through wrappers
# first on PATH (the job's tasks inherit it from srun and sbatch; other
# tools deadlock (pgrep) or abort (dd) under it). Not into slurmd and
# slurmstepd: slurmstepd forks each task while its other threads allocate,
# and the child then blocks for ever on the allocator lock of clang 14's
# ASan runtime (seen in exec_task -> setup_env -> free). slurmd therefore
# reads a copy of slurm.conf whose PluginDir and plugstack name the regular
# build's plugins (this checkout's plugins/).
wrappers=$root/asan-daemons-bin
rm -rf "$wrappers" && mkdir -p "$wrappers"
for program in srun sbatch salloc scontrol scancel sinfo squeue sdiag slurmctld; do
  real=$(command -v "$program") || continue
  printf '#!/bin/sh\nLD_PRELOAD=%s exec %s "$@"\n' "$runtime" "$real" >"$wrappers/$program"
  chmod +x "$wrappers/$program"
done
[ -f "$here/plugins/.libs/tofa_loadmatrix.so" ] || fail "build this checkout first (scripts/build.sh): slurmd loads its SPANK plugins"
cat >"$wrappers/slurmd" <<WRAPPER
#!/bin/sh
conf=\${SLURM_CONF:?}
plugstack=\$(sed -n 's/^PlugStackConfig=//p' "\$conf")
sed 's|$dir/plugins/.libs|$here/plugins/.libs|g' "\$plugstack" > "\$plugstack.slurmd"
sed -e "s|^PlugStackConfig=.*|PlugStackConfig=\$plugstack.slurmd|" -e 's|$dir/plugins|$here/plugins|g' \
  "\$conf" > "\$conf.slurmd"
unset LD_PRELOAD
export LD_LIBRARY_PATH=$here/common/.libs
exec $(command -v slurmd) -f "\$conf.slurmd" "\$@"
WRAPPER
chmod +x "$wrappers/slurmd"
export PATH=$wrappers:$PATH
# Slurm's daemons keep memory until exit by design: leaks are not checked.
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
found=$(grep -lE 'ERROR: AddressSanitizer|runtime error' "$reports"/asan.* "$reports"/ubsan.* 2>/dev/null)
if [ -n "$found" ]; then
  for f in $found; do head -n 40 "$f"; done
  fail "sanitizer reports: $found"
else
  echo "no sanitizer report from any process ($(find "$reports" -name 'asan.*' -o -name 'ubsan.*' | wc -l) report files)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
