#!/usr/bin/env bash
# example-octail.sh OCTAIL SOURCE_DIR - runs examples/octail against the real server (started
# here with a password): new, say, ls, log, then a tail that follows the session's durable events
# across a server restart (the server is stopped by PID while the tail runs and started again on
# the same port, home and data): every admitted prompt's seq arrives exactly once, in order, and
# the reconnects are reported.
set -uo pipefail
octail=$1 src=$2
server="$src/scripts/opencode-server.sh"
port=$("$server" port) || { echo "FAIL: no free port found" >&2; exit 1; }
password="octail-$RANDOM$RANDOM"
started=$("$server" start "$port" "$password") || { echo "FAIL: the opencode server did not start" >&2; exit 1; }
read -r pid dir <<<"$started"
bg= log=$(mktemp)
trap '[[ -n $bg ]] && kill "$bg" 2>/dev/null; "$server" stop "$pid" "$dir"; rm -f "$log"' EXIT
url="http://127.0.0.1:$port"
export OC_PASSWORD=$password
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { grep -qE -- "$2" <<<"$1" || { echo "$1"; fail "expected /$2/ in the output above"; }; }

sid=$("$octail" "$url" new) || fail "new"
[[ $sid == ses* ]] || fail "new printed '$sid'"
for text in one two; do
  out=$("$octail" "$url" say "$sid" "$text") || fail "say $text: $out"
  expect "$out" '^admitted msg_[^ ]+ at seq [0-9]+$'
done
out=$("$octail" "$url" ls) || fail "ls"
expect "$out" "^$sid "
out=$("$octail" "$url" log "$sid") || fail "log: $out"

# Tail six events: two before the restart, four after it.
"$octail" "$url" tail "$sid" --count 6 >"$log" 2>&1 &
bg=$!
for _ in $(seq 1 100); do grep -q '^seq 2 ' "$log" && break; sleep 0.1; done
grep -q '^seq 2 ' "$log" || { cat "$log"; fail "the tail did not get the first two events"; }
"$server" kill "$pid"
restarted=$("$server" restart "$port" "$password" "$dir") || { cat "$log"; fail "the server did not restart"; }
read -r pid dir <<<"$restarted"
for text in three four five six; do
  "$octail" "$url" say "$sid" "$text" >/dev/null || fail "say $text after the restart"
done
# a reconnection made while the server starts may hang until octail's 60 s idle timeout (a loaded
# machine starts it slowly): allow for one such wait
for _ in $(seq 1 900); do kill -0 "$bg" 2>/dev/null || break; sleep 0.1; done
kill -0 "$bg" 2>/dev/null && { cat "$log"; fail "the tail did not finish after the restart"; }
wait "$bg" || { cat "$log"; fail "the tail exited with an error"; }
bg=
out=$(cat "$log")
echo "$out"
expect "$out" '^reconnect 1 after 2 '
seqs=$(grep -oE '^seq [0-9]+' <<<"$out" | awk '{print $2}' | tr '\n' ' ')
[[ $seqs == "1 2 3 4 5 6 " ]] || fail "events seen: '$seqs' (want 1 2 3 4 5 6, each once)"

# Ctrl-C stops every command, and no password means no auth: against a server that accepts and
# never answers, ls, say and log wait (they neither refuse to start nor time out in a second) and
# end within seconds of SIGINT with a cancelled call.
unset OC_PASSWORD
silent_port=$("$server" port) || fail "no free port for the silent server"
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(16); held = []
while True:
    c, _ = s.accept(); held.append(c)
' "$silent_port" &
silent=$!
trap '[[ -n $bg ]] && kill "$bg" 2>/dev/null; kill "$silent" 2>/dev/null; "$server" stop "$pid" "$dir"; rm -f "$log"' EXIT
for _ in $(seq 1 100); do (: >/dev/tcp/127.0.0.1/"$silent_port") 2>/dev/null && break; sleep 0.1; done
for cmd in "ls" "say ses_x hello" "log ses_x"; do
  # shellcheck disable=SC2086
  "$octail" "http://127.0.0.1:$silent_port" $cmd >"$log" 2>&1 &
  bg=$!
  sleep 1.5
  kill -0 "$bg" 2>/dev/null || { cat "$log"; fail "octail $cmd ended before Ctrl-C"; }
  kill -INT "$bg"
  for _ in $(seq 1 50); do kill -0 "$bg" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$bg" 2>/dev/null && { cat "$log"; fail "octail $cmd still runs 5 s after Ctrl-C"; }
  wait "$bg"
  bg=
  grep -q CANCELLED "$log" || { cat "$log"; fail "octail $cmd: no cancelled call after Ctrl-C"; }
done
echo "PASS"
