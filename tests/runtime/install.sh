#!/usr/bin/env bash
# libsdkrt installed like any C library. Installs the already-built tree into a temporary prefix
# (cmake --install --prefix), then checks: the layout (headers, libsdkrt.a, libsdkrt.so with
# SONAME libsdkrt.so.MAJOR and only the public API exported, sdkrt.pc, the CMake package, bin/sdkc
# and bin/sdkc-conform), that the components `sdkrt` (the shared library alone, as the Debian
# runtime package has it) and `sdkrt_dev` (the rest) install the runtime alone, and that a tiny
# out-of-tree consumer builds and runs with `pkg-config --cflags --libs sdkrt` (shared),
# `pkg-config --static` against libsdkrt.a, and CMake find_package(sdkrt CONFIG REQUIRED) with
# sdkrt::sdkrt and sdkrt::sdkrt_static.
# Usage: install.sh BINARY_DIR [CC [SANITIZERS]] (SANITIZERS as in SDKC_SANITIZE: the consumers
# are built with them too, since an instrumented libsdkrt.a needs the sanitizer runtime).
set -euo pipefail
bin=$(cd "$1" && pwd)
cc=${2:-cc}
san=${3:-}
cflags=(-std=c11 -Wall -Werror)
[[ -n $san ]] && cflags+=("-fsanitize=$san")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "install.sh: $*" >&2
  exit 1
}

p=$tmp/prefix
cmake --install "$bin" --prefix "$p" >"$tmp/install.log" || fail "cmake --install failed: $(cat "$tmp/install.log")"
for f in include/sdkrt/sdkrt.h include/sdkrt/error.h include/sdkrt/json.h include/sdkrt/sse.h \
  lib/libsdkrt.a lib/libsdkrt.so lib/libsdkrt.so.0 lib/pkgconfig/sdkrt.pc \
  lib/cmake/sdkrt/sdkrtConfig.cmake lib/cmake/sdkrt/sdkrtConfigVersion.cmake \
  lib/cmake/sdkrt/sdkrtTargets.cmake bin/sdkc bin/sdkc-conform; do
  [[ -e $p/$f ]] || fail "not installed: $f"
done
readelf -d "$p/lib/libsdkrt.so" | grep -q 'Library soname: \[libsdkrt.so.0\]' ||
  fail "libsdkrt.so has no SONAME libsdkrt.so.0: $(readelf -d "$p/lib/libsdkrt.so" | grep SONAME)"
# Only the API is exported: sdkrt_* names; the runtime's internal helpers end in '_'.
extra=$(nm -D --defined-only "$p/lib/libsdkrt.so" | awk '{print $3}' | grep -v '^sdkrt_[a-z0-9_]*[a-z0-9]$' || true)
[[ -z $extra ]] || fail "libsdkrt.so exports more than the API: $extra"
"$p/bin/sdkc" --version | grep -q '^sdkc ' || fail "installed sdkc does not run"

# The runtime alone: component sdkrt is libsdkrt.so.MAJOR*, sdkrt_dev the rest.
q=$tmp/runtime-only
cmake --install "$bin" --prefix "$q" --component sdkrt >/dev/null
got=$(cd "$q" && find . ! -type d | sort | tr '\n' ' ')
[[ $got =~ ^\./lib/libsdkrt\.so\.0\ \./lib/libsdkrt\.so\.0\.[0-9]+\.[0-9]+\ $ ]] || fail "--component sdkrt installs: $got"
cmake --install "$bin" --prefix "$q" --component sdkrt_dev >/dev/null
[[ -L $q/lib/libsdkrt.so && -e $q/lib/libsdkrt.a && -e $q/lib/pkgconfig/sdkrt.pc &&
  -e $q/include/sdkrt/sdkrt.h && -e $q/lib/cmake/sdkrt/sdkrtConfig.cmake ]] ||
  fail "--component sdkrt_dev misses files"
[[ ! -e $q/bin ]] || fail "the sdkrt components install more than the runtime: $(ls "$q/bin")"

