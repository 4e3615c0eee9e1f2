#!/usr/bin/env bash
# Regenerate the checked-in SDK with exactly the documented command into a temporary directory and
# fail on any difference from generated/opencode. Usage: scripts/check-generated.sh [BUILD_DIR]
# (BUILD_DIR holds cli/sdkc; default: build).
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
# Same relative paths as the documented command so that banners match byte for byte.
mkdir -p "$tmp/generated"
"$SDKC" generate spec/opencode/openapi.json --lang c --prefix oc --include 'v2.*' \
  --out "$tmp/generated/opencode"
if ! diff -r generated/opencode "$tmp/generated/opencode" >"$tmp/diff.txt"; then
  echo "check-generated: generated/opencode differs from a fresh 'sdkc generate' run:" >&2
  head -60 "$tmp/diff.txt" >&2
  echo "check-generated: regenerate with: $SDKC generate spec/opencode/openapi.json --lang c" \
    "--prefix oc --include 'v2.*' --out generated/opencode" >&2
  exit 1
fi
echo "check-generated: generated/opencode is up to date ($(find generated/opencode -type f | wc -l) files)"
