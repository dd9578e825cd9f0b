#!/bin/bash
# Builds and runs the tofa container cluster (docker/Dockerfile, docker/compose.yml):
# one controller container (slurmctld + munged) and N slurmd containers c1..cN
# on one container network. Uses Docker when its daemon answers, else podman
# (and prepares podman on Debian: packages, containers.conf, a local base image
# when no registry is reachable).
set -euo pipefail

DOCKER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$DOCKER_DIR")
TOFA_PROG=${TOFA_PROG:-cluster.sh}
# shellcheck source-path=SCRIPTDIR source=../scripts/lib/common.sh
. "$REPO/scripts/lib/common.sh"

usage() {
    cat <<EOF
Usage: $TOFA_PROG COMMAND [options]

Commands:
  build                 build the image $IMAGE from this working tree
  up                    start slurmctld and N slurmd (c1..cN); waits until all
                        N nodes are idle (builds the image first if missing)
  down                  stop and remove the containers and their network
  status                the containers and sinfo; exit 0 only if all run
  exec [--node NAME] CMD...
                        run CMD in the controller container (or in node NAME)
  logs [NAME]           the log of the controller (or of node NAME)

Options:
  --nodes N             number of nodes (default 4; env TOFA_NODES)
  --cpus N              CPUs per node (default 2; env TOFA_CPUS)
  --engine E            podman or docker (default: docker if its daemon
                        answers, else podman; env TOFA_ENGINE)
  --build               up: rebuild the image first (picks up source changes)
  --timeout SECS        how long up waits for idle nodes (default 120)
  -h, --help            this message

Environment: TOFA_IMAGE (default tofa-slurm:latest), TOFA_MAKE_JOBS (make -j
inside the image build, default 1), TOFA_CONFIGURE_ARGS (extra ./configure
arguments), TOFA_TORUS, TOFA_PLUGINS=auto|off (see docker/entrypoint.sh),
TOFA_DOCKER_STATE (state and caches, default /var/cache/tofa/docker).

Example:
  $TOFA_PROG up --nodes 4 && $TOFA_PROG exec srun -N 4 hostname && $TOFA_PROG down
EOF
}

PROJECT=tofa
CONTROLLER=tofa-slurmctld
NETWORK=${PROJECT}_cluster
IMAGE=${TOFA_IMAGE:-tofa-slurm:latest}
BASE_IMAGE=docker.io/library/debian:bookworm
COMPOSE_FILE=$DOCKER_DIR/compose.yml
COMPOSE_NODES=4        # node services defined in compose.yml
if [ "$(id -u)" -eq 0 ]; then
    STATE=${TOFA_DOCKER_STATE:-/var/cache/tofa/docker}
else
    STATE=${TOFA_DOCKER_STATE:-${XDG_CACHE_HOME:-$HOME/.cache}/tofa-docker}
fi
PODMAN_PACKAGES=(podman runc netavark aardvark-dns iptables podman-compose debootstrap)

NODES=${TOFA_NODES:-4}
CPUS=${TOFA_CPUS:-2}
ENGINE=${TOFA_ENGINE:-}
TIMEOUT=120
REBUILD=no

parse_options() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --nodes) NODES=${2:?--nodes needs a value}; shift ;;
            --cpus) CPUS=${2:?--cpus needs a value}; shift ;;
            --engine) ENGINE=${2:?--engine needs a value}; shift ;;
            --timeout) TIMEOUT=${2:?--timeout needs a value}; shift ;;
            --build) REBUILD=yes ;;
            -h|--help) usage; exit 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
        shift
    done
    [[ $NODES =~ ^[1-9][0-9]*$ ]] || die "--nodes must be a positive integer, not '$NODES'"
    [[ $CPUS =~ ^[1-9][0-9]*$ ]] || die "--cpus must be a positive integer, not '$CPUS'"
    [[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer, not '$TIMEOUT'"
    case $ENGINE in ''|podman|docker) ;; *) die "--engine must be podman or docker, not '$ENGINE'" ;; esac
}

# ---- engine -----------------------------------------------------------------

docker_usable() { command -v docker >/dev/null && timeout 20 docker info >/dev/null 2>&1; }

# Picks the engine (sets ENGINE). With SETUP=yes it may install podman.
choose_engine() {
    local setup=$1
    if [ -z "$ENGINE" ]; then
        if docker_usable; then ENGINE=docker
        elif command -v podman >/dev/null; then ENGINE=podman
        elif [ "$setup" = yes ] && command -v apt-get >/dev/null; then
            log "neither Docker's daemon nor podman is available: installing podman"
            apt_install_missing "${PODMAN_PACKAGES[@]}"
            ENGINE=podman
        else
            die "neither podman nor a running Docker daemon found (Debian: apt-get install ${PODMAN_PACKAGES[*]})"
        fi
    fi
    if [ "$ENGINE" = docker ]; then
        docker_usable || die "docker does not answer ('docker info' fails): is its daemon running?"
        if docker compose version >/dev/null 2>&1; then COMPOSE=(docker compose)
        elif command -v docker-compose >/dev/null; then COMPOSE=(docker-compose)
        else die "neither 'docker compose' nor docker-compose found"
        fi
    else
        [ "$setup" = yes ] && prepare_podman
        command -v podman >/dev/null || die "podman not found (apt-get install ${PODMAN_PACKAGES[*]})"
        command -v podman-compose >/dev/null || die "podman-compose not found (apt-get install podman-compose)"
        COMPOSE=(podman-compose)
    fi
    COMPOSE+=(-p "$PROJECT" -f "$COMPOSE_FILE")
    [ ! -f "$STATE/compose.nodes.yml" ] || COMPOSE+=(-f "$STATE/compose.nodes.yml")
}