# A consumer: version, a client with a bad URL, the error's reason, sdkrt_error_clear.
mkdir -p "$tmp/app"
cat >"$tmp/app/app.c" <<'C'
#include <sdkrt/sdkrt.h>
#include <stdio.h>

int main(void)
{
    if (sdkrt_global_init() != SDKRT_OK)
        return 2;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "ftp://example.test";
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    int rc = sdkrt_client_new(&c, &o, &err) == SDKRT_ERR && c == NULL && err &&
                     sdkrt_error_reason(err) == SDKRT_REASON_INVALID_ARGUMENT
                 ? 0
                 : 1;
    printf("%s %s\n", sdkrt_version_string(), err ? sdkrt_reason_name(sdkrt_error_reason(err)) : "-");
    sdkrt_error_clear(&err);
    sdkrt_client_free(c);
    sdkrt_global_cleanup();
    return rc || err != NULL;
}
C
export PKG_CONFIG_PATH=$p/lib/pkgconfig
version=$(pkg-config --modversion sdkrt)
want="$version INVALID_ARGUMENT"
check_run() { # name, command...
  local name=$1
  shift
  local out
  out=$("$@") || fail "$name: the consumer failed: $out"
  [[ $out == "$want" ]] || fail "$name: printed '$out', want '$want'"
}

# pkg-config, shared
# shellcheck disable=SC2046
"$cc" "${cflags[@]}" "$tmp/app/app.c" -o "$tmp/app/pc_shared" $(pkg-config --cflags --libs sdkrt)
readelf -d "$tmp/app/pc_shared" | grep -q 'NEEDED.*\[libsdkrt.so.0\]' || fail "pc_shared does not need libsdkrt.so.0"
check_run pc_shared env LD_LIBRARY_PATH="$p/lib" "$tmp/app/pc_shared"

# pkg-config --static, against libsdkrt.a. libcurl's own private libraries are kept when this
# machine has their development files (a fully static link needs them all; the shared libcurl
# does not).
static=$(pkg-config --static --libs sdkrt)
for need in -lsdkrt -ljansson -lcurl -pthread -lm; do
  [[ " $static " == *" $need "* ]] || fail "pkg-config --static --libs sdkrt lacks $need: $static"
done
args=()
for a in $static; do
  case $a in
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
"$cc" "${cflags[@]}" "$tmp/app/app.c" -o "$tmp/app/pc_static" $(pkg-config --cflags sdkrt) "${args[@]}"
if readelf -d "$tmp/app/pc_static" | grep -q 'libsdkrt'; then fail "pc_static needs libsdkrt.so"; fi
check_run pc_static "$tmp/app/pc_static"

# The loop adapters that were built (libuv, libevent): header, static library and .pc file in
# sdkrt_dev, and a consumer that adapts its loop through pkg-config sdkrt-uv / sdkrt-event.
adapters=()
for a in uv event; do
  [[ -e $bin/runtime/adapters/libsdkrt_$a.a ]] || continue
  adapters+=("$a")
  for f in include/sdkrt/adapters/$a.h lib/libsdkrt_$a.a lib/pkgconfig/sdkrt-$a.pc; do
    [[ -e $p/$f && -e $q/$f ]] || fail "adapter $a: not installed with sdkrt_dev: $f"
  done
done
[[ ! -e $q/include/sdkrt/adapters || -n ${adapters[*]} ]] || fail "adapter headers installed without their libraries"
if [[ " ${adapters[*]} " == *" uv "* ]]; then
  cat >"$tmp/app/uv_app.c" <<'C'
#include <sdkrt/adapters/uv.h>
#include <sdkrt/sdkrt.h>
#include <stdio.h>
#include <uv.h>

