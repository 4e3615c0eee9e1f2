/* curl.c - a curl command line that reproduces a request, with every secret shown as the
 * environment variable it came from (never its value). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conform_internal.h"

#define CURL_BODY_MAX 8192 /* bytes of a body written out; a longer one is left out, said so */

static void base64(sdkc_buf *b, const unsigned char *s, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) |
                     (i + 2 < n ? s[i + 2] : 0);
        sdkc_buf_putc(b, tab[v >> 18 & 63]);
        sdkc_buf_putc(b, tab[v >> 12 & 63]);
        sdkc_buf_putc(b, i + 1 < n ? tab[v >> 6 & 63] : '=');
        sdkc_buf_putc(b, i + 2 < n ? tab[v & 63] : '=');
    }
}

/* s as one shell word: literal runs in single quotes, each secret as "$ENV". */
static void put_word(sdkc_buf *b, const char *s, size_t len, const conform_secret *sec, size_t n)
{
    bool quoted = false;
    for (size_t i = 0; i < len;) {
        const conform_secret *hit = NULL;
        for (size_t k = 0; k < n && !hit; k++) {
            size_t sl = sec[k].value ? strlen(sec[k].value) : 0;
            if (sl && sl <= len - i && memcmp(s + i, sec[k].value, sl) == 0)
                hit = &sec[k];
        }
        if (hit) {
            if (quoted)
                sdkc_buf_putc(b, '\'');
            quoted = false;
            sdkc_buf_printf(b, "\"$%s\"", hit->env);
            i += strlen(hit->value);
            continue;
        }
        if (!quoted)
            sdkc_buf_putc(b, '\'');
        quoted = true;
        if (s[i] == '\'')
            sdkc_buf_puts(b, "'\\''");
        else
            sdkc_buf_putc(b, s[i]);
        i++;
    }
    if (quoted)
        sdkc_buf_putc(b, '\'');
    if (!len)
        sdkc_buf_puts(b, "''");
}

char *conform_curl(const sdkrt_transport_request *req, const conform_secret *sec, size_t n)
{
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_puts(&b, "curl -sS -i");
    if (req->method && strcmp(req->method, "GET") != 0) {
        sdkc_buf_puts(&b, " -X ");
        put_word(&b, req->method, strlen(req->method), sec, n);
    }
    for (size_t i = 0; i < req->header_count; i++) {
        const sdkrt_header *h = &req->headers[i];
        if (strcasecmp(h->name, "User-Agent") == 0 || strcasecmp(h->name, "Content-Length") == 0)
            continue;
        if (strcasecmp(h->name, "Authorization") == 0 && strncasecmp(h->value, "Basic ", 6) == 0) {
            /* HTTP Basic: -u with the variables it came from, never the encoded pair */
            const conform_secret *basic = NULL;
            for (size_t k = 0; k < n && !basic; k++) {
                if (!sec[k].basic_user)
                    continue;
                sdkc_buf pair = SDKC_BUF_INIT, enc = SDKC_BUF_INIT;
                sdkc_buf_printf(&pair, "%s:%s", sec[k].basic_user, sec[k].value);
                if (pair.data)
                    base64(&enc, (const unsigned char *)pair.data, pair.len);
                if (enc.data && strcmp(h->value + 6, enc.data) == 0)
                    basic = &sec[k];
                sdkc_buf_cleanup(&pair);
                sdkc_buf_cleanup(&enc);
            }
            sdkc_buf_puts(&b, " -u ");
            if (basic && basic->whole_pair)
                sdkc_buf_printf(&b, "\"$%s\"", basic->env);
            else if (basic)
                sdkc_buf_printf(&b, "'%s:'\"$%s\"", basic->basic_user, basic->env);
            else
                sdkc_buf_puts(&b, "'(credentials not shown)'");
            continue;
        }
        sdkc_buf line = SDKC_BUF_INIT;
        sdkc_buf_printf(&line, "%s: %s", h->name, h->value ? h->value : "");
        sdkc_buf_puts(&b, " -H ");
        if (line.data)
            put_word(&b, line.data, line.len, sec, n);
        sdkc_buf_cleanup(&line);
    }
    if (req->multipart) {
        sdkc_buf_puts(&b, " # multipart/form-data body not shown");
    } else if (req->body && req->body_len > CURL_BODY_MAX) {
        sdkc_buf_printf(&b, " # a body of %zu bytes not shown", req->body_len);
    } else if (req->body) {
        sdkc_buf_puts(&b, " --data-binary ");
        put_word(&b, req->body, req->body_len, sec, n);
    }
    sdkc_buf_puts(&b, " ");
    put_word(&b, req->url ? req->url : "", req->url ? strlen(req->url) : 0, sec, n);
    char *out = sdkc_buf_steal(&b, NULL);
    sdkc_buf_cleanup(&b);
    /* never a secret's value: a form the substitution missed (encoded) withholds the line */
    for (size_t k = 0; out && k < n; k++)
        if (sec[k].value && *sec[k].value && strstr(out, sec[k].value)) {
            free(out);
            return NULL;
        }
    return out;
}
