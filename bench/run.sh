#!/usr/bin/env bash
# bench/run.sh - sdkc and the generated OpenCode C and TypeScript SDKs side by side with the
# TypeScript toolchain (hey-api, @opencode-ai/sdk) and the raw libcurl + jansson floor, in one run. Prints one table and writes the figures as
# JSON under bench/results/ (one file per run; latest.json = the last complete run).
#
# Every row runs its contestants in the same run, alternating (A B C A B C ...), RUNS times
# each (default 5); the table shows medians of wall time, CPU time (user+sys) and peak RSS as
# measured on the client process (bench_rusage: getrusage of the child, microsecond CPU). Servers are separate processes and are not
# counted. On a busy 2-core machine wall time is noisy: compare CPU time where a ratio matters.
#
# usage: bench/run.sh [--quick] [--runs N] [--only LIST] [--no-real] [--build DIR]
#   --quick      smaller counts (SSE 10k/100k, pages 10k, 200 calls, 50k events spread over the
#                concurrent streams) and 3 runs (concurrency: 1), for a smoke run
#   --only LIST  comma-separated sections: generation,unary,real,sse,pages,callgrind,concurrency
#                (default: all; callgrind = instruction counts of floor and SDK, stable on a busy
#                machine; concurrency = 1 to 10,000 SSE streams and 1,000 unary calls at once)
#   --no-real    skip the real OpenCode server row (needs the pinned opencode-ai from npm)
# Environment: SDKC_BENCH_NODE (npm cache folder, default ~/.cache/sdkc/bench-node).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build-bench
RUNS=5
ALL_SECTIONS=generation,unary,real,sse,pages,callgrind,concurrency
ONLY=$ALL_SECTIONS
N_UNARY=500
N_REAL=500
N_SSE_SMALL=100000
N_SSE=1000000
N_PAGES_SMALL=10000
N_PAGES=100000
N_CC_EVENTS=200000
CC_RUNS=3
QUICK=0
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1; RUNS=3; N_UNARY=200; N_REAL=100; N_SSE_SMALL=10000; N_SSE=100000
             N_PAGES_SMALL=1000; N_PAGES=10000; N_CC_EVENTS=50000; CC_RUNS=1 ;;
    --runs) RUNS=$2; shift ;;
    --only) ONLY=$2; shift ;;
    --no-real) ONLY=${ONLY//real/} ;;
    --build) BUILD=$2; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
want() { [[ ,$ONLY, == *,$1,* ]]; }

# Pinned anchors: @hey-api/openapi-ts 0.90.10 is the generator OpenCode's own SDK package
# (@opencode-ai/sdk 1.18.33) is built with; the SDK matches the pinned server (opencode-ai 1.18.33).
HEYAPI_VERSION=0.90.10
OAT_VERSION=7.13.0
OCSDK_VERSION=1.18.33
NODE_DIR=${SDKC_BENCH_NODE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc/bench-node}
export SDKC_BENCH_NODE=$NODE_DIR
CONTRACT=$ROOT/spec/opencode/openapi.json

TMP=$(mktemp -d /tmp/sdkc-bench.XXXXXX)
SERVER_PID=
REAL_PID=
REAL_DIR=
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  if [ -n "$REAL_PID" ]; then "$ROOT/scripts/opencode-server.sh" stop "$REAL_PID" "$REAL_DIR" || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
RAW=$TMP/raw.tsv
CG=$TMP/callgrind.tsv
: >"$RAW"
: >"$CG"
log() { printf '%s\n' "$*" >&2; }

# ---- build ------------------------------------------------------------------------------------
log "bench: building in $BUILD"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSDKC_BUILD_TESTS=OFF >/dev/null
else
  cmake -S "$ROOT" -B "$BUILD" >/dev/null # pick up targets added since (bench_sdk, ...)
