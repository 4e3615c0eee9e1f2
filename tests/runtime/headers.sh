#!/usr/bin/env bash
# The installed face of libsdkrt: every public header compiles on its own (C11, and as C++ when a
# C++ compiler is there), and no runtime source or header carries a note about who wrote it.
# Usage: headers.sh SOURCE_DIR [CC]
set -euo pipefail
src=$1
cc=${2:-cc}
inc=$src/runtime/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
if grep -nE 'Owner:|\(rtcore\)|belongs to the [a-z]+ helper' "$src"/runtime/include/sdkrt/*.h \
    "$src"/runtime/src/*.[ch]; then
  echo "headers.sh: ownership notes left (above)" >&2
  fail=1
fi
cflags=$(pkg-config --cflags jansson)
headers=("$inc"/sdkrt/*.h)
headers+=("$inc"/sdkrt/adapters/*.h) # the loop adapters' (they need no header of their loop)
for h in "${headers[@]}"; do
  name=${h#"$inc"/}
  printf '#include <%s>\n#include <%s>\nint sdkrt_header_probe_(void);\nint sdkrt_header_probe_(void) { return 0; }\n' \
    "$name" "$name" >"$tmp/t.c"
  # shellcheck disable=SC2086
  if ! "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$inc" $cflags "$tmp/t.c"; then
    echo "headers.sh: $name does not compile on its own (twice included)" >&2
    fail=1
  fi
  if command -v c++ >/dev/null 2>&1; then
    cp "$tmp/t.c" "$tmp/t.cpp"
    # shellcheck disable=SC2086
    if ! c++ -std=c++11 -Wall -Werror -fsyntax-only -I"$inc" $cflags "$tmp/t.cpp"; then
      echo "headers.sh: $name does not compile as C++" >&2
      fail=1
    fi
  fi
done
[[ $fail == 0 ]] && echo "headers.sh: ok"
exit $fail
