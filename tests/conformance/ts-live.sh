#!/usr/bin/env bash
# ts-live.sh SDKC SOURCE_DIR WORK_DIR - the generated OpenCode TypeScript SDK against the real
# server (tests/conformance/ts/live.test.ts, compiled with tsc --strict, run with node). Exit 77
# (skipped) when node is absent.
set -euo pipefail
sdkc=$1 src=$2 w=$3
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed (the TypeScript SDK tests need node >= 20)"
  exit 77
fi
tsc=$("$src/scripts/ts-tools.sh" tsc)
rm -rf "$w"
mkdir -p "$w/test"
"$sdkc" generate "$src/spec/opencode/openapi.json" --lang ts --include 'v2.*' --quiet --out "$w/opencode"
cp "$src/tests/conformance/ts/live.test.ts" "$src/tests/emitter/ts/harness.ts" "$w/test/"
printf '{"type":"module","private":true}\n' >"$w/package.json"
cat >"$w/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "strict": true, "rootDir": ".", "outDir": "dist"
  },
  "include": ["test", "opencode/src"]
}
JSON
(cd "$w" && "$tsc" -p .)
port=$("$src/scripts/opencode-server.sh" port)
password="ts-$RANDOM$RANDOM"
started=$("$src/scripts/opencode-server.sh" start "$port" "$password")
read -r pid dir <<<"$started"
trap '"$src/scripts/opencode-server.sh" stop "$pid" "$dir"' EXIT
SDKC_OPENCODE_URL="http://127.0.0.1:$port" OPENCODE_SERVER_PASSWORD=$password \
  node "$w/dist/test/live.test.js"
