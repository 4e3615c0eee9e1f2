#!/usr/bin/env bash
# example-tour.sh TOUR SOURCE_DIR - runs examples/opencode_tour against the real server (started
# here with a password): three times with the right password (the third has sessions to page
# through, both ways), then once with a wrong one, which must end in UnauthorizedError.
set -uo pipefail
tour=$1 src=$2
port=$("$src/scripts/opencode-server.sh" port) || { echo "FAIL: no free port found" >&2; exit 1; }
password="tour-$RANDOM$RANDOM"
started=$("$src/scripts/opencode-server.sh" start "$port" "$password") ||
  { echo "FAIL: the opencode server did not start" >&2; exit 1; }
read -r pid dir <<<"$started"
trap '"$src/scripts/opencode-server.sh" stop "$pid" "$dir"' EXIT
url="http://127.0.0.1:$port"
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { grep -qE -- "$2" <<<"$1" || fail "expected /$2/ in the output above"; }

# two runs leave two sessions; the third pages through them one at a time, both ways
for run in 1 2; do
  OPENCODE_SERVER_PASSWORD=$password "$tour" "$url" 2 >/dev/null || fail "run $run exited $?"
done
out=$(OPENCODE_SERVER_PASSWORD=$password "$tour" "$url" 1) || { echo "$out"; fail "third run"; }
echo "$out"
expect "$out" '^forward page 2: 1 sessions'
expect "$out" '^back page 2: 1 sessions'
expect "$out" '^created ses_'
expect "$out" '^admitted msg_[^ ]+ at seq 1$'
expect "$out" 'event seq 1: session.next.prompt.admitted'
expect "$out" '^events after 1 \(resumed\):$'
# resuming after the last sequence seen replays nothing earlier
! grep -A1 '^events after 1' <<<"$out" | grep -q 'event seq 1:' || fail "after=1 replayed seq 1"
expect "$out" 'SessionNotFoundError \(HTTP 404\)'
expect "$out" '  no session ses_does_not_exist'
out=$(OPENCODE_SERVER_PASSWORD=wrong "$tour" "$url" 2) && fail "a wrong password succeeded"
echo "$out"
expect "$out" 'UnauthorizedError \(HTTP 401\)'
echo "PASS"