fi
TARGETS="bench_canned_server bench_floor bench_floor_fast bench_rusage sdkc-cli"
HAVE_SDK_TARGET=0
# (no grep -q on a pipe: under pipefail its early exit would fail the pipeline)
cmake --build "$BUILD" --target help >"$TMP/targets.txt" 2>/dev/null || true
if grep -c '\.\.\. bench_sdk$' "$TMP/targets.txt" >/dev/null; then
  HAVE_SDK_TARGET=1
  TARGETS="$TARGETS bench_sdk"
fi
for t in bench_canned_epoll bench_concurrency; do
  if want concurrency && grep -c "\.\.\. $t\$" "$TMP/targets.txt" >/dev/null; then TARGETS="$TARGETS $t"; fi
done
# shellcheck disable=SC2086
cmake --build "$BUILD" --target $TARGETS -j2 >"$TMP/build.log" 2>&1 || {
  # The SDK contestant needs the generated SDK; build what we can without it.
  log "bench: full build failed (see below); retrying without bench_sdk"
  tail -20 "$TMP/build.log" >&2
  HAVE_SDK_TARGET=0
  cmake --build "$BUILD" --target bench_canned_server bench_floor bench_rusage -j2 >/dev/null
  cmake --build "$BUILD" --target sdkc-cli -j2 >/dev/null 2>&1 || true
}
SERVER=$BUILD/bench/bench_canned_server
FLOOR=$BUILD/bench/bench_floor
FLOOR_FAST=$BUILD/bench/bench_floor_fast
SDK=$BUILD/bench/bench_sdk
EPOLL_SERVER=$BUILD/bench/bench_canned_epoll
CC_CLIENT=$BUILD/bench/bench_concurrency
RUSAGE=$BUILD/bench/bench_rusage
SDKC=$BUILD/cli/sdkc
[ "$HAVE_SDK_TARGET" = 1 ] && [ -x "$SDK" ] || SDK=

# ---- npm anchors ------------------------------------------------------------------------------
HAVE_NODE=0
if command -v node >/dev/null && command -v npm >/dev/null; then
  mkdir -p "$NODE_DIR"
  [ -f "$NODE_DIR/package.json" ] || echo '{"name":"sdkc-bench-node","private":true}' >"$NODE_DIR/package.json"
  installed() { [ -f "$NODE_DIR/node_modules/$1/package.json" ] &&
    grep -q "\"version\": \"$2\"" "$NODE_DIR/node_modules/$1/package.json"; }
  if ! installed @hey-api/openapi-ts $HEYAPI_VERSION || ! installed openapi-typescript $OAT_VERSION ||
     ! installed @opencode-ai/sdk $OCSDK_VERSION; then
    log "bench: installing npm anchors into $NODE_DIR"
    (cd "$NODE_DIR" && npm install --no-audit --no-fund --silent \
      "@hey-api/openapi-ts@$HEYAPI_VERSION" "openapi-typescript@$OAT_VERSION" \
      "@opencode-ai/sdk@$OCSDK_VERSION" >&2) && HAVE_NODE=1
  else
    HAVE_NODE=1
  fi
fi
NODE_REASON="node/npm or the pinned npm packages unavailable"

# The sdkc TypeScript SDK (generated/opencode-ts) compiled with the pinned tsc, for the `ts` rows.
TS_SDK=
TS_REASON="node, or tsc (scripts/ts-tools.sh) to compile generated/opencode-ts, unavailable"
if [ "$HAVE_NODE" = 1 ] && TSC=$("$ROOT/scripts/ts-tools.sh" tsc 2>"$TMP/tsc.err"); then
  mkdir -p "$TMP/ts-sdk"
  printf '{"type":"module","private":true}\n' >"$TMP/ts-sdk/package.json"
  if "$TSC" -p "$ROOT/generated/opencode-ts" --outDir "$TMP/ts-sdk/dist" >"$TMP/tsc.err" 2>&1; then
    TS_SDK=$TMP/ts-sdk/dist
    export SDKC_BENCH_TS_SDK=$TS_SDK
  else
    TS_REASON="tsc failed on generated/opencode-ts: $(head -1 "$TMP/tsc.err")"
  fi
