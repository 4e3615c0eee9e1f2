#!/usr/bin/env bash
# Regenerate the checked-in SDKs with exactly the documented commands into a temporary directory
# and fail on any difference from generated/opencode (C) or generated/opencode-ts (TypeScript).
# Usage: scripts/check-generated.sh [BUILD_DIR] (BUILD_DIR holds cli/sdkc; default: build).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
case $BUILD in /*) SDKC="$BUILD/cli/sdkc" ;; *) SDKC="$PWD/$BUILD/cli/sdkc" ;; esac
if [[ ! -x $SDKC ]]; then
  echo "check-generated: $SDKC not found; build first" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Same relative paths as the documented commands so that banners match byte for byte.
mkdir -p "$tmp/generated"
# check DIR ARGS...: `sdkc generate ARGS --out DIR` into the temporary tree must equal DIR.
check() {
  local dir=$1
  shift
  "$SDKC" generate "$@" --out "$tmp/$dir"
  if ! diff -r "$dir" "$tmp/$dir" >"$tmp/diff.txt"; then
    echo "check-generated: $dir differs from a fresh 'sdkc generate' run:" >&2
    head -60 "$tmp/diff.txt" >&2
    echo "check-generated: regenerate with: $SDKC generate $* --out $dir" >&2
    exit 1
  fi
  echo "check-generated: $dir is up to date ($(find "$dir" -type f | wc -l) files)"
}
check generated/opencode spec/opencode/openapi.json --lang c --prefix oc --include 'v2.*' \
  --examples examples
check generated/opencode-ts spec/opencode/openapi.json --lang ts --prefix @sdkc/opencode \
  --include 'v2.*'
