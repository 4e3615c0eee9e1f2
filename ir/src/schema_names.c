/* schema_names.c - names of the types the schema stage makes (context names, titles, the
 * snake_case clash rule) and brands: string patterns with a fixed prefix, the field names that
 * vote for their name, the names they get. */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"
#include "sdkc/naming.h"

/* ---- names ---- */

bool sdkc_sch_register_name(cctx *c, sdkc_type *t)
{
    char *snake = sdkc_snake_case(c->a, t->name);
    if (!snake || !sdkc_map_put(&c->schemas->names, t->name, t) ||
        !sdkc_vec_push(&c->schemas->named, t) ||
        (!sdkc_map_get(&c->schemas->snakes, snake) &&
         !sdkc_map_put(&c->schemas->snakes, snake, t))) {
        c->nomem = true;
        return false;
    }
    return true;
}

bool sdkc_schema_name_free(cctx *c, const char *name)
{
    char *snake = sdkc_snake_case(c->a, name);
    if (!snake) {
        c->nomem = true;
        return false;
    }
    return !sdkc_map_get(&c->schemas->names, name) && !sdkc_map_get(&c->schemas->snakes, snake);
}

/* Do two schemas say the same thing? Mappings compare key by key in any order, lists in order. */
bool sdkc_sch_same_schema(const sdkc_node *a, const sdkc_node *b, int depth)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || depth > 64)
        return false;
    switch (a->kind) {
    case SDKC_NODE_SCALAR:
        return a->scalar == b->scalar && strcmp(a->str, b->str) == 0;
    case SDKC_NODE_SEQ:
        if (a->nitems != b->nitems)
            return false;
        for (size_t i = 0; i < a->nitems; i++)
            if (!sdkc_sch_same_schema(a->items[i], b->items[i], depth + 1))
                return false;
        return true;
    case SDKC_NODE_MAP:
        if (a->npairs != b->npairs)
            return false;
        for (size_t i = 0; i < a->npairs; i++) {
            const sdkc_node *bv = kget(b, a->pairs[i].key->str);
            if (!sdkc_sch_same_schema(a->pairs[i].value, bv, depth + 1))
                return false;
        }
        return true;
    }
    return false;
}

/* The name an inline schema's `title` gives, in Pascal case; NULL without a usable title. */
const char *sdkc_sch_title_name(cctx *c, const sdkc_node *n)
{
    const sdkc_node *title = kget(n, "title");
    if (!sdkc_node_is_string(title))
        return NULL;
    char *p = sdkc_pascal_case(c->a, title->str);
    if (!p)
        c->nomem = true;
    /* "CreateAccountRequest" under CreateAccount: the operation's context names it already, and
       emitters derive names of their own from the operation's */
    if (p && c->op_name && strncmp(p, c->op_name, strlen(c->op_name)) == 0)
        return NULL;
    return p && strcmp(p, "X") != 0 ? p : NULL;
}

/* Give an inline type a unique name: ctxname, else ctxname2, ctxname3, ... */
void sdkc_sch_name_inline(cctx *c, sdkc_type *t, const char *ctxname)
{
    if (!ctxname)
        return;
    const char *name = sdkc_cc_unique_in(c, &c->schemas->names, ctxname, "");
    if (!name)
        return;
    t->name = name == ctxname ? sdkc_cc_strdup(c, ctxname) : name;
    if (t->name)
        sdkc_sch_register_name(c, t);
}

const char *sdkc_sch_ctx_child(cctx *c, const char *ctxname, const char *suffix)
{
    char *p = sdkc_pascal_case(c->a, suffix);
    if (!p) {
        c->nomem = true;
        return NULL;
    }
    return sdkc_cc_concat(c, ctxname, p);
}

/* ---- brands ---- */

static bool brand_prefix(const char *pattern, size_t *len)
{
    if (!pattern || pattern[0] != '^' || pattern[1] == '\0')
        return false;
    size_t i = 1;
    for (; pattern[i]; i++) {
        char ch = pattern[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        if (!ok)
            return false;
    }
    *len = i - 1;
    return true;
}

const sdkc_brand *sdkc_sch_brand_for(cctx *c, const char *pattern)
{
    size_t len;
    if (!brand_prefix(pattern, &len))
        return NULL;
    const char *prefix = pattern + 1;
    brand_acc *b = sdkc_map_get(&c->schemas->brands, prefix);
    if (!b) {
        b = calloc(1, sizeof *b);
        sdkc_brand *br = sdkc_cc_alloc(c, sizeof *br);
        if (!b || !br || !sdkc_vec_push(&c->schemas->brand_list, b)) {
            free(b);
            c->nomem = true;
            return NULL;
        }
        br->prefix = sdkc_cc_strdup(c, prefix);
        br->pattern = sdkc_cc_strdup(c, pattern);
        b->brand = br;
        if (!br->prefix || !sdkc_map_put(&c->schemas->brands, br->prefix, b)) {
            c->nomem = true;
            return NULL;
        }
    }
    b->brand->uses++;
    return b->brand;
}

/* Count a field or parameter name that uses a brand. */
static void brand_vote(cctx *c, const sdkc_type *t, const char *field)
{
    t = sdkc_type_strip_nullable(t);
    if (!t || t->kind != SDKC_TYPE_STRING || !t->u.str.brand || !field)
        return;
    /* "id" says nothing about which kind of id */
    if (strcmp(field, "id") == 0)
        return;
    brand_acc *b = sdkc_map_get(&c->schemas->brands, t->u.str.brand->prefix);
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++) {
        if (strcmp(b->names[i], field) == 0) {
            b->counts[i]++;
            return;
        }
    }
    if (b->n == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 8;
        const char **nn = realloc(b->names, ncap * sizeof *nn);
        if (!nn) {
            c->nomem = true;
            return;
        }
        b->names = nn;
        size_t *nc = realloc(b->counts, ncap * sizeof *nc);
        if (!nc) {
            c->nomem = true;
            return;
        }
        b->counts = nc;
        b->cap = ncap;
    }
    b->names[b->n] = sdkc_cc_strdup(c, field);
    b->counts[b->n] = 1;
    if (b->names[b->n])
        b->n++;
}

