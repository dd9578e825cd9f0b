#!/usr/bin/env bash
# The manual pages stay true: each renders without a warning, every option a
# page defines exists in the tool's --help, and every option of --help is in
# its page. Prints "N passed, N failed".
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"

renders_cleanly() {  # no output on stderr, exit 0
  local warnings
  warnings=$(man --warnings -l "$1" 2>&1 >/dev/null) && [ -z "$warnings" ] ||
    { echo "$warnings" | head -5; return 1; }
}

for page in "$top_srcdir"/man/*.[0-9]; do
  check "$(basename "$page") renders without warnings" renders_cleanly "$page"
done

# Long options written in roff (\-\-name\-part) as --name-part.
page_options() { grep -o '\\-\\-[a-z0-9]\+\(\\-[a-z0-9]\+\)*' "$1" | sed 's/\\-/-/g' | sort -u; }
# Options the page defines: the first long option on the line after each .TP.
defined_options() {
  awk 'prev ~ /^\.TP/ && match($0, /\\-\\-[a-z0-9]+(\\-[a-z0-9]+)*/) {
         s = substr($0, RSTART, RLENGTH); gsub(/\\-/, "-", s); print s }
       { prev = $0 }' "$1" | grep -vx -- '--help' | sort -u
}
help_options() { grep -o -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help' | sort -u; }

all_in() {  # all_in WORDS LIST: every word of WORDS is a line of LIST
  local missing
  missing=$(comm -23 <(echo "$1" | sed '/^$/d') <(echo "$2"))
  [ -z "$missing" ] || { echo "  missing: $(echo $missing)"; return 1; }
}

check_options() {  # check_options NAME HELP_OPTIONS: NAME's page against them
  local name=$1 help=$2 page="$top_srcdir/man/$1.1"
  check "$name --help lists options" test -n "$help"
  check "every option $name(1) defines is in --help" all_in "$(defined_options "$page")" "$help"
  check "every option of $name --help is in $name(1)" all_in "$help" "$(page_options "$page")"
}

for tool in tools/tofa-map tools/tofa-rubik tools/tofactl tools/profile/tofa-heatmap \
            tools/profile/tofa-profile; do
  program="$top_builddir/$tool"
  [ -x "$program" ] || program="$top_srcdir/$tool"
  check_options "$(basename "$tool")" "$("$program" --help 2>&1 | help_options)"
done

# tofa-sim (built only with SimGrid): its options are those of every
# subcommand, listed under "Subcommands:" in tofa-sim --help.
sim="$top_builddir/tools/sim/tofa-sim"
if [ -x "$sim" ]; then
  subcommands=$("$sim" --help 2>&1 |
    awk '/^Subcommands:/ { s = 1; next } s && /^  [a-z]/ { print $1 } s && /^$/ { exit }')
  check "tofa-sim --help lists subcommands" test -n "$subcommands"
  help=$({ "$sim" --help 2>&1
           for sub in $subcommands; do "$sim" "$sub" --help 2>&1; done; } | help_options)
  check_options tofa-sim "$help"
fi

# tofa-harness: the options of its subcommands (run, trace).
harness="$top_builddir/tools/harness/tofa-harness"
if [ -x "$harness" ]; then
  help=$({ "$harness" run --help 2>&1; "$harness" trace --help 2>&1; } | help_options)
  check_options tofa-harness "$help"
fi

checks_done
