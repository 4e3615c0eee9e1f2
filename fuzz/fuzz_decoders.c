/* fuzz_decoders.c - the generated OpenCode decoders on arbitrary JSON. The first byte picks the
 * type. A decoded value must encode, and its encoding must decode and encode to the same JSON. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "oc/oc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ROUND_TRIP(T)                                                                              \
    static void rt_##T(const json_t *in)                                                           \
    {                                                                                              \
        T a = {0}, b = {0};                                                                        \
        oc_error *err = NULL;                                                                      \
        json_t *ea = NULL, *eb = NULL;                                                             \
        if (T##_decode(&a, in, "$", &err) != OC_OK)                                                \
            goto done;                                                                             \
        if (T##_encode(&a, &ea, &err) != OC_OK)                                                    \
            goto done;                                                                             \
        if (T##_decode(&b, ea, "$", &err) != OC_OK)                                                \
            __builtin_trap();                                                                      \
        if (T##_encode(&b, &eb, &err) != OC_OK)                                                    \
            goto done;                                                                             \
        if (!json_equal(ea, eb))                                                                   \
            __builtin_trap();                                                                      \
    done:                                                                                          \
        json_decref(ea);                                                                           \
        json_decref(eb);                                                                           \
        T##_cleanup(&a);                                                                           \
        T##_cleanup(&b);                                                                           \
        oc_error_free(err);                                                                        \
    }

ROUND_TRIP(oc_session_message_value)
ROUND_TRIP(oc_v2_event)
ROUND_TRIP(oc_session_durable_event)
ROUND_TRIP(oc_sessions_response)
ROUND_TRIP(oc_session_messages_response)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    json_error_t jerr;
    json_t *in = json_loadb((const char *)data + 1, size - 1,
                            JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
    if (!in)
        return 0;
    switch (data[0] % 5) {
    case 0:
        rt_oc_session_message_value(in);
        break;
    case 1:
        rt_oc_v2_event(in);
        break;
    case 2:
        rt_oc_session_durable_event(in);
        break;
    case 3:
        rt_oc_sessions_response(in);
        break;
    default:
        rt_oc_session_messages_response(in);
        break;
    }
    json_decref(in);
    return 0;
}
