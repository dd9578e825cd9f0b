#!/usr/bin/env bash
# The library's layers hold (scripts/include-graph.py): no include loop among
# the product's sources (a source and its header count as one unit), and no
# file of common/ includes a layer above its own. Both rules are also shown
# to fail on a copy of the tree with one loop and one upward include added.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_srcdir=$(cd "$top_srcdir" && pwd)
work=$(mktemp -d)
# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"
at_exit rm -rf "$work"
graph="$top_srcdir/scripts/include-graph.py"

python3 "$graph" --root "$top_srcdir" >"$work/tree.out" 2>&1
check "the tree: no include loop, no upward include ($(tail -n 1 "$work/tree.out"))" \
    grep -q ', 0 problems$' "$work/tree.out" || sed 's/^/  | /' "$work/tree.out"

copy=$work/copy
mkdir -p "$copy"
(cd "$top_srcdir" && find common tools plugins -type f \
    \( -name '*.c' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) -print0 |
    tar -c --null -T - -f -) | tar -x -C "$copy"
printf '#pragma once\n#include "map/loop_b.hpp"\n' >"$copy/common/map/loop_a.hpp"
printf '#pragma once\nint b();\n' >"$copy/common/map/loop_b.hpp"
printf '#include "map/loop_b.hpp"\n#include "map/loop_a.hpp"\n' >"$copy/common/map/loop_b.cpp"
printf '#include "net/sha256.hpp"\n' >>"$copy/common/graph/graph.cpp"
python3 "$graph" --root "$copy" >"$work/copy.out" 2>&1
rc=$?
check "a loop added: refused, naming both units" \
    grep -qx 'include loop: common/map/loop_a <-> common/map/loop_b' "$work/copy.out"
check "graph/graph.cpp including net/: refused, naming the include" \
    grep -q '^common/graph/graph.cpp includes common/net/sha256.hpp: layer net is not below graph' \
    "$work/copy.out"
check "the copy's exit status is 1 (was $rc)" test "$rc" -eq 1
check "the copy reports exactly those 2 problems" grep -q ', 2 problems$' "$work/copy.out" ||
    sed 's/^/  | /' "$work/copy.out"
checks_done
