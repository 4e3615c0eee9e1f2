#!/usr/bin/env bash
# example-ocwatch.sh OCWATCH SOURCE_DIR OCTAIL - runs examples/ocwatch against the real server
# (started here with a password; sessions and prompts made with examples/octail): two sessions
# listed (one per page), a third discovered from the instance-wide event stream while ocwatch
# runs, prompts admitted in all three before and after a server restart (stopped by PID while
# ocwatch runs, started again on the same port and data): every admitted prompt's event arrives
# exactly once per session, in order, each follower and the event stream report their reconnects,
# no session is followed twice, and Ctrl-C ends every follower with CANCELLED and exits 0.
set -uo pipefail
ocwatch=$1 src=$2 octail=$3
server="$src/scripts/opencode-server.sh"
port=$("$server" port) || { echo "FAIL: no free port found" >&2; exit 1; }
password="ocwatch-$RANDOM$RANDOM"
started=$("$server" start "$port" "$password") || { echo "FAIL: the opencode server did not start" >&2; exit 1; }
read -r pid dir <<<"$started"
bg='' log=$(mktemp)
trap '[[ -n $bg ]] && kill "$bg" 2>/dev/null; "$server" stop "$pid" "$dir"; rm -f "$log"' EXIT
url="http://127.0.0.1:$port"
export OC_PASSWORD=$password
fail() { echo "FAIL: $*" >&2; exit 1; }
say() { "$octail" "$url" say "$1" "$2" >/dev/null || fail "say $2 in $1"; }
# Poll ocwatch's output (a loaded machine is slow; no fixed sleeps): up to 60 s for a line.
wait_for() {
  for _ in $(seq 1 600); do
    grep -qE -- "$1" "$log" && return 0
    kill -0 "$bg" 2>/dev/null || break
    sleep 0.1
  done
  cat "$log"
  fail "no line /$1/ in ocwatch's output above"
}

a=$("$octail" "$url" new) || fail "new"
b=$("$octail" "$url" new) || fail "new"
[[ $a == ses* && $b == ses* ]] || fail "new printed '$a' '$b'"
say "$a" zero # before ocwatch starts: its follower delivers it from the start

# One session per page: the list continues page by page. A stream silent for 5 s reconnects: a
# connection the restarting server accepts before it serves is given up soon.
"$ocwatch" "$url" --page-size 1 --timeout 5000 >"$log" 2>&1 &
bg=$!
wait_for "^$a watch from list$"
wait_for "^$b watch from list$"
wait_for "^$a seq 1 session\.next\.prompt\.admitted$"
say "$a" one
say "$b" one
c=$("$octail" "$url" new) || fail "new (third)"
wait_for "^$c watch from events$"
say "$c" one
wait_for "^$a seq 2 "
wait_for "^$b seq 1 "
wait_for "^$c seq 1 "

"$server" kill "$pid"
restarted=$("$server" restart "$port" "$password" "$dir") || { cat "$log"; fail "the server did not restart"; }
read -r pid dir <<<"$restarted"
for s in "$a" "$b" "$c"; do say "$s" two; done
wait_for "^$a seq 3 "
wait_for "^$b seq 2 "
wait_for "^$c seq 2 "

kill -INT "$bg"
for _ in $(seq 1 50); do kill -0 "$bg" 2>/dev/null || break; sleep 0.1; done
kill -0 "$bg" 2>/dev/null && { cat "$log"; fail "ocwatch still runs 5 s after Ctrl-C"; }
wait "$bg"
rc=$?
bg=
out=$(cat "$log")
echo "$out"
[[ $rc == 0 ]] || fail "ocwatch exited with $rc after Ctrl-C"
check() { grep -qE -- "$1" <<<"$out" || fail "expected /$1/ in the output above"; }
count() { local n; n=$(grep -cE -- "$1" <<<"$out"); [[ $n == "$2" ]] || fail "/$1/: $n lines (want $2)"; }
for s in "$a:1 2 3 " "$b:1 2 " "$c:1 2 "; do
  id=${s%%:*} want=${s#*:}
  seqs=$(grep -oE "^$id seq [0-9]+ " <<<"$out" | awk '{print $3}' | tr '\n' ' ')
  [[ $seqs == "$want" ]] || fail "$id: events seen '$seqs' (want '$want', each once, in order)"
  check "^$id reconnect [0-9]+ after [0-9]+ in [0-9]+ ms: "
  count "^$id watch from " 1
  count "^$id end: " 1
  count "^$id end: CANCELLED$" 1
done
count " watch from " 3
check "^events reconnect 1 in [0-9]+ ms: "
count "^events end: CANCELLED$" 1
count "^stopped$" 1
echo "PASS"
