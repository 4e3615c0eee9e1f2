/* ir_json_names.c - how IR JSON spells the IR's enumerations: the names sdkc/ir.h gives (one
 * table per enumeration, beside the enumeration's other uses) read both ways, and the literal
 * kinds, which only IR JSON spells. */
#include <string.h>

#include "ir_json_internal.h"

const char *sdkc_irj_literal_kind_name(sdkc_literal_kind k)
{
    static const char *const names[] = {"string", "number", "boolean", "null"};
    return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "null";
}

/* The spelling of value v of e, and the number of values. */
static const char *spelling(sdkc_irj_enum e, int v)
{
    switch (e) {
    case SDKC_IRJ_KIND:
        return sdkc_type_kind_name((sdkc_type_kind)v);
    case SDKC_IRJ_LITERAL:
        return sdkc_irj_literal_kind_name((sdkc_literal_kind)v);
    case SDKC_IRJ_IN:
        return sdkc_param_in_name((sdkc_param_in)v);
    case SDKC_IRJ_STYLE:
        return sdkc_param_style_name((sdkc_param_style)v);
    case SDKC_IRJ_ENCODING:
        return sdkc_encoding_name((sdkc_encoding)v);
    }
    return "";
}

static int count(sdkc_irj_enum e)
{
    switch (e) {
    case SDKC_IRJ_KIND:
        return SDKC_TYPE_NEVER + 1;
    case SDKC_IRJ_LITERAL:
        return SDKC_LIT_NULL + 1;
    case SDKC_IRJ_IN:
        return SDKC_PARAM_COOKIE + 1;
    case SDKC_IRJ_STYLE:
        return SDKC_STYLE_PIPE_DELIMITED + 1;
    case SDKC_IRJ_ENCODING:
        return SDKC_ENC_TEXT + 1;
    }
    return 0;
}

int sdkc_irj_enum_value(sdkc_irj_enum e, const char *s)
{
    for (int v = 0; s && v < count(e); v++)
        if (strcmp(spelling(e, v), s) == 0)
            return v;
    return -1;
}
