#!/usr/bin/env bash
# check-symbols.sh - the link-level rules of libsdkc (docs/compiler.md):
#   1. every global symbol the archive defines starts with the project prefix (sdkc_), so that
#      none can collide with a name in a user's program;
#   2. no object but the driver refers to a symbol the driver object defines: the stages and the
#      layers below them never call back up into the driver.
# Usage: scripts/check-symbols.sh [--prefix P] [--driver MEMBER] BUILD_DIR|ARCHIVE
#   BUILD_DIR means BUILD_DIR/ir/libsdkc.a; MEMBER is the driver's object in the archive
#   (compile.c.o). Exit 0 when both rules hold, 1 when one is broken, 2 on bad usage.
set -euo pipefail
prefix=sdkc_
driver=compile.c.o
while [[ $# -gt 1 ]]; do
  case $1 in
    --prefix) prefix=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    *) break ;;
  esac
done
if [[ $# -ne 1 ]]; then
  echo "usage: $0 [--prefix P] [--driver MEMBER] BUILD_DIR|ARCHIVE" >&2
  exit 2
fi
archive=$1
[[ -d $archive ]] && archive=$archive/ir/libsdkc.a
if [[ ! -f $archive ]]; then
  echo "check-symbols: $archive not found; build first" >&2
  exit 2
fi
nm=${NM:-nm}
# `nm -A` lines: ARCHIVE:MEMBER:ADDRESS TYPE NAME (no address for undefined symbols)
defined=$($nm -A -g --defined-only "$archive" 2>/dev/null |
  awk '{ split($1, f, ":"); print f[2], $NF }')
undefined=$($nm -A -u "$archive" 2>/dev/null | awk '{ split($1, f, ":"); print f[2], $NF }')
if [[ -z $defined ]]; then
  echo "check-symbols: $archive defines no global symbols: not an archive of objects?" >&2
  exit 2
fi
if ! awk -v d="$driver" '$1 == d { found = 1 } END { exit !found }' <<<"$defined"; then
  echo "check-symbols: $archive has no driver object '$driver' defining a symbol" >&2
  exit 2
fi
status=0
unprefixed=$(awk -v p="$prefix" 'index($2, p) != 1 { print "  " $1 ": " $2 }' <<<"$defined")
if [[ -n $unprefixed ]]; then
  echo "check-symbols: global symbols of $(basename "$archive") without the prefix '$prefix'" \
       "(make them static, or prefix them):" >&2
  echo "$unprefixed" >&2
  status=1
fi
upcalls=$(awk -v d="$driver" '
  NR == FNR { if ($1 == d) drv[$2] = 1; next }
  $1 != d && ($2 in drv) { print "  " $1 " uses " $2 }' <(echo "$defined") <(echo "$undefined"))
if [[ -n $upcalls ]]; then
  echo "check-symbols: objects below the driver refer to symbols of the driver ($driver):" >&2
  echo "$upcalls" >&2
  status=1
fi
if [[ $status -eq 0 ]]; then
  n=$(wc -l <<<"$defined")
  echo "check-symbols: ok ($n global symbols, all '$prefix'; nothing calls into $driver)"
fi
exit $status