fi

# ---- measuring --------------------------------------------------------------------------------
# measure SECTION CONTESTANT COUNT CMD... : one run under bench_rusage (wall, user, sys in
# microseconds, peak RSS; /usr/bin/time as a fallback, centiseconds), one TSV row.
measure() {
  local section=$1 who=$2 count=$3
  shift 3
  local tf=$TMP/time.txt
  local -a timer=("$RUSAGE" "$tf")
  [ -x "$RUSAGE" ] || timer=(/usr/bin/time -f '%e %U %S %M' -o "$tf")
  if "${timer[@]}" "$@" >"$TMP/out.txt" 2>"$TMP/err.txt"; then
    read -r wall user sys rss <"$tf"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\tok\t\n' "$section" "$who" "$count" "$wall" "$user" "$sys" \
      "$rss" >>"$RAW"
  else
    local why
    why=$(grep -v '^Command exited' "$TMP/err.txt" | head -1 | tr '\t' ' ')
    log "bench: $section/$who failed: $why"
    printf '%s\t%s\t%s\t\t\t\t\tfail\t%s\n' "$section" "$who" "$count" "failed: ${why:-exit status}" >>"$RAW"
  fi
}
# na SECTION CONTESTANT COUNT REASON : a row that could not be measured, and why.
na() { printf '%s\t%s\t%s\t\t\t\t\tna\t%s\n' "$1" "$2" "$3" "not available yet ($4)" >>"$RAW"; }

