# shellcheck shell=bash
# The out-of-tree copy the sanitizer builds compile (sourced by
# scripts/sanitizers.sh and scripts/asan-daemons.sh from the repository root).
# Sets root (one build directory per checkout: make compares modification
# times, which mean nothing across checkouts), src (the copy), ccache and
# common_flags; refreshes the copy and reruns autotools only when needed.

here=$PWD
root=${TOFA_SANITIZER_BUILD:-/var/cache/tofa/sanitizers/$(printf '%s' "$here" | md5sum | cut -c1-8)}
src=$root/src
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tofa/ccache}
export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1  # cache hits across build directories
mkdir -p "$src" "$CCACHE_DIR"
ccache=$(command -v ccache || true)
common_flags="-O1 -g -fno-omit-frame-pointer"

# The copy keeps the modification times of unchanged files, so make
# rebuilds only what changed; autotools run again only when they must.
# Returns non-zero when autoreconf fails.
refresh_sanitizer_tree() {
  git ls-files -z --cached --others --exclude-standard | tar -c --null -T - -f - | tar -x -C "$src"
  if [ ! -f "$src/configure" ] || [ "$src/configure.ac" -nt "$src/configure" ] ||
     [ -n "$(find "$src" -name '*.am' -newer "$src/configure" -o -name local.mk -newer "$src/configure")" ]; then
    (cd "$src" && autoreconf -fi) >"$root/autoreconf.log" 2>&1
  fi
}
