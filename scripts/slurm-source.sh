#!/bin/bash
# Prepares a configured (not built) Slurm source tree that matches the installed
# Slurm packages, so plugins can compile against Slurm's internal headers
# (config.h, src/common/*.h). Prints the tree's path as the last line of stdout.
#
# Steps (each skipped when already done; a stamp makes a warm call instant):
#   deb-src entry -> apt-get source slurm-wlm=<installed version> -> Debian
#   patches (debian/patches/series) -> ./configure with debian/rules' flags ->
#   check the tree's public headers and version against the installed ones.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$SCRIPT_DIR/lib/common.sh"

usage() {
    cat <<EOF
Usage: $TOFA_PROG [--force] [--help]

Prints (last line of stdout) the path of a configured Slurm source tree
matching the installed libslurm-dev, preparing it on first use.

  --force   discard the cached tree for this version and prepare it again
  --help    show this message

Environment:
  TOFA_SLURM_CACHE  cache directory (default /var/cache/tofa/slurm-src)

First call: about a minute (download, patches, configure; needs root for the
apt steps). Later calls print the cached path at once.
EOF
}

CACHE=${TOFA_SLURM_CACHE:-/var/cache/tofa/slurm-src}
SRC_PACKAGE=slurm-wlm
PUBLIC_HEADERS="slurm.h slurm_errno.h slurmdb.h spank.h smd_ns.h"
force=no

while [ $# -gt 0 ]; do
    case "$1" in
        --force) force=yes ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done

# Flags of override_dh_auto_configure in debian/rules plus the ones dh_auto_configure
# adds itself (64-bit: no --enable-deprecated).
configure_flags() {
    local multiarch
    multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
    echo "--build=$(dpkg-architecture -qDEB_BUILD_GNU_TYPE 2>/dev/null || echo "$multiarch")" \
        --prefix=/usr --includedir=/usr/include --mandir=/usr/share/man \
        --infodir=/usr/share/info --sysconfdir=/etc/slurm --localstatedir=/var \
        "--libdir=/usr/lib/$multiarch" --runstatedir=/run \
        --disable-option-checking --disable-silent-rules \
        --disable-maintainer-mode --disable-dependency-tracking \
        --with-munge --enable-pam --without-rpath --disable-debug \
        --enable-multiple-slurmd "--with-pmix=/usr/lib/$multiarch/pmix2"
}

# Downloads and unpacks the source package; dpkg-source already applies the
# quilt series while unpacking, apply_patches() below checks and completes it.
fetch_source() {
    local version=$1 workdir=$2
    local updated=no
    if ensure_deb_src; then
        log "apt-get update (deb-src added)"
        apt_get update -q >&2 || die "apt-get update failed"
        updated=yes
    fi
    mkdir -p "$workdir"
    log "apt-get source $SRC_PACKAGE=$version into $workdir"
    if ! (cd "$workdir" && apt_get source -q --only-source "$SRC_PACKAGE=$version" >&2); then
        if [ $updated = no ]; then
            require_root
            log "source not found, running apt-get update and retrying"
            apt_get update -q >&2 || die "apt-get update failed"
            (cd "$workdir" && apt_get source -q --only-source "$SRC_PACKAGE=$version" >&2) \
                || die "apt-get source $SRC_PACKAGE=$version failed (is that version still in the deb-src archive?)"
        else
            die "apt-get source $SRC_PACKAGE=$version failed (is that version still in the deb-src archive?)"
        fi
    fi
}

