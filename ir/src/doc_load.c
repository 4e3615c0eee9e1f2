/* doc_load.c - YAML/JSON to a positioned tree, through libyaml's event parser.
 *
 * The tree is built without recursion: an explicit frame per open collection (at most
 * SDKC_DOC_MAX_DEPTH) and one scratch stack of finished children, copied once into the arena
 * when their collection closes. Every node, string and index lives in the document's arena.
 */
#include "doc_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

/* Nodes are taken from the arena this many at a time. */
#define NODE_BATCH 128

/* The kinds share a union (doc.h): a node is 48 bytes on LP64 (it was 96). */
_Static_assert(sizeof(void *) != 8 || sizeof(sdkc_node) == 48, "sdkc_node grew");

/* ---- positions ------------------------------------------------------------------------------ */

/* 1-based line and column (in characters, like libyaml's marks) of a byte offset. CRLF and lone
 * CR end lines as in YAML; a leading UTF-8 BOM is not counted. */
static sdkc_loc loc_of_offset(const char *file, const char *data, size_t len, size_t off)
{
    sdkc_loc loc = {file, 1, 1};
    size_t i = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    if (off > len)
        off = len;
    for (; i < off; i++) {
        unsigned char c = (unsigned char)data[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= len || data[i + 1] != '\n'))) {
            loc.line++;
            loc.col = 1;
        } else if (c == '\r') {
            continue; /* the LF that follows ends the line */
        } else if ((c & 0xC0) != 0x80) {
            loc.col++;
        }
    }
    return loc;
}

/* ---- the loader ----------------------------------------------------------------------------- */

typedef struct anchor {
    char *name;            /* malloc; its key in loader.anchor_ix */
    const sdkc_node *node; /* NULL while its collection is still open */
    size_t count;          /* nodes in the anchored subtree, alias expansions included */
} anchor;

typedef struct frame {
    sdkc_node *node;
    size_t base;      /* first child in the scratch stack */
    size_t count_at;  /* node counter before this collection */
    size_t anchor_ix; /* anchor defined on it, or SIZE_MAX */
    bool skip_value;  /* the key before was refused; drop its value too */
} frame;

typedef struct loader {
    sdkc_doc *doc;
    sdkc_diag *diag;
    const char *data; /* the text libyaml reads (maybe rewritten) */
    size_t len;
    const sdkc_doc_rewrite *rw; /* the JSON rewrite L->data is, or NULL */
    sdkc_status st;             /* first failure; INVALID errors do not stop the walk, others do */
    bool stop;
    size_t nodes;
    frame frames[SDKC_DOC_MAX_DEPTH];
    size_t depth;
    const sdkc_node **kids; /* scratch stack of finished children */
    size_t nkids, capkids;
    anchor *anchors;
    size_t nanchors, capanchors;
    sdkc_node *pool; /* unused nodes of the last batch */
    size_t npool;
    sdkc_map anchor_ix; /* anchor name -> its index in anchors + 1, as a uintptr_t */
    size_t ndocs;
    /* The scalar texts stored so far, each once: keys and values repeat ("type", "string",
       "description", a shared description), and the document keeps one copy of each. */
    struct text_slot *texts;
    size_t texts_mask, ntexts;
} loader;

typedef struct text_slot {
    const char *str; /* in the document's arena; NULL: an empty slot */
    uint32_t len;
    uint32_t hash;
} text_slot;

/* At most this many distinct texts are kept in the table (16 MiB at most, freed after the
 * load); past it, a text is still found there, and a new one is stored apart. */
#define MAX_SHARED_TEXTS ((size_t)1 << 19)

/* The position of a libyaml mark, in the input as given (before any JSON rewrite). */
static sdkc_loc mark_loc(const loader *L, yaml_mark_t m)
{
    sdkc_loc loc = {L->doc->name, (uint32_t)(m.line + 1), (uint32_t)(m.column + 1)};
    if (m.line >= UINT32_MAX)
        loc.line = UINT32_MAX;
    if (m.column >= UINT32_MAX)
        loc.col = UINT32_MAX;
    if (L->rw && L->rw->npoints) {
        int64_t col = (int64_t)loc.col + sdkc_doc_json_shift(L->rw, m.line, m.column);
        loc.col = col < 1 ? 1 : col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    }
    return loc;
}

