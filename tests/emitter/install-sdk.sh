#!/usr/bin/env bash
# The generated SDK installed like any C library, next to an installed libsdkrt.
#   install-sdk.sh BINARY_DIR SOURCE_DIR [CC]
# Installs the runtime (cmake --install, components sdkrt and sdkrt_dev) into one prefix, builds the checked-in
# generated/opencode standalone against it (find_package(sdkrt)) and installs it into a second
# prefix, then checks the layout (headers, liboc.so.0 with its SONAME and NEEDED libsdkrt.so.0,
# liboc.a, oc.pc, the CMake package) and builds out-of-tree consumers three ways: pkg-config
# (shared), pkg-config --static (liboc.a + libsdkrt.a), and find_package(oc) with oc::oc and
# oc::oc_static. The consumer runs a call over the in-memory transport. Both examples/ programs
# are built against the installed SDK with pkg-config and warnings as errors.
set -euo pipefail
bin=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cc=${3:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "install-sdk.sh: $*" >&2
  exit 1
}
rt=$tmp/runtime sdk=$tmp/sdk
for c in sdkrt sdkrt_dev; do
  cmake --install "$bin" --prefix "$rt" --component $c >"$tmp/log" 2>&1 || fail "runtime install: $(cat "$tmp/log")"
done
CC=$cc cmake -S "$src/generated/opencode" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$rt" \
  -DCMAKE_INSTALL_PREFIX="$sdk" \
  >"$tmp/log" 2>&1 || fail "configure: $(cat "$tmp/log")"
# no build type given: the SDK is still built optimised
grep -q '^CMAKE_BUILD_TYPE:STRING=RelWithDebInfo$' "$tmp/build/CMakeCache.txt" ||
  fail "standalone build type: $(grep CMAKE_BUILD_TYPE "$tmp/build/CMakeCache.txt")"
cmake --build "$tmp/build" -j2 >"$tmp/log" 2>&1 || fail "build: $(tail -30 "$tmp/log")"
cmake --install "$tmp/build" >"$tmp/log" 2>&1 || fail "install: $(cat "$tmp/log")"
for f in include/oc/oc.h include/oc/types.h include/oc/ops.h lib/liboc.a lib/liboc.so lib/liboc.so.0 \
  lib/pkgconfig/oc.pc lib/cmake/oc/ocConfig.cmake lib/cmake/oc/ocConfigVersion.cmake \
  lib/cmake/oc/ocTargets.cmake; do
  [[ -e $sdk/$f ]] || fail "not installed: $f"
done
[[ ! -e $sdk/include/sdkrt ]] || fail "the SDK installs the runtime's headers too"
readelf -d "$sdk/lib/liboc.so" | grep -q 'Library soname: \[liboc.so.0\]' || fail "liboc.so has no SONAME liboc.so.0"
readelf -d "$sdk/lib/liboc.so" | grep -q 'NEEDED.*\[libsdkrt.so.0\]' || fail "liboc.so does not need libsdkrt.so.0"
# Only the public API is exported: of the oc__ names, those the per-type macros of types.h use
# (struct types' descriptors oc__j_*, union kind names oc__k_*, oc__decode ... oc__name_at; the page
# cursor and pager frees of engine-paged operations in ops.h), never the
# scalar descriptors (oc__jx_*) that only the library's sources share.
exported=$(nm -D --defined-only "$sdk/lib/liboc.so" | awk '{print $3}')
grep -q '^oc_session_list$' <<<"$exported" || fail "liboc.so does not export oc_session_list"
grep -q '^oc__j_session_v2_info$' <<<"$exported" || fail "liboc.so does not export oc__j_session_v2_info"
if grep -q '^oc__jx_' <<<"$exported"; then fail "liboc.so exports internal symbols: $(grep -m3 '^oc__jx_' <<<"$exported" | tr '\n' ' ')"; fi
for s in $(grep '^oc__' <<<"$exported"); do
  grep -q "\b$s\b" "$sdk/include/oc/types.h" "$sdk/include/oc/ops.h" || fail "liboc.so exports $s, which no installed header declares"
done
grep -q '^Requires.private: sdkrt' "$sdk/lib/pkgconfig/oc.pc" || fail "oc.pc: no Requires.private: sdkrt"

