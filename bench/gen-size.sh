#!/usr/bin/env bash
# Generated code size and compile time of the OpenCode C SDK: the v2 subset (what is checked in)
# and the whole contract. Prints figures; asserts nothing. Usage: bench/gen-size.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
case $BUILD in /*) SDKC="$BUILD/cli/sdkc" ;; *) SDKC="$PWD/$BUILD/cli/sdkc" ;; esac
[[ -x $SDKC ]] || { echo "gen-size: $SDKC not found; build first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CFLAGS="-std=c11 -Wall -Wextra -Werror -pedantic"
now() { date +%s.%N; }
measure() {
  local label=$1; shift
  local t0 t1
  t0=$(now)
  "$SDKC" generate spec/opencode/openapi.json --lang c --prefix oc "$@" --out "$tmp/$label"
  t1=$(now)
  local ops types bytes lines
  ops=$(grep -c '^| [A-Z]* | `' "$tmp/$label/README.md")
  types=$(grep -c '^struct ' "$tmp/$label/include/oc/types.h")
  bytes=$(cat "$tmp/$label"/include/oc/*.h "$tmp/$label"/src/*.[ch] | wc -c)
  lines=$(cat "$tmp/$label"/include/oc/*.h "$tmp/$label"/src/*.[ch] | wc -l)
  printf '%-6s operations %4d  C types %5d  code %8d bytes %7d lines  generate %.2f s\n' \
    "$label" "$ops" "$types" "$bytes" "$lines" "$(echo "$t1 - $t0" | bc)"
  for cc in gcc clang; do
    command -v $cc >/dev/null || continue
    for opt in -O0 -O2; do
      t0=$(now)
      for src in "$tmp/$label"/src/*.c; do
        # shellcheck disable=SC2086
        $cc $CFLAGS $opt -I"$tmp/$label/include" -I"$tmp/$label/src" -Iruntime/include \
          -c "$src" -o "$src.$cc.o"
      done
      t1=$(now)
      local obj
      obj=$(cat "$tmp/$label"/src/*.$cc.o | wc -c)
      printf '       %-5s %-3s compile %6.2f s  objects %8d bytes\n' "$cc" "$opt" \
        "$(echo "$t1 - $t0" | bc)" "$obj"
      rm -f "$tmp/$label"/src/*.o
    done
  done
}
measure v2 --include 'v2.*'
measure full
