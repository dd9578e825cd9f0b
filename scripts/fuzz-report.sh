#!/usr/bin/env bash
# Prints the table of docs/fuzzing.md from the records `make fuzz-long`
# keeps (scripts/fuzz.sh --total): per target, the executions summed over
# every recorded slice, the number of slices, and the commits they ran at.
#   scripts/fuzz-report.sh [RECORD_DIR]   (default /var/cache/tofa/fuzz-long)
set -euo pipefail
long=${1:-${TOFA_FUZZ_LONG:-/var/cache/tofa/fuzz-long}}
echo "| target | executions | slices | first | last | commits |"
echo "|---|---:|---:|---|---|---|"
for record in "$long"/*.runs; do
  [ -e "$record" ] || continue
  awk -v target="$(basename "$record" .runs)" '
    { sum += $3; slices++; if (!first) first = substr($1, 1, 10); last = substr($1, 1, 10)
      if (!($2 in seen)) { seen[$2] = 1; commits = commits (commits ? ", " : "") $2 } }
    END { printf "| %s | %\047d | %d | %s | %s | %s |\n", target, sum, slices, first, last, commits }
  ' "$record"
done
