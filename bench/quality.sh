#!/usr/bin/env bash
# Builds and runs bench/bench_quality (the quality targets of issue 12 against
# Scotch's gmap, Slurm's block layout and F_min, all computed in the same run,
# on the held-out graphs and on the tuning set), writes its JSON to
# out/quality.json and the report to docs/placement-quality.md, and copies the
# report's targets (between <!-- readme:begin/end --> there) into docs/results.md.
# Usage: bench/quality.sh [--quick]   (--quick leaves out the two 32x32x32 cases)
# About 2 minutes on 2 cores in full (1 min 44 s wall, 65 s of CPU, at load
# average 7); progress goes to the terminal.
# To look at a few cases without touching the report, run the binary itself:
#   bench/bench_quality --scenarios a --graphs dt-sh-B --strategies auto,anneal
set -euo pipefail
for arg in "$@"; do
  [ "$arg" = --quick ] || { echo "usage: bench/quality.sh [--quick]" >&2; exit 2; }
done
cd "$(dirname "$0")/.."
[ -f Makefile ] || bash scripts/build.sh
make -s -j2 bench/bench_quality
mkdir -p out docs
revision=$(git rev-parse --short HEAD 2>/dev/null || true)
if [ -n "$revision" ] && ! git diff --quiet HEAD -- . ':!docs/results.md' ':!docs/placement-quality.md' 2>/dev/null; then revision="$revision + local changes"; fi
./bench/bench_quality "$@" --markdown docs/placement-quality.md ${revision:+--revision "$revision"} \
  >out/quality.json
python3 - <<'PY'
import re
report = open("docs/placement-quality.md").read()
block = re.search(r"<!-- readme:begin -->\n(.*?)<!-- readme:end -->", report, re.S).group(1)
readme = open("docs/results.md").read()
readme = re.sub(r"(<!-- quality:begin -->\n).*?(<!-- quality:end -->)",
                lambda m: m.group(1) + block + m.group(2), readme, flags=re.S)
open("docs/results.md", "w").write(readme)
PY
echo "out/quality.json, docs/placement-quality.md and docs/results.md written" >&2
