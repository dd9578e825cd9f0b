#!/bin/bash
# Builds an upstream Slurm release from source into a cached prefix outside the
# repository, keeping the configured and built source tree beside it, so tofa's
# plugins can compile against that release's internal headers (config.h,
# src/common/*.h) and link its libslurmfull.so (configure --with-slurm=PREFIX).
# Prints the prefix as the last line of stdout.
#
#   PREFIX/                 make install of the release (bin, sbin, lib/slurm, ...)
#   PREFIX/lib/slurm/       Slurm's plugins and libslurmfull.so
#   PREFIX/build-tree       symlink to the configured, built source tree
#                           (PREFIX-build/slurm-VERSION: config.h, src/common/*.h)
#   PREFIX/env.sh           ". PREFIX/env.sh" puts the release first in PATH
#   PREFIX/build-seconds    configure / make / make install wall time
#   PREFIX/.tofa-built      stamp: a warm call only prints PREFIX
#
# Releases:
#   26.05 -> 26.05.3 from /work/shared/deps/slurm-26.05.3.tar.gz (sha256 checked)
#   24.11 -> 24.11.5 from Debian trixie's source package slurm-wlm=24.11.5-4+deb13u1
#            (apt-get source --tar-only; a deb-src entry for trixie is added in
#            its own file, with a pin that keeps bookworm's binaries as they are)
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=lib/common.sh
. "$SCRIPT_DIR/lib/common.sh"

usage() {
    cat <<EOF
Usage: $TOFA_PROG [--force] [--jobs N] [--help] VERSION

Builds Slurm VERSION (26.05 or 24.11; 26.05.3 or 24.11.5 also accepted) into
a cached prefix and prints the prefix (last line of stdout).

  --force    discard the cached build of this release and build it again
  --fetch-only  only download and unpack the source into PREFIX-build (no
             configure, no build, no stamp); prints the source tree
  --jobs N   parallel make jobs (default 2)
  --help     show this message

Environment:
  TOFA_SLURM_RELEASE_CACHE  directory of the builds (default /var/cache/tofa):
                            PREFIX is \$TOFA_SLURM_RELEASE_CACHE/slurm-<full version>
  TOFA_DEPS_DIR             where slurm-26.05.3.tar.gz is (default
                            $SRC_ROOT/../shared/deps, then /work/shared/deps)

First call: configure + make -j2 + make install, about 6-8 minutes on 2 cores
(measured times land in PREFIX/build-seconds); later calls print the cached
prefix at once.
EOF
}

CACHE=${TOFA_SLURM_RELEASE_CACHE:-/var/cache/tofa}
force=no
fetch_only=no
jobs=2
version=

while [ $# -gt 0 ]; do
    case "$1" in
        --force) force=yes ;;
        --fetch-only) fetch_only=yes ;;
        --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) usage >&2; die "unknown option: $1" ;;
        *) [ -z "$version" ] || die "one VERSION only"; version=$1 ;;
    esac
    shift
done
[ -n "$version" ] || { usage >&2; die "VERSION missing (26.05 or 24.11)"; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs: not a positive number: $jobs"

case "$version" in
    26.05|26.05.3) full=26.05.3 ;;
    24.11|24.11.5) full=24.11.5 ;;
    *) die "unsupported Slurm release '$version' (26.05 or 24.11)" ;;
esac

SLURM_26_05_SHA256=d41a71248d57816f873a990bcc085a79d746b69a9bbe6f2a0b64dc75536a5b51
DEBIAN_24_11=24.11.5-4+deb13u1
TRIXIE_SRC_FILE=/etc/apt/sources.list.d/tofa-trixie-src.sources
TRIXIE_PIN_FILE=/etc/apt/preferences.d/tofa-trixie-no-binaries

PREFIX=$CACHE/slurm-$full
BUILD_ROOT=$PREFIX-build
TREE=$BUILD_ROOT/slurm-$full
STAMP=$PREFIX/.tofa-built

# Packages a Slurm build from source needs here: 26.05's slurmctld refuses to
# start without a JSON serializer (json-c), topology.yaml needs libyaml.
BUILD_PACKAGES=(gcc g++ make libc6-dev pkg-config python3 file
    libmunge-dev munge libjson-c-dev libyaml-dev liblz4-dev libpam0g-dev)

