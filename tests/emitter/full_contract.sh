#!/usr/bin/env bash
# Generate the whole contract (every operation) and compile the output with gcc and clang under
# -std=c11 -Wall -Wextra -Werror -pedantic. Usage: full_contract.sh CONTRACT OUT_DIR
# (env: SDKC = the sdkc binary, SDKRT_INCLUDE = libsdkrt's include dir, JANSSON_CFLAGS).
set -euo pipefail
contract=$1
out=$2
rm -rf "$out"
"$SDKC" generate "$contract" --lang c --prefix oc --out "$out/sdk"
# Deterministic: a second run gives the same bytes.
"$SDKC" generate "$contract" --lang c --prefix oc --out "$out/again"
diff -r "$out/sdk" "$out/again"
nops=$(grep -c '^| [A-Z]* | `' "$out/sdk/README.md")
echo "full contract: $nops operations generated"
[[ $nops -gt 0 ]]
for cc in gcc clang; do
  command -v "$cc" >/dev/null || { echo "missing $cc" >&2; exit 1; }
  for src in "$out"/sdk/src/*.c; do
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Werror -pedantic ${JANSSON_CFLAGS:-} -I"$out/sdk/include" \
      -I"$out/sdk/src" -I"$SDKRT_INCLUDE" -c "$src" -o "$out/$(basename "$src" .c).$cc.o"
  done
  echo "full contract: compiled with $cc"
done
