/* doc.c - a loaded document and the queries on its nodes: the root, keys of a map (through the
 * key index the loader built for large maps), scalar text, JSON pointers. The loader is in
 * doc_load.c, scalar typing and reading in doc_scalar.c.
 */
#include "doc_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the document --------------------------------------------------------------------------- */

void sdkc_doc_free(sdkc_doc *doc)
{
    if (!doc)
        return;
    sdkc_arena_free(doc->arena);
    free(doc);
}

const sdkc_node *sdkc_doc_root(const sdkc_doc *doc)
{
    return doc ? doc->root : NULL;
}

const char *sdkc_doc_name(const sdkc_doc *doc)
{
    return doc ? doc->name : NULL;
}

const char *sdkc_doc_sha256(const sdkc_doc *doc)
{
    return doc ? doc->sha256 : NULL;
}

size_t sdkc_doc_node_count(const sdkc_doc *doc)
{
    return doc ? doc->nodes : 0;
}

/* ---- node helpers --------------------------------------------------------------------------- */

static const sdkc_node *map_lookup(const sdkc_node *map, const char *key, size_t klen)
{
    if (!map || map->kind != SDKC_NODE_MAP)
        return NULL;
    const sdkc_doc_map_index *ix = map->index_;
    if (ix) {
        for (size_t i = (size_t)sdkc_doc_key_hash(key, klen) & ix->mask; ix->slots[i];
             i = (i + 1) & ix->mask) {
            const sdkc_pair *p = &map->pairs[ix->slots[i] - 1];
            if (p->key->len == klen && memcmp(p->key->str, key, klen) == 0)
                return p->value;
        }
        return NULL;
    }
    for (size_t i = 0; i < map->npairs; i++) {
        const sdkc_node *k = map->pairs[i].key;
        if (k->len == klen && memcmp(k->str, key, klen) == 0)
            return map->pairs[i].value;
    }
    return NULL;
}

const sdkc_node *sdkc_node_get(const sdkc_node *map, const char *key)
{
    if (!key)
        return NULL;
    return map_lookup(map, key, strlen(key));
}

bool sdkc_node_is_string(const sdkc_node *n)
{
    return n && n->kind == SDKC_NODE_SCALAR && n->scalar == SDKC_SCALAR_STRING;
}

const char *sdkc_node_text(const sdkc_node *n)
{
    return n && n->kind == SDKC_NODE_SCALAR ? n->str : NULL;
}

/* ---- JSON pointers -------------------------------------------------------------------------- */

/* Percent-decode the NUL-terminated s into out (room for strlen(s) bytes); the decoded length, or
 * SIZE_MAX for a malformed escape. */
static size_t percent_decode(const char *s, char *out)
{
    size_t n = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] != '%') {
            out[n++] = s[i];
            continue;
        }
        /* the string is NUL-terminated, so a short escape stops at a non-hex digit */
        int h = sdkc_hex_digit(s[i + 1]);
        int l = h >= 0 ? sdkc_hex_digit(s[i + 2]) : -1;
        if (h < 0 || l < 0)
            return SIZE_MAX;
        out[n++] = (char)(h * 16 + l);
        i += 2;
    }
    return n;
}

/* Unescape ~0 and ~1 in tok[0..n) in place; the new length, or SIZE_MAX for another ~. */
static size_t unescape_token(char *tok, size_t n)
{
    size_t t = 0;
    for (size_t i = 0; i < n; i++) {
        if (tok[i] != '~') {
            tok[t++] = tok[i];
            continue;
        }
        if (i + 1 >= n || (tok[i + 1] != '0' && tok[i + 1] != '1'))
            return SIZE_MAX;
        tok[t++] = tok[i + 1] == '0' ? '~' : '/';
        i++;
    }
    return t;
}

/* The item of seq that the token tok[0..n) names: a decimal index without leading zeros. */
static const sdkc_node *seq_item(const sdkc_node *seq, const char *tok, size_t n)
{
    if (n == 0 || (n > 1 && tok[0] == '0'))
        return NULL;
    size_t idx = 0;
    for (size_t i = 0; i < n; i++) {
        if (tok[i] < '0' || tok[i] > '9' || idx > (SIZE_MAX - 9) / 10)
            return NULL;
        idx = idx * 10 + (size_t)(tok[i] - '0');
    }
    return idx < seq->nitems ? seq->items[idx] : NULL;
}

const sdkc_node *sdkc_doc_pointer(const sdkc_doc *doc, const char *pointer)
{
    if (!doc || !pointer)
        return NULL;
    const sdkc_node *cur = doc->root;
    if (pointer[0] == '#')
        pointer++;
    if (pointer[0] == '\0')
        return cur;
    if (pointer[0] != '/')
        return NULL;
    /* Percent-decoding applies to the whole fragment first (RFC 6901 section 6), then the pointer
     * splits on '/' and each token unescapes ~1 and ~0. */
    size_t plen = strlen(pointer);
    char small[256];
    char *buf = plen < sizeof small ? small : malloc(plen + 1);
    if (!buf)
        return NULL;
    size_t n = percent_decode(pointer, buf);
    if (n == SIZE_MAX)
        cur = NULL;
    for (size_t pos = 1; cur; pos++) { /* pos: the token after a '/' */
        size_t end = pos;
        while (end < n && buf[end] != '/')
            end++;
        size_t tlen = unescape_token(buf + pos, end - pos);
        if (tlen == SIZE_MAX)
            cur = NULL;
        else if (cur->kind == SDKC_NODE_MAP)
            cur = map_lookup(cur, buf + pos, tlen);
        else if (cur->kind == SDKC_NODE_SEQ)
            cur = seq_item(cur, buf + pos, tlen);
        else
            cur = NULL;
        if (end >= n)
            break;
        pos = end;
    }
    if (buf != small)
        free(buf);
    return cur;
}