static void fail(loader *L, sdkc_status st, sdkc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(loader *L, sdkc_status st, sdkc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_diag_vadd(L->diag, SDKC_SEV_ERROR, loc, fmt, ap);
    va_end(ap);
    if (L->st == SDKC_OK || L->st == SDKC_ERR_INVALID)
        L->st = st;
    if (st != SDKC_ERR_INVALID)
        L->stop = true;
}

static void nomem(loader *L)
{
    L->st = SDKC_ERR_NOMEM;
    L->stop = true;
}

static bool count_nodes(loader *L, size_t n, yaml_mark_t m)
{
    if (n > SDKC_DOC_MAX_NODES - L->nodes) {
        fail(L, SDKC_ERR_LIMIT, mark_loc(L, m), "more than %u nodes (alias expansions included)",
             (unsigned)SDKC_DOC_MAX_NODES);
        return false;
    }
    L->nodes += n;
    return true;
}

/* ---- anchors -------------------------------------------------------------------------------- */

static anchor *anchor_find(loader *L, const char *name)
{
    uintptr_t ix = (uintptr_t)sdkc_map_get(&L->anchor_ix, name);
    return ix ? &L->anchors[ix - 1] : NULL;
}

/* Define (or redefine: the latest definition wins) an anchor; returns its index or SIZE_MAX
 * on allocation failure. */
static size_t anchor_define(loader *L, const char *name)
{
    anchor *a = anchor_find(L, name);
    if (a) {
        a->node = NULL;
        a->count = 0;
        return (size_t)(a - L->anchors);
    }
    if (L->nanchors == L->capanchors) {
        size_t cap = L->capanchors ? L->capanchors * 2 : 16;
        anchor *p = realloc(L->anchors, cap * sizeof *p);
        if (!p)
            return SIZE_MAX;
        L->anchors = p;
        L->capanchors = cap;
    }
    size_t len = strlen(name);
    char *copy = malloc(len + 1);
    if (!copy)
        return SIZE_MAX;
    memcpy(copy, name, len + 1);
    if (!sdkc_map_put(&L->anchor_ix, copy, (void *)(uintptr_t)(L->nanchors + 1))) {
        free(copy);
        return SIZE_MAX;
    }
    L->anchors[L->nanchors] = (anchor){copy, NULL, 0};
    return L->nanchors++;
}

/* ---- scalars ------------------------------------------------------------------------------- */

#define CORE_TAG "tag:yaml.org,2002:"

static sdkc_scalar_type scalar_type(loader *L, const yaml_event_t *ev, const char *s, size_t n)
{
    const char *tag = (const char *)ev->data.scalar.tag;
    bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (!tag)
        return plain ? sdkc_doc_resolve_plain(s, n) : SDKC_SCALAR_STRING;
    if (strcmp(tag, "!") == 0 || strcmp(tag, CORE_TAG "str") == 0)
        return SDKC_SCALAR_STRING;
    static const struct {
        const char *tag;
        sdkc_scalar_type type;
    } core[] = {{CORE_TAG "null", SDKC_SCALAR_NULL},
                {CORE_TAG "bool", SDKC_SCALAR_BOOL},
                {CORE_TAG "int", SDKC_SCALAR_INT},
                {CORE_TAG "float", SDKC_SCALAR_FLOAT}};
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++) {
        if (strcmp(tag, core[i].tag) != 0)
            continue;
        sdkc_scalar_type t = sdkc_doc_resolve_plain(s, n);
        if (t == core[i].type || (t == SDKC_SCALAR_INT && core[i].type == SDKC_SCALAR_FLOAT))
            return core[i].type;
        fail(L, SDKC_ERR_INVALID, mark_loc(L, ev->start_mark), "value \"%.*s\" is not a !!%s",
             n > 40 ? 40 : (int)n, s, sdkc_doc_scalar_type_name(core[i].type));
        return SDKC_SCALAR_STRING;
    }
    sdkc_diag_add(L->diag, SDKC_SEV_WARNING, mark_loc(L, ev->start_mark), "tag %s ignored", tag);
    return plain ? sdkc_doc_resolve_plain(s, n) : SDKC_SCALAR_STRING;
}

/* ---- tree building -------------------------------------------------------------------------- */

