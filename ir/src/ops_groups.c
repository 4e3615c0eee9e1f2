/* ops_groups.c - groups and names of operations (docs/naming.md#groups). An operation's group is
 * what an SDK makes of it (`client.issues.listForRepo`); its name is unique in the group and its
 * safe name (the C name) unique among operations. Clashes are resolved by structure: a removed
 * group prefix or a stripped operationId prefix comes back; `_2` only for operationIds that
 * differ in punctuation alone. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ops_internal.h"
#include "sdkc/naming.h"

/* Operation extensions that name a group, the first present wins: SDK generators' (Speakeasy;
 * Fern, a string or a list of nested groups) and the public corpus's (x-group: Rubrik;
 * x-groupName: Adyen; x-ds-service: DocuSign). */
static const char *const GROUP_EXTENSIONS[] = {"x-speakeasy-group", "x-fern-sdk-group-name",
                                               "x-group", "x-groupName", "x-ds-service"};

static bool is_alnum(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

static bool has_word(const char *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        if (is_alnum(s[i]))
            return true;
    return false;
}

static const char *scalar_word(const sdkc_node *n)
{
    return n && n->kind == SDKC_NODE_SCALAR && n->str && has_word(n->str, strlen(n->str)) ? n->str
                                                                                          : NULL;
}

/* An extension's group: a string, or a list of strings joined by '.' (Fern's nested groups). */
static const char *extension_group(cctx *c, const sdkc_node *v)
{
    if (scalar_word(v))
        return sdkc_cc_strdup(c, v->str);
    if (!v || v->kind != SDKC_NODE_SEQ || !v->nitems)
        return NULL;
    const char *g = NULL;
    for (size_t i = 0; i < v->nitems; i++) {
        const char *s = scalar_word(v->items[i]);
        if (!s)
            return NULL;
        g = g ? sdkc_cc_printf(c, "%s.%s", g, s) : sdkc_cc_strdup(c, s);
        if (!g)
            return NULL;
    }
    return g;
}

void sdkc_ops_seed(cctx *c, sdkc_operation *op, const sdkc_node *node, const char *id,
                   const char *prefix, const char *path)
{
    op->id = id;
    op->prefix = prefix;
    op->path = path;
    const sdkc_node *tags = sdkc_node_get(node, "tags");
    if (tags && tags->kind == SDKC_NODE_SEQ && tags->nitems) {
        const char **t = sdkc_cc_alloc(c, tags->nitems * sizeof *t);
        size_t k = 0;
        for (size_t i = 0; t && i < tags->nitems; i++) {
            const sdkc_node *tn = tags->items[i];
            if (tn->kind == SDKC_NODE_SCALAR && tn->str && (t[k] = sdkc_cc_strdup(c, tn->str)))
                k++;
        }
        op->tags = t;
        op->ntags = t ? k : 0;
    }
    for (size_t i = 0; i < sizeof GROUP_EXTENSIONS / sizeof GROUP_EXTENSIONS[0]; i++) {
        const char *g = extension_group(c, sdkc_node_get(node, GROUP_EXTENSIONS[i]));
        if (g) {
            op->group = g;
            op->group_source = SDKC_GROUP_EXTENSION;
            break;
        }
    }
}

/* `v1`, `v2beta`, `2010-04-01`, `1.0`: a version, not a resource. */
static bool version_like(const char *s, size_t n)
{
    if (n && s[0] >= '0' && s[0] <= '9')
        return true;
    return n >= 2 && (s[0] == 'v' || s[0] == 'V') && s[1] >= '0' && s[1] <= '9';
}

/* The path's first resource segment: not a parameter, a version or `api`; up to a `.` or `:`
 * (`/Calls.json`, `/v1/{name}:batchGet`). */
static const char *path_group(cctx *c, const char *path)
{
    for (const char *p = path; p && *p;) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t n = 0;
        while (p + n < e && p[n] != '.' && p[n] != ':')
            n++;
        bool param = memchr(p, '{', (size_t)(e - p)) != NULL;
        if (n && !param && !version_like(p, n) && !(n == 3 && strncasecmp(p, "api", 3) == 0) &&
            has_word(p, n))
            return sdkc_arena_strndup(c->a, p, n);
        p = e;
    }
    return NULL;
}

static const char *snake(cctx *c, const char *s)
{
    char *r = sdkc_snake_case(c->a, s ? s : "");
    if (!r)
        c->nomem = true;
    return r;
}

/* `rest` without the group's words at its start, when they end at a word boundary and a word
 * follows: "list-for-repo" of "issues/list-for-repo" in group issues, "List" of "petsList" in
 * pets. NULL when the rest does not start with the group. */
