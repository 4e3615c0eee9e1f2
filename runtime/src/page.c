/* The pagination engine (sdkrt/page.h): next requests per style, RFC 8288 Link headers, and the
 * pager behind generated iterators. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "internal.h"
#include "request_internal.h"
#include "sdkrt/page.h"

/* ---- Link header (RFC 8288) ---- */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Is rel one of the space-separated relation types in v[0..n)? */
static bool rel_has(const char *v, size_t n, const char *rel)
{
    size_t rl = strlen(rel), i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t'))
            i++;
        size_t j = i;
        while (j < n && v[j] != ' ' && v[j] != '\t')
            j++;
        if (j - i == rl) {
            bool same = true;
            for (size_t k = 0; k < rl && same; k++) {
                char a = v[i + k], b = rel[k];
                if (a >= 'A' && a <= 'Z')
                    a = (char)(a - 'A' + 'a');
                if (b >= 'A' && b <= 'Z')
                    b = (char)(b - 'A' + 'a');
                same = a == b;
            }
            if (same)
                return true;
        }
        i = j;
    }
    return false;
}

sdkrt_status sdkrt_link_find(char **out, const char *value, const char *rel)
{
    *out = NULL;
    const char *p = value ? value : "";
    sdkrt_buf_ qv = {0}; /* a quoted value, unescaped */
    while (*p) {
        p = skip_ws(p);
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p != '<') { /* not a link: skip to the next top-level comma */
            while (*p && *p != ',')
                p++;
            continue;
        }
        const char *u = p + 1, *ue = strchr(u, '>');
        if (!ue)
            break;
        p = ue + 1;
        bool match = false;
        /* parameters up to the comma that ends this link (commas in quotes do not) */
        for (;;) {
            p = skip_ws(p);
            if (*p != ';')
                break;
            p = skip_ws(p + 1);
            const char *name = p;
            while (*p && *p != '=' && *p != ';' && *p != ',' && *p != ' ' && *p != '\t')
                p++;
            size_t nlen = (size_t)(p - name);
            p = skip_ws(p);
            const char *v = "";
            size_t vlen = 0;
            if (*p == '=') {
                p = skip_ws(p + 1);
                if (*p == '"') {
                    qv.len = 0;
                    for (p++; *p && *p != '"'; p++) {
                        if (*p == '\\' && p[1])
                            p++;
                        sdkrt_buf_append_(&qv, p, 1);
                    }
                    if (*p == '"')
                        p++;
                    if (qv.oom) {
                        sdkrt_buf_cleanup_(&qv);
                        return SDKRT_ERR;
                    }
                    v = qv.data ? qv.data : "";
                    vlen = qv.len;
                } else {
                    v = p;
                    while (*p && *p != ';' && *p != ',' && *p != ' ' && *p != '\t')
                        p++;
                    vlen = (size_t)(p - v);
                }
            }
            if (nlen == 3 && rel_has(name, nlen, "rel")) /* the name, case-insensitively */
                match = match || rel_has(v, vlen, rel);
        }
        if (match) {
            sdkrt_buf_cleanup_(&qv);
            size_t n = (size_t)(ue - u);
            *out = malloc(n + 1);
            if (!*out)
                return SDKRT_ERR;
            memcpy(*out, u, n);
            (*out)[n] = '\0';
            return SDKRT_OK;
        }
        while (*p && *p != ',') /* anything unparsed up to the next link */
            p++;
    }
    sdkrt_buf_cleanup_(&qv);
    return SDKRT_OK;
}

/* ---- reading the page ---- */

/* The value at a dotted member path (borrowed), or NULL. A member whose own name has dots
 * ("odata.nextLink") is taken first. */
static json_t *at(json_t *j, const char *path)
{
    char seg[256];
    json_t *whole = path && json_is_object(j) ? json_object_get(j, path) : NULL;
    if (whole)
        return whole;
    while (j && path && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n >= sizeof seg)
            return NULL;
        memcpy(seg, path, n);
        seg[n] = '\0';
        j = json_is_object(j) ? json_object_get(j, seg) : NULL;
        path = dot ? dot + 1 : NULL;
    }
    return j;
}