mkdir -p "$tmp/app"
cp "$src/tests/emitter/installed_app.c" "$tmp/app/app.c"
want="ses_1 installed"
check_run() { # name, command...
  local name=$1 out
  shift
  out=$("$@") || fail "$name: the consumer failed: $out"
  [[ $out == "$want" ]] || fail "$name: printed '$out', want '$want'"
}
export PKG_CONFIG_PATH=$sdk/lib/pkgconfig:$rt/lib/pkgconfig
cflags=(-std=c11 -Wall -Wextra -Wcast-qual -Wwrite-strings -Werror)

# pkg-config, shared: the consumer needs liboc only (liboc needs libsdkrt).
# shellcheck disable=SC2046
"$cc" "${cflags[@]}" "$tmp/app/app.c" -o "$tmp/app/pc_shared" $(pkg-config --cflags --libs oc) ||
  fail "pkg-config shared build"
readelf -d "$tmp/app/pc_shared" | grep -q 'NEEDED.*\[liboc.so.0\]' || fail "pc_shared does not need liboc.so.0"
# oc.pc carries an rpath to its non-system libdir (and liboc.so one to libsdkrt's): no
# LD_LIBRARY_PATH needed.
pkg-config --libs oc | grep -q -- "-Wl,-rpath,$sdk/lib" || fail "oc.pc gives no rpath: $(pkg-config --libs oc)"
readelf -d "$tmp/app/pc_shared" | grep -qE "(RUNPATH|RPATH).*$sdk/lib" || fail "pc_shared has no run path to $sdk/lib"
check_run pc_shared env -u LD_LIBRARY_PATH "$tmp/app/pc_shared"

# The per-type functions are macros over descriptors: used as functions (NULL, const for encode
# and _wire, every kind of type) they build and link against liboc alone; a pointer of another
# type is refused as a function's argument would be.
cat >"$tmp/app/macros.c" <<'C'
#include <oc/oc.h>
#include <stdio.h>

int main(void)
{
    oc_session_v2_info info = {0};
    const oc_session_v2_info *cinfo = &info;
    json_t *json = NULL;
    oc_error *err = NULL;
    oc_session_v2_info_free(NULL);
    oc_session_v2_info_cleanup(NULL);
    if (oc_session_v2_info_encode(cinfo, &json, &err) == OC_OK || err == NULL)
        return 1; /* a zeroed info lacks its required strings */
    oc_error_clear(&err);
    oc_session_v2_info_cleanup(&info);
    const char *k = oc_v2_event_kind_name(OC_V2_EVENT_UNKNOWN);
    const char *none = oc_v2_event_kind_name(-1);
    printf("%s %s\n", k, none ? none : "null");
    return 0;
}
C
# shellcheck disable=SC2046
"$cc" "${cflags[@]}" "$tmp/app/macros.c" -o "$tmp/app/macros" $(pkg-config --cflags --libs oc) ||
  fail "the per-type macros do not build as functions would"
out=$(env -u LD_LIBRARY_PATH "$tmp/app/macros") || fail "macros: the consumer failed: $out"
[[ $out == "unknown null" ]] || fail "macros: printed '$out', want 'unknown null'"
cat >"$tmp/app/mistyped.c" <<'C'
#include <oc/oc.h>

int main(void)
{
    oc_session_id id = {0};
    oc_session_v2_info_cleanup(&id);
    return 0;
}
C
# shellcheck disable=SC2046
if "$cc" "${cflags[@]}" -c "$tmp/app/mistyped.c" -o "$tmp/app/mistyped.o" $(pkg-config --cflags oc) 2>/dev/null; then
  fail "oc_session_v2_info_cleanup took an oc_session_id * without a diagnostic"
fi

# pkg-config --static: liboc.a and libsdkrt.a, nothing of ours shared.
static=$(pkg-config --static --libs oc)
for need in -loc -lsdkrt -ljansson -lcurl; do
  [[ " $static " == *" $need "* ]] || fail "pkg-config --static --libs oc lacks $need: $static"
