#!/usr/bin/env bash
# Start or stop a pinned OpenCode server on 127.0.0.1 in a throwaway home.
#   scripts/opencode-server.sh install            install the pinned package into $SDKC_OPENCODE_DIR
#   scripts/opencode-server.sh start PORT [PASS]  start; prints "PID DIR" (DIR holds the home, log)
#   scripts/opencode-server.sh stop PID DIR       stop by PID and remove DIR
#   scripts/opencode-server.sh kill PID           stop by PID, keeping its DIR
#   scripts/opencode-server.sh restart PORT PASS DIR  start again in DIR (same port, home, data);
#                                                 prints "PID DIR"
#   scripts/opencode-server.sh port               print a port free on 127.0.0.1 (random try)
# The server needs no model provider for what we use (sessions, pages, prompts with resume:false).
set -euo pipefail
# shellcheck source=scripts/servers-lib.sh
. "$(dirname "$0")/servers-lib.sh"
OPENCODE_VERSION=${OPENCODE_VERSION:-1.18.33}
SDKC_OPENCODE_DIR=${SDKC_OPENCODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc/opencode-$OPENCODE_VERSION}
BIN="$SDKC_OPENCODE_DIR/node_modules/opencode-linux-x64/bin/opencode"

install() {
  npm_pinned "$SDKC_OPENCODE_DIR" "opencode-ai@$OPENCODE_VERSION" node_modules/opencode-linux-x64/bin/opencode opencode
}

start() {
  local port=$1 pass=${2:-}
  install
  local dir; dir=$(mktemp -d /tmp/sdkc-opencode.XXXXXX)
  mkdir -p "$dir/home" "$dir/data" "$dir/config" "$dir/cache" "$dir/repo"
  git -C "$dir/repo" init -q
  git -C "$dir/repo" -c user.email=t@example.invalid -c user.name=t commit -q --allow-empty -m init
  launch "$port" "$pass" "$dir"
}

# Start the server in DIR (made by start, kept by kill): the same port, home and data again.
launch() {
  local port=$1 pass=$2 dir=$3
  (
    cd "$dir/repo"
    export HOME="$dir/home" XDG_DATA_HOME="$dir/data" XDG_CONFIG_HOME="$dir/config" XDG_CACHE_HOME="$dir/cache"
    if [[ -n $pass ]]; then export OPENCODE_SERVER_PASSWORD="$pass"; else unset OPENCODE_SERVER_PASSWORD; fi
    exec "$BIN" serve --hostname 127.0.0.1 --port "$port" >>"$dir/server.log" 2>&1
  ) &
  local pid=$!
  local auth=()
  [[ -n $pass ]] && auth=(-u "opencode:$pass")
  for _ in $(seq 1 300); do
    if curl -fsS --max-time 3 -o /dev/null "${auth[@]}" "http://127.0.0.1:$port/doc" 2>/dev/null; then
      echo "$pid $dir"; return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "opencode server did not come up on port $port; log:" >&2
  cat "$dir/server.log" >&2 || true
  kill "$pid" 2>/dev/null || true
  rm -rf "$dir"
  exit 1
}

# Stop the process only (SIGTERM, then SIGKILL), keeping DIR for a restart with `restart`.
kill_only() {
  local pid=$1
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  local pid=$1 dir=$2
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  case $dir in /tmp/sdkc-opencode.*) rm -rf "$dir" ;; esac
}

cmd=${1:-}; shift || true
case $cmd in
  install) install ;;
  start) start "$@" ;;
  stop) stop "$@" ;;
  kill) kill_only "$@" ;;
  restart) install; case ${3:-} in /tmp/sdkc-opencode.*) launch "$@" ;; *) echo "restart: not a server dir" >&2; exit 2 ;; esac ;;
  bin) install; echo "$BIN" ;;
  port) free_port ;;
  *) echo "usage: $0 install | start PORT [PASSWORD] | stop PID DIR | kill PID | restart PORT PASS DIR | bin | port" >&2; exit 2 ;;
esac
