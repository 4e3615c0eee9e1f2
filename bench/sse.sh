#!/bin/sh
# bench/sse.sh - builds bench_sse in Release and prints the SSE parser table.
# Usage: bench/sse.sh [MB] [runs] [chunk bytes]   (defaults: 100 MB, 7 runs, 65536)
# BUILD_DIR overrides the build directory (default: build-bench-sse at the repository root).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench-sse}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSDKC_BUILD_TESTS=OFF \
    -DSDKC_BUILD_GENERATED=OFF -DSDKC_BUILD_BENCH=ON >/dev/null
cmake --build "$build" --target bench_sse -j2 >/dev/null
exec "$build/bench/sse/bench_sse" "$@"
