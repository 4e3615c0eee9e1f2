/* The rules every emitter's generated mock tests (`sdkc generate --tests`, docs/mock.md) share:
 * which operations are a SKIP whatever their values, and with which reason, so that the SDKs of
 * one contract skip the same operations for the same reasons. */
#include <string.h>

#include "sdkc/emitkit.h"

const char *sdkc_kit_mock_skip(const sdkc_operation *op, sdkc_arena *a)
{
    if (op->stream)
        return "SSE stream: Prism answers text/event-stream with one generated body, not a "
               "stream of events";
    if (op->fragment) {
        /* Prism routes on the whole path key, fragment included; an SDK never sends one */
        const char *why = sdkc_arena_printf(a,
                                            "path key fragment '#%s' is never sent (RFC 3986), "
                                            "and Prism routes only requests that carry it",
                                            op->fragment);
        return why ? why : "path key fragment";
    }
    return NULL;
}

const char *sdkc_kit_mock_body_skip(const sdkc_operation *op, sdkc_arena *a)
{
    if (!op->body)
        return NULL;
    const sdkc_type *bt = op->body->type;
    while (bt->kind == SDKC_TYPE_NULLABLE)
        bt = bt->u.nullable.inner;
    const char *ct = op->body->content_type ? op->body->content_type : "";
    if (sdkc_kit_media_of(ct) != SDKC_KIT_MEDIA_OTHER || sdkc_kit_is_binary(op->body->type) ||
        bt->kind == SDKC_TYPE_STRING)
        return NULL;
    /* the SDK sends it as JSON text, which generate warns about: not the contract's wire */
    const char *why = sdkc_arena_printf(
        a, "a structured body under '%s' is sent as JSON text (generate warns)", ct);
    return why ? why : "a structured body is sent as JSON text";
}

bool sdkc_kit_mock_unserialisable(const sdkc_operation *op)
{
    const char *ct = op->success.content_type;
    if (op->success.encoding == SDKC_ENC_NONE || op->success.encoding == SDKC_ENC_SSE || !ct)
        return false;
    size_t n = strlen(ct);
    if (op->success.encoding == SDKC_ENC_JSON && !strchr(ct, '*') &&
        (!strcmp(ct, "application/json") || (n > 5 && !strcmp(ct + n - 5, "+json"))))
        return false;
    for (size_t i = 0; i < op->nerrors; i++) {
        const char *e = op->errors[i].content_type;
        if (e && (strchr(e, '*') || !strstr(e, "json")))
            return false;
    }
    return true;
}
