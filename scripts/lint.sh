#!/usr/bin/env bash
# Refuse banned C functions in our sources (generated code included).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files -co --exclude-standard -- '*.c' '*.h' | grep -v '^bench/.cache/' || true)
[[ -z $files ]] && exit 0
if grep -nE '(^|[^_a-zA-Z0-9>.])(sprintf|vsprintf|strcpy|strcat|atoi|atol|gets|strtok)[[:space:]]*\(' $files; then
  echo "lint: banned function used (use snprintf, memcpy with lengths, strtol, strtok_r)" >&2
  exit 1
fi
scripts/check-layers.sh >/dev/null
echo "lint: ok"
