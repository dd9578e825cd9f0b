#!/usr/bin/env bash
# No function of the product (common, tools, plugins, bench, fuzz) is over
# 80 lines without a one-line reason ("long: ...") at its top
# (scripts/long-functions.py); shown to fail on a long function without one.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_srcdir=$(cd "$top_srcdir" && pwd)
work=$(mktemp -d)
# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"
at_exit rm -rf "$work"
scan="$top_srcdir/scripts/long-functions.py"

python3 "$scan" --root "$top_srcdir" >"$work/tree.out" 2>&1
check "the tree: $(tail -n 1 "$work/tree.out")" grep -q ', 0 without a reason$' "$work/tree.out" ||
    grep 'no reason' "$work/tree.out" | sed 's/^/  | /'

mkdir -p "$work/copy/common"
{
    echo 'int short_one(int x) { return x + 1; }'
    echo 'int long_one(int x) {'
    for i in $(seq 1 90); do echo "  x += $i;"; done
    echo '  return x;'
    echo '}'
    echo '// long: a reason'
    echo 'int explained(int x) {'
    for i in $(seq 1 90); do echo "  x -= $i;"; done
    echo '  return x;'
    echo '}'
} >"$work/copy/common/sample.cpp"
python3 "$scan" --root "$work/copy" >"$work/copy.out" 2>&1
rc=$?
check "a 93-line function without a reason: named, exit 1 (was $rc)" \
    test "$rc" -eq 1 -a "$(grep -c 'common/sample.cpp:2 int long_one(int x)  (no reason given)' "$work/copy.out")" -eq 1
check "the one with a reason is listed without the mark, the short one not at all" \
    test "$(grep -c 'explained' "$work/copy.out")" -eq 1 -a \
    "$(grep -c 'short_one\|explained(int x)  (no reason' "$work/copy.out")" -eq 0
checks_done
