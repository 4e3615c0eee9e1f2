#!/usr/bin/env bash
# cli-exit.sh SDKC SOURCE_DIR - exit statuses of `sdkc conform` without a server: 0 for --help,
# 2 for usage and contract errors, 3 for a server that cannot be reached (nothing checked).
set -u
sdkc=$1 src=$2
contract="$src/tests/conformance/data/things.yaml"
fail=0
expect() {
  local want=$1; shift
  "$sdkc" conform "$@" >/dev/null 2>&1
  local got=$?
  if [[ $got != "$want" ]]; then echo "FAIL: sdkc conform $* -> $got, want $want"; fail=1; fi
}
expect 0 --help
expect 2
expect 2 "$contract"
expect 2 --base-url http://127.0.0.1:9
expect 2 "$contract" --base-url http://127.0.0.1:9 --bogus
expect 2 "$contract" --base-url http://127.0.0.1:9 --skip noequals
expect 2 "$contract" --base-url http://127.0.0.1:9 --timeout-ms -5
expect 2 "$contract" --base-url http://127.0.0.1:9 --include 'nothing.*'
expect 2 "$contract" --base-url http://127.0.0.1:9 --password-env SDKC_SURELY_UNSET_VARIABLE
expect 2 "$contract" --base-url ftp://127.0.0.1:9
expect 2 /nonexistent/contract.yaml --base-url http://127.0.0.1:9
expect 2 "$contract" --base-url http://127.0.0.1:9 --checks bogus_check
expect 2 "$contract" --base-url http://127.0.0.1:9 --auth nosuchscheme=HOME
expect 2 "$contract" --base-url http://127.0.0.1:9 --auth basic=SDKC_SURELY_UNSET_VARIABLE
expect 2 "$contract" --base-url http://127.0.0.1:9 --header novalue
expect 2 "$contract" --base-url http://127.0.0.1:9 --param novalue
expect 2 "$contract" --base-url http://127.0.0.1:9 -j 0
# HOME holds no colon: not user:password for a basic scheme
HOME=/nocolon expect 2 "$contract" --base-url http://127.0.0.1:9 --auth basic=HOME
# port 9 (discard) is closed on the test machines: every probe is a transport skip -> 3
expect 3 "$contract" --base-url http://127.0.0.1:9 --timeout-ms 2000
exit $fail
