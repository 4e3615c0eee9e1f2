#!/usr/bin/env bash
# The main job: build sdkc, compile the bundled OpenCode contract to IR, generate the OpenCode C SDK
# and build it. Output: build/ (binaries), build/opencode.ir.json, build/opencode-sdk/ (fresh SDK).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} ${CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
"$BUILD/cli/sdkc" compile spec/opencode/openapi.json -o "$BUILD/opencode.ir.json"
echo "build: IR written to $BUILD/opencode.ir.json"
if "$BUILD/cli/sdkc" generate --help >/dev/null 2>&1; then
  rm -rf "$BUILD/opencode-sdk"
  "$BUILD/cli/sdkc" generate spec/opencode/openapi.json --lang c --prefix oc --include 'v2.*' --examples examples \
      --out "$BUILD/opencode-sdk"
  cmake -S "$BUILD/opencode-sdk" -B "$BUILD/opencode-sdk/build" \
      -DSDKRT_SOURCE_DIR="$PWD/runtime" >/dev/null
  cmake --build "$BUILD/opencode-sdk/build" -j"$(nproc)"
  echo "build: OpenCode C SDK generated and built in $BUILD/opencode-sdk"
fi
