#!/usr/bin/env bash
# Re-capture spec/opencode/openapi.json from the pinned OpenCode server, byte for byte as served.
# Installs opencode-ai@$OPENCODE_VERSION from npm into a temporary folder, starts it on 127.0.0.1
# in a throwaway home, fetches GET /doc, and stops it by PID.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export OPENCODE_VERSION=${OPENCODE_VERSION:-1.18.33}
tmp=$(mktemp -d /tmp/sdkc-capture.XXXXXX)
export SDKC_OPENCODE_DIR=$tmp/npm
port=${PORT:-$((20000 + RANDOM % 20000))}
read -r pid dir < <("$here/../scripts/opencode-server.sh" start "$port")
trap '"$here/../scripts/opencode-server.sh" stop "$pid" "$dir"; rm -rf "$tmp"' EXIT
curl -fsS --max-time 60 -o "$here/opencode/openapi.json" "http://127.0.0.1:$port/doc"
printf 'opencode-ai@%s\n' "$OPENCODE_VERSION" > "$here/opencode/VERSION"
sha256sum "$here/opencode/openapi.json" | cut -d' ' -f1 > "$here/opencode/openapi.json.sha256"
echo "captured $(wc -c < "$here/opencode/openapi.json") bytes from opencode-ai@$OPENCODE_VERSION"
