#!/bin/bash
# Builds tofa's Slurm plugins against a Slurm release built by
# scripts/slurm-release.sh, in a build directory of its own, leaving the
# source checkout (and its default 22.05 build) alone. Prints the directory
# holding the plugins (last line of stdout).
#
# The checkout may itself be configured (in-tree 22.05 build), and automake
# refuses a VPATH build from a configured source directory, so the build
# directory is a tree of symbolic links to the checkout's files (tracked and
# untracked, not ignored ones): edits in the checkout are seen at once.
# There: autoreconf -fi, configure --with-slurm=PREFIX, make the plugins.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=lib/common.sh
. "$SCRIPT_DIR/lib/common.sh"

usage() {
    cat <<EOF
Usage: $TOFA_PROG [--jobs N] [--reconfigure] [--help] VERSION [BUILDDIR]

Builds the plugins of $SRC_ROOT against Slurm VERSION (26.05 or 24.11, from
scripts/slurm-release.sh) in BUILDDIR (default
\$TOFA_SLURM_RELEASE_CACHE/tofa-build-slurm-VERSION, by default in
/var/cache/tofa); prints BUILDDIR/plugins.

  --jobs N        parallel make jobs (default 2)
  --reconfigure   run autoreconf and configure again
  --help          show this message
EOF
}

jobs=2
reconf=no
version=
builddir=
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift ;;
        --reconfigure) reconf=yes ;;
        -h|--help) usage; exit 0 ;;
        -*) usage >&2; die "unknown option: $1" ;;
        *) if [ -z "$version" ]; then version=$1; elif [ -z "$builddir" ]; then builddir=$1;
           else die "too many arguments"; fi ;;
    esac
    shift
done
[ -n "$version" ] || { usage >&2; die "VERSION missing"; }
builddir=${builddir:-${TOFA_SLURM_RELEASE_CACHE:-/var/cache/tofa}/tofa-build-slurm-$version}

prefix=$(bash "$SCRIPT_DIR/slurm-release.sh" --jobs "$jobs" "$version" | tail -n 1)
[ -x "$prefix/sbin/slurmctld" ] || die "scripts/slurm-release.sh $version gave no Slurm"

# ccache with scripts/build.sh's flags (-Werror): libtofa's objects are the
# checkout's, so they come from the cache.
use_ccache "$builddir"

# The symbolic link tree: refreshed on every call (new files appear). A tree
# made for another checkout (CI's clean clones, worktrees) is relinked to this
# one and its objects are rebuilt: make compares the files' times, and another
# checkout's older file would not rebuild what a newer one built.
mkdir -p "$builddir"
# One build of a tree at a time: the test command builds the releases in the
# background while a test may ask for the same one.
exec 9>"$builddir/.build-lock"
flock 9
previous_root=$(cat "$builddir/.source-root" 2>/dev/null || true)
(cd "$SRC_ROOT" && { git ls-files; git ls-files --others --exclude-standard; }) | sort -u |
while IFS= read -r f; do
    [ -e "$SRC_ROOT/$f" ] || continue
    mkdir -p "$builddir/$(dirname "$f")"
    [ "$(readlink "$builddir/$f")" = "$SRC_ROOT/$f" ] || ln -sfn "$SRC_ROOT/$f" "$builddir/$f"
done
if [ "$previous_root" != "$SRC_ROOT" ] && [ -f "$builddir/Makefile" ]; then
    log "the build tree was made for ${previous_root:-another checkout}: relinked to $SRC_ROOT, rebuilding"
    (cd "$builddir" && make clean > make-clean.log 2>&1) || true
fi
echo "$SRC_ROOT" > "$builddir/.source-root"
# configure and Makefile.in are made from configure.ac, the m4 macros,
# Makefile.am and the local.mk files: when their text differs from what they
# were made from, reconfigure. Their times cannot tell: another checkout's older copy would
# leave a Makefile.in that misses a new source (the 26.05 plugins then failed
# to link), and a clean clone's are newer than the last configure.
am_sum=$(cd "$SRC_ROOT" && { git ls-files -z configure.ac '*.m4' Makefile.am '*local.mk' 2>/dev/null || true; } |
         xargs -0 cat 2>/dev/null | cksum)
[ "$(cat "$builddir/.am-sum" 2>/dev/null)" = "$am_sum" ] || reconf=yes

if [ $reconf = yes ] || [ ! -f "$builddir/config.status" ]; then
    log "autoreconf -fi in $builddir (log: $builddir/autoreconf.log)"
    (cd "$builddir" && autoreconf -fi > autoreconf.log 2>&1) || { tail -n 20 "$builddir/autoreconf.log" >&2; die "autoreconf failed"; }
    log "configure --with-slurm=$prefix (log: $builddir/configure.out)"
    (cd "$builddir" && ./configure --with-slurm="$prefix" --enable-werror "${COMPILERS[@]}" > configure.out 2>&1) \
        || { tail -n 20 "$builddir/configure.out" >&2; die "configure failed (see $builddir/config.log)"; }
    echo "$am_sum" > "$builddir/.am-sum"
else
    # Made from the same text: newer than their inputs again (a clean clone's
    # files are all newer), or make would run autoconf and configure anew.
    (cd "$builddir" && for made in aclocal.m4 configure tofa_config.h.in Makefile.in config.status \
                                   libtool Makefile tofa_config.h stamp-h1; do
        [ ! -f "$made" ] || touch "$made"
    done)
fi
# Bring Makefile up to date first (an edited *.am or local.mk regenerates
# it, and that output must not end up in the target list).
(cd "$builddir" && make Makefile > make-regen.log 2>&1) \
    || { tail -n 20 "$builddir/make-regen.log" >&2; die "regenerating $builddir/Makefile failed"; }
# The plugins configure chose for this release (plugins/local.mk).
# shellcheck disable=SC2016 # make expands them
targets=$(cd "$builddir" && printf 'tofa-print-plugins:\n\t@echo $(tofaplugin_LTLIBRARIES) $(tofaselect_LTLIBRARIES)\n' |
          make -s -f Makefile -f - tofa-print-plugins)
[ -n "${targets// /}" ] || die "configure in $builddir selected no plugins"
# The mapping worker the TOFA service starts (tofa.conf MapWorker), and
# tofactl (tests/integration/release_cluster.sh sets an outage with it).
targets="$targets tools/tofa-map-worker tools/tofactl"
log "make -j$jobs $targets (log: $builddir/make-plugins.log)"
start=$(date +%s)
# shellcheck disable=SC2086 # a list of targets
(cd "$builddir" && make -j"$jobs" $targets > make-plugins.log 2>&1) \
    || { grep -E 'error|warning' "$builddir/make-plugins.log" | head -n 40 >&2; die "make failed (see $builddir/make-plugins.log)"; }
log "plugins for Slurm $(basename "$prefix") built in $(( $(date +%s) - start )) s"
echo "$builddir/plugins"
