#!/bin/bash
# Crash test of the TOFA service's state on a real mini-cluster (munged,
# slurmctld with slurmctld/tofa, 8 slurmd on loopback; lib_tofa_cluster.sh).
# Needs root. A stream of graph uploads, placements for jobs and graph
# deletions goes to the service while slurmctld is killed with kill -9,
# ROUNDS times (seeded): in half the rounds at a random moment, in the other
# half right after the service acknowledged a request. After every restart:
#   - every acknowledged graph is listed under its id, every acknowledged
#     deletion stays deleted, no upload is stored twice, nothing appears
#     that was never sent;
#   - the placements acknowledged since the last restart (and a sample of
#     older ones) are there with their nodes; placements.state lists every
#     acknowledged job exactly once;
#   - every state file loaded whole: no *.corrupt.*, no skipped record, no
#     *.tmp left, every file starts with its "# tofa-state" version line.
# The request that a kill interrupted is sent again after the restart (an
# upload must then find its graph if it was stored: "existing=1").
# At the end every acknowledged placement is checked, and (issue 39) an srun
# --tofa-matrix that starts while slurmctld is down waits for it and runs.
# Environment (besides those of lib_tofa_cluster.sh):
#   TOFA_CLUSTER_DIR        default /tmp/tofa-state-kill9-cluster
#   TOFA_CLUSTER_PORT_BASE  default 18200 (service 18250, responders 18301..)
#   TOFA_KILL9_ROUNDS       kills (default 50)
#   TOFA_KILL9_SEED         seed of the kill moments and choices (default 10)
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# In memory when the host has /dev/shm: a kill -9 ends the process, not the
# kernel, so what was written survives it with or without fsync, and the
# fsyncs of a disk took 100 ms per acknowledged request.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    export TOFA_LIB_DEFAULT_DIR=/dev/shm/tofa-state-kill9-cluster
else
    export TOFA_LIB_DEFAULT_DIR=/tmp/tofa-state-kill9-cluster
fi
export TOFA_LIB_DEFAULT_PORT_BASE=18200
. "$HERE/lib_tofa_cluster.sh"

ROUNDS=${TOFA_KILL9_ROUNDS:-50}
RANDOM=${TOFA_KILL9_SEED:-10}
tofa_lib_require_root_and_plugins
tofa_lib_write_config
# Nothing may leave the store but by a deletion of ours.
printf 'MaxGraphsPerUser=1000000\nPlacementRetention=1000000\n' >> "$TOFA_CONF"
STATE=$DIR/state/tofa
CTLD_LOG=$DIR/log/slurmctld.log

# ---- what the service acknowledged ----------------------------------------------
declare -A graph_of_name=()    # upload name -> id, acknowledged
declare -A deleted=()          # id -> 1, deletion acknowledged
declare -A nodes_of_job=()     # job -> nodes, acknowledged
live_graphs=()                 # acknowledged ids not deleted (placement targets)
recent_jobs=()                 # jobs acknowledged since the last restart
pending=""                     # the request a kill interrupted: "upload NAME", "place JOB ID", "delete ID"
next_upload=1
next_job=1000000
acked=0

