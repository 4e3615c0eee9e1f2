#!/usr/bin/env bash
# libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined).
#   scripts/fuzz.sh --list            name the targets
#   scripts/fuzz.sh TARGET SECONDS    build what it needs, run one target for SECONDS
#   scripts/fuzz.sh --smoke [SECONDS] run every target briefly (CI; default 15 s each, two at a
#                                     time: FUZZ_JOBS)
# The seed corpus is fuzz/corpus/TARGET (read-only); new inputs go to build-fuzz/corpus/TARGET.
# A crasher is written to fuzz/crashers/TARGET/; keep it in fuzz/corpus/TARGET as a regression
# input once fixed (CTest replays the corpus in every build).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${FUZZ_BUILD:-build-fuzz}
targets() { sed -n 's/^set(SDKC_FUZZ_TARGETS \(.*\))$/\1/p' fuzz/CMakeLists.txt | tr ' ' '\n' | cut -d: -f1; }
build() {
  CC=clang cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSDKC_FUZZ=ON \
    -DSDKC_SANITIZE=address,undefined -DSDKC_BUILD_TESTS=OFF -DSDKC_BUILD_GENERATED=ON \
    -DSDKC_BUILD_BENCH=OFF >/dev/null
  cmake --build "$BUILD" -j2 --target "$@"
}
run() { # target seconds
  local t=$1 secs=$2
  mkdir -p "$BUILD/corpus/$t" "fuzz/crashers/$t"
  local extra=()
  [[ -f fuzz/$t.dict ]] && extra+=(-dict="fuzz/$t.dict")
  echo "== fuzz $t for ${secs}s"
  local log="$BUILD/fuzz-$t.log" rc=0
  "$BUILD/fuzz/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 -max_len="${FUZZ_MAX_LEN:-65536}" \
    -timeout=10 -rss_limit_mb=4096 -artifact_prefix="fuzz/crashers/$t/" "${extra[@]}" \
    "$BUILD/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)" "$log" || true
  if ((rc)); then
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -20
    echo "fuzz $t: FAILED (exit $rc); the input is under fuzz/crashers/$t/" >&2
  fi
  rmdir "fuzz/crashers/$t" 2>/dev/null || true
  return "$rc"
}
case ${1:-} in
  --list) targets ;;
  --smoke)
    secs=${2:-15}
    mapfile -t all < <(targets)
    build "${all[@]/#/fuzz_}"
    # Two targets at a time (FUZZ_JOBS): each fuzzer is one process on one core, so on two cores
    # every target still gets SECONDS of a core; the outputs are printed in order.
    jobs=${FUZZ_JOBS:-2} failed=0
    declare -A pid=()
    for i in "${!all[@]}"; do
      t=${all[i]}
      run "$t" "$secs" >"$BUILD/smoke-$t.out" 2>&1 &
      pid[$t]=$!
      if ((i + 1 >= jobs)); then
        done_t=${all[i + 1 - jobs]}
        wait "${pid[$done_t]}" || failed=1
        cat "$BUILD/smoke-$done_t.out"
      fi
    done
    for ((i = ${#all[@]} - jobs + 1; i < ${#all[@]}; i++)); do
      ((i >= 0)) || continue
      wait "${pid[${all[i]}]}" || failed=1
      cat "$BUILD/smoke-${all[i]}.out"
    done
    exit "$failed" ;;
  ""|-h|--help) sed -n '2,8p' "$0" ;;
  *)
    t=$1; secs=${2:-60}
    targets | grep -qx "$t" || { echo "fuzz.sh: unknown target '$t' (try --list)" >&2; exit 2; }
    build "fuzz_$t"
    run "$t" "$secs" ;;
esac