static bool push_kid(loader *L, const sdkc_node *n)
{
    if (L->nkids == L->capkids) {
        size_t cap = L->capkids ? L->capkids * 2 : 256;
        if (cap > SIZE_MAX / sizeof *L->kids)
            return false;
        const sdkc_node **p = realloc(L->kids, cap * sizeof *p);
        if (!p)
            return false;
        L->kids = p;
        L->capkids = cap;
    }
    L->kids[L->nkids++] = n;
    return true;
}

/* A finished node goes to its parent (or becomes the root). */
static void add_node(loader *L, const sdkc_node *n)
{
    if (L->depth == 0) {
        L->doc->root = n;
        return;
    }
    frame *f = &L->frames[L->depth - 1];
    if (f->node->kind == SDKC_NODE_MAP) {
        bool is_key = (L->nkids - f->base) % 2 == 0;
        if (!is_key && f->skip_value) {
            f->skip_value = false;
            return;
        }
        if (is_key && n->kind != SDKC_NODE_SCALAR) {
            fail(L, SDKC_ERR_INVALID, n->loc, "mapping key must be a scalar, not a %s",
                 n->kind == SDKC_NODE_MAP ? "mapping" : "sequence");
            f->skip_value = true;
            return;
        }
    }
    if (!push_kid(L, n))
        nomem(L);
}

static sdkc_node *new_node(loader *L, sdkc_node_kind kind, yaml_mark_t m)
{
    if (L->npool == 0) { /* nodes come from the arena NODE_BATCH at a time */
        L->pool = sdkc_arena_alloc_uninit(L->doc->arena, NODE_BATCH * sizeof *L->pool);
        if (!L->pool) {
            nomem(L);
            return NULL;
        }
        L->npool = NODE_BATCH;
    }
    sdkc_node *n = L->pool++;
    L->npool--;
    memset(n, 0, sizeof *n); /* every member of the union too (an empty map has no index) */
    n->kind = kind;
    n->loc = mark_loc(L, m);
    return n;
}

static bool keys_equal(const sdkc_node *a, const sdkc_node *b)
{
    return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
}

static void report_duplicate(loader *L, const sdkc_node *first, const sdkc_node *again)
{
    fail(L, SDKC_ERR_INVALID, again->loc, "duplicate key \"%.*s\" (first at line %u)",
         again->len > 60 ? 60 : (int)again->len, again->str, (unsigned)first->loc.line);
}

/* An empty key index for n pairs in the arena (n > SDKC_DOC_MAP_INDEX_MIN), or NULL. */
static sdkc_doc_map_index *new_key_index(loader *L, size_t n)
{
    size_t size = 1;
    while (size < 2 * n)
        size *= 2;
    sdkc_doc_map_index *ix =
        sdkc_arena_alloc(L->doc->arena, sizeof *ix + size * sizeof ix->slots[0]);
    if (!ix || n >= UINT32_MAX)
        return NULL;
    ix->mask = size - 1;
    return ix;
}

/* The key among pairs[0..kept) equal to key, or NULL; with an index, *slot is where key goes. */
static const sdkc_node *find_key(const sdkc_pair *pairs, size_t kept, const sdkc_doc_map_index *ix,
                                 const sdkc_node *key, size_t *slot)
{
    if (!ix) {
        for (size_t j = 0; j < kept; j++)
            if (keys_equal(pairs[j].key, key))
                return pairs[j].key;
        return NULL;
    }
    size_t i = (size_t)sdkc_doc_key_hash(key->str, key->len) & ix->mask;
    for (; ix->slots[i]; i = (i + 1) & ix->mask) {
        const sdkc_node *other = pairs[ix->slots[i] - 1].key;
        if (keys_equal(other, key))
            return other;
    }
    *slot = i;
    return NULL;
}

/* Pairs from the scratch stack into the arena; duplicates are reported and dropped, and large
 * maps get their key index here. */
static void finish_map(loader *L, sdkc_node *map, size_t base)
{
    size_t n = (L->nkids - base) / 2;
    if (n == 0)
        return;
    sdkc_pair *pairs = sdkc_arena_alloc_uninit(L->doc->arena, n * sizeof *pairs);
    sdkc_doc_map_index *ix = NULL;
    if (pairs && n > SDKC_DOC_MAP_INDEX_MIN && !(ix = new_key_index(L, n)))
        pairs = NULL;
    if (!pairs) {
        nomem(L);
        return;
    }
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        const sdkc_node *key = L->kids[base + 2 * k];
        size_t slot = 0;
        const sdkc_node *dup = find_key(pairs, kept, ix, key, &slot);
        if (dup) {
            report_duplicate(L, dup, key);
            continue;
        }
        pairs[kept].key = key;
        pairs[kept].value = L->kids[base + 2 * k + 1];
        kept++;
        if (ix)
            ix->slots[slot] = (uint32_t)kept;
    }
    map->pairs = pairs;
    map->npairs = kept;
    map->index_ = ix;
}

