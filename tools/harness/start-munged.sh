#!/bin/bash
# start-munged.sh DIR - a private munged for tofa-harness: its own key,
# socket, pid, seed and log file under DIR (created), so it never clashes with
# a system munged; Slurm code reaches it through AuthInfo=socket=SOCKET.
# Prints the socket path on stdout once munged answers (munge | unmunge).
# Stop it with: kill "$(cat DIR/munged.pid)".
# Same logic as start_munged in scripts/minicluster.sh: munged runs as the
# "munge" user (runuser) when that user exists, else as root with --force.
# Needs root. Exit status 0 when munged answers, 1 otherwise (see DIR/munged.log).
set -euo pipefail

TOFA_PROG=${TOFA_PROG:-start-munged.sh}
die() { printf '%s: error: %s\n' "$TOFA_PROG" "$*" >&2; exit 1; }

if [ $# -ne 1 ] || [ -z "$1" ]; then die "usage: start-munged.sh DIR"; fi
[ "$(id -u)" -eq 0 ] || die "must run as root (munged is started as the munge user)"
MUNGED=${MUNGED:-/usr/sbin/munged}
[ -x "$MUNGED" ] || die "no munged at $MUNGED (install the munge package)"
if ! command -v munge >/dev/null || ! command -v unmunge >/dev/null; then
    die "munge/unmunge not found (install the munge package)"
fi

DIR=$(realpath -m "$1")
SOCKET=$DIR/munge.socket.2
PID_FILE=$DIR/munged.pid

alive() {   # the munged of PID_FILE runs (a zombie counts as gone)
    local pid state
    [ -f "$PID_FILE" ] || return 1
    pid=$(cat "$PID_FILE" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

works() { munge -n -S "$SOCKET" 2>/dev/null | unmunge -S "$SOCKET" >/dev/null 2>&1; }

if alive && works; then
    echo "$SOCKET"   # already running for this DIR
    exit 0
fi
alive && die "munged $(cat "$PID_FILE") runs for $DIR but does not answer on $SOCKET"

user=munge
id munge >/dev/null 2>&1 || user=root
install -d -o "$user" -g "$user" -m 0755 "$DIR"
if [ ! -s "$DIR/munge.key" ]; then
    head -c 1024 /dev/urandom > "$DIR/munge.key"
fi
if [ "$user" = munge ] && ! runuser -u munge -- test -w "$DIR"; then
    die "the munge user cannot write $DIR: every parent directory must be searchable by others (chmod o+x; mktemp -d makes 0700 ones)"
fi
chown "$user:$user" "$DIR/munge.key"
chmod 0600 "$DIR/munge.key"
rm -f "$SOCKET" "$SOCKET.lock" "$PID_FILE"
args=(--socket="$SOCKET" --key-file="$DIR/munge.key" --pid-file="$PID_FILE"
      --log-file="$DIR/munged.log" --seed-file="$DIR/munged.seed")
if [ "$user" = munge ]; then
    runuser -u munge -- "$MUNGED" "${args[@]}" >&2 \
        || die "munged failed to start; see $DIR/munged.log"
else
    "$MUNGED" --force "${args[@]}" >&2 || die "munged failed to start; see $DIR/munged.log"
fi
for _ in $(seq 50); do
    if works; then
        echo "$SOCKET"
        exit 0
    fi
    sleep 0.2
done
die "munged does not answer on $SOCKET; see $DIR/munged.log"