static const char *strip_group(cctx *c, const char *rest, const char *group)
{
    const char *g = snake(c, group), *whole = snake(c, rest);
    if (!g || !whole || strcmp(g, "_") == 0)
        return NULL;
    size_t gl = strlen(g);
    if (strncmp(whole, g, gl) != 0 || whole[gl] != '_')
        return NULL;
    for (size_t k = 1; rest[k]; k++) {
        /* words never end inside a lower-case run, a digit run or before digits */
        char a = rest[k - 1], z = rest[k];
        if ((a >= 'a' && a <= 'z' && z >= 'a' && z <= 'z') || (is_alnum(a) && z >= '0' && z <= '9'))
            continue;
        const char *head = sdkc_arena_strndup(c->a, rest, k);
        const char *hs = head ? snake(c, head) : NULL;
        if (!hs) {
            c->nomem = true;
            return NULL;
        }
        if (strcmp(hs, g) != 0)
            continue;
        const char *tail = rest + k;
        while (*tail && !is_alnum(*tail))
            tail++;
        const char *ts = *tail ? snake(c, tail) : NULL;
        /* a cut inside a word ("pets" of "petshopList") leaves words that differ */
        if (ts && strcmp(ts, whole + gl + 1) == 0)
            return tail;
    }
    return NULL;
}

typedef struct op_naming {
    const char *rest;  /* id without its prefix */
    const char *full;  /* the name with the group's words kept */
    bool stripped;     /* name != full */
    const char *safe;  /* snake_case of the C name before uniqueness */
    const char *scope; /* kept prefix and group, snake_case: "v2/session" */
    const char *key;   /* scope and snake_case name */
} op_naming;

static void set_keys(cctx *c, const sdkc_operation *op, op_naming *m)
{
    const char *kp = op->kept_prefix ? snake(c, op->kept_prefix) : "";
    const char *g = op->group ? snake(c, op->group) : "";
    const char *nm = snake(c, op->name);
    m->safe = snake(c, op->kept_prefix ? op->id : m->rest);
    m->scope = kp && g ? sdkc_cc_printf(c, "%s/%s", kp, g) : NULL;
    m->key = m->scope && nm ? sdkc_cc_printf(c, "%s/%s", m->scope, nm) : NULL;
    if (!m->safe || !m->key)
        c->nomem = true;
}

static void group_and_name(cctx *c, sdkc_operation *op, op_naming *m)
{
    m->rest = op->prefix ? op->id + strlen(op->prefix) + 1 : op->id;
    const char *dot = strchr(m->rest, '.');
    if (op->group_source != SDKC_GROUP_EXTENSION && dot && dot > m->rest && dot[1]) {
        op->group = sdkc_arena_strndup(c->a, m->rest, (size_t)(dot - m->rest));
        op->group_source = SDKC_GROUP_OPERATION_ID;
        op->name = sdkc_cc_strdup(c, dot + 1);
        m->full = op->name;
        return;
    }
    if (op->group_source != SDKC_GROUP_EXTENSION) {
        for (size_t i = 0; i < op->ntags && !op->group; i++) {
            if (has_word(op->tags[i], strlen(op->tags[i]))) {
                op->group = op->tags[i];
                op->group_source = SDKC_GROUP_TAG;
            }
        }
        if (!op->group && (op->group = path_group(c, op->path)) != NULL)
            op->group_source = SDKC_GROUP_PATH;
    }
    const char *s = op->group ? strip_group(c, m->rest, op->group) : NULL;
    m->full = sdkc_cc_strdup(c, m->rest);
    op->name = s ? sdkc_cc_strdup(c, s) : m->full;
    m->stripped = s != NULL;
}

/* Does one of the ops of prefix `pre`, stripped, meet a name or group taken already? */
static bool prefix_meets(const sdkc_operation *ops, const op_naming *m, size_t n, const char *pre,
                         const sdkc_map *taken)
{
    for (size_t i = 0; i < n; i++) {
        if (!ops[i].prefix || strcmp(ops[i].prefix, pre) != 0)
            continue;
        if ((m[i].safe && sdkc_map_get(taken, m[i].safe)) ||
            (m[i].scope && sdkc_map_get(taken, m[i].scope)) ||
            (m[i].key && sdkc_map_get(taken, m[i].key)))
            return true;
    }
    return false;
}

static void take(cctx *c, sdkc_map *taken, const op_naming *m, void *val)
{
    /* safe names are snake_case identifiers, scopes and keys hold '/': they never meet */
    if ((m->safe && !sdkc_map_put(taken, m->safe, val)) ||
        (m->scope && !sdkc_map_put(taken, m->scope, val)) ||
        (m->key && !sdkc_map_put(taken, m->key, val)))
        c->nomem = true;
}

/* The stripped prefixes, in the order they first occur: a prefix comes back for every operation
 * that has it when one of them meets an operation without it (or with a prefix before it). */
