#!/usr/bin/env bash
# The Debian packages of libsdkrt and of the checked-in generated SDK, installed in a scratch root.
#   install-deb.sh SOURCE_DIR [CC]
# 1. libsdkrt: a fresh build of the sdkc tree configured for /usr (runtime targets only), then
#    `cpack -G DEB`: libsdkrt0 and libsdkrt-dev. Both are unpacked (dpkg-deb -x) into a scratch
#    root R, which stands for /usr's packages without touching the system.
# 2. generated/opencode configured for /usr against R's libsdkrt (CMAKE_PREFIX_PATH=R/usr), built,
#    then `cpack -G DEB`: liboc0 and liboc-dev, unpacked into R too.
# 3. The packages' metadata (dpkg-deb --field, --contents, control files): names, version,
#    architecture, Depends, shlibs and ldconfig scripts, every file in the multiarch lib dir or
#    /usr/include, no file in two packages, no RPATH; the .pc files say prefix=/usr; apt-get
#    simulates installing the four (their Depends resolve on this system); cpack refuses a build
#    not configured for /usr.
# 4. Consumers against R: pkg-config with PKG_CONFIG_SYSROOT_DIR=R (shared: no RPATH in the
#    program; static: liboc.a and libsdkrt.a) and CMake find_package(oc CONFIG) with
#    CMAKE_PREFIX_PATH=R/usr (oc::oc, oc::oc_static). They run with LD_LIBRARY_PATH at R's lib
#    dir, where the system's loader would look under /usr.
set -euo pipefail
src=$(cd "$1" && pwd)
cc=${2:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "install-deb.sh: $*" >&2
  exit 1
}
root=$tmp/root
mkdir -p "$root"
arch=$(dpkg --print-architecture)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || "$cc" -print-multiarch)
[[ -n $ma ]] || fail "no multiarch triplet"
version=$(sed -n 's/^project(sdkc VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
[[ -n $version ]] || fail "no project version in CMakeLists.txt"
major=${version%%.*}
rtwant=$(sed -n 's/^find_package(sdkrt \([0-9.]*\) CONFIG QUIET)$/\1/p' "$src/generated/opencode/CMakeLists.txt")
[[ -n $rtwant ]] || fail "generated/opencode/CMakeLists.txt: no find_package(sdkrt VERSION)"
lib=usr/lib/$ma

# Packaging is under test, not the code: -O0 keeps the two builds short.
opt=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O0)

