#!/usr/bin/env bash
# The pinned TypeScript compiler used to check and build the generated TypeScript SDK.
#   scripts/ts-tools.sh install    install typescript into $SDKC_TS_DIR (npm registry, once)
#   scripts/ts-tools.sh tsc        install if needed, print the tsc executable
# Only the install uses the network; tsc itself runs offline.
set -euo pipefail
# shellcheck source=scripts/servers-lib.sh
. "$(dirname "$0")/servers-lib.sh"
TS_VERSION=${TS_VERSION:-5.6.3}
SDKC_TS_DIR=${SDKC_TS_DIR:-${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}/ts-tools-$TS_VERSION}
BIN="$SDKC_TS_DIR/node_modules/.bin/tsc"

install() {
  npm_pinned "$SDKC_TS_DIR" "typescript@$TS_VERSION" node_modules/.bin/tsc typescript
}

case ${1:-} in
  install) install ;;
  tsc) install; echo "$BIN" ;;
  *) echo "usage: $0 install|tsc" >&2; exit 2 ;;
esac