/* A cursor-like value as text: a non-empty string, or an integer. NULL otherwise. */
static char *value_text(const json_t *v)
{
    if (json_is_string(v) && json_string_length(v) > 0 &&
        strlen(json_string_value(v)) == json_string_length(v))
        return sdkrt_strdup_(json_string_value(v));
    if (json_is_integer(v)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return sdkrt_strdup_(buf);
    }
    return NULL;
}

/* The number in the query parameter name of req, or dflt when absent or not a number. */
static long long query_number(const sdkrt_request *req, const char *name, long long dflt, bool *oom)
{
    char *v = NULL;
    if (!name)
        return dflt;
    if (sdkrt_request_query_value(req, name, &v) != SDKRT_OK) {
        *oom = true;
        return dflt;
    }
    long long n = dflt;
    if (v && *v) {
        char *end = NULL;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (errno == 0 && end && *end == '\0')
            n = x;
    }
    free(v);
    return n;
}

/* ---- following a URL ---- */

typedef struct origin {
    char *scheme, *host, *port;
} origin;

static void origin_cleanup(origin *o)
{
    curl_free(o->scheme);
    curl_free(o->host);
    curl_free(o->port);
}

static bool origin_get(CURLU *u, origin *o)
{
    memset(o, 0, sizeof *o);
    return curl_url_get(u, CURLUPART_SCHEME, &o->scheme, 0) == CURLUE_OK &&
           curl_url_get(u, CURLUPART_HOST, &o->host, 0) == CURLUE_OK &&
           curl_url_get(u, CURLUPART_PORT, &o->port, CURLU_DEFAULT_PORT) == CURLUE_OK;
}

/* The next request: GET url (resolved against the URL of prev) with prev's headers, cookies and
 * security, refused unless it stays on the client's origin. */
/* Is target (path and query) the one of url? A URL that does not parse is not. */
static bool same_target(const char *url, const char *target)
{
    CURLU *u = curl_url();
    char *path = NULL, *query = NULL;
    bool same = false;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PATH, &path, 0) == CURLUE_OK) {
        curl_url_get(u, CURLUPART_QUERY, &query, 0);
        size_t n = strlen(path);
        same = strncmp(target, path, n) == 0 &&
               (query ? target[n] == '?' && strcmp(target + n + 1, query) == 0 : !target[n]);
    }
    curl_free(path);
    curl_free(query);
    curl_url_cleanup(u);
    return same;
}

static sdkrt_status follow(sdkrt_request **next, const sdkrt_client *client,
                           const sdkrt_request *prev, const char *url, sdkrt_error **err)
{
    sdkrt_status st = SDKRT_ERR;
    char *from = sdkrt_client_url_(client, prev, err);
    CURLU *base = curl_url(), *u = curl_url();
    origin bo, uo;
    memset(&bo, 0, sizeof bo);
    memset(&uo, 0, sizeof uo);
    char *path = NULL, *query = NULL, *user = NULL, *password = NULL;
    sdkrt_buf_ t = {0};
    if (!from)
        goto done;
    if (!base || !u) {
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    if (curl_url_set(base, CURLUPART_URL, sdkrt_client_base_url(client), 0) != CURLUE_OK ||
        curl_url_set(u, CURLUPART_URL, from, 0) != CURLUE_OK ||
        curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
        sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                        "the next page URL \"%.200s\" does not parse", url);
        goto done;
    }
    if (!origin_get(base, &bo) || !origin_get(u, &uo)) {
        sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                        "the next page URL \"%.200s\" has no host", url);
        goto done;
    }
    bool has_user = curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK ||
                    curl_url_get(u, CURLUPART_PASSWORD, &password, 0) == CURLUE_OK;
    if (has_user || sdkrt_strcasecmp_(bo.scheme, uo.scheme) != 0 ||
        sdkrt_strcasecmp_(bo.host, uo.host) != 0 || strcmp(bo.port, uo.port) != 0) {
        sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                        "the next page URL leaves the API's origin (%s://%s:%s, not %s://%s:%s%s): "
                        "not followed, so that credentials are never sent there",
                        uo.scheme, uo.host, uo.port, bo.scheme, bo.host, bo.port,
                        has_user ? ", or carries credentials" : "");
        goto done;
    }
    if (curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
        sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE, "the next page URL has no path");
        goto done;
    }
    curl_url_get(u, CURLUPART_QUERY, &query, 0);
    sdkrt_buf_printf_(&t, "%s%s%s", path, query ? "?" : "", query ? query : "");
    if (t.oom) {
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    /* a server that links a page to itself would loop: the first page (not followed, its
       target relative to the base) is compared by its URL's path and query too */
    if (prev->origin_target ? strcmp(prev->origin_target, t.data) == 0
                            : same_target(from, t.data)) {
        sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                        "the pages do not end: the page leads back to a request already sent "
                        "(GET %.200s)",
                        from);
        goto done;
    }
    if (sdkrt_request_copy(next, prev) != SDKRT_OK) {
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    sdkrt_request *r = *next;
    char *get = sdkrt_strdup_("GET");
    if (!get) {
        sdkrt_request_free(r);
        *next = NULL;
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    free(r->method);
    r->method = get;
    r->has_body = false;
    sdkrt_multipart_free(r->multipart);
    r->multipart = NULL;
    sdkrt_request_clear_query(r);
    if (sdkrt_request_set_origin_target_(r, t.data) != SDKRT_OK) {
        sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE, "the next page URL \"%.200s\": %s",
                        url, sdkrt_request_error(r) ? sdkrt_request_error(r) : "out of memory");
        sdkrt_request_free(r);
        *next = NULL;
        goto done;
    }
    st = SDKRT_OK;
done:
    free(from);
    sdkrt_buf_cleanup_(&t);
    curl_free(path);
    curl_free(query);
    curl_free(user);
    curl_free(password);
    origin_cleanup(&bo);
    origin_cleanup(&uo);
    curl_url_cleanup(base);
    curl_url_cleanup(u);
    return st;
}

