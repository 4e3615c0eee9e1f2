#!/usr/bin/env bash
# run.sh SDKC SOURCE_DIR WORK_DIR - the TypeScript SDK tests: generate the OpenCode v2 SDK and the
# SDKs of inputs.yaml, successes.yaml, the pagination styles (tests/compiler/data/pages/styles.yaml)
# and the declared errors (tests/compiler/data/compile/real/responses.yaml),
# compile them with the tests under `strict`, `exactOptionalPropertyTypes` and
# `noUncheckedIndexedAccess` with the oldest and the newest pinned TypeScript (scripts/ts-tools.sh),
# and run the tests with node over the in-memory transport. Exit 77 (skipped) when node is absent.
set -euo pipefail
sdkc=$1 src=$2 w=$3
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed (the TypeScript SDK tests need node >= 20)"
  exit 77
fi
tsc=$("$src/scripts/ts-tools.sh" tsc oldest)
tsc_newest=$("$src/scripts/ts-tools.sh" tsc newest)
rm -rf "$w"
mkdir -p "$w/test"
"$sdkc" generate "$src/spec/opencode/openapi.json" --lang ts --prefix opencode-sdkc --include 'v2.*' \
  --quiet --out "$w/opencode"
"$sdkc" generate "$src/tests/emitter/data/inputs.yaml" --lang ts --quiet --out "$w/inputs"
"$sdkc" generate "$src/tests/compiler/data/pages/styles.yaml" --lang ts --quiet --out "$w/pages"
"$sdkc" generate "$src/tests/emitter/data/successes.yaml" --lang ts --tests --quiet --out "$w/successes"
"$sdkc" generate "$src/tests/compiler/data/compile/real/responses.yaml" --lang ts --quiet \
  --out "$w/responses"
cp "$src"/tests/emitter/ts/*.ts "$w/test/"
printf '{"type":"module","private":true}\n' >"$w/package.json"
cat >"$w/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "strict": true,
    "exactOptionalPropertyTypes": true, "noUncheckedIndexedAccess": true,
    "rootDir": ".", "outDir": "dist"
  },
  "include": ["test", "opencode/src", "inputs/src", "pages/src", "successes/src", "successes/tests",
              "responses/src"]
}
JSON
(cd "$w" && "$tsc" -p .)
echo "tsc $("$tsc" --version | cut -d' ' -f2): ok"
(cd "$w" && "$tsc_newest" -p . --noEmit)
echo "tsc $("$tsc_newest" --version | cut -d' ' -f2): ok"
rc=0
# stream-memory.test.ts measures live memory (--expose-gc) and rss, which V8 would otherwise grow
# with its young generation (from 1 to 16 MiB semi-spaces in a busy loop) whatever is live.
for t in "$w"/dist/test/*.test.js; do
  node --expose-gc --max-semi-space-size=1 "$t" || rc=1
done
exit $rc
