/* Request bodies: JSON in any JSON media type, raw bytes (memory or file), multipart/form-data. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "request_internal.h"
#include "sdkrt/wire.h"

typedef struct part {
    char *name;
    char *filename;     /* or NULL */
    char *content_type; /* or NULL */
    char *data;         /* in-memory bytes (NULL for a file part) */
    size_t len;
    char *path; /* file part */
} part;

struct sdkrt_multipart {
    part *parts;
    size_t count;
    char *boundary; /* NULL: random at serialisation */
};

static sdkrt_status oom(sdkrt_error **err)
{
    return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
}

bool sdkrt_media_is_json(const char *media_type)
{
    if (!media_type)
        return false;
    char *m = sdkrt_media_type_(media_type);
    if (!m)
        return false;
    size_t n = strlen(m);
    bool yes = strcmp(m, "application/json") == 0 || strcmp(m, "text/json") == 0 ||
               (n > 5 && strcmp(m + n - 5, "+json") == 0);
    free(m);
    return yes;
}

bool sdkrt_blob_is_set(const sdkrt_blob *blob)
{
    return blob && (blob->data || blob->len || blob->path);
}

/* Read a whole file into *out (new, *len bytes, NUL-terminated). The message names the path (a
 * path is the caller's, not a secret) and errno's text. */
static sdkrt_status read_file(const char *path, char **out, size_t *len, sdkrt_error **err)
{
    *out = NULL;
    *len = 0;
    sdkrt_status st = SDKRT_ERR;
    sdkrt_buf_ b = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "cannot open %.300s: %s", path,
                               strerror(errno));
    char chunk[16384];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sdkrt_buf_append_(&b, chunk, n);
    if (ferror(f)) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "cannot read %.300s", path);
        goto done;
    }
    sdkrt_buf_puts_(&b, "");
    if (b.oom) {
        oom(err);
        goto done;
    }
    *out = b.data;
    *len = b.len;
    b.data = NULL;
    st = SDKRT_OK;
done:
    fclose(f);
    sdkrt_buf_cleanup_(&b);
    return st;
}

static sdkrt_status request_failed(const sdkrt_request *req, sdkrt_error **err)
{
    if (req->oom)
        return oom(err);
    const char *m = sdkrt_request_error(req);
    return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s", m ? m : "invalid request");
}

sdkrt_status sdkrt_request_set_json_body_as(sdkrt_request *req, const char *media_type,
                                            const json_t *value, sdkrt_error **err)
{
    if (!value)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "JSON body may not be NULL");
    char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!text)
        return oom(err);
    sdkrt_status st = sdkrt_request_set_body(req, media_type ? media_type : "application/json",
                                             text, strlen(text));
    free(text);
    return st == SDKRT_OK ? SDKRT_OK : request_failed(req, err);
}