static void finish_seq(loader *L, sdkc_node *seq, size_t base)
{
    size_t n = L->nkids - base;
    if (n == 0)
        return;
    const sdkc_node **items = sdkc_arena_alloc_uninit(L->doc->arena, n * sizeof *items);
    if (!items) {
        nomem(L);
        return;
    }
    memcpy(items, L->kids + base, n * sizeof *items);
    seq->items = items;
    seq->nitems = n;
}

/* The document's copy of the text s[0..len): one already stored, or a new one (NULL when out
 * of memory). */
static const char *store_text(loader *L, const char *s, size_t len)
{
    if (len > UINT32_MAX)
        return sdkc_arena_strndup(L->doc->arena, s, len);
    bool full = L->texts && L->ntexts * 2 >= L->texts_mask + 1;
    if ((!L->texts || full) && L->ntexts < MAX_SHARED_TEXTS) {
        size_t cap = L->texts ? (L->texts_mask + 1) * 2 : 1024;
        text_slot *t = calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        for (size_t i = 0; L->texts && i <= L->texts_mask; i++) {
            if (!L->texts[i].str)
                continue;
            size_t j = L->texts[i].hash & (cap - 1);
            while (t[j].str)
                j = (j + 1) & (cap - 1);
            t[j] = L->texts[i];
        }
        free(L->texts);
        L->texts = t;
        L->texts_mask = cap - 1;
        full = false;
    }
    uint32_t h = (uint32_t)sdkc_doc_key_hash(s, len);
    size_t i = h & L->texts_mask;
    for (; L->texts[i].str; i = (i + 1) & L->texts_mask) {
        const text_slot *t = &L->texts[i];
        if (t->hash == h && t->len == len && memcmp(t->str, s, len) == 0)
            return t->str;
    }
    char *copy = sdkc_arena_strndup(L->doc->arena, s, len);
    if (copy && !full) { /* past the cap, the table only finds what it has */
        L->texts[i] = (text_slot){copy, (uint32_t)len, h};
        L->ntexts++;
    }
    return copy;
}

static void on_scalar(loader *L, const yaml_event_t *ev)
{
    if (!count_nodes(L, 1, ev->start_mark))
        return;
    sdkc_node *n = new_node(L, SDKC_NODE_SCALAR, ev->start_mark);
    if (!n)
        return;
    const char *s = (const char *)ev->data.scalar.value;
    size_t len = ev->data.scalar.length;
    const char *copy = store_text(L, s, len);
    if (!copy) {
        nomem(L);
        return;
    }
    n->str = copy;
    n->len = len;
    n->scalar = scalar_type(L, ev, copy, len);
    if (ev->data.scalar.anchor) {
        size_t ai = anchor_define(L, (const char *)ev->data.scalar.anchor);
        if (ai == SIZE_MAX) {
            nomem(L);
            return;
        }
        L->anchors[ai].node = n;
        L->anchors[ai].count = 1;
    }
    add_node(L, n);
}

static void on_start(loader *L, const yaml_event_t *ev, sdkc_node_kind kind)
{
    if (L->depth == SDKC_DOC_MAX_DEPTH) {
        fail(L, SDKC_ERR_LIMIT, mark_loc(L, ev->start_mark), "nesting deeper than %d",
             SDKC_DOC_MAX_DEPTH);
        return;
    }
    size_t count_at = L->nodes;
    if (!count_nodes(L, 1, ev->start_mark))
        return;
    sdkc_node *n = new_node(L, kind, ev->start_mark);
    if (!n)
        return;
    const yaml_char_t *anchor_name =
        kind == SDKC_NODE_MAP ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
    size_t ai = SIZE_MAX;
    if (anchor_name) {
        ai = anchor_define(L, (const char *)anchor_name);
        if (ai == SIZE_MAX) {
            nomem(L);
            return;
        }
    }
    frame *f = &L->frames[L->depth++];
    f->node = n;
    f->base = L->nkids;
    f->count_at = count_at;
    f->anchor_ix = ai;
    f->skip_value = false;
}

