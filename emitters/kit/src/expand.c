/* Operations as SDKs offer them: an operation with a stream variant (JSON and text/event-stream
 * in one response) becomes two, the unary call and "<name>_stream". */
#include <stdlib.h>
#include <string.h>

#include "sdkc/emitkit.h"

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
        s->safe_name = sdkc_arena_printf(a, "%s_stream", op->safe_name);
        s->name = op->name ? sdkc_arena_printf(a, "%s.stream", op->name) : NULL;
        if (!s->safe_name || (op->name && !s->name))
            return SDKC_ERR_NOMEM;
    }
    out->ops = ops;
    out->nops = n;
    return SDKC_OK;
}