sdkrt_status sdkrt_request_set_blob_body(sdkrt_request *req, const char *media_type,
                                         const sdkrt_blob *blob, sdkrt_error **err)
{
    const char *ct = blob && blob->content_type ? blob->content_type : media_type;
    if (!blob || !ct || (blob->data && blob->path) || (!blob->data && blob->len))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "raw body needs a content type and either bytes or a file path");
    char *bytes = NULL;
    size_t len = 0;
    if (blob->path && read_file(blob->path, &bytes, &len, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = sdkrt_request_set_body(req, ct, blob->path ? bytes : blob->data,
                                             blob->path ? len : blob->len);
    free(bytes);
    return st == SDKRT_OK ? SDKRT_OK : request_failed(req, err);
}

/* ---- multipart ---- */

sdkrt_status sdkrt_multipart_new(sdkrt_multipart **out, sdkrt_error **err)
{
    *out = calloc(1, sizeof **out);
    return *out ? SDKRT_OK : oom(err);
}

static void part_cleanup(part *p)
{
    free(p->name);
    free(p->filename);
    free(p->content_type);
    free(p->data);
    free(p->path);
}

void sdkrt_multipart_free(sdkrt_multipart *mp)
{
    if (!mp)
        return;
    for (size_t i = 0; i < mp->count; i++)
        part_cleanup(&mp->parts[i]);
    free(mp->parts);
    free(mp->boundary);
    free(mp);
}

/* A name, filename or content type goes into a part header: no CR, LF or '"'. */
static bool header_text_ok(const char *s)
{
    return !s || (sdkrt_header_value_ok_(s) && !strchr(s, '"'));
}

/* Append a part; every string copied. */
static sdkrt_status add_part(sdkrt_multipart *mp, const char *name, const char *filename,
                             const char *content_type, const void *data, size_t len,
                             const char *path, sdkrt_error **err)
{
    if (!name || !header_text_ok(name) || !header_text_ok(filename) ||
        !header_text_ok(content_type))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "multipart part needs a name; names, file names and content types "
                               "may not hold CR, LF or '\"'");
    part p = {0};
    p.name = sdkrt_strdup_(name);
    p.filename = sdkrt_strdup_(filename);
    p.content_type = sdkrt_strdup_(content_type);
    p.path = sdkrt_strdup_(path);
    if (!path) {
        p.data = malloc(len + 1);
        if (p.data) {
            if (len)
                memcpy(p.data, data, len);
            p.data[len] = '\0';
            p.len = len;
        }
    }
    part *grown = NULL;
    if (p.name && (!filename || p.filename) && (!content_type || p.content_type) &&
        (path ? p.path != NULL : p.data != NULL))
        grown = realloc(mp->parts, (mp->count + 1) * sizeof *grown);
    if (!grown) {
        part_cleanup(&p);
        return oom(err);
    }
    mp->parts = grown;
    grown[mp->count++] = p;
    return SDKRT_OK;
}

sdkrt_status sdkrt_multipart_add_field(sdkrt_multipart *mp, const char *name, const char *value,
                                       const char *content_type, sdkrt_error **err)
{
    if (!value)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "multipart field value may not be NULL");
    return add_part(mp, name, NULL, content_type, value, strlen(value), NULL, err);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

sdkrt_status sdkrt_multipart_add_blob(sdkrt_multipart *mp, const char *name, const sdkrt_blob *blob,
                                      sdkrt_error **err)
{
    if (!blob || (blob->data && blob->path) || (!blob->data && blob->len))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "multipart file part needs either bytes or a file path");
    const char *filename = blob->filename;
    if (!filename && blob->path)
        filename = base_name(blob->path);
    if (!filename)
        filename = name;
    const char *ct = blob->content_type ? blob->content_type : "application/octet-stream";
    return add_part(mp, name, filename, ct, blob->data, blob->len, blob->path, err);
}

/* One JSON value as a part: scalars as text fields, containers as JSON. */
static sdkrt_status add_json_part(sdkrt_multipart *mp, const char *name, const json_t *v,
                                  const char *content_type, sdkrt_error **err)
{
    char *text = NULL;
    const char *ct = content_type;
    if (json_is_string(v)) {
        text = sdkrt_strdup_(json_string_value(v));
    } else if (json_is_object(v) || json_is_array(v)) {
        text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!ct)
            ct = "application/json";
    } else {
        text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY); /* 1, 0.5, true */
    }
    if (!text)
        return oom(err);
    sdkrt_status st = add_part(mp, name, NULL, ct, text, strlen(text), NULL, err);
    free(text);
    return st;
}

