#!/usr/bin/env bash
# doc-snippet.sh DOC TITLE OUT - the first ```c block after the heading TITLE ("## TITLE",
# "### TITLE", ...) of DOC into OUT.
set -euo pipefail
awk -v t="$2" '/^#+ / && substr($0, index($0, " ") + 1) == t {f = 1}
  f && /^```c$/ {p = 1; next} p && /^```$/ {exit} p' "$1" >"$3.tmp"
[[ -s $3.tmp ]] || { echo "doc-snippet: no C block after the heading '$2' in $1" >&2; exit 1; }
mv "$3.tmp" "$3"
