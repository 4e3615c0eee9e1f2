#!/usr/bin/env bash
# package.sh SDKC SOURCE_DIR WORK_DIR - the TypeScript package as another project gets it: generate
# the OpenCode v2 package (with --package-version), `npm pack` it (its prepack script runs tsc into
# dist/), check what the tarball holds, install the tarball into a scratch project, type-check
# package/consumer.ts (which imports the package by name) under strict, exactOptionalPropertyTypes
# and noUncheckedIndexedAccess with the oldest and the newest pinned TypeScript (and under strict
# alone, with moduleResolution Bundler and node), and run it with
# node against the in-memory transport. Offline once scripts/ts-tools.sh has installed TypeScript
# (the only thing it installs, into the SDKC cache); npm gets a scratch cache and --offline.
# Exit 77 (skipped) when node or npm is absent.
set -euo pipefail
sdkc=$1 src=$2 w=$3
for tool in node npm; do
  if ! command -v $tool >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (the TypeScript package test needs node >= 20 and npm)"
    exit 77
  fi
done
fail() { echo "FAIL: $*" >&2; exit 1; }
tsc=$("$src/scripts/ts-tools.sh" tsc oldest)
tsc_newest=$("$src/scripts/ts-tools.sh" tsc newest)
pinned=$("$src/scripts/ts-tools.sh" versions | cut -d' ' -f1)
version=1.2.3-test.1
tarball=sdkc-opencode-$version.tgz
rm -rf "$w"
mkdir -p "$w/app"
export npm_config_cache="$w/npm-cache" npm_config_offline=true npm_config_audit=false \
  npm_config_fund=false npm_config_update_notifier=false

"$sdkc" generate "$src/spec/opencode/openapi.json" --lang ts --prefix @sdkc/opencode \
  --include 'v2.*' --package-version "$version" --quiet --out "$w/pkg"
node -e '
const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const want = { version: process.argv[2], typescript: process.argv[3], prepack: "tsc -p ." };
const got = { version: p.version, typescript: p.devDependencies.typescript, prepack: p.scripts.prepack };
if (JSON.stringify(got) !== JSON.stringify(want)) {
  console.error("package.json:", JSON.stringify(got), "want", JSON.stringify(want));
  process.exit(1);
}' "$w/pkg/package.json" "$version" "$pinned" || fail "package.json"
grep -qF "npm install /path/to/$tarball" "$w/pkg/README.md" || fail "the README does not say how to install $tarball"

# npm pack runs prepack; with no node_modules in the package, its tsc comes from PATH (the pinned one)
(cd "$w/pkg" && PATH="$(dirname "$tsc"):$PATH" npm pack --silent --pack-destination "$w" >/dev/null) ||
  fail "npm pack"
[[ -f $w/$tarball ]] || fail "npm pack did not write $tarball ($(ls "$w"))"
tar tzf "$w/$tarball" | sort >"$w/files.txt"
for f in package.json README.md src/index.ts src/runtime.ts; do
  grep -qx "package/$f" "$w/files.txt" || fail "$f missing from the tarball"
done
for m in index client types errors runtime; do
  for ext in js d.ts js.map d.ts.map; do
    grep -qx "package/dist/$m.$ext" "$w/files.txt" || fail "dist/$m.$ext missing from the tarball"
  done
done
if grep -v -e '^package/dist/' -e '^package/src/' -e '^package/package.json$' -e '^package/README.md$' \
  "$w/files.txt"; then
  fail "the tarball holds more than dist/, src/, package.json and README.md"
fi
echo "npm pack: $tarball, $(wc -l <"$w/files.txt") files"

cd "$w/app"
printf '{ "name": "app", "private": true, "type": "module" }\n' >package.json
npm install --silent "$w/$tarball" || fail "npm install $tarball"
node -e 'const v = require("@sdkc/opencode/package.json").version;
if (v !== process.argv[1]) { console.error("installed version", v); process.exit(1); }' "$version" ||
  fail "installed package version"
cp "$src/tests/emitter/ts/package/consumer.ts" .
cat >tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "strict": true,
    "exactOptionalPropertyTypes": true, "noUncheckedIndexedAccess": true, "skipLibCheck": false,
    "outDir": "dist"
  },
  "files": ["consumer.ts"]
}
JSON
"$tsc" -p . || fail "tsc $pinned: the consumer does not type-check against the package"
# the newest TypeScript; strict alone (the package's .d.ts under both settings), with the
# resolutions of bundlers (exports) and of older projects (the top-level types)
"$tsc_newest" -p . --noEmit || fail "tsc newest: the consumer does not type-check"
"$tsc_newest" -p . --noEmit --exactOptionalPropertyTypes false --noUncheckedIndexedAccess false \
  --module ESNext --moduleResolution Bundler || fail "tsc newest (strict, Bundler): the consumer does not type-check"
"$tsc" -p . --noEmit --exactOptionalPropertyTypes false --noUncheckedIndexedAccess false \
  --module ES2022 --moduleResolution node || fail "tsc $pinned (strict, node): the consumer does not type-check"
node dist/consumer.js || fail "the consumer script"
