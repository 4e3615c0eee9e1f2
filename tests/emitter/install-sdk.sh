#!/usr/bin/env bash
# The generated SDK installed like any C library, next to an installed libsdkrt.
#   install-sdk.sh BINARY_DIR SOURCE_DIR [CC]
# Installs the runtime (cmake --install --component sdkrt) into one prefix, builds the checked-in
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
cmake --install "$bin" --prefix "$rt" --component sdkrt >"$tmp/log" 2>&1 || fail "runtime install: $(cat "$tmp/log")"
CC=$cc cmake -S "$src/generated/opencode" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$rt" \
  -DCMAKE_INSTALL_PREFIX="$sdk" -DCMAKE_BUILD_TYPE=Release \
  >"$tmp/log" 2>&1 || fail "configure: $(cat "$tmp/log")"
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
cat >"$tmp/app/app.c" <<'C'
#include <oc/oc.h>
#include <stdio.h>
#include <string.h>

static int handler(void *userdata, const oc_memory_request *req, oc_memory_response *resp)
{
    static const char body[] = "{\"data\":{\"id\":\"ses_1\",\"projectID\":\"p\",\"cost\":0,"
                               "\"tokens\":{\"input\":0,\"output\":0,\"reasoning\":0,\"cache\":"
                               "{\"read\":0,\"write\":0}},\"time\":{\"created\":1,\"updated\":1},"
                               "\"title\":\"installed\",\"location\":{\"directory\":\"/w\"}}}";
    (void)userdata;
    if (strcmp(req->target, "/api/session/ses_1") != 0) {
        oc_memory_response_set_status(resp, 404);
        return 0;
    }
    oc_memory_response_add_header(resp, "Content-Type", "application/json");
    oc_memory_response_add_chunk(resp, body, sizeof body - 1);
    return 0;
}

int main(void)
{
    int rc = 1;
    char id[] = "ses_1";
    oc_transport *t = NULL;
    oc_client *client = NULL;
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    if (oc_global_init() != OC_OK || oc_memory_transport_new(&t, handler, NULL, &err) != OC_OK)
        goto done;
    oc_client_options o = OC_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1";
    o.transport = t;
    if (oc_client_new(&client, &o, &err) != OC_OK)
        goto done;
    oc_session_get_request req = {0};
    req.session_id.value = id;
    if (oc_session_get(client, &req, NULL, &info, &err) != OC_OK)
        goto done;
    printf("%s %s\n", info->id.value, info->title);
    rc = 0;
done:
    if (err)
        printf("error: %s\n", oc_error_message(err));
    oc_error_clear(&err);
    oc_session_v2_info_free(info);
    oc_client_free(client);
    oc_transport_free(t);
    oc_global_cleanup();
    return rc;
}
C
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

# CMake package: oc::oc (shared) and oc::oc_static.
cat >"$tmp/app/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(oc_consumer LANGUAGES C)
find_package(oc 0.3 CONFIG REQUIRED)
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE oc::oc)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE oc::oc_static)
CM
CC=$cc cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_PREFIX_PATH="$sdk;$rt" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Wcast-qual -Wwrite-strings -Werror" >"$tmp/log" 2>&1 ||
  fail "find_package(oc): $(cat "$tmp/log")"
cmake --build "$tmp/app/build" >"$tmp/log" 2>&1 || fail "find_package build: $(cat "$tmp/log")"
check_run cmake_shared env LD_LIBRARY_PATH="$sdk/lib:$rt/lib" "$tmp/app/build/app_shared"
check_run cmake_static "$tmp/app/build/app_static"
if readelf -d "$tmp/app/build/app_static" | grep -qE 'liboc|libsdkrt'; then fail "app_static needs a shared liboc or libsdkrt"; fi

# The examples the checked-in SDK carries (generate --examples), installed with it by default
# (share/doc/oc/examples) and built from there.
for ex in opencode_tour opencode_tail octail; do
  installed=$sdk/share/doc/oc/examples/$ex.c
  cmp -s "$installed" "$src/examples/$ex.c" || fail "examples/$ex.c is not installed as $installed"
  # shellcheck disable=SC2046
  "$cc" -std=c11 "${cflags[@]}" "$installed" -o "$tmp/app/$ex" $(pkg-config --cflags --libs oc) ||
    fail "$installed does not build against the installed SDK"
  out=$(env LD_LIBRARY_PATH="$sdk/lib:$rt/lib" "$tmp/app/$ex" 2>&1) && fail "$ex without arguments succeeded"
  [[ $out == usage:* ]] || fail "$ex: no usage line: $out"
done
echo "install-sdk.sh: ok (runtime $(pkg-config --modversion sdkrt), oc $(pkg-config --modversion oc))"