# Applies every patch of debian/patches/series that is not applied yet; a
# patch that reverses cleanly counts as applied. Safe to run any number of times.
apply_patches() {
    local tree=$1 series=$1/debian/patches/series line name words opts
    [ -f "$series" ] || { log "no debian/patches/series: nothing to apply"; return; }
    mkdir -p "$tree/.pc"
    touch "$tree/.pc/applied-patches"
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%%#*}
        read -r -a words <<<"$line" || true
        [ ${#words[@]} -gt 0 ] || continue
        name=${words[0]}
        opts=("${words[@]:1}")
        [ ${#opts[@]} -gt 0 ] || opts=(-p1)
        if grep -qxF "$name" "$tree/.pc/applied-patches"; then
            continue
        fi
        if (cd "$tree" && patch "${opts[@]}" -R --dry-run -s -f < "debian/patches/$name" >/dev/null 2>&1); then
            log "patch $name: already applied"
        else
            log "applying patch $name"
            (cd "$tree" && patch "${opts[@]}" -N -s --no-backup-if-mismatch < "debian/patches/$name" >&2) \
                || die "patch debian/patches/$name does not apply to $tree"
        fi
        echo "$name" >> "$tree/.pc/applied-patches"
    done < "$series"
}

# The tree must describe exactly the installed library: same public headers,
# same version number.
check_version() {
    local tree=$1 upstream=$2 meta h tree_num inst_num
    meta=$(awk '$1 == "Version:" { print $2 }' "$tree/META")
    [ "$meta" = "$upstream" ] \
        || die "source tree $tree is Slurm $meta but the installed libslurm is $upstream"
    for h in $PUBLIC_HEADERS; do
        [ -f "/usr/include/slurm/$h" ] || continue
        cmp -s "$tree/slurm/$h" "/usr/include/slurm/$h" \
            || die "slurm/$h in $tree differs from /usr/include/slurm/$h (version mismatch?)"
    done
    tree_num=$(awk '/#define SLURM_VERSION_NUMBER/ { print $3 }' "$tree/slurm/slurm_version.h")
    inst_num=$(awk '/#define SLURM_VERSION_NUMBER/ { print $3 }' /usr/include/slurm/slurm_version.h)
    if [ -z "$tree_num" ] || [ "$tree_num" != "$inst_num" ]; then
        die "SLURM_VERSION_NUMBER of $tree ($tree_num) differs from the installed one ($inst_num)"
    fi
}

run_configure() {
    local tree=$1 logfile=$1/tofa-configure.log
    log "running configure (log: $logfile)"
    # shellcheck disable=SC2046
    if ! (cd "$tree" && ./configure $(configure_flags) SUCMD=/bin/su SLEEP_CMD=/bin/sleep \
            > "$logfile" 2>&1); then
        tail -n 25 "$logfile" >&2
        die "configure failed in $tree; see $logfile and $tree/config.log"
    fi
    [ -f "$tree/config.h" ] || die "configure did not create $tree/config.h"
}

main() {
    local debver upstream verdir tree stamp start
    start=$(date +%s)
    debver=$(installed_version libslurm-dev)
    if [ -z "$debver" ]; then
        apt_install_missing libslurm-dev
        debver=$(installed_version libslurm-dev)
    fi
    [ -n "$debver" ] || die "libslurm-dev is not installed"
    upstream=${debver#*:}
    upstream=${upstream%%-*}
    verdir=$CACHE/$debver
    tree=$verdir/$SRC_PACKAGE-$upstream
    stamp=$verdir/.tofa-configured

    if [ $force = no ] && [ -f "$stamp" ] && [ -f "$tree/config.h" ]; then
        echo "$tree"
        return 0
    fi

    mkdir -p "$CACHE" || die "cannot create $CACHE (set TOFA_SLURM_CACHE to a writable directory)"
    exec 9>"$CACHE/.lock"
    flock -w 900 9 || die "timed out waiting for another $TOFA_PROG ($CACHE/.lock)"
    if [ $force = yes ]; then
        log "--force: removing $verdir"
        rm -rf "$verdir"
    elif [ -f "$stamp" ] && [ -f "$tree/config.h" ]; then
        echo "$tree"   # prepared by a concurrent call while we waited
        return 0
    fi

    apt_install_missing dpkg-dev patch xz-utils gcc make libc6-dev \
        libmunge-dev libpmix-dev libpam0g-dev
    log "preparing Slurm $debver source in $verdir"

    # Resume a tree from an interrupted run only if it was fully unpacked.
    if [ -d "$tree" ] && { [ ! -x "$tree/configure" ] || [ ! -f "$tree/debian/patches/series" ]; }; then
        log "removing incomplete tree $tree"
        rm -rf "$verdir"
    fi
    [ -d "$tree" ] || fetch_source "$debver" "$verdir"
    [ -d "$tree" ] || die "apt-get source did not create $tree"

    apply_patches "$tree"
    run_configure "$tree"
    check_version "$tree" "$upstream"
    echo "$tree" > "$stamp"
    log "ready in $(( $(date +%s) - start )) s"
    echo "$tree"
}

main
