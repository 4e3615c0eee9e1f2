/* contract.c - media types as responses declare them: matching an answer's Content-Type against
 * a declared one, and telling JSON apart. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conform_internal.h"

/* ---- media types ---- */

typedef struct media {
    const char *type, *sub, *params; /* into the text */
    size_t tlen, slen;
} media;

static bool parse_media(const char *s, media *m)
{
    while (*s == ' ' || *s == '\t')
        s++;
    m->type = s;
    while (*s && *s != '/' && *s != ';' && *s != ' ')
        s++;
    m->tlen = (size_t)(s - m->type);
    if (*s != '/' || !m->tlen)
        return false;
    m->sub = ++s;
    while (*s && *s != ';' && *s != ' ' && *s != '\t')
        s++;
    m->slen = (size_t)(s - m->sub);
    while (*s && *s != ';')
        s++;
    m->params = s;
    return m->slen > 0;
}

/* The value of parameter name in a ";a=b; c=\"d\"" list (into out), or false. */
static bool media_param(const char *params, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    for (const char *p = params; p && *p;) {
        while (*p == ';' || *p == ' ' || *p == '\t')
            p++;
        const char *eq = strchr(p, '=');
        const char *end = strchr(p, ';');
        if (!eq || (end && eq > end)) {
            p = end;
            continue;
        }
        const char *k = p, *ke = eq;
        while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
            ke--;
        const char *v = eq + 1;
        while (*v == ' ' || *v == '"')
            v++;
        const char *ve = end ? end : v + strlen(v);
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '"' || ve[-1] == '\t'))
            ve--;
        if ((size_t)(ke - k) == n && strncasecmp(k, name, n) == 0) {
            size_t len = (size_t)(ve - v) < cap - 1 ? (size_t)(ve - v) : cap - 1;
            memcpy(out, v, len);
            out[len] = '\0';
            return true;
        }
        p = end;
    }
    return false;
}

bool sdkc_conform_media_match(const char *declared, const char *got)
{
    media d, g;
    if (!declared || !got || !parse_media(declared, &d) || !parse_media(got, &g))
        return false;
    bool any_type = d.tlen == 1 && d.type[0] == '*';
    bool any_sub = d.slen == 1 && d.sub[0] == '*';
    if (!any_type && (d.tlen != g.tlen || strncasecmp(d.type, g.type, d.tlen) != 0))
        return false;
    if (!any_sub && (d.slen != g.slen || strncasecmp(d.sub, g.sub, d.slen) != 0))
        return false;
    /* Every parameter the declaration names must agree when the answer names it too (values
       compared without case: charset names are case-insensitive); a parameter the answer
       leaves out takes its default, and one the declaration does not name is free. */
    for (const char *p = d.params; p && *p;) {
        while (*p == ';' || *p == ' ' || *p == '\t')
            p++;
        const char *eq = strchr(p, '=');
        const char *end = strchr(p, ';');
        if (!eq || (end && eq > end)) {
            p = end;
            continue;
        }
        char name[64], dv[128], gv[128];
        const char *ke = eq;
        while (ke > p && (ke[-1] == ' ' || ke[-1] == '\t'))
            ke--;
        size_t nl = (size_t)(ke - p) < sizeof name - 1 ? (size_t)(ke - p) : sizeof name - 1;
        memcpy(name, p, nl);
        name[nl] = '\0';
        if (media_param(d.params, name, dv, sizeof dv) &&
            media_param(g.params, name, gv, sizeof gv) && strcasecmp(dv, gv) != 0)
            return false;
        p = end;
    }
    return true;
}

bool conform_media_is_json(const char *mt)
{
    media m;
    if (!mt || !parse_media(mt, &m))
        return false;
    if (m.slen == 4 && strncasecmp(m.sub, "json", 4) == 0)
        return true;
    return m.slen > 5 && strncasecmp(m.sub + m.slen - 5, "+json", 5) == 0;
}
