#!/usr/bin/env bash
# Generate a contract's SDK with its mock test (sdkc generate --tests), build it against the
# in-tree libsdkrt, start a Prism mock server of the same contract and run every operation.
#   tests/mock/run.sh SDKC CONTRACT PREFIX WORKDIR [INCLUDE-GLOB]
# Passes when the mock executable exits 0 (no operation FAILs; SKIPs carry their reason).
# Env: SDKC_MOCK_URL=http://... runs against a server already up instead of starting Prism;
#      SDKC_MOCK_SERVE=OTHER: Prism serves OTHER instead of CONTRACT, and SDKC_MOCK_EXPECT=fail
#      makes the test pass only when the run FAILs with a 4xx (the harness's own check that a
#      request violation is caught);
#      SDKC_MOCK_EXPECT_OUT=FILE: every line of FILE (an extended regex) must match an output line;
#      SDKC_PRISM_ERRORS=1: start Prism with --errors (default 0: a request violation is a 4xx
#      either way, and --errors turns Prism's own invalid mocked responses into 500s; docs/mock.md);
#      SDKC_MOCK_LANG=ts: the TypeScript SDK (--lang ts --tests, PREFIX is its package name),
#      compiled with the pinned tsc and run with node.
set -euo pipefail
if [[ $# -lt 4 ]]; then
  echo "usage: $0 SDKC CONTRACT PREFIX WORKDIR [INCLUDE-GLOB]" >&2; exit 2
fi
sdkc=$1 contract=$2 prefix=$3 work=$4 include=${5:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
contract=$(cd "$(dirname "$contract")" && pwd)/$(basename "$contract")
rm -rf "$work"
mkdir -p "$work"
lang=${SDKC_MOCK_LANG:-c}
gen=("$sdkc" generate "$contract" --lang "$lang" --prefix "$prefix" --out "$work/sdk" --tests --quiet)
[[ -n $include ]] && gen+=(--include "$include")
"${gen[@]}"
if [[ $lang == ts ]]; then
  tsc=$("$root/scripts/ts-tools.sh" tsc)
  "$tsc" -p "$work/sdk/tests" >"$work/build.log" 2>&1 || { head -50 "$work/build.log" >&2; exit 1; }
  mock=(node "$work/sdk/dist-mock/tests/mock.js")
else
  cmake -S "$work/sdk" -B "$work/build" -DCMAKE_BUILD_TYPE=Debug \
    -DSDKRT_SOURCE_DIR="$root/runtime" >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; exit 1; }
  cmake --build "$work/build" --target "${prefix}_mock" -j2 >"$work/build.log" 2>&1 ||
    { tail -50 "$work/build.log" >&2; exit 1; }
  mock=("$work/build/${prefix}_mock")
fi

url=${SDKC_MOCK_URL:-}
pid=
cleanup() { if [[ -n $pid ]]; then "$root/scripts/prism.sh" stop "$pid"; fi; }
trap cleanup EXIT
if [[ -z $url ]]; then
  # a free port can be taken before Prism binds it (other tests' servers): up to three ports
  for try in 1 2 3; do
    port=$("$root/scripts/prism.sh" port)
    if pid=$(SDKC_PRISM_LOG=$work/prism.log SDKC_PRISM_ERRORS=${SDKC_PRISM_ERRORS:-0} \
      "$root/scripts/prism.sh" start "${SDKC_MOCK_SERVE:-$contract}" "$port"); then
      break
    fi
    pid=
    grep -q EADDRINUSE "$work/prism.log" 2>/dev/null && [[ $try -lt 3 ]] || exit 1
  done
  url=http://127.0.0.1:$port
fi
set +e
"${mock[@]}" "$url" | tee "$work/mock.out"
rc=${PIPESTATUS[0]}
set -e
grep -q '^mock: [0-9]* pass, [0-9]* fail, [0-9]* skip$' "$work/mock.out" ||
  { echo "mock: no summary line (crashed?)" >&2; exit 1; }
if [[ $rc -ne 0 && -f $work/prism.log ]]; then
  echo "--- request violations Prism reported ($work/prism.log):"
  grep -E 'VALIDATOR\].*(error|✖)|Violation: request' "$work/prism.log" | head -40 || true
fi
if [[ -n ${SDKC_MOCK_EXPECT_OUT:-} ]]; then
  # Each line of that file is an extended regular expression some output line must match.
  while IFS= read -r re; do
    [[ -z $re ]] && continue
    grep -qE -- "$re" "$work/mock.out" || { echo "mock: no output line matches: $re" >&2; exit 1; }
  done <"$SDKC_MOCK_EXPECT_OUT"
fi
if [[ ${SDKC_MOCK_EXPECT:-pass} == fail ]]; then
  # Expected: exit 1 with a FAIL naming a 4xx status, and the summary still printed.
  if [[ $rc -eq 1 ]] && grep -q '^FAIL .*HTTP 4[0-9][0-9]' "$work/mock.out"; then
    echo "mock: the request violations were caught, as expected"; exit 0
  fi
  echo "mock: expected a FAIL with a 4xx status (exit 1), got exit $rc" >&2; exit 1
fi
exit "$rc"