# rounds SECTION COUNT NAME1 'CMD1' NAME2 'CMD2' ... : RUNS alternating rounds, after one
# unmeasured warm-up round when WARM=1 (short workloads: page cache, node's compile cache).
WARM=1
rounds() {
  local section=$1 count=$2
  shift 2
  local -a names=() cmds=()
  while [ $# -gt 0 ]; do names+=("$1"); cmds+=("$2"); shift 2; done
  local i
  if [ "$WARM" = 1 ]; then
    for i in "${!cmds[@]}"; do eval "${cmds[$i]}" >/dev/null 2>&1 || true; done
  fi
  for _ in $(seq 1 "$RUNS"); do
    for i in "${!cmds[@]}"; do
      # shellcheck disable=SC2086
      measure "$section" "${names[$i]}" "$count" ${cmds[$i]}
    done
  done
}

# start_canned ITEMS [SERVER]: a fresh canned server on a free port; CANNED is its base URL. (A
# new port file each time: reusing one raced with the shell's truncation of the previous server's.)
CANNED_STARTS=0
start_canned() {
  CANNED_STARTS=$((CANNED_STARTS + 1))
  local pf=$TMP/port.$CANNED_STARTS
  "${2:-$SERVER}" 0 "$1" >"$pf" &
  SERVER_PID=$!
  local port=
  for _ in $(seq 1 100); do
    port=$(head -1 "$pf" 2>/dev/null || true)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { log "bench: the canned server did not start"; exit 1; }
  CANNED=http://127.0.0.1:$port
}
stop_canned() { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=; }

JS="node $ROOT/bench/js/bench.mjs"
TS="node $ROOT/bench/js/bench-ts.mjs"
SDK_REASON="bench_sdk not built: the generated C SDK under generated/opencode is missing or does not build"

# contestants SECTION COUNT FLOOR_ARGS : floor, fast floor, C SDK, sdkc's TS SDK (ts) and
# @opencode-ai/sdk (js) rows for one workload
contestants() {
  local section=$1 count=$2 args=$3
  local -a list=(floor "$FLOOR $args")
  if [ -x "$FLOOR_FAST" ]; then list+=(floor-fast "$FLOOR_FAST $args")
  else na "$section" floor-fast "$count" "bench_floor_fast not built"; fi
  if [ -n "$SDK" ]; then list+=(sdk "$SDK $args"); else na "$section" sdk "$count" "$SDK_REASON"; fi
  if [ -n "$TS_SDK" ]; then list+=(ts "$TS $args"); else na "$section" ts "$count" "$TS_REASON"; fi
  if [ "$HAVE_NODE" = 1 ]; then list+=(js "$JS $args"); else na "$section" js "$count" "$NODE_REASON"; fi
  rounds "$section" "$count" "${list[@]}"
}

# ---- 1. generation ----------------------------------------------------------------------------
if want generation; then
  log "bench: generation"
  local_list=()
  if "$SDKC" generate "$CONTRACT" --lang c --prefix oc --out "$TMP/gen-c" >/dev/null 2>"$TMP/gen.err"; then
    local_list+=(sdkc "$SDKC generate $CONTRACT --lang c --prefix oc --out $TMP/gen-c")
  else
    na generation sdkc 1 "sdkc generate failed: $(head -1 "$TMP/gen.err")"
  fi
  if "$SDKC" generate "$CONTRACT" --lang ts --out "$TMP/gen-ts" >/dev/null 2>"$TMP/gen.err"; then
    local_list+=(sdkc-ts "$SDKC generate $CONTRACT --lang ts --out $TMP/gen-ts")
  else
    na generation sdkc-ts 1 "sdkc generate --lang ts failed: $(head -1 "$TMP/gen.err")"
  fi
  if [ "$HAVE_NODE" = 1 ]; then
    local_list+=(hey-api "$NODE_DIR/node_modules/.bin/openapi-ts -i $CONTRACT -o $TMP/gen-hey -c @hey-api/client-fetch")
    local_list+=(openapi-typescript "$NODE_DIR/node_modules/.bin/openapi-typescript $CONTRACT -o $TMP/gen-oat.ts")
  else
    na generation hey-api 1 "$NODE_REASON"
    na generation openapi-typescript 1 "$NODE_REASON"
  fi
  [ ${#local_list[@]} -gt 0 ] && rounds generation 1 "${local_list[@]}"
fi

# ---- 2, 4, 5: canned server -------------------------------------------------------------------
if want unary || want sse || want pages; then
  start_canned "$N_PAGES"
  if want unary; then
    log "bench: unary calls against the canned server ($CANNED)"
    contestants unary-canned "$N_UNARY" "unary $CANNED $N_UNARY"
  fi
  if want sse; then
    log "bench: SSE ($N_SSE_SMALL and $N_SSE events)"
    WARM=0
    contestants sse-small "$N_SSE_SMALL" "sse $CANNED ses_bench_$N_SSE_SMALL $N_SSE_SMALL"
    contestants sse-large "$N_SSE" "sse $CANNED ses_bench_$N_SSE $N_SSE"
  fi
  if want pages; then
    log "bench: pagination ($N_PAGES_SMALL and $N_PAGES items, pages of 100)"
    stop_canned
    start_canned "$N_PAGES_SMALL"
    contestants pages-small "$N_PAGES_SMALL" "pages $CANNED $N_PAGES_SMALL"
    stop_canned
    start_canned "$N_PAGES"
    contestants pages-large "$N_PAGES" "pages $CANNED $N_PAGES"
  fi
  stop_canned
  WARM=1
fi

# ---- 3. real server ---------------------------------------------------------------------------
if want real; then
  log "bench: unary calls against the real OpenCode server"
  PORT=$(( 42000 + RANDOM % 2000 ))
  if out=$("$ROOT/scripts/opencode-server.sh" start "$PORT" 2>"$TMP/real.err"); then
    read -r REAL_PID REAL_DIR <<<"$out"
    REAL=http://127.0.0.1:$PORT
    for i in $(seq 1 100); do
      curl -fsS -o /dev/null -X POST -H 'content-type: application/json' \
        -d "{\"title\":\"Benchmark session $i: refactor the request builder\"}" "$REAL/session"
    done
    contestants unary-real "$N_REAL" "unary $REAL $N_REAL"
  else
    for who in floor sdk ts js; do na unary-real "$who" "$N_REAL" "opencode server did not start"; done
  fi
fi

# ---- 6. concurrency ---------------------------------------------------------------------------
# 1, 100, 1,000 and 10,000 SSE streams open at once (N_CC_EVENTS events spread evenly over them;
# --quick: one run, no node row at 10,000)
# and 1,000 unary calls at once, against the epoll canned server (bench/canned_epoll.c), which
# holds the streams until the client has them all open (then GET /bench/release), so that the
# open phase and the event phase are measured apart. Contestants: the async SDK on one thread
# (the loop engine), the blocking SDK at one thread per stream (up to 1,000) and node's
# @opencode-ai/sdk in one process. Each run prints one key=value line measured in the client
# (bench/concurrency.c, bench/js/concurrency.mjs); connects per call come from the server's
# counters (/bench/stats) around the run.
CC_TSV=$TMP/concurrency.tsv
: >"$CC_TSV"
CC_MODES=
[ -x "$CC_CLIENT" ] && CC_MODES=$("$CC_CLIENT" modes 2>/dev/null || true)
cc_stats() { curl -fsS "$CANNED/bench/stats" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["api_connections"], d["api_requests"])'; }
# cc_row WHO KIND N PER CMD... : one run, one TSV row (who, kind, n, per, status, figures|why).
CC_TAG=0
cc_row() {
  local who=$1 kind=$2 n=$3 per=$4
  shift 4
  local c0 q0 c1 q1
  read -r c0 q0 < <(cc_stats)
  if timeout 300 "$@" >"$TMP/cc.out" 2>"$TMP/cc.err"; then
    read -r c1 q1 < <(cc_stats)
    printf '%s\t%s\t%s\t%s\tok\t%s api_connections=%s api_requests=%s\n' "$who" "$kind" "$n" "$per" \
      "$(tail -1 "$TMP/cc.out")" $((c1 - c0)) $((q1 - q0)) >>"$CC_TSV"
  else
    local why
    why=$(grep -v '^ *at \|^$' "$TMP/cc.err" | head -2 | tr '\t\n' '  ')
    log "bench: concurrency $who $kind $n failed: $why"
    printf '%s\t%s\t%s\t%s\tfail\t%s\n' "$who" "$kind" "$n" "$per" "failed: ${why:-exit status}" >>"$CC_TSV"
  fi
}
cc_na() { printf '%s\t%s\t%s\t%s\tna\t%s\n' "$1" "$2" "$3" "$4" "not available ($5)" >>"$CC_TSV"; }
if want concurrency; then
  if [ ! -x "$EPOLL_SERVER" ] || [ ! -x "$CC_CLIENT" ]; then
    log "bench: concurrency: bench_canned_epoll or bench_concurrency not built (Linux and the generated SDK needed)"
    cc_na async streams 10000 0 "bench_concurrency not built"
  else
    log "bench: concurrency (1 to 10,000 streams, $N_CC_EVENTS events each row; 1,000 unary calls)"
    start_canned 1000 "$EPOLL_SERVER"
    for _ in $(seq 1 "$CC_RUNS"); do
      for n in 1 100 1000 10000; do
        per=$((N_CC_EVENTS / n))
        CC_TAG=$((CC_TAG + 1))
        if [[ $CC_MODES == *streams-async* ]]; then
          cc_row async streams $n $per "$CC_CLIENT" streams-async "$CANNED" $n $per a$CC_TAG
        else
          cc_na async streams $n $per "the async SDK is not built yet: bench_concurrency has no streams-async"
        fi
        if [ $n -le 1000 ]; then
          cc_row threads streams $n $per "$CC_CLIENT" streams-threads "$CANNED" $n $per t$CC_TAG
        fi
        if [ "$HAVE_NODE" = 1 ] && [ "$QUICK" = 1 ] && [ $n -gt 1000 ]; then
          cc_na js streams $n $per "full runs only: node takes most of a minute to open 10,000 streams"
        elif [ "$HAVE_NODE" = 1 ]; then
          cc_row js streams $n $per node "$ROOT/bench/js/concurrency.mjs" streams "$CANNED" $n $per j$CC_TAG
        else
          cc_na js streams $n $per "$NODE_REASON"
        fi
      done
      if [[ $CC_MODES == *unary-async* ]]; then
        cc_row async unary 1000 0 "$CC_CLIENT" unary-async "$CANNED" 1000
      else
        cc_na async unary 1000 0 "the async SDK is not built yet: bench_concurrency has no unary-async"
      fi
      cc_row threads unary 1000 0 "$CC_CLIENT" unary-threads "$CANNED" 1000
      if [ "$HAVE_NODE" = 1 ]; then
        cc_row js unary 1000 0 node "$ROOT/bench/js/concurrency.mjs" unary "$CANNED" 1000
      else
        cc_na js unary 1000 0 "$NODE_REASON"
      fi
    done
    stop_canned
  fi
fi

# ---- instruction counts -----------------------------------------------------------------------
# callgrind's totals do not move with the machine's load: the fair figure for SDK/floor ratios.
# cg WORKLOAD CONTESTANT COUNT CMD... : one TSV row with the instructions executed.
cg() {
  local workload=$1 who=$2 count=$3
  shift 3
  if valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" "$@" >/dev/null 2>"$TMP/cg.err"; then
    printf '%s\t%s\t%s\t%s\n' "$workload" "$who" "$count" \
      "$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/cg.err")" >>"$CG"
  else
    log "bench: callgrind $workload/$who failed: $(tail -1 "$TMP/cg.err")"
  fi
}
if want callgrind; then
  if command -v valgrind >/dev/null; then
    log "bench: instruction counts (callgrind)"
    start_canned 100000
    CG_UNARY=100
    CG_SSE=20000
    cg unary-canned floor $CG_UNARY "$FLOOR" unary "$CANNED" $CG_UNARY
    [ -x "$FLOOR_FAST" ] && cg unary-canned floor-fast $CG_UNARY "$FLOOR_FAST" unary "$CANNED" $CG_UNARY
    [ -n "$SDK" ] && cg unary-canned sdk $CG_UNARY "$SDK" unary "$CANNED" $CG_UNARY
    cg sse floor $CG_SSE "$FLOOR" sse "$CANNED" ses_bench_$CG_SSE $CG_SSE
    [ -x "$FLOOR_FAST" ] && cg sse floor-fast $CG_SSE "$FLOOR_FAST" sse "$CANNED" ses_bench_$CG_SSE $CG_SSE
    [ -n "$SDK" ] && cg sse sdk $CG_SSE "$SDK" sse "$CANNED" ses_bench_$CG_SSE $CG_SSE
    stop_canned
    cg generation sdkc 1 "$SDKC" generate "$CONTRACT" --lang c --prefix oc --out "$TMP/gen-cg"
  else
    log "bench: valgrind not found: no instruction counts"
  fi
fi

# ---- report -----------------------------------------------------------------------------------
mkdir -p "$ROOT/bench/results"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
COMPLETE=0
[ "$QUICK" = 0 ] && [ "$ONLY" = "$ALL_SECTIONS" ] && COMPLETE=1
[ "$COMPLETE" = 1 ] || STAMP=partial-$STAMP
python3 "$ROOT/bench/report.py" "$RAW" "$ROOT/bench/results/$STAMP.json" --callgrind "$CG" --concurrency "$CC_TSV" \
  --runs "$RUNS" --quick "$QUICK" --commit "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  --versions "hey-api=$HEYAPI_VERSION,openapi-typescript=$OAT_VERSION,opencode-sdk=$OCSDK_VERSION,node=$(node --version 2>/dev/null || echo none)"
# latest.json is the last complete run: every section, full counts.
if [ "$COMPLETE" = 1 ]; then
  cp "$ROOT/bench/results/$STAMP.json" "$ROOT/bench/results/latest.json"
  log "bench: figures written to bench/results/$STAMP.json (and latest.json)"
else
  log "bench: figures written to bench/results/$STAMP.json (partial or quick run: latest.json kept)"
fi
