#!/usr/bin/env bash
# bench/compile.sh - how long `sdkc compile` takes on the OpenCode contract, next to the aim
# (<= 25 ms median, load included) and to the floor: libyaml alone parsing the same file to
# events (bench/yaml_floor.c, built here). Medians of hyperfine runs; on a busy 2-core machine
# the figures are noisy, so compare the two rows of one run rather than runs with each other.
#
# usage: bench/compile.sh [BUILD_DIR]   (default: build-bench, configured Release if absent)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build-bench}
CONTRACT=$ROOT/spec/opencode/openapi.json
AIM_MS=25
RUNS=${RUNS:-40}

if ! command -v hyperfine >/dev/null; then
  echo "hyperfine not found; installing it with apt-get" >&2
  apt-get install -y hyperfine >/dev/null
fi
if [ ! -x "$BUILD/cli/sdkc" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSDKC_BUILD_TESTS=OFF >/dev/null
  cmake --build "$BUILD" --target sdkc-cli -j2 >/dev/null
fi
mkdir -p "$BUILD/bench"
FLOOR=$BUILD/bench/yaml_floor
if [ ! -x "$FLOOR" ] || [ "$ROOT/bench/yaml_floor.c" -nt "$FLOOR" ]; then
  # shellcheck disable=SC2046
  cc -std=c11 -O2 -o "$FLOOR" "$ROOT/bench/yaml_floor.c" $(pkg-config --cflags --libs yaml-0.1)
fi
"$BUILD/cli/sdkc" compile "$CONTRACT" >/dev/null # fails loudly if the contract does not compile

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
hyperfine -N --warmup 5 --runs "$RUNS" --export-json "$TMP/compile.json" \
  "$BUILD/cli/sdkc compile $CONTRACT" >/dev/null
hyperfine -N --warmup 5 --runs "$RUNS" --export-json "$TMP/floor.json" \
  "$FLOOR $CONTRACT" >/dev/null

median_ms() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f %.1f %.1f" % (r["median"]*1e3, r["user"]*1e3, r["system"]*1e3))' "$1"
}
read -r C_MED C_USR C_SYS < <(median_ms "$TMP/compile.json")
read -r F_MED F_USR F_SYS < <(median_ms "$TMP/floor.json")
VERDICT=$(python3 -c "import sys; print('within the aim' if float(sys.argv[1]) <= float(sys.argv[2]) else 'OVER the aim')" "$C_MED" "$AIM_MS")
SIZE_KB=$(( $(stat -c %s "$CONTRACT") / 1024 ))

printf 'OpenCode contract: %s (%d KB), %d runs each, medians (user/sys are means)\n' \
  "${CONTRACT#"$ROOT"/}" "$SIZE_KB" "$RUNS"
printf '  %-34s %8s %10s %10s\n' "" "median" "user" "sys"
printf '  %-34s %6s ms %7s ms %7s ms   aim <= %d ms: %s\n' "sdkc compile (load+compile+write)" \
  "$C_MED" "$C_USR" "$C_SYS" "$AIM_MS" "$VERDICT"
printf '  %-34s %6s ms %7s ms %7s ms   floor (~14 ms expected)\n' "libyaml parse only (yaml_floor)" \
  "$F_MED" "$F_USR" "$F_SYS"
python3 -c "import sys; print('  compile / floor: %.2fx' % (float(sys.argv[1]) / float(sys.argv[2])))" "$C_MED" "$F_MED"
