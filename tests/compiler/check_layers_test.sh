#!/usr/bin/env bash
# check_layers_test.sh SOURCE_DIR - scripts/check-layers.sh on copies of ir/src: it passes the
# copy as it is and fails each planted violation (a stage including a higher stage, a file
# including another stage's internal header, a file in no layer), so that its pass means something.
set -euo pipefail
src=${1:?source dir}
check=$src/scripts/check-layers.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() { # expect STATUS NEEDLE DIR
  local want=$1 needle=$2 dir=$3 rc=0
  "$check" "$dir" >"$tmp/out.txt" 2>&1 || rc=$?
  if [[ $rc -ne $want ]] || ! grep -q -- "$needle" "$tmp/out.txt"; then
    echo "FAIL: check-layers on $(basename "$dir") gave $rc (want $want and '$needle'):"
    cat "$tmp/out.txt"
    fails=$((fails + 1))
  else
    echo "ok: $(basename "$dir") -> $rc"
  fi
}
fresh() { rm -rf "$tmp/$1"; cp -r "$src/ir/src" "$tmp/$1"; }
fresh clean
expect 0 "check-layers: ok" "$tmp/clean"
fresh upward
printf '#include "ops.h"\n' >>"$tmp/upward/schema_kinds.c"
expect 1 'schema_kinds.c (layer 4) includes "ops.h" (layer 6)' "$tmp/upward"
fresh base
printf '#include "context.h"\n' >>"$tmp/base/map.c"
expect 1 'map.c (layer 0) includes "context.h"' "$tmp/base"
fresh internal
printf '#include "schema_internal.h"\n' >>"$tmp/internal/paging.c"
expect 1 'paging.c includes "schema_internal.h", the internal header of another stage' \
  "$tmp/internal"
fresh unknown
printf 'int x;\n' >"$tmp/unknown/stray.c"
expect 1 "stray.c is in no layer" "$tmp/unknown"
exit $fails
