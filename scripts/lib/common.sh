# shellcheck shell=bash
# Shared helpers for the tofa shell scripts (sourced, not executed).
# Messages go to stderr so that stdout stays free for a script's result.

TOFA_PROG=${TOFA_PROG:-$(basename "$0")}

log() { printf '%s: %s\n' "$TOFA_PROG" "$*" >&2; }

die() {
    printf '%s: error: %s\n' "$TOFA_PROG" "$*" >&2
    exit 1
}

require_root() {
    [ "$(id -u)" -eq 0 ] || die "must run as root (it installs packages and starts daemons)"
}

# ccache for a build whose tree is $1: compilations are shared through
# /var/cache/tofa/ccache across checkouts and build directories (-g would
# hash the directory). Sets COMPILERS to configure's CC/CXX words when ccache
# is installed, else to nothing.
use_ccache() {
    export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tofa/ccache}
    export CCACHE_BASEDIR=$1 CCACHE_NOHASHDIR=1
    COMPILERS=()
    if command -v ccache >/dev/null && mkdir -p "$CCACHE_DIR" 2>/dev/null; then
        COMPILERS=(CC="ccache gcc" CXX="ccache g++")
    fi
}

# Runs an apt-get command holding tofa's apt lock: the test command builds
# Slurm releases in the background while other scripts may install packages,
# and two apt-get runs at once fail on apt's own locks.
apt_get() {
    flock -w 1800 /run/lock/tofa-apt.lock apt-get "$@"
}

# Installs the given Debian packages that are not installed yet (CI starts from
# a fresh Debian 12). "apt-get update" runs once, only when something is missing.
apt_install_missing() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    require_root
    log "installing missing packages: ${missing[*]}"
    apt_get update -q >&2 || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt_get install -y -q -o Dpkg::Use-Pty=0 --no-install-recommends \
        "${missing[@]}" >&2 || die "apt-get install ${missing[*]} failed"
}

# Debian's source archive (apt-get source): a deb-src twin of debian.sources.
DEB_SRC_FILE=/etc/apt/sources.list.d/tofa-debian-src.sources

have_deb_src() {
    grep -qsE '^[[:space:]]*Types:.*deb-src' /etc/apt/sources.list.d/*.sources \
        || grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list
}

# Adds the deb-src entry when there is none; returns 0 when it added one (then
# the caller runs apt-get update), 1 when one was there.
ensure_deb_src() {
    have_deb_src && return 1
    require_root
    local template=/etc/apt/sources.list.d/debian.sources
    [ -f "$template" ] || die "no deb-src entry and no $template to derive one from"
    log "adding deb-src entry $DEB_SRC_FILE"
    sed -E 's/^([[:space:]]*Types:).*/\1 deb-src/' "$template" > "$DEB_SRC_FILE.tmp"
    mv "$DEB_SRC_FILE.tmp" "$DEB_SRC_FILE"
    return 0
}

# Prints the version of an installed Debian package, or nothing.
installed_version() {
    dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true
}

# podman as verified on the project's machines, in $CONTAINERS_CONF (default
# /etc/containers/containers.conf) unless it exists: runc (crun fails on hosts
# with hybrid cgroups), no default ulimits (some sandboxes forbid raising
# rlimits), netavark with aardvark-dns (containers on one network resolve each
# other's names). Needs root when the file is missing.
write_containers_conf() {
    local conf=${CONTAINERS_CONF:-/etc/containers/containers.conf}
    [ -f "$conf" ] && return 0
    [ "$(id -u)" -eq 0 ] || die "$conf is missing; create it as root (see docker/README.md)"
    log "writing $conf (runc, no default ulimits, netavark)"
    mkdir -p "$(dirname "$conf")"
    cat > "$conf" <<'CONF'
# Written by tofa's scripts (scripts/lib/common.sh: write_containers_conf).
[containers]
default_ulimits = []

[network]
network_backend = "netavark"

[engine]
runtime = "runc"
CONF
}

# The URI of the first apt source of SUITE on this host (deb822 or one-line
# format), else $2.
apt_mirror() {
    local suite=$1 uri
    uri=$(awk -v suite="$suite" '
        function flush() {
            if (types ~ / deb / && suites ~ " " suite " " && uri != "") { print uri; exit }
            types = suites = uri = ""
        }
        FNR == 1 || /^[[:space:]]*$/ { flush() }
        $1 == "Types:" { $1 = ""; types = $0 " " }
        $1 == "URIs:" { uri = $2 }
        $1 == "Suites:" { $1 = ""; suites = $0 " " }
        END { flush() }
    ' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
    [ -n "$uri" ] || uri=$(awk -v suite="$suite" '$1 == "deb" && $3 == suite { print $2; exit }' \
        /etc/apt/sources.list 2>/dev/null || true)
    echo "${uri:-$2}"
}

# build_debian_rootfs SUITE TARBALL LOG: a minbase Debian SUITE, debootstrapped
# from this host's (bookworm) mirror, as a tarball like the registry's image:
# deb822 sources (scripts/slurm-source.sh derives its deb-src entry from
# them), no package caches. Needs root and debootstrap; a few minutes.
build_debian_rootfs() {
    local suite=$1 tarball=$2 logfile=$3 rootfs=$2.rootfs.tmp mirror security start
    mirror=$(apt_mirror bookworm http://deb.debian.org/debian)
    security=$(apt_mirror bookworm-security http://deb.debian.org/debian-security)
    start=$(date +%s)
    log "debootstrap --variant=minbase $suite from $mirror (a few minutes, once; log $logfile)"
    rm -rf "$rootfs"
    mkdir -p "$(dirname "$tarball")"
    debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" > "$logfile" 2>&1 \
        || { tail -n 20 "$logfile" >&2; die "debootstrap $suite failed; see $logfile"; }
    rm -f "$rootfs/etc/apt/sources.list"
    cat > "$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    rm -rf "$rootfs"
    log "rootfs of $suite ready in $(( $(date +%s) - start )) s ($tarball)"
}
