#!/usr/bin/env bash
# The test command: installs dependencies, builds, runs every test, and ends
# with one line "N passed, N failed". Exits non-zero when anything fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh || exit 1
bash scripts/build.sh || { echo "build failed"; exit 1; }

results=out/test-results
rm -rf "$results" && mkdir -p "$results"
status=0
make -j"$(nproc)" check GTEST_OUTPUT="xml:$PWD/$results/" >"$results/make-check.log" 2>&1 || status=1
for log in tests/*.log tests/cli/*.log; do [ -f "$log" ] && cat "$log"; done
grep -E '^(PASS|FAIL|ERROR|XFAIL|XPASS|SKIP):' "$results/make-check.log" || true

passed=0 failed=0 skipped=0
for xml in "$results"/*.xml; do
  [ -f "$xml" ] || continue
  read -r tests failures errors disabled skips < <(python3 - "$xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
get = lambda k: int(root.get(k, 0))
print(get("tests"), get("failures"), get("errors"), get("disabled"), get("skipped"))
PY
)
  passed=$((passed + tests - failures - errors - disabled - skips))
  failed=$((failed + failures + errors))
  skipped=$((skipped + disabled + skips))
done
# Shell test scripts print their own "N passed, N failed" line.
for log in tests/cli/*.log tests/integration/*.log; do
  [ -f "$log" ] || continue
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  [ -n "$line" ] || continue
  passed=$((passed + $(echo "$line" | awk '{print $1}')))
  failed=$((failed + $(echo "$line" | awk '{print $3}')))
done
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=$((failed + 1))
echo "$passed passed, $failed failed, $skipped skipped"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
