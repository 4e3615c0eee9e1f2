/* context.c - the compiler context (context.h): diagnostics, allocation, unique names and the
 * one `$ref` follower. */
#include <stdarg.h>
#include <string.h>

#include "context.h"
#include "sdkc/naming.h"

/* ---- diagnostics ---- */

sdkc_loc sdkc_cc_loc(const cctx *c, const sdkc_node *n)
{
    sdkc_loc l = {c->file, 0, 0};
    if (n) {
        l.line = n->loc.line;
        l.col = n->loc.col;
    }
    return l;
}

void sdkc_cc_vreport(cctx *c, sdkc_severity sev, sdkc_loc loc, const char *fmt, va_list ap)
{
    if (sev == SDKC_SEV_ERROR)
        c->nerrors++;
    if (c->diag)
        sdkc_diag_vadd(c->diag, sev, loc, fmt, ap);
}

void sdkc_cc_report(cctx *c, sdkc_severity sev, sdkc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_cc_vreport(c, sev, loc, fmt, ap);
    va_end(ap);
}

void sdkc_cc_error(cctx *c, const sdkc_node *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_cc_vreport(c, SDKC_SEV_ERROR, sdkc_cc_loc(c, n), fmt, ap);
    va_end(ap);
}

void sdkc_cc_warn(cctx *c, const sdkc_node *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_cc_vreport(c, SDKC_SEV_WARNING, sdkc_cc_loc(c, n), fmt, ap);
    va_end(ap);
}

/* ---- allocation ---- */

void *sdkc_cc_alloc(cctx *c, size_t n)
{
    if (n == 0)
        n = 1;
    void *p = sdkc_arena_alloc(c->a, n);
    if (!p)
        c->nomem = true;
    return p;
}

char *sdkc_cc_strdup(cctx *c, const char *s)
{
    if (!s)
        return NULL;
    char *p = sdkc_arena_strdup(c->a, s);
    if (!p)
        c->nomem = true;
    return p;
}

char *sdkc_cc_printf(cctx *c, const char *fmt, ...)
{
    /* sdkc_arena_vprintf: %s-only formats without vsnprintf, the rest with the same output. */
    va_list ap;
    va_start(ap, fmt);
    char *r = sdkc_arena_vprintf(c->a, fmt, ap);
    va_end(ap);
    if (!r)
        c->nomem = true;
    return r;
}

char *sdkc_cc_ptr_child(cctx *c, const char *base, const char *seg)
{
    size_t bl = strlen(base ? base : ""), sl = strlen(seg ? seg : "");
    char *out = sdkc_cc_alloc(c, bl + 2 * sl + 2);
    if (!out)
        return NULL;
    memcpy(out, base ? base : "", bl);
    size_t o = bl;
    out[o++] = '/';
    for (size_t i = 0; i < sl; i++) {
        if (seg[i] == '~') {
            out[o++] = '~';
            out[o++] = '0';
        } else if (seg[i] == '/') {
            out[o++] = '~';
            out[o++] = '1';
        } else {
            out[o++] = seg[i];
        }
    }
    out[o] = '\0';
    return out;
}

char *sdkc_cc_ptr_index(cctx *c, const char *base, size_t i)
{
    char digits[24];
    size_t nd = 0;
    do {
        digits[nd++] = (char)('0' + i % 10);
        i /= 10;
    } while (i > 0);
    size_t bl = base ? strlen(base) : 0;
    char *out = sdkc_cc_alloc(c, bl + nd + 2);
    if (!out)
        return NULL;
    if (bl)
        memcpy(out, base, bl);
    out[bl] = '/';
    for (size_t k = 0; k < nd; k++)
        out[bl + 1 + k] = digits[nd - 1 - k];
    out[bl + 1 + nd] = '\0';
    return out;
}

char *sdkc_cc_concat(cctx *c, const char *a, const char *b)
{
    size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0;
    char *out = sdkc_cc_alloc(c, la + lb + 1);
    if (!out)
        return NULL;
    if (la)
        memcpy(out, a, la);
    if (lb)
        memcpy(out + la, b, lb);
    out[la + lb] = '\0';
    return out;
}