done
args=()
for a in $static; do
  case $a in
  -loc) args+=("-l:liboc.a") ;;
  -lsdkrt) args+=("-l:libsdkrt.a") ;;
  -l*)
    lib=${a#-l}
    if [[ $lib == jansson || $lib == curl || $lib == m ]] ||
      [[ $("$cc" -print-file-name="lib$lib.so") == /* || $("$cc" -print-file-name="lib$lib.a") == /* ]]; then
      args+=("$a")
    fi
    ;;
  *) args+=("$a") ;;
  esac
done
# shellcheck disable=SC2046
"$cc" "${cflags[@]}" "$tmp/app/app.c" -o "$tmp/app/pc_static" $(pkg-config --cflags oc) "${args[@]}" ||
  fail "pkg-config static build"
if readelf -d "$tmp/app/pc_static" | grep -qE 'liboc|libsdkrt'; then fail "pc_static needs a shared liboc or libsdkrt"; fi
check_run pc_static "$tmp/app/pc_static"
# The two link lines of docs/c-sdk.md, as written there (runtime and SDK in different prefixes).
doc_lines=0
while read -r line; do
  line=${line%%#*}
  [[ $line == "cc app.c "* ]] || fail "docs/c-sdk.md: unexpected link line: $line"
  out=$tmp/app/doc_$((++doc_lines))
  (cd "$tmp/app" && eval "\"$cc\" ${line#cc } -o \"$out\"") || fail "docs/c-sdk.md line failed: $line"
  check_run "doc line $doc_lines" env -u LD_LIBRARY_PATH "$out"
done < <(grep -E '^cc app\.c .*pkg-config' "$src/docs/c-sdk.md" | grep -v '&&')
[[ $doc_lines -eq 2 ]] || fail "docs/c-sdk.md: expected 2 link lines, found $doc_lines"

# CMake package: oc::oc (shared) and oc::oc_static.
cp "$src/tests/emitter/installed_app.cmake" "$tmp/app/CMakeLists.txt"
CC=$cc cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_PREFIX_PATH="$sdk;$rt" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Wcast-qual -Wwrite-strings -Werror" >"$tmp/log" 2>&1 ||
  fail "find_package(oc): $(cat "$tmp/log")"
cmake --build "$tmp/app/build" >"$tmp/log" 2>&1 || fail "find_package build: $(cat "$tmp/log")"
check_run cmake_shared env LD_LIBRARY_PATH="$sdk/lib:$rt/lib" "$tmp/app/build/app_shared"
check_run cmake_static "$tmp/app/build/app_static"
if readelf -d "$tmp/app/build/app_static" | grep -qE 'liboc|libsdkrt'; then fail "app_static needs a shared liboc or libsdkrt"; fi
# Installed, a CMake program keeps no build RPATH: outside the system directories it finds
# liboc.so through CMAKE_INSTALL_RPATH_USE_LINK_PATH (docs/c-sdk.md), without LD_LIBRARY_PATH.
if ! { CC=$cc cmake -S "$tmp/app" -B "$tmp/app/build-rpath" -DCMAKE_PREFIX_PATH="$sdk;$rt" \
  -DCMAKE_INSTALL_PREFIX="$tmp/app/inst" -DCMAKE_INSTALL_RPATH_USE_LINK_PATH=ON &&
  cmake --build "$tmp/app/build-rpath" && cmake --install "$tmp/app/build-rpath"; } >"$tmp/log" 2>&1; then
  fail "installed CMake consumer: $(cat "$tmp/log")"
fi
readelf -d "$tmp/app/inst/bin/app_shared" | grep -qE "RUNPATH.*$sdk/lib" || fail "installed app_shared has no run path to $sdk/lib"
check_run cmake_installed env -u LD_LIBRARY_PATH "$tmp/app/inst/bin/app_shared"

# The examples the checked-in SDK carries (generate --examples), installed with it by default
# (share/doc/oc/examples) and built from there.
for ex in opencode_tour opencode_tail octail ocwatch; do
  installed=$sdk/share/doc/oc/examples/$ex.c
  cmp -s "$installed" "$src/examples/$ex.c" || fail "examples/$ex.c is not installed as $installed"
  pcs=oc # every example uses oc_ names only: liboc alone links it
  # shellcheck disable=SC2046,SC2086
  "$cc" -std=c11 "${cflags[@]}" "$installed" -o "$tmp/app/$ex" $(pkg-config --cflags --libs $pcs) ||
    fail "$installed does not build against the installed SDK"
  out=$(env LD_LIBRARY_PATH="$sdk/lib:$rt/lib" "$tmp/app/$ex" 2>&1) && fail "$ex without arguments succeeded"
  [[ $out == usage:* ]] || fail "$ex: no usage line: $out"
done
echo "install-sdk.sh: ok (runtime $(pkg-config --modversion sdkrt), oc $(pkg-config --modversion oc))"
