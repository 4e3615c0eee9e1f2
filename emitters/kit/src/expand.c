/* Operations as SDKs offer them: an operation with a stream variant (JSON and text/event-stream
 * in one response) becomes two, the unary call and "<name>_stream". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/emitkit.h"

/* Does an operation of ir, or one of the first n made, have safe_name sn, or name nm in group? */
static bool taken(const sdkc_ir *ir, const sdkc_operation *made, size_t n, const char *group,
                  const char *sn, const char *nm)
{
    for (size_t pass = 0; pass < 2; pass++) {
        const sdkc_operation *ops = pass ? made : ir->ops;
        for (size_t i = 0; i < (pass ? n : ir->nops); i++) {
            const sdkc_operation *o = &ops[i];
            if (o->safe_name && strcmp(o->safe_name, sn) == 0)
                return true;
            if (nm && o->name && strcmp(o->name, nm) == 0 &&
                (group && o->group ? strcmp(group, o->group) == 0 : group == o->group))
                return true;
        }
    }
    return false;
}

sdkc_status sdkc_kit_expand_ops(sdkc_ir *out, const sdkc_ir *ir, sdkc_arena *a)
{
    *out = *ir;
    size_t n = ir->nops;
    for (size_t i = 0; i < ir->nops; i++)
        n += ir->ops[i].stream_variant != NULL;
    if (n == ir->nops)
        return SDKC_OK;
    sdkc_operation *ops = sdkc_arena_alloc(a, n * sizeof *ops);
    if (!ops)
        return SDKC_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_operation *op = &ir->ops[i];
        ops[k++] = *op;
        const sdkc_stream *v = op->stream_variant;
        if (!v)
            continue;
        sdkc_operation *s = &ops[k++];
        *s = *op;
        s->stream_variant = NULL;
        s->more_successes = NULL;
        s->nmore_successes = 0;
        s->pagination = NULL;
        s->stream = v;
        s->success.encoding = SDKC_ENC_SSE;
        s->success.content_type = "text/event-stream";
        s->success.type = v->frame ? v->frame : v->item;
        s->success.result = s->success.type;
        s->success.unwrap = NULL;
        /* "<name>_stream", else "<name>_stream_2", ...: operation names stay unique */
        s->safe_name = s->name = NULL;
        for (unsigned m = 1; !s->safe_name || (op->name && !s->name); m++) {
            char sfx[24] = "";
            if (m > 1)
                snprintf(sfx, sizeof sfx, "_%u", m);
            const char *sn = sdkc_arena_printf(a, "%s_stream%s", op->safe_name, sfx);
            const char *nm = op->name ? sdkc_arena_printf(a, "%s.stream%s", op->name, sfx) : NULL;
            if (!sn || (op->name && !nm))
                return SDKC_ERR_NOMEM;
            if (!taken(ir, ops, k - 1, op->group, sn, nm)) {
                s->safe_name = sn;
                s->name = nm;
            }
        }
    }
    out->ops = ops;
    out->nops = n;
    return SDKC_OK;
}