/* Percent-decode n bytes of s into a new string (NULL when out of memory). */
static char *pct_decode(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    size_t w = 0;
    for (size_t i = 0; out && i < n; i++) {
        int hi = s[i] == '%' && i + 2 < n ? sdkrt_hex_digit_((unsigned char)s[i + 1]) : -1;
        int lo = hi >= 0 ? sdkrt_hex_digit_((unsigned char)s[i + 2]) : -1;
        if (hi >= 0 && lo >= 0) {
            out[w++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            out[w++] = s[i];
        }
    }
    if (out)
        out[w] = '\0';
    return out;
}

/* A property with an explicit style (OpenAPI 3.1: then its contentType is ignored): the pairs
 * the style makes in a form body, each as a text part, names and values decoded
 * (`expires_after[anchor]`, `tags` = `a,b` unexploded). The serialiser percent-encodes every
 * byte of names and values outside the unreserved set, so '&' and the first '=' split them. */
static sdkrt_status add_styled_parts(sdkrt_multipart *mp, const char *key, const json_t *item,
                                     const sdkrt_body_encoding *e, sdkrt_error **err)
{
    sdkrt_param_spec sp = {key, SDKRT_IN_QUERY, e->style, e->explode, false};
    char *q = NULL;
    if (sdkrt_param_serialize(&q, &sp, item, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = SDKRT_OK;
    for (const char *p = q; st == SDKRT_OK && *p;) {
        const char *amp = strchr(p, '&');
        size_t n = amp ? (size_t)(amp - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        char *name = pct_decode(p, eq ? (size_t)(eq - p) : n);
        char *val = eq ? pct_decode(eq + 1, n - (size_t)(eq - p) - 1) : sdkrt_strdup_("");
        if (!name || !val)
            st = oom(err);
        else
            st = sdkrt_multipart_add_field(mp, name, val, NULL, err);
        free(name);
        free(val);
        p += n + (amp ? 1 : 0);
    }
    free(q);
    return st;
}

sdkrt_status sdkrt_multipart_add_json(sdkrt_multipart *mp, const json_t *value,
                                      const sdkrt_body_encoding *enc, size_t nenc,
                                      const char *const *blob_names, const sdkrt_blob *const *blobs,
                                      size_t nblobs, sdkrt_error **err)
{
    if (!json_is_object(value))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "a multipart/form-data body must be an object");
    /* Blobs first in the object's order when the property is present; set blobs of absent
     * properties after. */
    bool *used = calloc(nblobs ? nblobs : 1, sizeof *used);
    if (!used)
        return oom(err);
    sdkrt_status st = SDKRT_OK;
    const char *key;
    const json_t *item;
    json_object_foreach((json_t *)value, key, item)
    {
        const sdkrt_body_encoding *e = sdkrt_body_encoding_find_(enc, nenc, key);
        const char *ct = e ? e->content_type : NULL;
        size_t bi = 0;
        while (bi < nblobs && strcmp(blob_names[bi], key) != 0)
            bi++;
        if (bi < nblobs && sdkrt_blob_is_set(blobs[bi])) {
            used[bi] = true;
            sdkrt_blob b = *blobs[bi];
            if (!b.content_type)
                b.content_type = ct;
            st = sdkrt_multipart_add_blob(mp, key, &b, err);
        } else if (json_is_null(item)) {
            continue;
        } else if (e && e->has_style) {
            st = add_styled_parts(mp, key, item, e, err);
        } else if (json_is_array(item)) {
            size_t i;
            const json_t *x;
            json_array_foreach(item, i, x)
            {
                if (st == SDKRT_OK && !json_is_null(x))
                    st = add_json_part(mp, key, x, ct, err);
            }
        } else {
            st = add_json_part(mp, key, item, ct, err);
        }
        if (st != SDKRT_OK)
            break;
    }
    for (size_t i = 0; st == SDKRT_OK && i < nblobs; i++) {
        if (!used[i] && sdkrt_blob_is_set(blobs[i])) {
            const sdkrt_body_encoding *e = sdkrt_body_encoding_find_(enc, nenc, blob_names[i]);
            sdkrt_blob b = *blobs[i];
            if (!b.content_type && e)
                b.content_type = e->content_type;
            st = sdkrt_multipart_add_blob(mp, blob_names[i], &b, err);
        }
    }
    free(used);
    return st;
}

static bool boundary_ok(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > 70 || s[n - 1] == ' ')
        return false;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  strchr("'()+_,-./:=? ", c) != NULL;
        if (!ok)
            return false;
    }
    return true;
}

sdkrt_status sdkrt_multipart_set_boundary(sdkrt_multipart *mp, const char *boundary,
                                          sdkrt_error **err)
{
    if (!boundary || !boundary_ok(boundary))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "multipart boundary must be 1-70 characters of RFC 2046 bchars");
    char *b = sdkrt_strdup_(boundary);
    if (!b)
        return oom(err);
    free(mp->boundary);
    mp->boundary = b;
    return SDKRT_OK;
}