/* prev with param set to value (and, for a cursor object, nothing else in the query); an error
 * when prev already sent that value (the walk would loop). */
static sdkrt_status with_param(sdkrt_request **next, const sdkrt_client *client,
                               const sdkrt_request *prev, const char *param, const char *value,
                               bool only, sdkrt_error **err)
{
    char *sent = NULL;
    if (sdkrt_request_query_value(prev, param, &sent) != SDKRT_OK)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    bool same = sent && strcmp(sent, value) == 0;
    free(sent);
    if (same) {
        char *t = sdkrt_client_url_(client, prev, err);
        if (t)
            sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                            "the pages do not end: the page leads back to a request already "
                            "sent (%s %.200s)",
                            prev->method, t);
        free(t);
        return SDKRT_ERR;
    }
    if (sdkrt_request_copy(next, prev) != SDKRT_OK)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    if (only)
        sdkrt_request_clear_query(*next);
    if (sdkrt_request_set_query(*next, param, value) != SDKRT_OK) {
        sdkrt_request_free(*next);
        *next = NULL;
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    return SDKRT_OK;
}

static sdkrt_status link_next(sdkrt_request **next, const sdkrt_client *client,
                              const sdkrt_request *prev, const sdkrt_response *resp,
                              sdkrt_error **err)
{
    for (size_t i = 0; i < sdkrt_response_header_count(resp); i++) {
        const char *name = NULL, *value = NULL;
        sdkrt_response_header_at(resp, i, &name, &value);
        if (sdkrt_strcasecmp_(name, "link") != 0)
            continue;
        char *url = NULL;
        if (sdkrt_link_find(&url, value, "next") != SDKRT_OK)
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        if (url) {
            sdkrt_status st = follow(next, client, prev, url, err);
            free(url);
            return st;
        }
    }
    return SDKRT_OK;
}