field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p" | head -n 1; }
graph_text() { local w=$((${1#u} + 10)); printf '0 1 %d\n1 2 %d\n2 3 %d\n' $w $((w + 1)) $w; }

# send REQUEST: the reply in $reply; status 0 on OK, 1 on an ERROR reply or no
# answer. With kill_on_reply set, that pid is killed the moment the reply is in.
kill_on_reply=""
sent=0
send_seconds=0
send() {
    local rc start=$EPOCHREALTIME
    reply=$(timeout 10 "$QUERY" "$TOFA_CONF" 127.0.0.1 "$MUNGE_SOCKET" "$1" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        sent=$((sent + 1))
        send_seconds=$(awk -v s="$send_seconds" -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print s + b - a }')
    fi
    [ -z "$kill_on_reply" ] || kill -9 "$kill_on_reply"
    return $rc
}

# One request of the stream ($1: upload NAME, place JOB ID, delete ID); records
# what was acknowledged. Status 1 when the service did not acknowledge it.
request() {
    local kind=$1 id
    case $kind in
    upload)
        send "UPLOAD_GRAPH name=$2
$(graph_text "$2")" || return 1
        id=$(field id "$reply")
        [ -n "${graph_of_name[$2]:-}" ] && [ "${graph_of_name[$2]}" != "$id" ] \
            && fail "upload $2 acknowledged as ${graph_of_name[$2]}, now as $id"
        if [ -z "${graph_of_name[$2]:-}" ]; then
            graph_of_name[$2]=$id
            live_graphs+=("$id")
        fi ;;
    place)
        send "PLACE graph=$3 job=$2" || return 1
        nodes_of_job[$2]=$(field nodes "$reply")
        recent_jobs+=("$2") ;;
    delete)
        if ! send "DELETE_GRAPH id=$2"; then
            # Deleted before the kill interrupted the reply: the retry finds nothing.
            grep -q "unknown graph id $2" <<<"$reply" || return 1
        fi
        deleted[$2]=1
        local keep=() g
        for g in "${live_graphs[@]}"; do [ "$g" = "$2" ] || keep+=("$g"); done
        live_graphs=("${keep[@]}") ;;
    esac
    acked=$((acked + 1))
}

# Sets req to the stream's next request (no subshell: it would reseed RANDOM).
next_request() {
    local n=${#live_graphs[@]} choice=$((RANDOM % 10))
    if [ "$n" -eq 0 ] || [ $choice -lt 3 ]; then
        req="upload u$next_upload"; next_upload=$((next_upload + 1))
    elif [ $choice -eq 9 ] && [ "$n" -gt 3 ]; then
        req="delete ${live_graphs[RANDOM % n]}"
    else
        req="place $next_job ${live_graphs[RANDOM % n]}"; next_job=$((next_job + 1))
    fi
}

ctld_pid() { cat "$DIR/run/slurmctld.pid" 2>/dev/null; }
dead() { ! kill -0 "$1" 2>/dev/null || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
service_up() { scontrol ping 2>/dev/null | grep -q UP && query PING >/dev/null 2>&1; }

# ---- checks after a restart -----------------------------------------------------------
check_round() {   # check_round LABEL LOG-OFFSET
    local label=$1 since=$2 listing name id ok=yes why="" job got sample dups
    listing=$(query GRAPHS 2>&1) || { fail "$label: GRAPHS: $listing"; return; }
    local -A listed=()   # id -> name, as the service lists them
    while read -r id name; do
        [ -n "$id" ] && listed[$id]=$name
    done < <(sed -n 's/^graph id=\([^ ]*\) .*name=\([^ ]*\) .*/\1 \2/p' <<<"$listing")
    for name in "${!graph_of_name[@]}"; do
        id=${graph_of_name[$name]}
        if [ -n "${deleted[$id]:-}" ]; then
            [ -z "${listed[$id]:-}" ] || { ok=no; why+=" deleted $id is back;"; }
        elif [ "$pending" = "delete $id" ]; then
            :   # deleted or not: the kill interrupted the reply
        elif [ "${listed[$id]:-}" != "$name" ]; then
            ok=no; why+=" $name ($id) missing;"
        fi
    done
    dups=$(printf '%s\n' "${listed[@]}" | sort | uniq -d | tr '\n' ' ')
    [ -z "$dups" ] || { ok=no; why+=" uploads stored twice: $dups;"; }
    for name in "${listed[@]}"; do
        [ -n "${graph_of_name[$name]:-}" ] || [ "$pending" = "upload $name" ] \
            || { ok=no; why+=" $name stored but never sent;"; }
    done

    sample=("${recent_jobs[@]}")
    local jobs=("${!nodes_of_job[@]}") i
    for ((i = 0; i < 10 && ${#jobs[@]} > 0; i++)); do sample+=("${jobs[RANDOM % ${#jobs[@]}]}"); done
    for job in "${sample[@]}"; do
        got=$(query "PLACEMENT job=$job" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
        [ "$got" = "${nodes_of_job[$job]}" ] || { ok=no; why+=" job $job: '$got', acknowledged '${nodes_of_job[$job]}';"; }
    done
    if [ ${#nodes_of_job[@]} -gt 0 ]; then
        local missing twice
        missing=$(comm -23 <(printf '%s\n' "${!nodes_of_job[@]}" | sort) \
            <(sed -n 's/^placement job=\([0-9]*\) .*/\1/p' "$STATE/placements.state" | sort -u) | head -n 5 | tr '\n' ' ')
        twice=$(sed -n 's/^placement job=\([0-9]*\) .*/\1/p' "$STATE/placements.state" | sort | uniq -d | head -n 5 | tr '\n' ' ')
        [ -z "$missing" ] || { ok=no; why+=" placements.state lacks jobs $missing;"; }
        [ -z "$twice" ] || { ok=no; why+=" placements.state lists twice: $twice;"; }
    fi

    local bad
    bad=$(find "$STATE" \( -name '*.corrupt.*' -o -name '*.tmp' \) | tr '\n' ' ')
    [ -z "$bad" ] || { ok=no; why+=" left: $bad;"; }
    local new_log
    new_log=$(tail -c +"$since" "$CTLD_LOG")
    bad=$(grep -E 'tofa: (state file|moved corrupt|graph .* dropped|cannot save state)' <<<"$new_log" | head -n 3)
    [ -z "$bad" ] || { ok=no; why+=" log: $bad;"; }
    grep -q 'tofa: restored [0-9]* graph(s), [0-9]* placement(s)' <<<"$new_log" \
        || { ok=no; why+=" no 'restored' line;"; }
    bad=$(find "$STATE" -type f \( -name '*.state' -o -name '*.graph' \) -exec \
        awk 'FNR == 1 && !/^# tofa-state [a-z]* 2$/ { print FILENAME } { nextfile }' {} + | head -n 3)
    [ -z "$bad" ] || { ok=no; why+=" unversioned: $bad;"; }
    if [ $ok = yes ]; then
        passes=$((passes + 1))
    else
        fail "$label:$why"
    fi
}

# ---- run ---------------------------------------------------------------------------------
tofa_lib_start
wait_until 30 service_up || { fail "the service does not answer: $(query PING 2>&1)"; exit 1; }
pass "minicluster up ($NODES nodes, slurmctld/tofa on port $SERVICE_PORT, state in $STATE)"

t0=$(date +%s)
passes=0
restart_seconds=0
for ((round = 1; round <= ROUNDS; round++)); do
    pid=$(ctld_pid)
    since=$(($(stat -c %s "$CTLD_LOG") + 1))
    if [ $((round % 2)) -eq 1 ]; then   # a random moment, 0.1 to 1.5 s into the stream
        delay=$(printf '0.%03d' $((RANDOM % 1000)))
        delay=$(awk -v d="$delay" 'BEGIN { print 0.1 + 1.4 * d }')
        (sleep "$delay"; kill -9 "$pid") &
        timer=$!
        kill_after=0
    else                                 # right after the n-th acknowledgement
        timer=""
        kill_after=$((1 + RANDOM % 25))
    fi
    recent_jobs=()
    done_in_round=0
    refusals=0
    while :; do
        if [ -n "$pending" ]; then req=$pending; else next_request; fi
        [ $((done_in_round + 1)) -eq "$kill_after" ] && kill_on_reply=$pid
        # shellcheck disable=SC2086
        if request $req; then
            pending=""
            done_in_round=$((done_in_round + 1))
            [ -z "$kill_on_reply" ] || { kill_on_reply=""; break; }
            continue
        fi
        kill_on_reply=""
        pending=$req
        sleep 0.1   # a refusal by a dying slurmctld shows as one once it is gone
        dead "$pid" && break
        if [ -z "$timer" ] || kill -0 "$timer" 2>/dev/null; then
            fail "round $round: '$req' refused while slurmctld runs: $reply"
            pending=""
            refusals=$((refusals + 1))
            [ $refusals -lt 5 ] && continue
            kill -9 "$pid"
        fi
        wait_until 10 dead "$pid"
        break
    done
    [ -n "$timer" ] && wait "$timer" 2>/dev/null
    wait_until 10 dead "$pid" || fail "round $round: slurmctld $pid survived kill -9"
    r0=$(date +%s%N)
    slurmctld >/dev/null 2>&1
    if ! wait_until 60 service_up; then
        fail "round $round: slurmctld or the service did not come back: $(tail -n 5 "$CTLD_LOG")"
        break
    fi
    restart_seconds=$(awk -v s="$restart_seconds" -v n="$(( $(date +%s%N) - r0 ))" 'BEGIN { print s + n / 1e9 }')
    check_round "round $round (kill after ${kill_after:-0} acks, $done_in_round acknowledged)" "$since"
done
t1=$(date +%s)
if [ $passes -eq $((round - 1)) ] && [ $passes -eq "$ROUNDS" ]; then
    pass "$ROUNDS kill -9 of slurmctld, each followed by a restart that kept all $acked acknowledged requests (${#graph_of_name[@]} uploads, ${#deleted[@]} deletions, ${#nodes_of_job[@]} placements) in $((t1 - t0)) s (restarts $(printf '%.0f' "$restart_seconds") s)"
else
    note "$passes of $ROUNDS rounds checked out"
fi
note "$sent requests acknowledged, $(awk -v s="$send_seconds" -v n="$sent" 'BEGIN { printf "%.1f", n ? 1000 * s / n : 0 }') ms each on average (tofa_query: munge, connect, reply after the fsyncs)"

# ---- every acknowledged placement, once more ---------------------------------------------
bad=0
for job in "${!nodes_of_job[@]}"; do
    got=$(query "PLACEMENT job=$job" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
    [ "$got" = "${nodes_of_job[$job]}" ] || { bad=$((bad + 1)); [ $bad -le 3 ] && note "job $job: '$got', acknowledged '${nodes_of_job[$job]}'"; }
done
if [ $bad -eq 0 ] && [ ${#nodes_of_job[@]} -gt 0 ]; then
    pass "all ${#nodes_of_job[@]} acknowledged placements are recorded with their nodes"
else
    fail "$bad of ${#nodes_of_job[@]} acknowledged placements differ or are missing"
fi
# ---- issue 39 (2): a TOFA srun issued while slurmctld restarts waits and runs -----------------
# srun --tofa-matrix starts while slurmctld (and the service inside it) is
# down after a kill -9, and slurmctld comes back 8 s later: the srun waits
# for the service as it waits for slurmctld, then runs placed as recorded.
wait_until 30 all_idle || fail "precondition: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
pid=$(ctld_pid)
kill -9 "$pid"
wait_until 10 dead "$pid"
(cd "$DATA" && timeout 120 srun --tofa-matrix=pairs8.mat -n 8 -l \
    sh -c 'echo "$SLURMD_NODENAME $SLURM_JOB_ID"' >"$DATA/out-restart" 2>&1; echo "srun exit $?" >>"$DATA/out-restart") &
srun_pid=$!
sleep 8
slurmctld >/dev/null 2>&1
wait "$srun_pid"
jid=$(sed -n 's/^ *0: t[0-9]* \([0-9]*\)$/\1/p' "$DATA/out-restart")
ran=$(sed -n 's/^ *\([0-9]*\): \(t[0-9]*\) [0-9]*$/\1 \2/p' "$DATA/out-restart" | sort -n | awk '{ print $2 }' | paste -sd, -)
recorded=$([ -n "$jid" ] && query "PLACEMENT job=$jid" 2>/dev/null | grep -o 'nodes=[^ ]*' | cut -d= -f2)
if grep -qx 'srun exit 0' "$DATA/out-restart" && [ -n "$ran" ] && [ "$ran" = "$recorded" ]; then
    pass "srun --tofa-matrix started while slurmctld was down for 8 s: waited, job $jid ran placed on $ran"
else
    fail "srun --tofa-matrix across a slurmctld restart: job '$jid' ran '$ran', recorded '$recorded'; $(grep -v '^ *[0-9]*: ' "$DATA/out-restart" | head -n 3 | tr '\n' ' ')"
fi
# ---- issue 39 (2): the service answers at once after a restart with much saved state ----------
# 10 held jobs' graphs of ~25 MB each (1.1 million edge records, within
# MaxGraphBytes as text and in memory: 56 bytes per record, 64 MiB). At a91dca4 every saved graph was
# parsed before the service answered (307 MB: 18.9 s after slurmctld); now
# only the index is read, each graph when first used. The delay is reported;
# what is checked is that the graphs are usable after the restart.
big_jobs=()
for k in $(seq 0 9); do
    python3 - "$k" > "$DATA/big$k.mat" <<'PY'
import sys
k = int(sys.argv[1])
out = sys.stdout
for n in range(1100000):
    out.write("%d %d %d.%06d\n" % (n % 8, (n + 1 + n // 8) % 8, 1000000000 + k, n))
PY
    big_jobs+=("$(cd "$DATA" && sbatch --parsable -H -n 8 --tofa-matrix="big$k.mat" -o /dev/null --wrap true 2>&1)")
done
saved_mb=$(du -sm "$STATE/graphs" 2>/dev/null | cut -f1)
stored=$(query GRAPHS 2>/dev/null | grep -c "name=[^ ]*big[0-9].mat")
pid=$(ctld_pid)
kill -9 "$pid"
wait_until 10 dead "$pid"
r0=$(date +%s%N)
slurmctld >/dev/null 2>&1
ctld_ping() { scontrol ping 2>/dev/null | grep -q UP; }
wait_until 60 ctld_ping
ctld_ms=$(( ($(date +%s%N) - r0) / 1000000 ))
service_ping() { query PING >/dev/null 2>&1; }
wait_until 60 service_ping
service_ms=$(( ($(date +%s%N) - r0) / 1000000 ))
big_id=$(query GRAPHS 2>/dev/null | grep "name=[^ ]*big9.mat" | grep -o 'id=g[0-9]*' | cut -d= -f2)
placed=$([ -n "$big_id" ] && query "PLACE graph=$big_id candidates=t[1-$NODES]" 2>&1 | head -c 200)
if [ "$stored" -eq 10 ] && grep -q '^OK' <<<"$placed"; then
    pass "restart with $saved_mb MB of saved graphs: slurmctld answered after $ctld_ms ms, the service after $service_ms ms; graph $big_id placed after it"
else
    fail "restart with $saved_mb MB of graphs ($stored of 10 stored; first sbatch: ${big_jobs[0]:0:200}): slurmctld $ctld_ms ms, service $service_ms ms; PLACE graph=${big_id:-?}: $placed"
fi
scancel "${big_jobs[@]}" 2>/dev/null
checks_done
