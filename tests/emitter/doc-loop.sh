#!/usr/bin/env bash
# doc-loop.sh PROG - the complete program of docs/c-sdk.md ("The loop"), built from the document
# itself, run against a port where nothing listens: each async call it starts reports exactly
# once (a TRANSPORT error, on the built-in loop) and the program ends with status 0.
set -euo pipefail
prog=$1
out=$(OC_BASE_URL=http://127.0.0.1:9 OC_USERNAME=opencode OC_PASSWORD=x "$prog" ses_a ses_b ses_c 2>&1) || {
  echo "FAIL: exit status $?: $out" >&2
  exit 1
}
n=$(grep -c "TRANSPORT" <<<"$out" || true)
if [[ $n != 3 ]]; then
  echo "FAIL: expected 3 TRANSPORT lines, got $n:" >&2
  echo "$out" >&2
  exit 1
fi
echo "ok: 3 async calls reported once each"
