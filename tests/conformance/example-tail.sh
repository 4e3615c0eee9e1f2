#!/usr/bin/env bash
# example-tail.sh TAIL SOURCE_DIR - runs examples/opencode_tail against the real server (started
# here with a password): a session with two admitted prompts is tailed from the start, then
# resumed with --after 1 (seq 1 must not come back), then tailed while a third prompt is admitted
# (it must arrive on the open stream), all reading durable.seq through the union accessor.
set -uo pipefail
tail_bin=$1 src=$2
port=$("$src/scripts/opencode-server.sh" port) || { echo "FAIL: no free port found" >&2; exit 1; }
password="tail-$RANDOM$RANDOM"
started=$("$src/scripts/opencode-server.sh" start "$port" "$password") ||
  { echo "FAIL: the opencode server did not start" >&2; exit 1; }
read -r pid dir <<<"$started"
bg=
trap '[[ -n $bg ]] && kill "$bg" 2>/dev/null; "$src/scripts/opencode-server.sh" stop "$pid" "$dir"' EXIT
url="http://127.0.0.1:$port"
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { grep -qE -- "$2" <<<"$1" || { echo "$1"; fail "expected /$2/ in the output above"; }; }
api() { # METHOD PATH [BODY]
  curl -sf -u "opencode:$password" -X "$1" -H 'Content-Type: application/json' -d "${3:-{\}}" "$url$2"
}
sid=$(api POST /api/session | python3 -c 'import sys, json; print(json.load(sys.stdin)["data"]["id"])') ||
  fail "session create"
for text in one two; do
  api POST "/api/session/$sid/prompt" "{\"prompt\":{\"text\":\"$text\"},\"resume\":false}" >/dev/null ||
    fail "prompt $text"
done
export OPENCODE_SERVER_PASSWORD=$password

out=$("$tail_bin" "$url" "$sid" --idle-exit 2) || { echo "$out"; fail "tail exited $?"; }
echo "$out"
expect "$out" '^seq 1 session.next.prompt.admitted$'
expect "$out" '^seq 2 session.next.prompt.admitted$'
expect "$out" '^idle after 2$'

out=$("$tail_bin" "$url" "$sid" --after 1 --idle-exit 2) || { echo "$out"; fail "resume exited $?"; }
echo "$out"
! grep -q '^seq 1 ' <<<"$out" || fail "--after 1 replayed seq 1"
expect "$out" '^seq 2 session.next.prompt.admitted$'
expect "$out" '^1 events, last seq 2$'

# A prompt admitted while the tail waits arrives on the open stream.
log=$(mktemp)
"$tail_bin" "$url" "$sid" --after 2 --idle-exit 4 >"$log" 2>&1 &
bg=$!
sleep 1
api POST "/api/session/$sid/prompt" '{"prompt":{"text":"three"},"resume":false}' >/dev/null || fail "prompt three"
wait "$bg" || { cat "$log"; fail "live tail exited with an error"; }
bg=
out=$(cat "$log")
rm -f "$log"
echo "$out"
expect "$out" '^seq 3 session.next.prompt.admitted$'
expect "$out" '^idle after 3$'

# A wrong password: a readable error, exit 1.
out=$(OPENCODE_SERVER_PASSWORD=wrong "$tail_bin" "$url" "$sid" --idle-exit 2 2>&1) && fail "a wrong password succeeded"
echo "$out"
expect "$out" 'UnauthorizedError'
echo "PASS"
