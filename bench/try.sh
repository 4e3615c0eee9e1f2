#!/usr/bin/env bash
# bench/try.sh - measure a candidate runtime change without touching the tree: copies runtime/
# and generated/opencode/ to a scratch folder, applies the patches (default: bench/try/*.patch,
# changes proposed to the runtime's owners in docs/performance.md), builds bench_sdk twice
# (as committed, and patched) and prints, for both, callgrind instruction counts of 100 unary
# calls and of 20000 SSE events, and the median CPU and wall time of 100k SSE events (3 runs).
#
# usage: bench/try.sh [PATCH...]   (needs build-bench/bench/bench_canned_server and bench_floor:
#                                   run bench/run.sh --quick --only unary once first)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-bench}
PATCHES=("$@")
if [ ${#PATCHES[@]} -eq 0 ]; then
  shopt -s nullglob
  PATCHES=("$ROOT"/bench/try/*.patch)
  shopt -u nullglob
fi
if [ ${#PATCHES[@]} -eq 0 ]; then
  echo "usage: bench/try.sh PATCH... (no patches under bench/try/)" >&2
  exit 2
fi
TMP=$(mktemp -d /tmp/sdkc-try.XXXXXX)
SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

build() { # build NAME: bench_sdk from $TMP/NAME/{runtime,opencode}
  local d=$TMP/$1
  # shellcheck disable=SC2046
  cc -std=c11 -O2 -g -DNDEBUG -D_POSIX_C_SOURCE=200809L -I"$d/runtime/include" -I"$d/runtime/src" \
    -I"$d/opencode/include" -I"$d/opencode/src" "$d"/runtime/src/*.c "$d"/opencode/src/*.c \
    "$ROOT/bench/sdk.c" -o "$TMP/sdk-$1" $(pkg-config --libs libcurl jansson) -lpthread -lm
}
for v in base patched; do
  mkdir -p "$TMP/$v"
  cp -r "$ROOT/runtime" "$TMP/$v/runtime"
  cp -r "$ROOT/generated/opencode" "$TMP/$v/opencode"
done
for p in "${PATCHES[@]}"; do
  echo "applying ${p#"$ROOT"/}"
  (cd "$TMP/patched" && patch -s -p1 <"$p")
done
build base
build patched

"$BUILD/bench/bench_canned_server" 0 100000 >"$TMP/port" &
SERVER_PID=$!
for _ in $(seq 1 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
URL=http://127.0.0.1:$(head -1 "$TMP/port")

ir() { valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" "$@" 2>&1 >/dev/null |
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-10s %16s %16s %22s\n' "" "unary x100 (Ir)" "SSE x20k (Ir)" "SSE x100k CPU / wall"
for v in floor base patched; do
  bin=$TMP/sdk-$v
  [ "$v" = floor ] && bin=$BUILD/bench/bench_floor
  u=$(ir "$bin" unary "$URL" 100)
  s=$(ir "$bin" sse "$URL" ses_bench_20000 20000)
  : >"$TMP/cpu"
  : >"$TMP/wall"
  for _ in 1 2 3; do
    "$BUILD/bench/bench_rusage" "$TMP/ru" "$bin" sse "$URL" ses_bench_100000 100000 >/dev/null
    read -r wall user sys _ <"$TMP/ru"
    awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}' >>"$TMP/cpu"
    echo "$wall" >>"$TMP/wall"
  done
  printf '%-10s %14.1f M %14.1f M %12.2f s / %5.2f s\n' "$v" "$(awk -v x="$u" 'BEGIN {print x / 1e6}')" \
    "$(awk -v x="$s" 'BEGIN {print x / 1e6}')" "$(median <"$TMP/cpu")" "$(median <"$TMP/wall")"
done
