#!/usr/bin/env bash
# opencode-conform.sh SDKC SOURCE_DIR WORK_DIR [ARG...] - the real-server conformance test
# (ARGs go to sdkc conform: `-j 4`).
# Starts the pinned OpenCode server (scripts/opencode-server.sh) with a password, runs
# `sdkc conform` over the v2 operations (`v2.*`), and compares the deviations
# with the reviewed list tests/conformance/known-deviations-1.18.33.json: any new or vanished
# deviation fails. A missing npm or a server that does not start FAILS (never a silent pass).
set -uo pipefail
sdkc=$1 src=$2 work=$3
shift 3
known="$src/tests/conformance/known-deviations-1.18.33.json"
mkdir -p "$work"
tag=$(IFS=; echo "$*") # "-j4" for `-j 4`: each run its own report
report="$work/conform-opencode$tag.json"

if ! command -v npm >/dev/null 2>&1 && [[ ! -x ${SDKC_OPENCODE_DIR:-$HOME/.cache/sdkc/opencode-1.18.33}/node_modules/opencode-linux-x64/bin/opencode ]]; then
  echo "FAIL: npm is not installed, so the pinned opencode-ai@1.18.33 server cannot be installed" >&2
  echo "      (install Node.js/npm, or run scripts/opencode-server.sh install once)" >&2
  exit 1
fi

# A free port on 127.0.0.1: try a few at random.
port=$("$src/scripts/opencode-server.sh" port) || { echo "FAIL: no free port found" >&2; exit 1; }

password="conform-$RANDOM$RANDOM"
if ! started=$("$src/scripts/opencode-server.sh" start "$port" "$password"); then
  echo "FAIL: the opencode server did not start (see above)" >&2
  exit 1
fi
read -r pid dir <<<"$started"
trap '"$src/scripts/opencode-server.sh" stop "$pid" "$dir"' EXIT

export SDKC_CONFORM_PASSWORD="$password"
# SDKC_VALGRIND=1 runs sdkc itself under valgrind (CTest's memcheck would only check bash); the
# longer per-request timeout keeps valgrind's slowdown from turning answers into skips.
# A request timeout of 20 s rather than the default 5: the first GET of a session on a fresh
# server took 3.7 s alone on the shared machine, and a CI machine under the suite's load is no
# quieter. A timeout is still a deviation the list does not have, so a hang still fails.
wrap=() extra=(--timeout-ms 20000)
if [[ ${SDKC_VALGRIND:-} == 1 ]]; then
  wrap=(valgrind -q --trace-children=yes --leak-check=full --errors-for-leak-kinds=definite,indirect
        --error-exitcode=4) # sdkc conform execs sdkc-conform
  extra=(--timeout-ms 30000)
fi
"${wrap[@]}" "$sdkc" conform "$src/spec/opencode/openapi.json" --base-url "http://127.0.0.1:$port" \
  --password-env SDKC_CONFORM_PASSWORD --include 'v2.*' \
  --report "$report" --known "$known" "${extra[@]}" "$@"
rc=$?
echo "report: $report"
case $rc in
  0) echo "PASS: deviations match the reviewed list $known" ;;
  1) echo "FAIL: deviations differ from the reviewed list (NEW/VANISHED lines above)" >&2 ;;
  3) echo "FAIL: nothing was really checked (every operation skipped or refused)" >&2 ;;
  4) echo "FAIL: valgrind found memory errors or leaks in sdkc conform (above)" >&2 ;;
  *) echo "FAIL: sdkc conform could not run (exit $rc)" >&2 ;;
esac
exit $rc
