#!/bin/bash
# Builds Debian's Slurm (the version installed here) with the tofa patches of
# patches/ applied: libslurmfull.so plus the srun, sbatch and salloc commands,
# into a cache outside the repository. Prints the install directory as the
# last line of stdout:
#   DIR/lib/libslurmfull.so        the patched private library
#   DIR/bin/{srun,sbatch,salloc}   client commands built from the same tree
#   DIR/env.sh                     ". DIR/env.sh" puts both first in PATH /
#                                  LD_LIBRARY_PATH (the stock /usr/bin commands
#                                  load the patched library through it too)
#   DIR/build.log, DIR/build-seconds
# The installed Debian packages are not touched. Daemons may stay stock: the
# patch only changes option parsing and printing in the clients.
#
# Steps: scripts/slurm-source.sh (Debian source, Debian patches, configured) ->
# private copy of that tree -> patch -p1 < patches/*.patch (in name order) ->
# configure as debian/rules does (same flags, Debian's build flags) -> make of
# only libslurmfull and the three commands.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=lib/common.sh
. "$SCRIPT_DIR/lib/common.sh"

usage() {
    cat <<EOF
Usage: $TOFA_PROG [--force] [--jobs N] [--help]

Builds libslurmfull.so, srun, sbatch and salloc of the installed Slurm with
$SRC_ROOT/patches/*.patch applied; prints the install directory (last line).

  --force    rebuild even if a build for this version and these patches exists
  --jobs N   parallel make jobs (default 2)
  --help     show this message

Environment:
  TOFA_SLURM_PATCHED_CACHE  cache directory (default /var/cache/tofa/slurm-patched)
  TOFA_SLURM_CACHE          passed on to scripts/slurm-source.sh

First call: about 3.5 minutes on 2 cores (see patches/README.md); later calls
print the cached path at once. The cache key is the Debian version plus a hash
of the patches, so an edited patch gets a fresh build.
EOF
}

CACHE=${TOFA_SLURM_PATCHED_CACHE:-/var/cache/tofa/slurm-patched}
PATCH_DIR=$SRC_ROOT/patches
COMMANDS="srun sbatch salloc"
force=no
jobs=2

while [ $# -gt 0 ]; do
    case "$1" in
        --force) force=yes ;;
        --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs: not a positive number: $jobs"

patches() { find "$PATCH_DIR" -maxdepth 1 -name '*.patch' | LC_ALL=C sort; }

# Debian's own compiler and linker flags (debian/rules: hardening=+all,-bindnow),
# so the library matches the packaged one as closely as the configured tree allows.
debian_flags() {
    local what=$1
    DEB_BUILD_MAINT_OPTIONS=hardening=+all,-bindnow dpkg-buildflags --get "$what" 2>/dev/null || true
}

# configure again with the flags the shared tree was configured with, now
# with Debian's build flags in the environment and the Build-Depends that
# matter here installed (the shared tree only serves headers).
reconfigure() {
    local tree=$1 logfile=$2 args
    args=$(cd "$tree" && ./config.status --config)
    (
        set -e
        cd "$tree"
        export CFLAGS CPPFLAGS LDFLAGS
        CFLAGS=$(debian_flags CFLAGS)
        CPPFLAGS=$(debian_flags CPPFLAGS)
        LDFLAGS=$(debian_flags LDFLAGS)
        eval "./configure $args"
    ) > "$logfile" 2>&1
}

build() {
    local tree=$1 logfile=$2 dest=$3
    # Only what libslurmfull and the three commands need: src/common and
    # src/api (whose version scripts are BUILT_SOURCES, made by "make all"
    # only), libsrun; the commands' Makefiles build libfile_bcast through
    # "force" rules. No static objects (halves the compile time). RUNPATH of
    # the commands: the cache's lib/.
    # Debian runs autoreconf, which carries its "rpath" patch (package name
    # slurm-wlm) into configure; the shared tree's configure predates it, so
    # pkglibdir (compiled in as the default PluginDir) is set here instead.
    local lt=LIBTOOLFLAGS=--tag=disable-static pk
    pk=pkglibdir=$(sed -n 's/^libdir = //p' "$tree/src/common/Makefile")/slurm-wlm
    (
        set -e
        make -C "$tree/src/common" -j"$jobs" "$lt" "$pk" libcommon.la
        make -C "$tree/src/api" -j"$jobs" "$lt" "$pk" version.map full_version.map
        make -C "$tree/src/api" -j"$jobs" "$lt" "$pk" libslurmfull.la
        make -C "$tree/src/srun/libsrun" -j"$jobs" "$lt" "$pk"
        for c in $COMMANDS; do
            make -C "$tree/src/$c" -j"$jobs" "$lt" "$pk" \
                LIB_SLURM="-Wl,-rpath=$dest/lib -L\$(top_builddir)/src/api/.libs -lslurmfull" "$c"
        done
    ) > "$logfile" 2>&1
}

install_into() {
    local tree=$1 dest=$2 c
    mkdir -p "$dest/lib" "$dest/bin"
    # libtool puts the real objects in .libs/; debug info stripped as dh_strip does.
    install -m 0644 "$tree/src/api/.libs/libslurmfull.so" "$dest/lib/libslurmfull.so"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$dest/lib/libslurmfull.so"
    for c in $COMMANDS; do
        install -m 0755 "$tree/src/$c/.libs/$c" "$dest/bin/$c" 2>/dev/null \
            || install -m 0755 "$tree/src/$c/$c" "$dest/bin/$c"
        strip --strip-unneeded --remove-section=.comment --remove-section=.note "$dest/bin/$c"
    done
    cat > "$dest/env.sh" <<EOF
# Source this file to use the patched Slurm clients (--distribution=TOFA).
export PATH="$dest/bin\${PATH:+:\$PATH}"
export LD_LIBRARY_PATH="$dest/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
EOF
}

main() {
    local src debver key verdir tree stamp start p
    [ -n "$(patches)" ] || die "no *.patch in $PATCH_DIR"
    src=$(bash "$SCRIPT_DIR/slurm-source.sh" | tail -n 1)
    [ -f "$src/config.h" ] || die "scripts/slurm-source.sh gave no configured tree"
    debver=$(installed_version libslurm-dev)
    key=$(patches | xargs cat | sha256sum | cut -c1-12)
    verdir=$CACHE/$debver-$key
    tree=$verdir/src/$(basename "$src")
    stamp=$verdir/.tofa-built

    if [ $force = no ] && [ -f "$stamp" ]; then
        echo "$verdir"
        return 0
    fi
    # Build-Depends of slurm-wlm that change libslurmfull or srun (lz4:
    # --compress; rocm-smi: GPU detection).
    apt_install_missing liblz4-dev
    [ "$(dpkg --print-architecture)" != amd64 ] || apt_install_missing librocm-smi-dev
    mkdir -p "$CACHE" || die "cannot create $CACHE (set TOFA_SLURM_PATCHED_CACHE)"
    exec 9>"$CACHE/.lock"
    flock -w 1800 9 || die "timed out waiting for another $TOFA_PROG ($CACHE/.lock)"
    if [ $force = no ] && [ -f "$stamp" ]; then
        echo "$verdir"
        return 0
    fi
    start=$(date +%s)
    rm -rf "$verdir"
    mkdir -p "$verdir/src"
    log "copying the configured Slurm tree $src"
    cp -a "$src" "$verdir/src/"
    for p in $(patches); do
        log "applying $(basename "$p")"
        (cd "$tree" && patch -p1 -N -s --no-backup-if-mismatch < "$p" >&2) \
            || die "$(basename "$p") does not apply to $tree"
    done
    log "configure as debian/rules (log: $verdir/configure.log)"
    if ! reconfigure "$tree" "$verdir/configure.log"; then
        tail -n 25 "$verdir/configure.log" >&2
        die "configure failed; see $verdir/configure.log"
    fi
    log "building libslurmfull and $COMMANDS with -j$jobs (log: $verdir/build.log)"
    if ! build "$tree" "$verdir/build.log" "$verdir"; then
        tail -n 25 "$verdir/build.log" >&2
        die "build failed; see $verdir/build.log"
    fi
    install_into "$tree" "$verdir"
    echo $(( $(date +%s) - start )) > "$verdir/build-seconds"
    touch "$stamp"
    log "built in $(cat "$verdir/build-seconds") s: $verdir"
    echo "$verdir"
}

main
