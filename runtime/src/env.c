/* A client configured from the environment: base URL and each security scheme's secret under
 * prefixed names (OC_BASE_URL, OC_<SCHEME>_TOKEN), as official SDKs read OPENAI_API_KEY. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* getenv of PREFIX_SUFFIX (or STEM_SUFFIX); NULL when unset or empty. */
static const char *env2(const char *stem, const char *suffix, char *name, size_t cap)
{
    snprintf(name, cap, "%s_%s", stem, suffix);
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

sdkrt_status sdkrt_client_new_from_env(sdkrt_client **out, const sdkrt_client_options *opts,
                                       const char *prefix, const char *default_base_url,
                                       const sdkrt_env_scheme *schemes, size_t nschemes,
                                       sdkrt_error **err)
{
    *out = NULL;
    char n1[300], n2[300];
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    if (opts)
        o = *opts;
    if (!prefix || strlen(prefix) > 200 || (nschemes && !schemes) ||
        (o.credential_count && !o.credentials))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "client from the environment: bad prefix, schemes or credentials");
    if (!o.base_url)
        o.base_url = env2(prefix, "BASE_URL", n1, sizeof n1);
    if (!o.base_url)
        o.base_url = default_base_url;
    if (!o.base_url)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "no base URL: set %s_BASE_URL (or the options' base_url)", prefix);
    /* the options' own credentials first: they win over the environment's */
    sdkrt_credential *creds = calloc(o.credential_count + nschemes + 1, sizeof *creds);
    if (!creds)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    size_t nc = o.credential_count;
    if (nc)
        memcpy(creds, o.credentials, nc * sizeof *creds);
    sdkrt_status st = SDKRT_ERR;
    for (size_t i = 0; i < nschemes; i++) {
        const sdkrt_env_scheme *s = &schemes[i];
        if (!s->stem || strlen(s->stem) > 200) {
            sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "scheme %zu without a name", i);
            goto done;
        }
        if (s->basic) {
            const char *u = env2(s->stem, "USERNAME", n1, sizeof n1);
            const char *p = env2(s->stem, "PASSWORD", n2, sizeof n2);
            if (!u != !p) {
                sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s is set without %s",
                                u ? n1 : n2, u ? n2 : n1);
                goto done;
            }
            if (u)
                creds[nc++] = (sdkrt_credential){s->scheme, u, p, NULL};
        } else {
            const char *t = env2(s->stem, "TOKEN", n1, sizeof n1);
            if (t)
                creds[nc++] = (sdkrt_credential){s->scheme, NULL, NULL, t};
        }
    }
    if (!nschemes && o.auth == SDKRT_AUTH_NONE) {
        /* a contract without schemes: PREFIX_USERNAME and PREFIX_PASSWORD (Basic), or
           PREFIX_TOKEN (Bearer) */
        const char *u = env2(prefix, "USERNAME", n1, sizeof n1);
        const char *p = env2(prefix, "PASSWORD", n2, sizeof n2);
        const char *t = env2(prefix, "TOKEN", n1, sizeof n1);
        if (!u)
            u = o.username;
        if (p && !u) {
            sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                            "%s_PASSWORD is set without %s_USERNAME (or the options' username)",
                            prefix, prefix);
            goto done;
        }
        if (p) {
            o.auth = SDKRT_AUTH_BASIC;
            o.username = u;
            o.password = p;
        } else if (t) {
            o.auth = SDKRT_AUTH_BEARER;
            o.token = t;
        }
    }
    o.credentials = nc ? creds : NULL;
    o.credential_count = nc;
    st = sdkrt_client_new(out, &o, err);
done:
    free(creds);
    return st;
}
