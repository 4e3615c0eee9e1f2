#!/usr/bin/env bash
# deb-names.sh SDKC SOURCE_DIR BINARY_DIR - the Debian package fields a generated SDK's CMakeLists
# gives CPack, for a prefix with '_' that ends in a digit and an API title with CMake's special
# characters: package names libmy-api2-0 and libmy-api2-dev, the title kept verbatim in the
# descriptions. Configures the SDK for /usr against libsdkrt installed from BINARY_DIR into a
# temporary prefix and reads the CPackConfig.cmake it writes (nothing is built).
set -euo pipefail
sdkc=$1 src=$2 bin=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "deb-names.sh: $*" >&2
  exit 1
}
for c in sdkrt sdkrt_dev; do
  cmake --install "$bin" --prefix "$tmp/rt" --component $c >"$tmp/log" 2>&1 || fail "runtime install: $(cat "$tmp/log")"
done
# shellcheck disable=SC2016
title='A "b" ${x};y\z @T@'
# shellcheck disable=SC2016
sed 's/^  title: edge$/  title: "A \\"b\\" ${x};y\\\\z @T@"/' "$src/tests/emitter/data/edge.yaml" >"$tmp/api.yaml"
grep -q '^  title: "A' "$tmp/api.yaml" || fail "tests/emitter/data/edge.yaml: no '  title: edge' line"
"$sdkc" generate "$tmp/api.yaml" --lang c --prefix my_api2 --out "$tmp/sdk" 2>"$tmp/log" || fail "generate: $(cat "$tmp/log")"
cmake -S "$tmp/sdk" -B "$tmp/b" -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_PREFIX_PATH="$tmp/rt" >"$tmp/log" 2>&1 ||
  fail "configure: $(cat "$tmp/log")"
cat >"$tmp/show.cmake" <<'CM'
include(${CONFIG})
foreach(v CPACK_DEBIAN_MY_API2_PACKAGE_NAME CPACK_DEBIAN_MY_API2_DEV_PACKAGE_NAME
          CPACK_DEBIAN_MY_API2_DESCRIPTION CPACK_DEBIAN_MY_API2_DEV_DESCRIPTION
          CPACK_DEBIAN_MY_API2_PACKAGE_DEPENDS CPACK_DEBIAN_MY_API2_DEV_PACKAGE_DEPENDS)
  string(REGEX REPLACE "\n.*" "" first "${${v}}")
  message("${v}=${first}")
endforeach()
CM
cmake -DCONFIG="$tmp/b/CPackConfig.cmake" -P "$tmp/show.cmake" >"$tmp/fields" 2>&1 || fail "reading CPackConfig.cmake: $(cat "$tmp/fields")"
want() { grep -qxF -- "$1" "$tmp/fields" || fail "want '$1' in: $(cat "$tmp/fields")"; }
want "CPACK_DEBIAN_MY_API2_PACKAGE_NAME=libmy-api2-0"
want "CPACK_DEBIAN_MY_API2_DEV_PACKAGE_NAME=libmy-api2-dev"
want "CPACK_DEBIAN_MY_API2_DESCRIPTION=C SDK for $title"
want "CPACK_DEBIAN_MY_API2_DEV_DESCRIPTION=C SDK for $title (development files)"
grep -qE '^CPACK_DEBIAN_MY_API2_PACKAGE_DEPENDS=libsdkrt[0-9]+ \(>= [0-9]+\.[0-9]+\)' "$tmp/fields" ||
  fail "Depends: $(cat "$tmp/fields")"
grep -qE '^CPACK_DEBIAN_MY_API2_DEV_PACKAGE_DEPENDS=libmy-api2-0 \(= [0-9.]+\), libsdkrt-dev \(>= [0-9.]+\), libjansson-dev$' "$tmp/fields" ||
  fail "-dev Depends: $(cat "$tmp/fields")"
echo "deb-names.sh: ok"