deps_tarball() {
    local d
    for d in "${TOFA_DEPS_DIR:-}" "$SRC_ROOT/../shared/deps" /work/shared/deps; do
        [ -n "$d" ] && [ -f "$d/slurm-$full.tar.gz" ] && { echo "$d/slurm-$full.tar.gz"; return 0; }
    done
    return 1
}

# Source entries for trixie, only deb-src, on the mirror bookworm already uses;
# the pin (priority -1) keeps apt from ever installing a trixie binary even if a
# "deb" line for trixie appears later.
ensure_trixie_src() {
    [ -f "$TRIXIE_SRC_FILE" ] && [ -f "$TRIXIE_PIN_FILE" ] && return 1
    require_root
    local template=/etc/apt/sources.list.d/debian.sources mirror security
    mirror=$(awk '/^[[:space:]]*URIs:/ && $2 !~ /security/ { print $2; exit }' "$template" 2>/dev/null || true)
    security=$(awk '/^[[:space:]]*URIs:/ && $2 ~ /security/ { print $2; exit }' "$template" 2>/dev/null || true)
    if [ -z "$mirror" ]; then
        mirror=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
    fi
    [ -n "$mirror" ] || die "cannot find the Debian mirror in $template or /etc/apt/sources.list"
    log "adding trixie deb-src entry $TRIXIE_SRC_FILE (mirror $mirror)"
    {
        printf 'Types: deb-src\nURIs: %s\nSuites: trixie trixie-updates\nComponents: main\n' "$mirror"
        printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        if [ -n "$security" ]; then
            printf '\nTypes: deb-src\nURIs: %s\nSuites: trixie-security\nComponents: main\n' "$security"
            printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        fi
    } > "$TRIXIE_SRC_FILE.tmp"
    mv "$TRIXIE_SRC_FILE.tmp" "$TRIXIE_SRC_FILE"
    mkdir -p "$(dirname "$TRIXIE_PIN_FILE")"
    cat > "$TRIXIE_PIN_FILE" <<'EOF'
# Added by tofa's scripts/slurm-release.sh: trixie is configured for source
# downloads only (apt-get source slurm-wlm=24.11.5-...); never install or
# upgrade binary packages from it.
Package: *
Pin: release n=trixie
Pin-Priority: -1

Package: *
Pin: release n=trixie-security
Pin-Priority: -1

Package: *
Pin: release n=trixie-updates
Pin-Priority: -1
EOF
    return 0
}

# Unpacks the upstream tarball of the release into $BUILD_ROOT.
fetch_source() {
    rm -rf "$BUILD_ROOT"
    mkdir -p "$BUILD_ROOT"
    case "$full" in
        26.05.3)
            local tarball sum
            tarball=$(deps_tarball) || die "slurm-$full.tar.gz not found (set TOFA_DEPS_DIR)"
            sum=$(sha256sum "$tarball" | cut -d' ' -f1)
            [ "$sum" = "$SLURM_26_05_SHA256" ] \
                || die "$tarball: sha256 $sum, expected $SLURM_26_05_SHA256 (deps/README.md)"
            log "sha256 of $tarball verified"
            tar -C "$BUILD_ROOT" -xzf "$tarball"
            ;;
        24.11.5)
            if ensure_trixie_src; then
                log "apt-get update (trixie deb-src added)"
                apt_get update -q >&2 || die "apt-get update failed"
            fi
            log "apt-get source --tar-only slurm-wlm=$DEBIAN_24_11"
            if ! (cd "$BUILD_ROOT" && apt_get source -q --tar-only --only-source "slurm-wlm=$DEBIAN_24_11" >&2); then
                log "not found, apt-get update and retry"
                apt_get update -q >&2 || die "apt-get update failed"
                (cd "$BUILD_ROOT" && apt_get source -q --tar-only --only-source "slurm-wlm=$DEBIAN_24_11" >&2) \
                    || die "apt-get source --tar-only slurm-wlm=$DEBIAN_24_11 failed"
            fi
            local orig
            orig=$(find "$BUILD_ROOT" -maxdepth 1 -name "slurm-wlm_${full}.orig.tar.*" | head -n 1)
            [ -n "$orig" ] || die "no slurm-wlm_${full}.orig.tar.* downloaded"
            tar -C "$BUILD_ROOT" -xf "$orig"
            # Debian's orig is GitHub's archive of tag slurm-24-11-5-1: it
            # unpacks as slurm-slurm-24-11-5-1 (configure included).
            if [ ! -d "$TREE" ]; then
                local top
                top=$(tar -tf "$orig" | awk -F/ 'NR == 1 { print $1 }')
                [ -n "$top" ] && [ -d "$BUILD_ROOT/$top" ] && mv "$BUILD_ROOT/$top" "$TREE"
            fi
            ;;
    esac
    [ -x "$TREE/configure" ] || die "$TREE/configure missing after unpacking"
}