size_t sdkrt_multipart_count(const sdkrt_multipart *mp)
{
    return mp ? mp->count : 0;
}

void sdkrt_multipart_part(const sdkrt_multipart *mp, size_t i, const char **name,
                          const char **filename, const char **content_type, const void **data,
                          size_t *len, const char **path)
{
    const part *p = &mp->parts[i];
    if (name)
        *name = p->name;
    if (filename)
        *filename = p->filename;
    if (content_type)
        *content_type = p->content_type;
    if (data)
        *data = p->path ? NULL : p->data;
    if (len)
        *len = p->path ? 0 : p->len;
    if (path)
        *path = p->path;
}

sdkrt_multipart *sdkrt_multipart_copy_(const sdkrt_multipart *mp)
{
    sdkrt_multipart *c = NULL;
    sdkrt_error *e = NULL;
    if (sdkrt_multipart_new(&c, &e) != SDKRT_OK) {
        sdkrt_error_free(e);
        return NULL;
    }
    for (size_t i = 0; i < mp->count; i++) {
        const part *p = &mp->parts[i];
        if (add_part(c, p->name, p->filename, p->content_type, p->data, p->len, p->path, &e) !=
            SDKRT_OK) {
            sdkrt_error_free(e);
            sdkrt_multipart_free(c);
            return NULL;
        }
    }
    if (mp->boundary && !(c->boundary = sdkrt_strdup_(mp->boundary))) {
        sdkrt_multipart_free(c);
        return NULL;
    }
    return c;
}

/* A boundary that differs between calls: 24 hex digits from the clock, the address of a local
 * and a counter mixed by splitmix64. Not a secret; the serialiser checks that no part holds it. */
static void random_boundary(char *out, size_t cap, unsigned attempt)
{
    static const char hex[] = "0123456789abcdef";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)(uintptr_t)&ts ^
                 ((uint64_t)attempt * 0x9E3779B97F4A7C15ull);
    size_t n = 0;
    const char *lead = "sdkrt-";
    for (; lead[n] && n + 1 < cap; n++)
        out[n] = lead[n];
    for (int round = 0; round < 2; round++) {
        x += 0x9E3779B97F4A7C15ull;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        for (int i = 0; i < 12 && n + 1 < cap; i++, z >>= 4)
            out[n++] = hex[z & 15];
    }
    out[n] = '\0';
}

static bool contains(const char *hay, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; k <= n && i + k <= n; i++) {
        if (hay[i] == needle[0] && memcmp(hay + i, needle, k) == 0)
            return true;
    }
    return false;
}

sdkrt_status sdkrt_multipart_serialize(const sdkrt_multipart *mp, char **bytes, size_t *len,
                                       char **content_type, sdkrt_error **err)
{
    *bytes = NULL;
    *len = 0;
    *content_type = NULL;
    sdkrt_status st = SDKRT_ERR;
    char **files = calloc(mp->count ? mp->count : 1, sizeof *files);
    size_t *flen = calloc(mp->count ? mp->count : 1, sizeof *flen);
    sdkrt_buf_ b = {0}, ct = {0};
    if (!files || !flen) {
        oom(err);
        goto done;
    }
    for (size_t i = 0; i < mp->count; i++) {
        if (mp->parts[i].path && read_file(mp->parts[i].path, &files[i], &flen[i], err) != SDKRT_OK)
            goto done;
    }
    char boundary[80];
    for (unsigned attempt = 0;; attempt++) {
        if (mp->boundary)
            snprintf(boundary, sizeof boundary, "%s", mp->boundary);
        else
            random_boundary(boundary, sizeof boundary, attempt);
        /* a delimiter is CRLF "--" boundary; a part holding "--" boundary could end early */
        char dashed[84];
        snprintf(dashed, sizeof dashed, "--%s", boundary);
        bool clash = false;
        for (size_t i = 0; i < mp->count && !clash; i++) {
            const part *p = &mp->parts[i];
            clash =
                p->path ? contains(files[i], flen[i], dashed) : contains(p->data, p->len, dashed);
        }
        if (!clash)
            break;
        if (mp->boundary || attempt > 16) {
            sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                            "multipart boundary occurs inside a part");
            goto done;
        }
    }
    for (size_t i = 0; i < mp->count; i++) {
        const part *p = &mp->parts[i];
        sdkrt_buf_printf_(&b, "--%s\r\nContent-Disposition: form-data; name=\"%s\"", boundary,
                          p->name);
        if (p->filename)
            sdkrt_buf_printf_(&b, "; filename=\"%s\"", p->filename);
        sdkrt_buf_puts_(&b, "\r\n");
        if (p->content_type)
            sdkrt_buf_printf_(&b, "Content-Type: %s\r\n", p->content_type);
        sdkrt_buf_puts_(&b, "\r\n");
        if (p->path)
            sdkrt_buf_append_(&b, files[i], flen[i]);
        else
            sdkrt_buf_append_(&b, p->data, p->len);
        sdkrt_buf_puts_(&b, "\r\n");
    }
    sdkrt_buf_printf_(&b, "--%s--\r\n", boundary);
    sdkrt_buf_printf_(&ct, "multipart/form-data; boundary=%s", boundary);
    if (b.oom || ct.oom) {
        oom(err);
        goto done;
    }
    *bytes = b.data;
    *len = b.len;
    *content_type = ct.data;
    b.data = NULL;
    ct.data = NULL;
    st = SDKRT_OK;
