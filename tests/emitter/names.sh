#!/usr/bin/env bash
# names.sh SDKC SOURCE_DIR OUT_DIR - every C identifier the emitter makes is unique in its scope
# (tests/emitter/data/names.yaml collects the collisions): the SDK compiles under gcc and clang
# with -Werror -pedantic, and each clash got the documented readable name.
set -euo pipefail
sdkc=$1 src=$2 out=$3
rm -rf "$out"
"$sdkc" generate "$src/tests/emitter/data/names.yaml" --lang c --prefix nm --out "$out/sdk"
h="$out/sdk/include/nm"
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qE -- "$2" "$h/$1" || fail "expected /$2/ in $1"; }
# members: a field spelled like another field's has_/_null companion yields (gets _2)
has types.h 'bool has_valid_until_date;'
has types.h 'char \*valid_until_date;'
has types.h 'bool has_valid_until_date_2;'
has types.h 'bool has_has_valid_until_date_2;'
has types.h 'bool price_null;'
has types.h 'double price;'
has types.h 'char \*price_null_2;'
# a stream variant's functions never take another operation's name
has ops.h 'nm_status nm_feed_stream_open\(nm_client \*client'
has ops.h 'nm_status nm_feed_op_stream_open\(nm_feed_op_stream \*\*out'
# a type named like the runtime's retry policy yields to it: _value
has types.h 'struct nm_retry_policy_value \{'
has types.h 'typedef sdkrt_retry_policy nm_retry_policy;'
# a type named like an operation yields: _value
has types.h 'struct nm_get_thing_value \{'
has ops.h 'nm_status nm_get_thing\(nm_client \*client'
# an operation spelled like another's async form yields (_op); a type named like the loop yields
has ops.h '#define nm_get_thing_async\(client, request, call, done, userdata, err\)'
has ops.h 'nm_status nm_get_thing_async_op\(nm_client \*client'
has types.h 'struct nm_loop_value \{'
has types.h 'typedef sdkrt_loop nm_loop;'
# a type named like another type's function: the later one (in discovery order) yields
has types.h 'struct nm_thing_decode \{'
has types.h 'struct nm_thing_value \{'
# enum constants A + B_C and A_B + C spell the same name: the later type (by name) gets _2
has types.h 'NM_A_B_C = 1 /\* b_c \*/'
has types.h 'NM_A_B_C_2 = 1 /\* c \*/'
# a member spelled UNKNOWN keeps its name; the sentinel yields
has types.h 'NM_STATE_UNKNOWN_VALUE = 0'
has types.h 'NM_STATE_UNKNOWN = 1'
# members starting with a digit or a symbol: no double '_', symbols spelled
has types.h 'NM_MODE_100644 = 1 /\* 100644 \*/'
has types.h 'NM_MODE_PLUS_1 = 2 /\* \+1 \*/'
has types.h 'NM_MODE_MINUS_1 = 3 /\* -1 \*/'
has types.h 'NM_MODE_STAR = 4 /\* \* \*/'
# parameters named body / has_body next to the body
has ops.h 'char \*body_2;'
has ops.h 'char \*has_body_3;'
# error payload accessors yield to functions and types of the same name
has ops.h 'nm_error_status_payload\(const nm_error \*err\);'
has ops.h 'nm_error_error_payload\(const nm_error \*err\);'
has types.h 'struct nm_error_error \{'
if grep -nE '\b[a-z0-9_]+_t[0-9]*\b' "$h"/*.h | grep -vE '\b(u?int[0-9]+_t|size_t|json_t|va_list)\b'; then
  fail "a name ending in _t"
fi
for cc in gcc clang; do
  for f in "$out"/sdk/src/*.c; do
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Werror -pedantic ${JANSSON_CFLAGS:-} -I"$out/sdk/include" \
      -I"$out/sdk/src" -I"$src/runtime/include" -c "$f" -o "$out/$(basename "$f" .c).$cc.o"
  done
done
echo "ok: names unique; compiled with gcc and clang"