# pack DIR VAR: `cpack -G DEB` in the build DIR, its packages unpacked into the scratch root; and
# cpack refuses the same build when its configured prefix (the CPack variable VAR) is not /usr.
pack() {
  (cd "$1" && cpack -G DEB) >"$tmp/log" 2>&1 || fail "cpack in $1: $(cat "$tmp/log")"
  for d in "$1"/*.deb; do dpkg-deb -x "$d" "$root"; done
  if (cd "$1" && cpack -G DEB -D "$2=/usr/local" -B "$tmp/refused") >"$tmp/log" 2>&1; then
    fail "cpack -G DEB in $1 packaged a build configured for /usr/local"
  fi
  tr -s ' \n' ' ' <"$tmp/log" | grep -q 'configure with -DCMAKE_INSTALL_PREFIX=/usr and build again' ||
    fail "cpack refusal unclear: $(cat "$tmp/log")"
}

# ---- 1. libsdkrt packages ----
CC=$cc cmake -S "$src" -B "$tmp/rt" -DCMAKE_INSTALL_PREFIX=/usr "${opt[@]}" \
  -DSDKC_BUILD_TESTS=OFF -DSDKC_BUILD_GENERATED=OFF -DSDKC_BUILD_BENCH=OFF \
  -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >"$tmp/log" 2>&1 || fail "sdkc configure: $(cat "$tmp/log")"
# (and the loop adapters that are configured: libsdkrt-dev installs them)
adapters=$(cmake --build "$tmp/rt" --target help | sed -n 's/^\.\.\. \(sdkrt_uv\|sdkrt_event\)$/\1/p' | tr '\n' ' ')
# shellcheck disable=SC2086
cmake --build "$tmp/rt" -j2 --target sdkrt_shared sdkrt_static $adapters >"$tmp/log" 2>&1 ||
  fail "libsdkrt build: $(tail -30 "$tmp/log")"
pack "$tmp/rt" CPACK_SDKC_INSTALL_PREFIX
rt0=$tmp/rt/libsdkrt${major}_${version}_$arch.deb rtdev=$tmp/rt/libsdkrt-dev_${version}_$arch.deb

# ---- 2. liboc packages, built against the scratch root's libsdkrt ----
CC=$cc cmake -S "$src/generated/opencode" -B "$tmp/oc" -DCMAKE_INSTALL_PREFIX=/usr \
  -DCMAKE_PREFIX_PATH="$root/usr" "${opt[@]}" >"$tmp/log" 2>&1 ||
  fail "oc configure: $(cat "$tmp/log")"
grep -qx "sdkrt_DIR:PATH=$root/$lib/cmake/sdkrt" "$tmp/oc/CMakeCache.txt" ||
  fail "oc did not find the scratch root's libsdkrt: $(grep '^sdkrt_DIR' "$tmp/oc/CMakeCache.txt")"
cmake --build "$tmp/oc" -j2 >"$tmp/log" 2>&1 || fail "oc build: $(tail -30 "$tmp/log")"
pack "$tmp/oc" CPACK_SDK_INSTALL_PREFIX
oc0=$tmp/oc/liboc${major}_${version}_$arch.deb ocdev=$tmp/oc/liboc-dev_${version}_$arch.deb

# ---- 3. metadata ----
for d in "$rt0" "$rtdev" "$oc0" "$ocdev"; do
  [[ -f $d ]] || fail "no $(basename "$d"); cpack made: $(cd "$tmp" && echo rt/*.deb oc/*.deb)"
done
[[ $(cd "$tmp" && echo rt/*.deb oc/*.deb | wc -w) == 4 ]] || fail "cpack made: $(cd "$tmp" && echo rt/*.deb oc/*.deb)"
# field DEB NAME: the control field.
field() { dpkg-deb --field "$1" "$2"; }
# depends_has DEB TEXT: one of DEB's comma-separated Depends entries is exactly TEXT.
depends_has() {
  local d
  d=$(field "$1" Depends)
  [[ ", $d, " == *", $2, "* ]] || fail "$(basename "$1"): Depends '$d' lacks '$2'"
}
# depends_pkg DEB PACKAGE: Depends names PACKAGE (any version).
depends_pkg() {
  local d
  d=$(field "$1" Depends)
  [[ ", $d" =~ ,\ $2(\ \(|,|$) ]] || fail "$(basename "$1"): Depends '$d' lacks $2"
}
# files DEB: the files and links of DEB (no directories), one a line, without the leading ".".
files() { dpkg-deb --contents "$1" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./|/|' | sort; }
for pair in "$rt0 libsdkrt$major" "$rtdev libsdkrt-dev" "$oc0 liboc$major" "$ocdev liboc-dev"; do
  read -r d name <<<"$pair"
  [[ $(field "$d" Package) == "$name" ]] || fail "$(basename "$d"): Package $(field "$d" Package), want $name"
  [[ $(field "$d" Version) == "$version" ]] || fail "$(basename "$d"): Version $(field "$d" Version), want $version"
  [[ $(field "$d" Architecture) == "$arch" ]] || fail "$(basename "$d"): Architecture $(field "$d" Architecture)"
  [[ -n $(field "$d" Maintainer) && -n $(field "$d" Description) ]] || fail "$(basename "$d"): no Maintainer or Description"
  if files "$d" | grep -v -e "^/$lib/" -e '^/usr/include/' -e '^/usr/share/doc/oc/examples/'; then
    fail "$(basename "$d") has files outside /$lib, /usr/include and the examples"
  fi
done
for p in libcurl4 libjansson4 libc6; do depends_pkg "$rt0" $p; done
depends_has "$rtdev" "libsdkrt$major (= $version)"
for p in libjansson-dev "libcurl4-openssl-dev | libcurl-dev"; do depends_has "$rtdev" "$p"; done
depends_has "$oc0" "libsdkrt$major (>= $rtwant)"
depends_pkg "$oc0" libjansson4
depends_has "$ocdev" "liboc$major (= $version)"
depends_has "$ocdev" "libsdkrt-dev (>= $rtwant)"
depends_pkg "$ocdev" libjansson-dev
[[ $(files "$rt0" | tr '\n' ' ') == "/$lib/libsdkrt.so.$major /$lib/libsdkrt.so.$version " ]] ||
  fail "libsdkrt$major holds: $(files "$rt0" | tr '\n' ' ')"
[[ $(files "$oc0" | tr '\n' ' ') == "/$lib/liboc.so.$major /$lib/liboc.so.$version " ]] ||
  fail "liboc$major holds: $(files "$oc0" | tr '\n' ' ')"
for f in /usr/include/sdkrt/sdkrt.h /$lib/libsdkrt.so /$lib/libsdkrt.a /$lib/pkgconfig/sdkrt.pc \
  /$lib/cmake/sdkrt/sdkrtConfig.cmake /$lib/cmake/sdkrt/sdkrtConfigVersion.cmake /$lib/cmake/sdkrt/sdkrtTargets.cmake; do
  files "$rtdev" | grep -qx "$f" || fail "libsdkrt-dev lacks $f"
done
for f in /usr/include/oc/oc.h /usr/include/oc/ops.h /usr/include/oc/types.h /$lib/liboc.so /$lib/liboc.a \
  /$lib/pkgconfig/oc.pc /$lib/cmake/oc/ocConfig.cmake /$lib/cmake/oc/ocTargets.cmake /usr/share/doc/oc/examples/octail.c; do
  files "$ocdev" | grep -qx "$f" || fail "liboc-dev lacks $f"
done
dups=$(for d in "$rt0" "$rtdev" "$oc0" "$ocdev"; do files "$d"; done | sort | uniq -d)
[[ -z $dups ]] || fail "files in two packages: $dups"
# Shared-library packages: a shlibs file for dpkg-shlibdeps, ldconfig after install and removal.
[[ $(dpkg-deb --info "$rt0" shlibs) == "libsdkrt $major libsdkrt$major (>= $version)" ]] ||
  fail "libsdkrt$major shlibs: $(dpkg-deb --info "$rt0" shlibs)"
[[ $(dpkg-deb --info "$oc0" shlibs) == "liboc $major liboc$major (>= $version)" ]] ||
  fail "liboc$major shlibs: $(dpkg-deb --info "$oc0" shlibs)"
for d in "$rt0" "$oc0"; do
  for s in postinst postrm; do
    dpkg-deb --info "$d" $s | grep -qx $'\tldconfig' || fail "$(basename "$d"): $s does not run ldconfig"
  done
done
for so in "$root/$lib/libsdkrt.so.$version" "$root/$lib/liboc.so.$version"; do
  if readelf -d "$so" | grep -qE 'RPATH|RUNPATH'; then fail "$so has a run path: $(readelf -d "$so" | grep -E 'RPATH|RUNPATH')"; fi
done
readelf -d "$root/$lib/liboc.so.$version" | grep -q "NEEDED.*\[libsdkrt.so.$major\]" || fail "liboc.so does not need libsdkrt.so.$major"
for pc in sdkrt oc; do
  grep -qx 'prefix=/usr' "$root/$lib/pkgconfig/$pc.pc" || fail "$pc.pc: $(head -3 "$root/$lib/pkgconfig/$pc.pc")"
  grep -qx "libdir=\${prefix}/lib/$ma" "$root/$lib/pkgconfig/$pc.pc" || fail "$pc.pc: libdir is not /$lib"
done
if grep -q 'rpath' "$root/$lib/pkgconfig/oc.pc"; then fail "oc.pc gives an rpath under /usr"; fi
# The Depends resolve here: apt simulates installing the four files (no lock, nothing changed).
if command -v apt-get >/dev/null; then
  apt-get -s -o Debug::NoLocking=1 install "$rt0" "$rtdev" "$oc0" "$ocdev" >"$tmp/log" 2>&1 ||
    fail "apt-get -s install: $(tail -20 "$tmp/log")"
  for p in "libsdkrt$major" libsdkrt-dev "liboc$major" liboc-dev; do
    grep -q "^Inst $p ($version " "$tmp/log" || fail "apt-get -s install does not install $p: $(grep '^Inst' "$tmp/log")"
  done
fi

# ---- 4. consumers against the scratch root ----
mkdir -p "$tmp/app"
cp "$src/tests/emitter/installed_app.c" "$tmp/app/app.c"
want="ses_1 installed"
check_run() { # name, program
  local out
  out=$(env LD_LIBRARY_PATH="$root/$lib" "$2") || fail "$1: the consumer failed: $out"
  [[ $out == "$want" ]] || fail "$1: printed '$out', want '$want'"
}
cflags=(-std=c11 -Wall -Wextra -Werror)
export PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$root/$lib/pkgconfig
[[ $(pkg-config --modversion oc) == "$version" && $(pkg-config --modversion sdkrt) == "$version" ]] ||
  fail "pkg-config does not find oc and sdkrt $version in the scratch root"
[[ " $(pkg-config --cflags --libs oc) " == *" -I$root/usr/include "*" -L$root/$lib -loc "* ]] ||
  fail "pkg-config --cflags --libs oc: $(pkg-config --cflags --libs oc)"
# The linker finds liboc.so's libsdkrt.so.0 through -rpath-link, as it would in /usr itself.
# shellcheck disable=SC2046
"$cc" "${cflags[@]}" "$tmp/app/app.c" -o "$tmp/app/pc_shared" $(pkg-config --cflags --libs oc) \
  -Wl,-rpath-link,"$root/$lib" || fail "pkg-config shared build"
readelf -d "$tmp/app/pc_shared" | grep -q "NEEDED.*\[liboc.so.$major\]" || fail "pc_shared does not need liboc.so.$major"
if readelf -d "$tmp/app/pc_shared" | grep -qE 'RPATH|RUNPATH'; then fail "pc_shared has a run path"; fi
check_run pc_shared "$tmp/app/pc_shared"
static=$(pkg-config --static --libs oc)
for need in -loc -lsdkrt -ljansson -lcurl; do
  [[ " $static " == *" $need "* ]] || fail "pkg-config --static --libs oc lacks $need: $static"
done
# shellcheck disable=SC2046
"$cc" "${cflags[@]}" "$tmp/app/app.c" -o "$tmp/app/pc_static" $(pkg-config --cflags --libs-only-L oc) \
  -l:liboc.a -l:libsdkrt.a -ljansson -lcurl -pthread -lm || fail "pkg-config static build"
if readelf -d "$tmp/app/pc_static" | grep -qE 'liboc|libsdkrt'; then fail "pc_static needs a shared liboc or libsdkrt"; fi
check_run pc_static "$tmp/app/pc_static"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH

cp "$src/tests/emitter/installed_app.cmake" "$tmp/app/CMakeLists.txt"
CC=$cc cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$tmp/log" 2>&1 || fail "find_package(oc): $(cat "$tmp/log")"
grep -qx "oc_DIR:PATH=$root/$lib/cmake/oc" "$tmp/app/build/CMakeCache.txt" ||
  fail "find_package(oc) did not use the scratch root: $(grep '^oc_DIR' "$tmp/app/build/CMakeCache.txt")"
cmake --build "$tmp/app/build" >"$tmp/log" 2>&1 || fail "find_package build: $(cat "$tmp/log")"
check_run cmake_shared "$tmp/app/build/app_shared"
check_run cmake_static "$tmp/app/build/app_static"
if readelf -d "$tmp/app/build/app_static" | grep -qE 'liboc|libsdkrt'; then fail "app_static needs a shared liboc or libsdkrt"; fi
echo "install-deb.sh: ok: $(basename -a "$rt0" "$rtdev" "$oc0" "$ocdev" | tr '\n' ' ')"