static void on_end(loader *L)
{
    if (L->depth == 0)
        return; /* libyaml pairs start and end events; nothing to close */
    frame *f = &L->frames[--L->depth];
    if (f->node->kind == SDKC_NODE_MAP)
        finish_map(L, f->node, f->base);
    else
        finish_seq(L, f->node, f->base);
    L->nkids = f->base;
    if (f->anchor_ix != SIZE_MAX) {
        L->anchors[f->anchor_ix].node = f->node;
        L->anchors[f->anchor_ix].count = L->nodes - f->count_at;
    }
    add_node(L, f->node);
}

static void on_alias(loader *L, const yaml_event_t *ev)
{
    const char *name = (const char *)ev->data.alias.anchor;
    anchor *a = anchor_find(L, name);
    if (!a || !a->node) {
        if (!a)
            fail(L, SDKC_ERR_INVALID, mark_loc(L, ev->start_mark), "undefined alias *%s", name);
        else
            fail(L, SDKC_ERR_INVALID, mark_loc(L, ev->start_mark),
                 "alias *%s refers to a node that contains it", name);
        /* a null in its place keeps the keys and values of an enclosing map paired */
        if (!count_nodes(L, 1, ev->start_mark))
            return;
        sdkc_node *n = new_node(L, SDKC_NODE_SCALAR, ev->start_mark);
        if (!n)
            return;
        n->scalar = SDKC_SCALAR_NULL;
        n->str = "";
        add_node(L, n);
        return;
    }
    /* The alias shares the node; its size still counts, so a walk of the tree stays bounded. */
    if (!count_nodes(L, a->count, ev->start_mark))
        return;
    add_node(L, a->node);
}

/* libyaml's own error, with its context. */
static void yaml_failure(loader *L, const yaml_parser_t *p)
{
    if (p->error == YAML_MEMORY_ERROR) {
        nomem(L);
        return;
    }
    const char *problem = p->problem ? p->problem : "malformed input";
    if (p->error == YAML_READER_ERROR) {
        sdkc_loc loc = loc_of_offset(L->doc->name, L->data, L->len, p->problem_offset);
        if (p->problem_value != -1)
            fail(L, SDKC_ERR_INVALID, loc, "%s (#%X)", problem, (unsigned)p->problem_value);
        else
            fail(L, SDKC_ERR_INVALID, loc, "%s", problem);
        return;
    }
    sdkc_loc loc = mark_loc(L, p->problem_mark);
    if (p->context) {
        sdkc_loc ctx = mark_loc(L, p->context_mark);
        fail(L, SDKC_ERR_INVALID, loc, "%s (%s at line %u, column %u)", problem, p->context,
             (unsigned)ctx.line, (unsigned)ctx.col);
    } else {
        fail(L, SDKC_ERR_INVALID, loc, "%s", problem);
    }
    L->stop = true;
}

static void loader_cleanup(loader *L)
{
    for (size_t i = 0; i < L->nanchors; i++)
        free(L->anchors[i].name);
    free(L->anchors);
    sdkc_map_cleanup(&L->anchor_ix);
    free(L->kids);
    free(L->texts);
}

/* One pass of libyaml over L->data. */
static void parse(loader *L)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    if (!yaml_parser_initialize(&parser)) {
        nomem(L);
        return;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)L->data, L->len);
    bool done = false;
    while (!done && !L->stop) {
        if (!yaml_parser_parse(&parser, &ev)) {
            yaml_failure(L, &parser);
            break;
        }
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++L->ndocs > 1)
                fail(L, SDKC_ERR_INVALID, mark_loc(L, ev.start_mark),
                     "more than one document in the input");
            if (L->ndocs > 1)
                L->stop = true;
            break;
        case YAML_SCALAR_EVENT:
            on_scalar(L, &ev);
            break;
        case YAML_SEQUENCE_START_EVENT:
            on_start(L, &ev, SDKC_NODE_SEQ);
            break;
        case YAML_MAPPING_START_EVENT:
            on_start(L, &ev, SDKC_NODE_MAP);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            on_end(L);
            break;
        case YAML_ALIAS_EVENT:
            on_alias(L, &ev);
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
}