configure_flags() {
    echo --prefix="$PREFIX" --sysconfdir="$PREFIX/etc" --localstatedir=/var \
        --enable-multiple-slurmd --disable-dependency-tracking --disable-static
}

main() {
    local t0 t1 t2 t3 logdir
    if [ $force = no ] && [ -f "$STAMP" ] && [ -x "$PREFIX/sbin/slurmctld" ] && [ -f "$TREE/config.h" ]; then
        echo "$PREFIX"
        return 0
    fi
    if [ $fetch_only = yes ]; then
        [ -x "$TREE/configure" ] || { mkdir -p "$CACHE"; fetch_source; }
        echo "$TREE"
        return 0
    fi
    apt_install_missing "${BUILD_PACKAGES[@]}"
    mkdir -p "$CACHE" || die "cannot create $CACHE (set TOFA_SLURM_RELEASE_CACHE)"
    exec 9>"$CACHE/.slurm-release-$full.lock"
    flock -w 3600 9 || die "timed out waiting for another $TOFA_PROG ($CACHE/.slurm-release-$full.lock)"
    if [ $force = no ] && [ -f "$STAMP" ] && [ -x "$PREFIX/sbin/slurmctld" ] && [ -f "$TREE/config.h" ]; then
        echo "$PREFIX"   # built by a concurrent call while we waited
        return 0
    fi
    rm -rf "$PREFIX"
    mkdir -p "$PREFIX"
    logdir=$PREFIX
    t0=$(date +%s)
    log "unpacking Slurm $full into $BUILD_ROOT"
    fetch_source
    log "configure (log: $logdir/configure.log)"
    # shellcheck disable=SC2046 # the flags are words
    if ! (cd "$TREE" && ./configure $(configure_flags) > "$logdir/configure.log" 2>&1); then
        tail -n 25 "$logdir/configure.log" >&2
        die "configure failed; see $logdir/configure.log and $TREE/config.log"
    fi
    grep -q '^#define HAVE_JSON_C' "$TREE/config.h" \
        || log "warning: config.h defines no HAVE_JSON_C (slurmctld 26.05 needs a JSON serializer)"
    t1=$(date +%s)
    log "make -j$jobs (log: $logdir/build.log)"
    if ! make -C "$TREE" -j"$jobs" > "$logdir/build.log" 2>&1; then
        tail -n 25 "$logdir/build.log" >&2
        die "make failed; see $logdir/build.log"
    fi
    t2=$(date +%s)
    log "make install into $PREFIX (log: $logdir/install.log)"
    if ! make -C "$TREE" install > "$logdir/install.log" 2>&1; then
        tail -n 25 "$logdir/install.log" >&2
        die "make install failed; see $logdir/install.log"
    fi
    t3=$(date +%s)
    [ -x "$PREFIX/sbin/slurmctld" ] || die "no sbin/slurmctld in $PREFIX after make install"
    [ -f "$PREFIX/lib/slurm/libslurmfull.so" ] || die "no lib/slurm/libslurmfull.so in $PREFIX"
    ln -sfn "$TREE" "$PREFIX/build-tree"
    cat > "$PREFIX/env.sh" <<EOF
# Source this file to use Slurm $full from $PREFIX.
export PATH="$PREFIX/bin:$PREFIX/sbin\${PATH:+:\$PATH}"
export LD_LIBRARY_PATH="$PREFIX/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
EOF
    cat > "$PREFIX/build-seconds" <<EOF
unpack+configure $((t1 - t0))
make-j$jobs $((t2 - t1))
install $((t3 - t2))
total $((t3 - t0))
cores $(nproc)
EOF
    echo "$full $(configure_flags | sha256sum | cut -c1-12)" > "$STAMP"
    log "Slurm $full built in $((t3 - t0)) s (make -j$jobs: $((t2 - t1)) s): $PREFIX"
    echo "$PREFIX"
}

main