const char *sdkc_cc_docs(cctx *c, const sdkc_node *n)
{
    const sdkc_node *d = sdkc_node_get(n, "description");
    const char *t = d && d->kind == SDKC_NODE_SCALAR ? d->str : NULL;
    return t ? sdkc_cc_strdup(c, t) : NULL;
}

/* ---- unique names ---- */

const char *sdkc_cc_unique(cctx *c, const char *base, const char *sep, sdkc_cc_taken_fn *taken,
                           const void *arg)
{
    const char *name = base;
    for (unsigned k = 2; name && taken(arg, name); k++)
        name = sdkc_cc_printf(c, "%s%s%u", base, sep, k);
    return name;
}

static bool in_map(const void *map, const char *name)
{
    return sdkc_map_get(map, name) != NULL;
}

const char *sdkc_cc_unique_in(cctx *c, const sdkc_map *names, const char *base, const char *sep)
{
    return sdkc_cc_unique(c, base, sep, in_map, names);
}

const char *sdkc_cc_intern(cctx *c, const char *s)
{
    if (!s)
        return NULL;
    const char *have = sdkc_map_get(&c->interned, s);
    if (have)
        return have;
    char *copy = sdkc_cc_strdup(c, s);
    if (copy && !sdkc_map_put(&c->interned, copy, copy))
        c->nomem = true;
    return copy;
}

/* Remembered per text: field names repeat across a contract's objects (id, url, name). */
const char *sdkc_cc_c_name(cctx *c, const char *text)
{
    const char *have = text ? sdkc_map_get(&c->c_names, text) : NULL;
    if (have)
        return have;
    char *s = sdkc_snake_case(c->a, text);
    if (s && sdkc_is_c_keyword(s))
        s = sdkc_cc_printf(c, "%s_", s);
    const char *key = s ? sdkc_cc_intern(c, text) : NULL;
    if (!s || !key || !sdkc_map_put(&c->c_names, key, s))
        c->nomem = true;
    return s;
}

const char *sdkc_cc_unique_c_name(cctx *c, sdkc_map *names, const char *text, void *value)
{
    const char *u = sdkc_cc_unique_in(c, names, sdkc_cc_c_name(c, text), "_");
    if (!u || !sdkc_map_put(names, u, value)) {
        c->nomem = true;
        return NULL;
    }
    return u;
}

/* ---- references ---- */

/* The node a local `$ref` names, or NULL; nothing reported. */
static const sdkc_node *ref_target(const cctx *c, const sdkc_node *refnode)
{
    const char *ref = sdkc_cc_text(refnode);
    if (!ref || !sdkc_node_is_string(refnode) || ref[0] != '#')
        return NULL;
    return ref[1] == '\0' ? c->root : sdkc_doc_pointer(c->doc, ref + 1);
}

const sdkc_node *sdkc_cc_resolve_ref(cctx *c, const sdkc_node *refnode)
{
    const sdkc_node *t = ref_target(c, refnode);
    if (t)
        return t;
    const char *ref = sdkc_cc_text(refnode);
    /* one report per broken reference, however often it is followed */
    if (sdkc_map_get(&c->reported, refnode))
        return NULL;
    if (!sdkc_map_put(&c->reported, refnode, (void *)1))
        c->nomem = true;
    if (!ref || !sdkc_node_is_string(refnode))
        sdkc_cc_error(c, refnode, "$ref must be a string");
    else if (ref[0] != '#')
        sdkc_cc_error(c, refnode,
                      "external $ref '%s' is not supported (only local '#/...' references)", ref);
    else
        sdkc_cc_error(c, refnode, "dangling $ref '%s': no such location in the document", ref);
    return NULL;
}

/* Follow n's `$ref`s (up to 32), reporting a broken one or not. */
static const sdkc_node *follow_refs(cctx *c, const sdkc_node *n, bool report)
{
    for (int i = 0; n && i < 32; i++) {
        const sdkc_node *r = sdkc_node_get(n, "$ref");
        if (!r)
            return n;
        n = report ? sdkc_cc_resolve_ref(c, r) : ref_target(c, r);
    }
    return report ? n : NULL;
}

const sdkc_node *sdkc_cc_deref_quiet(cctx *c, const sdkc_node *n)
{
    return follow_refs(c, n, false);
}

const sdkc_node *sdkc_cc_deref(cctx *c, const sdkc_node *n)
{
    return follow_refs(c, n, true);
}