engine() { "$ENGINE" "$@"; }

prepare_podman() {
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        apt_install_missing "${PODMAN_PACKAGES[@]}"
    fi
    write_containers_conf
    ensure_base_image
}

# debian:bookworm for podman: from the registry when reachable, else built once
# with debootstrap from the host's Debian mirror (the rootfs tarball is cached
# in $STATE, the image in podman's storage).
ensure_base_image() {
    podman image exists "$BASE_IMAGE" && return 0
    log "base image $BASE_IMAGE missing: trying the registry"
    if timeout 180 podman pull -q "$BASE_IMAGE" >/dev/null 2>&1; then return 0; fi
    local tarball=$STATE/debian-bookworm-rootfs.tar
    if [ ! -s "$tarball" ]; then
        require_root
        apt_install_missing debootstrap
        build_debian_rootfs bookworm "$tarball" "$STATE/debootstrap.log"
    fi
    log "importing $tarball as $BASE_IMAGE"
    podman import -q --change 'CMD ["bash"]' "$tarball" "$BASE_IMAGE" >/dev/null \
        || die "podman import of $tarball failed"
}

image_exists() {
    if [ "$ENGINE" = podman ]; then podman image exists "$IMAGE"
    else docker image inspect "$IMAGE" >/dev/null 2>&1; fi
}

# ---- build ------------------------------------------------------------------