sdkrt_status sdkrt_page_next(sdkrt_request **next, const sdkrt_client *client,
                             const sdkrt_page_desc *d, const sdkrt_request *prev,
                             const sdkrt_response *resp, sdkrt_error **err)
{
    *next = NULL;
    if (!client || !d || !prev || !resp)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_page_next: client, desc, prev and resp are required");
    if (d->style == SDKRT_PAGE_LINK_HEADER)
        return link_next(next, client, prev, resp, err);
    json_t *body = NULL;
    char *text = NULL;
    sdkrt_status st = SDKRT_ERR;
    if (sdkrt_response_parse_json(resp, &body, err) != SDKRT_OK)
        return SDKRT_ERR;
    json_t *items = d->items ? at(body, d->items) : body;
    size_t count = json_is_array(items) ? json_array_size(items) : 0;
    json_t *more = d->has_more ? at(body, d->has_more) : NULL;
    bool oom = false;
    st = SDKRT_OK;
    if (json_is_false(more))
        goto done; /* the server says this is the last page */
    switch (d->style) {
    case SDKRT_PAGE_CURSOR_OBJECT:
    case SDKRT_PAGE_CURSOR_TOKEN:
        text = value_text(at(body, d->next));
        if (text && d->param)
            st = with_param(next, client, prev, d->param, text,
                            d->style == SDKRT_PAGE_CURSOR_OBJECT, err);
        break;
    case SDKRT_PAGE_CURSOR_ITEM:
        if (count == 0 || !d->param)
            break;
        text = value_text(at(json_array_get(items, count - 1), d->item_id ? d->item_id : "id"));
        if (!text) {
            st = sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                                 "the last item of the page has no \"%s\" to continue from",
                                 d->item_id ? d->item_id : "id");
            break;
        }
        st = with_param(next, client, prev, d->param, text, false, err);
        break;
    case SDKRT_PAGE_NEXT_URL: {
        json_t *u = at(body, d->next);
        if (json_is_string(u) && json_string_length(u) > 0)
            st = follow(next, client, prev, json_string_value(u), err);
        break;
    }
    case SDKRT_PAGE_PAGE_NUMBER:
    case SDKRT_PAGE_OFFSET: {
        long long size = query_number(prev, d->size_param, 0, &oom);
        if (count == 0 || !d->param || (size > 0 && (long long)count < size))
            break;
        bool pages = d->style == SDKRT_PAGE_PAGE_NUMBER;
        long long cur =
            query_number(prev, d->param, pages ? (d->first_page ? d->first_page : 1) : 0, &oom);
        long long step = pages ? 1 : (long long)count;
        if (cur > LLONG_MAX - step) {
            st = sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                 "%s %s: the %s parameter %s=%lld cannot advance by %lld",
                                 prev->method, prev->path_template, pages ? "page" : "offset",
                                 d->param, cur, step);
            break;
        }
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", cur + step);
        st = with_param(next, client, prev, d->param, buf, false, err);
        break;
    }
    case SDKRT_PAGE_LINK_HEADER:
        break;
    }
    if (oom && st == SDKRT_OK) {
        sdkrt_request_free(*next);
        *next = NULL;
        st = sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
done:
    free(text);
    json_decref(body);
    return st;
}

/* ---- walks that end ---- */

struct sdkrt_page_walk {
    uint64_t *sent; /* open addressing; 0 is a free slot (a hash of 0 is stored as 1) */
    size_t cap, n;
    size_t pages, empty;
    uint64_t last_body; /* hash of the previous page's body when it had items, else 0 */
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#define FNV_BASIS 0xcbf29ce484222325ull

/* Is h in the set; when add, put it there. false with *oom when it cannot grow. */
static bool sent_has(sdkrt_page_walk *w, uint64_t h, bool add, bool *oom)
{
    h = h ? h : 1;
    if (add && (w->n + 1) * 2 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t) {
            *oom = true;
            return false;
        }
        for (size_t i = 0; i < w->cap; i++)
            if (w->sent[i]) {
                size_t j = (size_t)(w->sent[i] & (cap - 1));
                while (t[j])
                    j = (j + 1) & (cap - 1);
                t[j] = w->sent[i];
            }
        free(w->sent);
        w->sent = t;
        w->cap = cap;
    }
    if (!w->cap)
        return false;
    size_t j = (size_t)(h & (w->cap - 1));
    while (w->sent[j]) {
        if (w->sent[j] == h)
            return true;
        j = (j + 1) & (w->cap - 1);
    }
    if (add) {
        w->sent[j] = h;
        w->n++;
    }
    return false;
}

sdkrt_status sdkrt_page_walk_new(sdkrt_page_walk **out, const sdkrt_page_walk *from,
                                 sdkrt_error **err)
{
    if (!out)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_page_walk_new: out is required");
    *out = NULL;
    sdkrt_page_walk *w = calloc(1, sizeof *w);
    if (!w)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    if (from) {
        *w = *from;
        w->sent = from->cap ? malloc(from->cap * sizeof *w->sent) : NULL;
        if (from->cap && !w->sent) {
            free(w);
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        }
        if (from->cap)
            memcpy(w->sent, from->sent, from->cap * sizeof *w->sent);
    }
    *out = w;
    return SDKRT_OK;
}

