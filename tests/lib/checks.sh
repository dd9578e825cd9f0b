# shellcheck shell=bash
# Counting for the shell tests (sourced). A test counts with pass, fail,
# skip_check or check, and ends with checks_done. The EXIT trap prints
# "N passed, N failed" (", N skipped" when something was skipped) and exits
# 0 only when checks_done was reached, nothing failed and something passed.
# Any other way out (set -e, set -u, an exit, a signal, a timeout's TERM)
# counts one more failure, "aborted", so a script that dies after its first
# pass can never be read as passed.
#
#   pass NAME | fail NAME | skip_check NAME   count one check
#   check NAME COMMAND...                     pass when COMMAND succeeds
#   count_lines FILE                          add the PASS:/FAIL:/skip: (or TAP's
#                                             ok -/not ok -) lines a helper
#                                             program wrote to FILE
#   at_exit COMMAND...                        cleanup, run by the trap (last first)
#   skip REASON                               the whole test does not apply: exit 77
#   checks_done                               the script reached its end

passed=0 failed=0 skipped=0
checks_complete=no
checks_cleanups=()

pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip_check() { echo "skip: $*"; skipped=$((skipped + 1)); }
check() {
    local name=$1; shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}
count_lines() {
    local line
    while IFS= read -r line; do
        case $line in
            PASS:*|"ok - "*) passed=$((passed + 1)) ;;
            FAIL:*|"not ok - "*) failed=$((failed + 1)) ;;
            skip:*) skipped=$((skipped + 1)) ;;
        esac
    done < "$1"
}
at_exit() { checks_cleanups+=("$(printf '%q ' "$@")"); }
skip() { echo "SKIP: $*"; checks_complete=skip; exit 77; }
checks_done() { checks_complete=yes; exit 0; }

checks_exit() {
    local rc=$1 i
    trap - EXIT INT TERM
    set +eu
    for ((i = ${#checks_cleanups[@]} - 1; i >= 0; i--)); do
        eval "${checks_cleanups[i]}" || echo "warning: cleanup failed: ${checks_cleanups[i]}" >&2
    done
    case $checks_complete in
        skip) exit 77 ;;
        yes) ;;
        *) fail "aborted: the script exited with status $rc before its last check" ;;
    esac
    if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
    else echo "$passed passed, $failed failed"; fi
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] && exit 0
    exit 1
}
trap 'checks_exit $?' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