# The build context: the working tree's files that git tracks or would track
# (no in-tree build products, no .git), or the tree itself outside git.
make_context() {
    local ctx=$STATE/context
    if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
        rm -rf "$ctx"
        mkdir -p "$ctx"
        (cd "$REPO" && git ls-files -z --cached --others --exclude-standard \
            | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$ctx" -xf -
        echo "$ctx"
    else
        echo "$REPO"
    fi
}

cmd_build() {
    local ctx start args old
    mkdir -p "$STATE"
    ctx=$(make_context)
    start=$(date +%s)
    args=(-f "$ctx/docker/Dockerfile" -t "$IMAGE" --build-arg "MAKE_JOBS=${TOFA_MAKE_JOBS:-1}")
    [ -z "${TOFA_CONFIGURE_ARGS:-}" ] || args+=(--build-arg "CONFIGURE_ARGS=$TOFA_CONFIGURE_ARGS")
    # podman: the default build network cannot reach the apt mirror in sandboxes
    # that allow only the host's own connections.
    [ "$ENGINE" = podman ] && args+=(--network host)
    old=$(engine image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)
    log "building $IMAGE with $ENGINE (log: $STATE/build.log)"
    if ! engine build "${args[@]}" "$ctx" > "$STATE/build.log" 2>&1; then
        tail -n 30 "$STATE/build.log" >&2
        die "image build failed; see $STATE/build.log"
    fi
    # The image it replaces would stay behind untagged.
    if [ -n "$old" ] && [ "$old" != "$(engine image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null)" ]; then
        engine rmi "$old" >/dev/null 2>&1 || true
    fi
    log "built $IMAGE in $(( $(date +%s) - start )) s"
}

# ---- up / down ----------------------------------------------------------------

# Node services c5..cN beyond the four of compose.yml, as a second compose file.
write_nodes_override() {
    local f=$STATE/compose.nodes.yml i
    rm -f "$f"
    [ "$NODES" -gt "$COMPOSE_NODES" ] || return 0
    {
        echo "# Generated by $TOFA_PROG up --nodes $NODES: nodes c$((COMPOSE_NODES + 1))..c$NODES."
        echo "services:"
        for ((i = COMPOSE_NODES + 1; i <= NODES; i++)); do
            cat <<EOF
  c$i:
    image: "$IMAGE"
    container_name: tofa-c$i
    hostname: c$i
    command: ["slurmd"]
    environment:
      TOFA_NODES:
      TOFA_CPUS:
      TOFA_MEMORY:
      TOFA_TORUS:
      TOFA_PLUGINS:
      TOFA_CONTROLLER: slurmctld
    networks: [cluster]
EOF
        done
    } > "$f"
}

# Our containers (any state), one name a line.
our_containers() {
    engine ps -a --format '{{.Names}}' 2>/dev/null | grep -E '^tofa-(slurmctld|c[0-9]+)$' || true
}

running() { [ "$(engine inspect -f '{{.State.Running}}' "$1" 2>/dev/null)" = true ]; }

idle_count() {
    engine exec "$CONTROLLER" sinfo -h -N -o '%N %T' 2>/dev/null \
        | awk '$2 == "idle" { n++ } END { print n + 0 }'
}

wait_ready() {
    local deadline=$(( $(date +%s) + TIMEOUT )) c
    while :; do
        for c in $CONTROLLER $(seq -f 'tofa-c%g' 1 "$NODES"); do
            if ! running "$c"; then
                engine logs --tail 15 "$c" >&2 2>&1 || true
                return 1
            fi
        done
        [ "$(idle_count)" -eq "$NODES" ] && return 0
        [ "$(date +%s)" -lt "$deadline" ] || { engine exec "$CONTROLLER" sinfo -N >&2 || true; return 1; }
        sleep 1
    done
}

cmd_up() {
    mkdir -p "$STATE"
    if [ -n "$(our_containers)" ]; then
        die "a tofa cluster exists already ($(our_containers | tr '\n' ' ')): run '$TOFA_PROG down' first"
    fi
    if [ $REBUILD = yes ] || ! image_exists; then cmd_build; fi
    export TOFA_NODES=$NODES TOFA_CPUS=$CPUS TOFA_IMAGE=$IMAGE
    write_nodes_override
    printf 'ENGINE=%s\nNODES=%s\n' "$ENGINE" "$NODES" > "$STATE/cluster.env"
    choose_engine no    # again: the compose file list may have changed
    local start services=(slurmctld) i
    start=$(date +%s%N)
    for ((i = 1; i <= NODES; i++)); do services+=("c$i"); done
    log "starting $CONTROLLER and $NODES nodes with ${COMPOSE[0]}"
    trap 'log "up failed: removing the containers"; cmd_down >/dev/null 2>&1 || true' EXIT
    "${COMPOSE[@]}" up -d --no-build "${services[@]}" > "$STATE/compose.log" 2>&1 \
        || { tail -n 20 "$STATE/compose.log" >&2; die "${COMPOSE[0]} up failed; see $STATE/compose.log"; }
    wait_ready || die "not all $NODES nodes became idle within ${TIMEOUT}s"
    trap - EXIT
    log "up: $NODES nodes idle after $(( ($(date +%s%N) - start) / 1000000 )) ms"
}

cmd_down() {
    local start names
    start=$(date +%s%N)
    "${COMPOSE[@]}" down > "$STATE/compose-down.log" 2>&1 || true
    # Whatever compose did not remove (another node count, an interrupted up).
    names=$(our_containers)
    if [ -n "$names" ]; then
        # shellcheck disable=SC2086
        engine rm -f -t 2 $names >/dev/null 2>&1 || engine rm -f $names >/dev/null 2>&1 || true
    fi
    engine network rm "$NETWORK" >/dev/null 2>&1 || true
    rm -f "$STATE/compose.nodes.yml" "$STATE/cluster.env"
    [ -z "$(our_containers)" ] || die "could not remove: $(our_containers | tr '\n' ' ')"
    log "down in $(( ($(date +%s%N) - start) / 1000000 )) ms"
}

cmd_status() {
    local c bad=0 names
    names=$(our_containers)
    [ -n "$names" ] || { echo "no tofa cluster"; return 3; }
    for c in $names; do
        if running "$c"; then echo "$c: running"; else echo "$c: stopped"; bad=1; fi
    done
    if running "$CONTROLLER"; then engine exec "$CONTROLLER" sinfo -N || bad=1; fi
    return $((bad ? 3 : 0))
}

cmd_exec() {
    local target=$CONTROLLER flags=(-i)
    if [ "${1:-}" = --node ]; then
        target=tofa-${2:?--node needs a name}
        [ "$2" != slurmctld ] || target=$CONTROLLER
        shift 2
    fi
    [ "${1:-}" != -- ] || shift
    [ $# -gt 0 ] || die "exec needs a command"
    [ -t 0 ] && [ -t 1 ] && flags+=(-t)
    engine exec "${flags[@]}" "$target" "$@"
}

main() {
    [ $# -gt 0 ] || { usage >&2; exit 2; }
    local cmd=$1; shift
    case $cmd in
        -h|--help|help) usage; exit 0 ;;
    esac
    # down, status, exec and logs act on the cluster that up started.
    if [ -f "$STATE/cluster.env" ] && [ -z "${TOFA_ENGINE:-}" ]; then
        ENGINE=$(awk -F= '$1 == "ENGINE" { print $2 }' "$STATE/cluster.env")
    fi
    case $cmd in
        build) parse_options "$@"; choose_engine yes; cmd_build ;;
        up) parse_options "$@"; choose_engine yes; cmd_up ;;
        down) parse_options "$@"; choose_engine no; cmd_down ;;
        status) parse_options "$@"; choose_engine no; cmd_status ;;
        exec) choose_engine no; cmd_exec "$@" ;;
        logs) choose_engine no; engine logs "tofa-${1:-slurmctld}" ;;
        *) usage >&2; die "unknown command: $cmd" ;;
    esac
}

main "$@"
