#!/usr/bin/env bash
# The pinned TypeScript compilers used to check and build the generated TypeScript SDK: the oldest
# version the SDK supports (the generated package's devDependency, TS_TYPESCRIPT_VERSION in
# emitters/ts/src/ts_internal.h) and the newest 5.x on npm. CI compiles with both.
#   scripts/ts-tools.sh install            install both into $SDKC_CACHE/ts-tools-VERSION (npm, once)
#   scripts/ts-tools.sh tsc [oldest|newest|VERSION]
#                                          install if needed, print the tsc executable (default oldest)
#   scripts/ts-tools.sh versions           print the pinned versions, oldest first
# TS_VERSION=V overrides the default (oldest) one; SDKC_TS_DIR the folder of that default.
# Only the install uses the network; tsc itself runs offline.
set -euo pipefail
# shellcheck source=scripts/servers-lib.sh
. "$(dirname "$0")/servers-lib.sh"
TS_OLDEST=${TS_VERSION:-5.6.3}
TS_NEWEST=5.9.3
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}

dir_of() {
  if [[ $1 == "$TS_OLDEST" && -n ${SDKC_TS_DIR:-} ]]; then echo "$SDKC_TS_DIR"; else echo "$CACHE/ts-tools-$1"; fi
}

install_one() {
  npm_pinned "$(dir_of "$1")" "typescript@$1" node_modules/.bin/tsc typescript
}

version_of() {
  case ${1:-oldest} in
    oldest) echo "$TS_OLDEST" ;;
    newest) echo "$TS_NEWEST" ;;
    [0-9]*.[0-9]*.[0-9]*) echo "$1" ;;
    *) echo "usage: $0 tsc [oldest|newest|VERSION]" >&2; exit 2 ;;
  esac
}

case ${1:-} in
  install) install_one "$TS_OLDEST"; install_one "$TS_NEWEST" ;;
  tsc)
    v=$(version_of "${2:-}")
    install_one "$v"
    echo "$(dir_of "$v")/node_modules/.bin/tsc"
    ;;
  versions) echo "$TS_OLDEST $TS_NEWEST" ;;
  *) echo "usage: $0 install|tsc [oldest|newest|VERSION]|versions" >&2; exit 2 ;;
esac
