# Shared by the tofa-sim test scripts (sourced): paths, a scratch directory,
# check NAME COMMAND... and the "N passed, N failed" summary.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
sim="$top_builddir/tools/sim/tofa-sim"
work=$(mktemp -d)
# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"
at_exit rm -rf "$work"
summary() { checks_done; }   # the last line of every test
