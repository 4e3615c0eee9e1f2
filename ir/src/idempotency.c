/* Which header parameter of an operation carries an idempotency key (a derived fact of the IR:
 * SDKs send a generated key there and retry the operation safely). */
#include <ctype.h>
#include <string.h>

#include "sdkc/ir.h"

/* Does name end with "idempotency-key" (or "_key"), preceded by nothing or a separator?
 * Idempotency-Key, X-Idempotency-Key, x-apideck-idempotency-key. */
static bool idempotency_name(const char *name)
{
    static const char tail[] = "idempotency-key";
    size_t n = strlen(name), t = sizeof tail - 1;
    if (n < t)
        return false;
    const char *p = name + n - t;
    for (size_t i = 0; i < t; i++) {
        char c = (char)tolower((unsigned char)p[i]);
        if (c != tail[i] && !(tail[i] == '-' && c == '_'))
            return false;
    }
    return p == name || p[-1] == '-' || p[-1] == '_';
}

const sdkc_param *sdkc_operation_idempotency_param(const sdkc_operation *op)
{
    for (size_t i = 0; op && i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (p->in == SDKC_PARAM_HEADER && p->wire_name && idempotency_name(p->wire_name))
            return p;
    }
    return NULL;
}