done:
    for (size_t i = 0; files && i < mp->count; i++)
        free(files[i]);
    free(files);
    free(flen);
    sdkrt_buf_cleanup_(&b);
    sdkrt_buf_cleanup_(&ct);
    return st;
}

/* ---- by media type ---- */

sdkrt_status sdkrt_request_set_body_as(sdkrt_request *req, const char *media_type,
                                       const json_t *value, const sdkrt_body_encoding *enc,
                                       size_t nenc, const char *const *blob_names,
                                       const sdkrt_blob *const *blobs, size_t nblobs,
                                       sdkrt_error **err)
{
    if (!media_type || !value)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "request body needs a media type and a value");
    if (sdkrt_media_is_json(media_type))
        return sdkrt_request_set_json_body_as(req, media_type, value, err);
    char *m = sdkrt_media_type_(media_type);
    if (!m)
        return oom(err);
    sdkrt_status st = SDKRT_ERR;
    if (strcmp(m, "application/x-www-form-urlencoded") == 0) {
        st = sdkrt_request_set_form_body(req, value, enc, nenc, err);
    } else if (strcmp(m, "multipart/form-data") == 0) {
        sdkrt_multipart *mp = NULL;
        if (sdkrt_multipart_new(&mp, err) != SDKRT_OK)
            goto done;
        if (sdkrt_multipart_add_json(mp, value, enc, nenc, blob_names, blobs, nblobs, err) !=
            SDKRT_OK) {
            sdkrt_multipart_free(mp);
            goto done;
        }
        st = sdkrt_request_set_multipart_body(req, mp) == SDKRT_OK ? SDKRT_OK
                                                                   : request_failed(req, err);
    } else {
        /* Any other single type: a string's text, other values as JSON text. */
        char *text =
            json_is_string(value) ? NULL : json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!json_is_string(value) && !text) {
            oom(err);
            goto done;
        }
        const char *bytes = text ? text : json_string_value(value);
        size_t n = text ? strlen(text) : json_string_length(value);
        st = sdkrt_request_set_body(req, media_type, bytes, n) == SDKRT_OK
                 ? SDKRT_OK
                 : request_failed(req, err);
        free(text);
    }
done:
    free(m);
    return st;
}

sdkrt_status sdkrt_request_set_typed_body(sdkrt_request *req, const char *media_type,
                                          const sdkrt_jtype *t, const void *value,
                                          const sdkrt_body_encoding *enc, size_t nenc,
                                          sdkrt_error **err)
{
    json_t *j = NULL;
    if (sdkrt_json_encode_request_(t, value, &j, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = sdkrt_request_set_body_as(req, media_type, j, enc, nenc, NULL, NULL, 0, err);
    json_decref(j);
    return st;
}
