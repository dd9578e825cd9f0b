#!/usr/bin/env bash
# Every figure of README.md and docs/ is fresh: each block of
# scripts/results-manifest.json is stamped (scripts/results.sh) at a commit no
# older than the last commit touching the sources that produce it; every block
# marker and generated doc is in the manifest; counts quoted from the source
# (the strategies of the registry) match it. No build needed. Skips (77)
# outside a git checkout (a release tarball). Prints "N passed, N failed".
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
exec python3 "$top_srcdir/scripts/results-blocks.py" --root "$top_srcdir" check