static void decide_prefixes(cctx *c, sdkc_operation *ops, op_naming *m, size_t n)
{
    sdkc_map taken;
    sdkc_map_init(&taken, SDKC_MAP_STRINGS);
    for (size_t i = 0; i < n; i++)
        if (!ops[i].prefix)
            take(c, &taken, &m[i], &ops[i]);
    for (size_t i = 0; i < n && !c->nomem; i++) {
        const char *pre = ops[i].prefix;
        bool first = pre != NULL;
        for (size_t j = 0; first && j < i; j++)
            first = !ops[j].prefix || strcmp(ops[j].prefix, pre) != 0;
        if (!first)
            continue;
        bool kept = prefix_meets(ops, m, n, pre, &taken);
        for (size_t j = i; j < n; j++) {
            if (!ops[j].prefix || strcmp(ops[j].prefix, pre) != 0)
                continue;
            if (kept) {
                ops[j].kept_prefix = ops[j].prefix;
                set_keys(c, &ops[j], &m[j]);
            }
            take(c, &taken, &m[j], &ops[j]);
        }
    }
    sdkc_map_cleanup(&taken);
}

/* A name tried for an operation, and the key ("scope/snake") it has in its group. */
typedef struct group_key {
    cctx *c;
    const sdkc_map *seen; /* keys taken */
    const op_naming *m;
    const char *first; /* the operation's own name, whose key m->key is */
    const char **key;  /* out: the key of the last name tried; NULL when out of memory */
} group_key;

static bool group_key_taken(const void *arg, const char *name)
{
    const group_key *g = arg;
    if (name == g->first) {
        *g->key = g->m->key;
    } else {
        const char *ns = snake(g->c, name);
        *g->key = ns ? sdkc_cc_printf(g->c, "%s/%s", g->m->scope, ns) : NULL;
    }
    return *g->key && sdkc_map_get(g->seen, *g->key);
}

/* Names in one group meet: each whose group words were removed gets them back; what still
 * meets (operationIds that differ in punctuation or case alone) gets `_2`, `_3`. */
static void unique_names(cctx *c, sdkc_operation *ops, op_naming *m, size_t n)
{
    sdkc_map seen;
    sdkc_map_init(&seen, SDKC_MAP_STRINGS);
    bool *met = calloc(n ? n : 1, sizeof *met);
    if (!met)
        c->nomem = true;
    for (size_t i = 0; i < n && met && !c->nomem; i++) {
        sdkc_operation *prev = sdkc_map_get(&seen, m[i].key);
        if (prev) {
            met[i] = true;
            met[prev - ops] = true;
        } else if (!sdkc_map_put(&seen, m[i].key, &ops[i])) {
            c->nomem = true;
        }
    }
    sdkc_map_cleanup(&seen);
    sdkc_map_init(&seen, SDKC_MAP_STRINGS);
    for (size_t i = 0; i < n && met && !c->nomem; i++) {
        if (met[i] && m[i].stripped) {
            ops[i].name = m[i].full;
            set_keys(c, &ops[i], &m[i]);
        }
        const char *key = NULL;
        group_key gk = {c, &seen, &m[i], ops[i].name, &key};
        const char *name = sdkc_cc_unique(c, ops[i].name, "_", group_key_taken, &gk);
        if (!name)
            key = NULL;
        if (!key || !sdkc_map_put(&seen, key, &ops[i])) {
            c->nomem = true;
            break;
        }
        ops[i].name = name;
    }
    sdkc_map_cleanup(&seen);
    free(met);
}

/* Safe names: operations without a prefix first (as before groups existed, so a kept prefix
 * never renames one of them), then in contract order; a C keyword gets `_`. */
static void safe_names(cctx *c, sdkc_operation *ops, const op_naming *m, size_t n)
{
    sdkc_map taken;
    sdkc_map_init(&taken, SDKC_MAP_STRINGS);
    for (int pass = 0; pass < 2 && !c->nomem; pass++) {
        for (size_t i = 0; i < n; i++) {
            if ((ops[i].prefix != NULL) != (pass == 1))
                continue;
            const char *s = m[i].safe;
            if (s && sdkc_is_c_keyword(s))
                s = sdkc_cc_printf(c, "%s_", s);
            const char *u = sdkc_cc_unique_in(c, &taken, s, "_");
            if (!u || !sdkc_map_put(&taken, u, &ops[i])) {
                c->nomem = true;
                break;
            }
            ops[i].safe_name = u;
        }
    }
    sdkc_map_cleanup(&taken);
}

void sdkc_ops_name(cctx *c, sdkc_operation *ops, size_t n)
{
    op_naming *m = calloc(n ? n : 1, sizeof *m);
    if (!m) {
        c->nomem = true;
        return;
    }
    for (size_t i = 0; i < n && !c->nomem; i++) {
        group_and_name(c, &ops[i], &m[i]);
        set_keys(c, &ops[i], &m[i]);
    }
    if (!c->nomem)
        decide_prefixes(c, ops, m, n);
    if (!c->nomem)
        unique_names(c, ops, m, n);
    if (!c->nomem)
        safe_names(c, ops, m, n);
    free(m);
}