int main(void)
{
    uv_loop_t uv;
    sdkrt_loop *loop = NULL;
    sdkrt_error *err = NULL;
    if (sdkrt_global_init() != SDKRT_OK || uv_loop_init(&uv) != 0 ||
        sdkrt_uv_loop_new(&loop, &uv, &err) != SDKRT_OK)
        return 1;
    sdkrt_loop_free(loop);
    uv_run(&uv, UV_RUN_NOWAIT);
    printf("%s\n", uv_loop_close(&uv) == 0 ? "uv ok" : "uv busy");
    sdkrt_global_cleanup();
    return 0;
}
C
  export PKG_CONFIG_PATH=$p/lib/pkgconfig
  # shellcheck disable=SC2046
  "$cc" -std=gnu11 -Wall -Werror ${san:+-fsanitize=$san} "$tmp/app/uv_app.c" -o "$tmp/app/uv_app" \
    $(pkg-config --cflags --libs sdkrt-uv) || fail "the libuv adapter's consumer does not build"
  out=$(LD_LIBRARY_PATH="$p/lib" "$tmp/app/uv_app") || fail "the libuv adapter's consumer failed"
  [[ $out == "uv ok" ]] || fail "the libuv adapter's consumer printed '$out'"
fi
if [[ " ${adapters[*]} " == *" event "* ]]; then
  cat >"$tmp/app/event_app.c" <<'C'
#include <event2/event.h>
#include <sdkrt/adapters/event.h>
#include <sdkrt/sdkrt.h>
#include <stdio.h>

int main(void)
{
    struct event_base *base = event_base_new();
    sdkrt_loop *loop = NULL;
    sdkrt_error *err = NULL;
    if (sdkrt_global_init() != SDKRT_OK || !base ||
        sdkrt_event_loop_new(&loop, base, &err) != SDKRT_OK)
        return 1;
    sdkrt_loop_free(loop);
    event_base_free(base);
    printf("event ok\n");
    sdkrt_global_cleanup();
    return 0;
}
C
  export PKG_CONFIG_PATH=$p/lib/pkgconfig
  # shellcheck disable=SC2046
  "$cc" "${cflags[@]}" "$tmp/app/event_app.c" -o "$tmp/app/event_app" \
    $(pkg-config --cflags --libs sdkrt-event) || fail "the libevent adapter's consumer does not build"
  out=$(LD_LIBRARY_PATH="$p/lib" "$tmp/app/event_app") || fail "the libevent adapter's consumer failed"
  [[ $out == "event ok" ]] || fail "the libevent adapter's consumer printed '$out'"
fi

# CMake package
cat >"$tmp/app/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(sdkrt_consumer LANGUAGES C)
set(WANT "" CACHE STRING "version asked of find_package")
find_package(sdkrt ${WANT} CONFIG REQUIRED)
add_executable(app app.c)
target_link_libraries(app sdkrt::sdkrt)
add_executable(app_static app.c)
target_link_libraries(app_static sdkrt::sdkrt_static)
CM
unset PKG_CONFIG_PATH
cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$p" \
  -DCMAKE_C_FLAGS="${san:+-fsanitize=$san}" -DWANT="$version" >"$tmp/cmake.log" 2>&1 || fail "find_package(sdkrt CONFIG) failed: $(cat "$tmp/cmake.log")"
cmake --build "$tmp/app/build" >"$tmp/build.log" 2>&1 || fail "CMake consumer build failed: $(cat "$tmp/build.log")"
readelf -d "$tmp/app/build/app" | grep -q 'NEEDED.*\[libsdkrt.so.0\]' || fail "sdkrt::sdkrt is not the shared library"
if readelf -d "$tmp/app/build/app_static" | grep -q 'libsdkrt'; then fail "sdkrt::sdkrt_static needs libsdkrt.so"; fi
check_run cmake_shared "$tmp/app/build/app" # RPATH into the prefix, set by CMake
check_run cmake_static "$tmp/app/build/app_static"
# SameMajorVersion: another major is refused.
if cmake -S "$tmp/app" -B "$tmp/app/build2" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$p" \
  -DWANT=$((${version%%.*} + 1)).0 >/dev/null 2>&1; then
  fail "find_package(sdkrt $((${version%%.*} + 1)).0) accepted $version"
fi
echo "install.sh: ok ($version: pkg-config shared and static, CMake sdkrt::sdkrt and sdkrt::sdkrt_static; adapters: ${adapters[*]:-none})"
