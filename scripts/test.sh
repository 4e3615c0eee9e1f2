#!/usr/bin/env bash
# Run every test suite: lint, then build with gcc and clang (warnings as errors) and run CTest.
#   scripts/test.sh              all labels
#   scripts/test.sh -L runtime   pass-through arguments for ctest (one compiler: gcc)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/lint.sh
compilers=(gcc clang)
if (($#)); then compilers=(gcc); fi
for cc in "${compilers[@]}"; do
  dir=build-test-$cc
  echo "== $cc"
  CC=$cc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSDKC_WERROR=ON ${CMAKE_ARGS:-} >/dev/null
  cmake --build "$dir" -j"$(nproc)"
  if [[ $cc == gcc ]]; then
    (cd "$dir" && ctest --output-on-failure -j2 "$@")
  fi
done
if [[ -x scripts/check-generated.sh ]]; then scripts/check-generated.sh build-test-gcc; fi