/* The rules over one page: sent and next (NULL: no next page) are texts that identify requests,
 * bh the hash of the page's body (0: not compared). */
static sdkrt_status walk_check(sdkrt_page_walk *w, const char *sent, uint64_t bh, size_t count,
                               const char *next, sdkrt_error **err)
{
    bool oom = false;
    sent_has(w, fnv1a(FNV_BASIS, sent, strlen(sent)), true, &oom);
    if (oom)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    w->pages++;
    bh = count ? bh : 0;
    bool same_page = bh && bh == w->last_body;
    w->last_body = bh;
    w->empty = count ? 0 : w->empty + 1;
    if (!next)
        return SDKRT_OK; /* the last page: nothing more is asked */
    if (same_page)
        return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                               "the pages do not end: page %zu is the same as the page before it",
                               w->pages);
    if (w->empty >= SDKRT_PAGE_EMPTY_MAX)
        return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                               "the pages do not end: %zu empty pages in a row, each with a next "
                               "page",
                               w->empty);
    if (sent_has(w, fnv1a(FNV_BASIS, next, strlen(next)), false, &oom))
        return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                               "the pages do not end: page %zu leads back to a request already "
                               "sent (%.200s)",
                               w->pages, next);
    return SDKRT_OK;
}

/* "METHOD URL" of a request, in *out (new). */
static sdkrt_status request_text(char **out, const sdkrt_client *client, const sdkrt_request *req,
                                 sdkrt_error **err)
{
    *out = NULL;
    char *url = sdkrt_client_url_(client, req, err);
    if (!url)
        return SDKRT_ERR;
    sdkrt_buf_ b = {0};
    sdkrt_buf_printf_(&b, "%s %s", sdkrt_request_method(req), url);
    free(url);
    if (b.oom) {
        sdkrt_buf_cleanup_(&b);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    *out = b.data;
    return SDKRT_OK;
}

sdkrt_status sdkrt_page_walk_step(sdkrt_page_walk *w, const sdkrt_client *client,
                                  const sdkrt_request *sent, const sdkrt_response *resp,
                                  size_t count, const sdkrt_request *next, sdkrt_error **err)
{
    if (!w || !client || !sent || !resp)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_page_walk_step: walk, client, sent and resp are required");
    char *st_text = NULL, *nx_text = NULL;
    sdkrt_status st = request_text(&st_text, client, sent, err);
    if (st == SDKRT_OK && next)
        st = request_text(&nx_text, client, next, err);
    if (st == SDKRT_OK) {
        size_t blen = 0;
        const char *body = sdkrt_response_body(resp, &blen);
        st = walk_check(w, st_text, fnv1a(FNV_BASIS, body ? body : "", body ? blen : 0), count,
                        nx_text, err);
    }
    free(st_text);
    free(nx_text);
    return st;
}

sdkrt_status sdkrt_page_walk_cursor(sdkrt_page_walk *w, const char *param, const char *sent,
                                    size_t count, const char *next, sdkrt_error **err)
{
    if (!w || !param)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_page_walk_cursor: walk and param are required");
    sdkrt_buf_ s = {0}, n = {0};
    if (sent)
        sdkrt_buf_printf_(&s, "%s=%s", param, sent);
    else
        sdkrt_buf_puts_(&s, ""); /* the first page: no cursor */
    if (next)
        sdkrt_buf_printf_(&n, "%s=%s", param, next);
    sdkrt_status st =
        s.oom || n.oom ? sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory")
                       : walk_check(w, s.data ? s.data : "", 0, count, next ? n.data : NULL, err);
    sdkrt_buf_cleanup_(&s);
    sdkrt_buf_cleanup_(&n);
    return st;
}

size_t sdkrt_page_walk_pages(const sdkrt_page_walk *w)
{
    return w ? w->pages : 0;
}

void sdkrt_page_walk_free(sdkrt_page_walk *w)
{
    if (!w)
        return;
    free(w->sent);
    free(w);
}

/* ---- the pager ---- */

struct sdkrt_pager {
    sdkrt_client *client;
    const sdkrt_call_options *call;
    const sdkrt_page_desc *desc;
    sdkrt_page_decode_fn decode;
    sdkrt_page_free_fn free_page;
    size_t item_size;
    sdkrt_request *req; /* the next request to send, NULL at the end */
    sdkrt_page_walk *walk;
    void *page;
    const char *items;
    size_t count, index, pages;
    bool failed;
    sdkrt_error *pending; /* why there is no next page, told after this page's items */
};

sdkrt_status sdkrt_pager_new(sdkrt_pager **out, sdkrt_client *client, const sdkrt_request *first,
                             const sdkrt_call_options *call, const sdkrt_page_desc *desc,
                             sdkrt_page_decode_fn decode, sdkrt_page_free_fn free_page,
                             size_t item_size, sdkrt_error **err)
{
    if (out)
        *out = NULL;
    if (!out || !client || !first || !desc || !decode || !free_page)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_pager_new: out, client, first, desc, decode and free_page "
                               "are required");
    sdkrt_pager *p = calloc(1, sizeof *p);
    if (!p || sdkrt_request_copy(&p->req, first) != SDKRT_OK ||
        sdkrt_page_walk_new(&p->walk, NULL, NULL) != SDKRT_OK) {
        sdkrt_pager_free(p);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    p->client = client;
    p->call = call;
    p->desc = desc;
    p->decode = decode;
    p->free_page = free_page;
    p->item_size = item_size;
    *out = p;
    return SDKRT_OK;
}

/* Fetch the page p->req asks for; p->req becomes the one after it (or NULL). */
static sdkrt_status fetch(sdkrt_pager *p, sdkrt_error **err)
{
    sdkrt_response *resp = NULL;
    sdkrt_request *next = NULL;
    void *page = NULL;
    const void *items = NULL;
    size_t count = 0;
    if (sdkrt_client_send(p->client, p->req, p->call, &resp, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = p->decode(resp, &page, &items, &count, err);
    /* a page whose continuation fails still gives its items; the error comes after them */
    if (st == SDKRT_OK &&
        sdkrt_page_next(&next, p->client, p->desc, p->req, resp, &p->pending) != SDKRT_OK)
        next = NULL;
    /* pages that would go on forever end the walk, after this page's items */
    if (st == SDKRT_OK && !p->pending &&
        sdkrt_page_walk_step(p->walk, p->client, p->req, resp, items ? count : 0, next,
                             &p->pending) != SDKRT_OK) {
        sdkrt_request_free(next);
        next = NULL;
    }
    sdkrt_response_free(resp);
    if (st != SDKRT_OK) {
        if (page)
            p->free_page(page);
        return SDKRT_ERR;
    }
    if (p->page)
        p->free_page(p->page);
    p->page = page;
    p->items = items;
    p->count = items ? count : 0;
    p->index = 0;
    p->pages++;
    sdkrt_request_free(p->req);
    p->req = next;
    return SDKRT_OK;
}

int sdkrt_pager_next(sdkrt_pager *p, const void **item, sdkrt_error **err)
{
    if (item)
        *item = NULL;
    if (!p || !item) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "sdkrt_pager_next: pager and item are required");
        return -1;
    }
    for (;;) {
        if (p->failed)
            return 0; /* the error was reported once; what follows it is unknown */
        if (p->index < p->count) {
            *item = p->items + p->index++ * p->item_size;
            return 1;
        }
        if (p->pending) {
            p->failed = true;
            sdkrt_error_propagate(err, p->pending);
            p->pending = NULL;
            return -1;
        }
        if (!p->req)
            return 0;
        if (fetch(p, err) != SDKRT_OK) {
            p->failed = true;
            return -1;
        }
    }
}

const void *sdkrt_pager_page(const sdkrt_pager *p)
{
    return p ? p->page : NULL;
}

size_t sdkrt_pager_pages(const sdkrt_pager *p)
{
    return p ? p->pages : 0;
}

void sdkrt_pager_free(sdkrt_pager *p)
{
    if (!p)
        return;
    if (p->page)
        p->free_page(p->page);
    sdkrt_request_free(p->req);
    sdkrt_page_walk_free(p->walk);
    sdkrt_error_free(p->pending);
    free(p);
}
