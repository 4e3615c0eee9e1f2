#!/usr/bin/env bash
# check_symbols_test.sh SOURCE_DIR CC - scripts/check-symbols.sh on small archives: it passes a
# clean one and fails each planted violation (an unprefixed global, a stage calling the driver,
# no driver object), so that its pass on libsdkc.a means something.
set -euo pipefail
src=${1:?source dir}
cc=${2:-cc}
check=$src/scripts/check-symbols.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat >compile.c <<'C'
int sdkc_stage_run(void);
int sdkc_driver_helper(void) { return 1; }
int sdkc_compile(void) { return sdkc_stage_run() + sdkc_driver_helper(); }
C
cat >stage.c <<'C'
static int helper(void) { return 2; }
int sdkc_stage_run(void) { return helper(); }
C
cat >unprefixed.c <<'C'
int cmap_get(void) { return 3; }
C
cat >upcall.c <<'C'
int sdkc_driver_helper(void);
int sdkc_other_stage(void) { return sdkc_driver_helper(); }
C
for f in compile stage unprefixed upcall; do "$cc" -c -o "$f.c.o" "$f.c"; done
ar rcs good.a compile.c.o stage.c.o
ar rcs unprefixed.a compile.c.o stage.c.o unprefixed.c.o
ar rcs upcall.a compile.c.o stage.c.o upcall.c.o
ar rcs nodriver.a stage.c.o
fails=0
expect() { # expect STATUS NEEDLE ARCHIVE...
  local want=$1 needle=$2 rc=0
  shift 2
  "$check" "$@" >out.txt 2>&1 || rc=$?
  if [[ $rc -ne $want ]] || ! grep -q -- "$needle" out.txt; then
    echo "FAIL: check-symbols $* gave $rc (want $want and '$needle'):"
    cat out.txt
    fails=$((fails + 1))
  else
    echo "ok: check-symbols $* -> $rc"
  fi
}
expect 0 "nothing calls into compile.c.o" good.a
expect 1 "unprefixed.c.o: cmap_get" unprefixed.a
expect 1 "upcall.c.o uses sdkc_driver_helper" upcall.a
expect 2 "no driver object" nodriver.a
expect 1 "sdkc_compile" --prefix oc_ good.a
expect 2 "not found" missing.a
exit $fails
