#!/usr/bin/env bash
# Start or stop a pinned Prism mock server (@stoplight/prism-cli) on 127.0.0.1.
#   scripts/prism.sh install               install the pinned package into $SDKC_PRISM_DIR
#   scripts/prism.sh start CONTRACT PORT [ARG...]
#                                          start `prism mock CONTRACT --errors ARG...`; prints its PID
#                                          (SDKC_PRISM_ERRORS=0: without --errors, see docs/mock.md)
#   scripts/prism.sh stop PID              stop by PID (and its children)
#   scripts/prism.sh port                  print a port free on 127.0.0.1 (random try)
#   scripts/prism.sh bin                   install, print the prism executable
# Prism needs no network at run time; only the install uses the npm registry.
set -euo pipefail
# shellcheck source=scripts/servers-lib.sh
. "$(dirname "$0")/servers-lib.sh"
PRISM_VERSION=${PRISM_VERSION:-5.16.0}
SDKC_PRISM_DIR=${SDKC_PRISM_DIR:-${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}/prism-$PRISM_VERSION}
BIN="$SDKC_PRISM_DIR/node_modules/.bin/prism"

install() {
  npm_pinned "$SDKC_PRISM_DIR" "@stoplight/prism-cli@$PRISM_VERSION" node_modules/.bin/prism prism
}

start() {
  local contract=$1 port=$2
  shift 2
  install
  # SDKC_PRISM_LOG: where the server's log goes (default: a new file under /tmp, named on stderr).
  local log=${SDKC_PRISM_LOG:-}
  [[ -n $log ]] || log=$(mktemp /tmp/sdkc-prism.XXXXXX.log)
  # setsid: prism runs in its own process group, so stop can end node and anything it spawned.
  local errors=(--errors)
  [[ ${SDKC_PRISM_ERRORS:-1} == 0 ]] && errors=()
  setsid "$BIN" mock "$contract" -h 127.0.0.1 -p "$port" "${errors[@]}" "$@" >"$log" 2>&1 </dev/null &
  local pid=$!
  for _ in $(seq 1 "${SDKC_PRISM_WAIT:-300}"); do
    # Up when Prism says it listens and the port answers (any HTTP status): a port another
    # server took first answers too, but Prism then dies with EADDRINUSE instead of listening.
    if grep -q "is listening on http://127.0.0.1:$port" "$log" 2>/dev/null &&
      kill -0 "$pid" 2>/dev/null &&
      curl -sS --max-time 3 -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then
      echo "prism: $contract on http://127.0.0.1:$port (log $log)" >&2
      echo "$pid"; return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "prism did not come up on port $port; log:" >&2
  cat "$log" >&2 || true
  stop "$pid"
  exit 1
}

stop() {
  local pid=$1
  [[ $pid =~ ^[0-9]+$ ]] || { echo "prism stop: not a PID: $pid" >&2; return 2; }
  # The PID leads its own process group (setsid above): signal the group, then the PID itself.
  kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid" 2>/dev/null || true
}

cmd=${1:-}; shift || true
case $cmd in
  install) install ;;
  start) start "$@" ;;
  stop) stop "$@" ;;
  bin) install; echo "$BIN" ;;
  port) free_port ;;
  *) echo "usage: $0 install | start CONTRACT PORT | stop PID | bin | port" >&2; exit 2 ;;
esac
