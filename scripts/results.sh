#!/usr/bin/env bash
# Regenerates every figure of README.md and docs/: runs the command of each
# block of scripts/results-manifest.json (in its order) and stamps the block's
# README markers and docs with HEAD and the date (scripts/results-blocks.py),
# so that tests/docs/test_results_fresh.sh can tell when a figure is older
# than the sources that produce it. `make results` runs it.
#
#   scripts/results.sh [--only BLOCK[,BLOCK...]] [--quick] [--allow-dirty]
#   scripts/results.sh --list        the blocks, their commands and times
#
# --quick runs each block's small variant where it has one (others are
# skipped) and stamps it run=quick, which the check never accepts: it proves
# the pipeline, it does not publish figures. A block whose sources have
# uncommitted changes is refused (its stamp would name a commit that did not
# produce it); --allow-dirty stamps it commit=HASH+local, which the check
# rejects too. A block that fails, or whose requirements (root, a Slurm
# build, ...) are missing, leaves its README block and docs as they were;
# the others still run, and the exit status is 1.
# The whole set took about 60 minutes on the project's 2-core machine
# (sim 11 minutes with its recordings cached, 22 recording them afresh, at
# 65af1b5/77e0d62; harness 22 and the nine others 16 at 724a9ef/38b94ff;
# interference 6); run it on an idle machine, as root, with the tree built.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
blocks=(python3 scripts/results-blocks.py)
only= quick=no allow_dirty=no
usage() { sed -n '8,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --only) [ $# -ge 2 ] || usage; only=$2; shift ;;
    --only=*) only=${1#--only=} ;;
    --list) exec "${blocks[@]}" list ;;
    --quick) quick=yes ;;
    --allow-dirty) allow_dirty=yes ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "results.sh: unknown argument $1" >&2; usage ;;
  esac
  shift
done
git rev-parse --verify -q HEAD >/dev/null ||
  { echo "results.sh: not a git checkout: a stamp names the commit that produced the figures" >&2; exit 2; }
list=$("${blocks[@]}" names ${only:+--only "$only"}) || exit 2
read -ra names <<<"$list"

if [ -t 2 ]; then say() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }
else say() { printf '== %s\n' "$*" >&2; }; fi

say "building the tree (scripts/build.sh): the figures must come from HEAD's binaries"
bash scripts/build.sh || { echo "results.sh: the build failed" >&2; exit 1; }

backup=$(mktemp -d /tmp/tofa-results-XXXXXX)
trap 'rm -rf "$backup"' EXIT
summary=() status=0 i=0
for name in "${names[@]}"; do
  i=$((i + 1))
  tag="[$i/${#names[@]}] $name"
  command=$("${blocks[@]}" field "$name" command)
  if [ "$quick" = yes ]; then
    command=$("${blocks[@]}" field "$name" quick)
    if [ -z "$command" ]; then
      say "$tag: no quick variant, skipped"
      summary+=("$name: skipped (no quick variant)"); continue
    fi
  fi
  missing=
  while IFS=$'\t' read -r test what; do
    [ -n "$test" ] || continue
    bash -c "$test" || { missing=$what; break; }
  done < <("${blocks[@]}" requires "$name")
  if [ -n "$missing" ]; then
    say "$tag: NOT RUN: needs $missing"
    summary+=("$name: not run (needs $missing)"); status=1; continue
  fi
  stamp_flags=()
  [ "$quick" = yes ] && stamp_flags+=(--quick)
  if dirty=$("${blocks[@]}" dirty "$name"); then :; else
    if [ "$allow_dirty" = no ]; then
      say "$tag: REFUSED: uncommitted changes in its sources (commit them, or --allow-dirty):"
      echo "$dirty" | sed 's/^/    /' >&2
      summary+=("$name: refused (uncommitted sources)"); status=1; continue
    fi
    stamp_flags+=(--local)
  fi
  # Keep the block's files: a failed run leaves them as they were.
  files=()
  while IFS= read -r f; do [ -n "$f" ] && files+=("$f"); done < <("${blocks[@]}" files "$name")
  rm -rf "${backup:?}"/*
  for f in "${files[@]}"; do
    [ -e "$f" ] && mkdir -p "$backup/$(dirname "$f")" && cp -p "$f" "$backup/$f"
  done
  "${blocks[@]}" unstamp "$name" || { summary+=("$name: its README markers are broken"); status=1; continue; }
  commit=$(git rev-parse --short HEAD) date=$(date +%F)
  say "$tag: $command (takes $("${blocks[@]}" field "$name" takes))"
  started=$(date +%s)
  bash -c "$command"
  rc=$?
  seconds=$(( $(date +%s) - started ))
  if [ "$rc" -ne 0 ] || [ "$(git rev-parse --short HEAD)" != "$commit" ]; then
    why="exit status $rc"; [ "$rc" -eq 0 ] && why="HEAD moved during the run"
    for f in "${files[@]}"; do [ -e "$backup/$f" ] && cp -p "$backup/$f" "$f"; done
    say "$tag: FAILED after $seconds s ($why); README.md and its docs left as they were"
    summary+=("$name: FAILED ($why, $seconds s)"); status=1; continue
  fi
  if "${blocks[@]}" stamp "$name" --commit "$commit" --date "$date" --seconds "$seconds" "${stamp_flags[@]}"; then
    say "$tag: done in $seconds s, stamped $commit${stamp_flags[*]:+ (${stamp_flags[*]})}"
    summary+=("$name: $seconds s, stamped $commit${stamp_flags[*]:+ ${stamp_flags[*]}}")
  else
    summary+=("$name: ran in $seconds s but could not be stamped"); status=1
  fi
done

say "summary"
printf '  %s\n' "${summary[@]}" >&2
if [ "$quick" = yes ]; then
  echo "Quick runs prove the pipeline; their stamps never pass the check: git checkout README.md docs/" >&2
elif [ "$status" -eq 0 ]; then
  echo "Commit README.md and docs/ now; tests/docs/test_results_fresh.sh checks the stamps." >&2
fi
exit "$status"