/* Within the size limit and without NUL bytes (but UTF-16 input, with a BOM, which libyaml
 * requires for it, legitimately holds NUL bytes); false with the error reported. */
static bool input_acceptable(loader *L, const char *data, size_t len)
{
    if (len > SDKC_DOC_MAX_BYTES) {
        fail(L, SDKC_ERR_LIMIT, (sdkc_loc){L->doc->name, 0, 0}, "input larger than %u bytes",
             (unsigned)SDKC_DOC_MAX_BYTES);
        return false;
    }
    bool utf16 = len >= 2 && (((unsigned char)data[0] == 0xFF && (unsigned char)data[1] == 0xFE) ||
                              ((unsigned char)data[0] == 0xFE && (unsigned char)data[1] == 0xFF));
    const char *nul = utf16 ? NULL : memchr(data, 0, len);
    if (nul) {
        fail(L, SDKC_ERR_INVALID, loc_of_offset(L->doc->name, data, len, (size_t)(nul - data)),
             "NUL byte in input");
        return false;
    }
    return true;
}

/* ---- public API ----------------------------------------------------------------------------- */

sdkc_status sdkc_doc_load_buffer(sdkc_doc **out, const char *name, const char *data, size_t len,
                                 sdkc_diag *diag)
{
    *out = NULL;
    loader L;
    sdkc_doc_rewrite rw = {NULL, 0, NULL, 0};
    memset(&L, 0, sizeof L);
    L.diag = diag;
    sdkc_status st = SDKC_ERR_NOMEM;
    sdkc_doc *doc = calloc(1, sizeof *doc);
    if (!doc)
        goto done;
    if (sdkc_arena_new(&doc->arena) != SDKC_OK)
        goto done;
    doc->name = sdkc_arena_strdup(doc->arena, name ? name : "<input>");
    if (!doc->name)
        goto done;
    L.doc = doc;
    L.data = data;
    L.len = len;
    if (!input_acceptable(&L, data, len)) {
        st = L.st;
        goto done;
    }
    sdkc_sha256_hex(doc->sha256, data, len);

    if (sdkc_doc_json_needs_rewrite(data, len)) {
        if (!sdkc_doc_json_rewrite(&rw, data, len))
            goto done;
        L.data = rw.text;
        L.len = rw.len;
        L.rw = &rw;
    }
    parse(&L);
    if (L.st == SDKC_OK && L.ndocs == 0)
        fail(&L, SDKC_ERR_INVALID, (sdkc_loc){doc->name, 1, 1}, "empty document");
    st = L.st;
    if (st == SDKC_OK && !doc->root) {
        st = SDKC_ERR_INVALID;
        sdkc_diag_add(diag, SDKC_SEV_ERROR, (sdkc_loc){doc->name, 1, 1}, "no document root");
    }
    if (st != SDKC_OK)
        goto done;
    doc->nodes = L.nodes;
    *out = doc;
    doc = NULL;
done:
    if (st == SDKC_ERR_NOMEM)
        sdkc_diag_add(diag, SDKC_SEV_ERROR, (sdkc_loc){doc && doc->name ? doc->name : name, 0, 0},
                      "out of memory while loading");
    loader_cleanup(&L);
    sdkc_doc_rewrite_cleanup(&rw);
    sdkc_doc_free(doc);
    return st;
}

sdkc_status sdkc_doc_load_file(sdkc_doc **out, const char *path, sdkc_diag *diag)
{
    *out = NULL;
    char *data = NULL;
    size_t len = 0;
    sdkc_loc whole = {path, 0, 0};
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (unsigned long long)sb.st_size > SDKC_DOC_MAX_BYTES) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, whole, "input larger than %u bytes",
                      (unsigned)SDKC_DOC_MAX_BYTES);
        return SDKC_ERR_LIMIT;
    }
    sdkc_status st = sdkc_read_file(path, &data, &len);
    if (st != SDKC_OK) {
        if (st == SDKC_ERR_NOMEM)
            sdkc_diag_add(diag, SDKC_SEV_ERROR, whole, "cannot read: out of memory");
        else
            sdkc_diag_add(diag, SDKC_SEV_ERROR, whole, "cannot read: %s", strerror(errno));
        return st;
    }
    st = sdkc_doc_load_buffer(out, path, data, len, diag);
    free(data);
    return st;
}
