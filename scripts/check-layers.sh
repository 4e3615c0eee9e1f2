#!/usr/bin/env bash
# check-layers.sh - the include rule of libsdkc (docs/compiler.md): a file includes only its layer
# and below, and a stage's internal header only from that stage's own files.
#   0 base        util, map, diag, sha256, regex  sdkc/util.h sdkc/map.h sdkc/diag.h sdkc/regex.h
#   1 source      doc*                            sdkc/doc.h doc_internal.h
#   2 IR model    ir_model, idempotency, ir_json*, naming, synth, pattern*
#                                                 sdkc/ir.h ir_internal.h sdkc/synth.h sdkc/pattern.h
#                                                 sdkc/compile.h sdkc/ir_json.h sdkc/naming.h
#   3 context     context                         context.h
#   4 schema      schema*, contract*              schema.h contract.h
#   5 paging      paging*                         paging.h
#   6 ops         ops*                            ops.h
#   7 driver      compile.c
# Every file of ir/src must be in the table: a new one is classified here first.
# Usage: scripts/check-layers.sh [SOURCE_DIR]   (default: this checkout's ir/src)
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/.." && pwd)/ir/src}
[[ -d $src ]] || { echo "check-layers: $src is not a directory" >&2; exit 2; }
rank() { # rank of a file or header name, or nothing when unknown
  case $1 in
    util.c|map.c|diag.c|sha256.c|regex.c|sdkc/util.h|sdkc/map.h|sdkc/diag.h|sdkc/regex.h) echo 0 ;;
    doc*.c|doc_internal.h|sdkc/doc.h) echo 1 ;;
    ir_model.c|idempotency.c|ir_json*.c|ir_json*.h|naming.c|synth.c|pattern*.c|pattern_internal.h|ir_internal.h|\
      sdkc/ir.h|sdkc/synth.h|sdkc/pattern.h|sdkc/compile.h|sdkc/ir_json.h|sdkc/naming.h) echo 2 ;;
    context.c|context.h) echo 3 ;;
    schema*.c|schema*.h|contract.c|contract.h) echo 4 ;;
    paging*.c|paging*.h) echo 5 ;;
    ops*.c|ops*.h) echo 6 ;;
    compile.c) echo 7 ;;
  esac
}
stage() { # the stage an internal header or a file belongs to
  case $1 in schema*) echo schema ;; paging*) echo paging ;; ops*) echo ops ;; doc*) echo doc ;;
    pattern*) echo pattern ;; *) echo "" ;; esac
}
bad=0
n=0
for f in "$src"/*.c "$src"/*.h; do
  [[ -e $f ]] || continue
  name=$(basename "$f")
  r=$(rank "$name")
  if [[ -z $r ]]; then
    echo "check-layers: $name is in no layer (add it to scripts/check-layers.sh)" >&2
    bad=1
    continue
  fi
  n=$((n + 1))
  while read -r inc; do
    ir=$(rank "$inc")
    if [[ -z $ir ]]; then
      echo "check-layers: $name includes \"$inc\", which is in no layer" >&2
      bad=1
    elif ((ir > r)); then
      echo "check-layers: $name (layer $r) includes \"$inc\" (layer $ir): only its layer and below" >&2
      bad=1
    elif [[ $inc == *_internal.h && $inc != ir_internal.h && $(stage "$inc") != "$(stage "$name")" ]]; then
      echo "check-layers: $name includes \"$inc\", the internal header of another stage" >&2
      bad=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
((bad)) && exit 1
echo "check-layers: ok ($n files, each including its layer and below)"