static char lower_c(char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/* Is suffix, compared without case, the tail of name starting at a word boundary? */
static bool camel_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    if (m > n)
        return false;
    const char *tail = name + (n - m);
    for (size_t i = 0; i < m; i++)
        if (lower_c(tail[i]) != lower_c(suffix[i]))
            return false;
    return m == n || (tail[0] >= 'A' && tail[0] <= 'Z') || tail[-1] == '_';
}

static int cmp_brand_acc(const void *a, const void *b)
{
    const brand_acc *x = *(brand_acc *const *)a, *y = *(brand_acc *const *)b;
    if (x->brand->uses != y->brand->uses)
        return x->brand->uses > y->brand->uses ? -1 : 1;
    return strcmp(x->brand->prefix, y->brand->prefix);
}

static int cmp_brand(const void *a, const void *b)
{
    return strcmp(((const sdkc_brand *)a)->name, ((const sdkc_brand *)b)->name);
}

/* Names brands cannot take: another brand's, or a type's. */
typedef struct brand_names {
    const sdkc_map *brands, *types;
} brand_names;

static bool brand_name_taken(const void *arg, const char *name)
{
    const brand_names *u = arg;
    return sdkc_map_get(u->brands, name) || sdkc_map_get(u->types, name);
}

/* Name brands after the field that uses them most; brands that want a taken name, most used
 * first, fall back to the name plus their prefix, then numbers. */
static void finish_brands(cctx *c, sdkc_ir *ir)
{
    size_t n = c->schemas->brand_list.len;
    if (n == 0)
        return;
    brand_acc **order = malloc(n * sizeof *order);
    sdkc_brand *out = sdkc_cc_alloc(c, n * sizeof *out);
    sdkc_map taken;
    sdkc_map_init(&taken, SDKC_MAP_STRINGS);
    if (!order || !out) {
        c->nomem = true;
        goto done;
    }
    memcpy(order, c->schemas->brand_list.items, n * sizeof *order);
    qsort(order, n, sizeof *order, cmp_brand_acc);
    for (size_t i = 0; i < n; i++) {
        brand_acc *b = order[i];
        const char *best = NULL;
        size_t bestn = 0;
        for (size_t j = 0; j < b->n; j++) {
            /* a qualified name (assistantMessageID) also counts for its plain suffix
               (messageID) */
            size_t score = 0;
            for (size_t q = 0; q < b->n; q++)
                if (camel_suffix(b->names[q], b->names[j]))
                    score += b->counts[q];
            if (score > bestn || (score == bestn && strcmp(b->names[j], best) < 0)) {
                best = b->names[j];
                bestn = score;
            }
        }
        char *base = best ? sdkc_pascal_case(c->a, best)
                          : sdkc_cc_printf(c, "%sID", nz(sdkc_pascal_case(c->a, b->brand->prefix)));
        if (!base) {
            c->nomem = true;
            goto done;
        }
        brand_names used = {&taken, &c->schemas->names};
        const char *name = base;
        if (brand_name_taken(&used, name))
            name = sdkc_cc_printf(c, "%s%s", base, nz(sdkc_pascal_case(c->a, b->brand->prefix)));
        const char *cand = sdkc_cc_unique(c, name, "", brand_name_taken, &used);
        if (!cand || !sdkc_map_put(&taken, cand, (void *)1)) {
            c->nomem = true;
            goto done;
        }
        b->brand->name = cand;
        b->brand->safe_name = sdkc_snake_case(c->a, cand);
    }
    /* the IR holds brands by value, sorted by name; string types point at these copies */
    for (size_t i = 0; i < n; i++)
        out[i] = *((brand_acc *)c->schemas->brand_list.items[i])->brand;
    qsort(out, n, sizeof *out, cmp_brand);
    sdkc_map byprefix;
    sdkc_map_init(&byprefix, SDKC_MAP_STRINGS);
    for (size_t i = 0; i < n; i++)
        if (!sdkc_map_put(&byprefix, out[i].prefix, &out[i]))
            c->nomem = true;
    for (size_t i = 0; i < c->schemas->all.len; i++) {
        sdkc_type *t = c->schemas->all.items[i];
        if (t->kind == SDKC_TYPE_STRING && t->u.str.brand)
            t->u.str.brand = sdkc_map_get(&byprefix, t->u.str.brand->prefix);
    }
    sdkc_map_cleanup(&byprefix);
    ir->brands = out;
    ir->nbrands = n;
done:
    sdkc_map_cleanup(&taken);
    free(order);
}

bool sdkc_schema_count_brand_votes(cctx *c, sdkc_ir *ir)
{
    struct sdkc_schemas *s = c->schemas;
    for (size_t i = 0; i < s->field_lists.len; i++) {
        const field_list *l = s->field_lists.items[i];
        for (size_t j = 0; j < l->n; j++)
            brand_vote(c, l->fields[j].type, l->fields[j].wire_name);
    }
    for (size_t i = 0; i < ir->nops; i++)
        for (size_t j = 0; j < ir->ops[i].nparams; j++)
            brand_vote(c, ir->ops[i].params[j].type, ir->ops[i].params[j].wire_name);
    return !c->nomem;
}

bool sdkc_schema_name_brands(cctx *c, sdkc_ir *ir)
{
    finish_brands(c, ir);
    return !c->nomem;
}
