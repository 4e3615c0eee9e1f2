/* Version, global init and small shared helpers. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "internal.h"

#define STR2(x) #x
#define STR(x)  STR2(x)

static bool is_alnum_ascii(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int sdkrt_version_check(int major, int minor)
{
    return major == SDKRT_VERSION_MAJOR && minor >= 0 && minor <= SDKRT_VERSION_MINOR;
}

const char *sdkrt_version_string(void)
{
    return STR(SDKRT_VERSION_MAJOR) "." STR(SDKRT_VERSION_MINOR) "." STR(SDKRT_VERSION_PATCH);
}

sdkrt_status sdkrt_global_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? SDKRT_OK : SDKRT_ERR;
}

void sdkrt_global_cleanup(void)
{
    curl_global_cleanup();
}

int sdkrt_strcasecmp_(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca != cb || ca == 0)
            return ca - cb;
    }
}

char *sdkrt_strdup_(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

bool sdkrt_header_name_ok_(const char *name)
{
    static const char tchar[] = "!#$%&'*+-.^_`|~";
    if (!name || !*name)
        return false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (!is_alnum_ascii(*p) && !strchr(tchar, *p))
            return false;
    }
    return true;
}

bool sdkrt_header_value_ok_(const char *value)
{
    if (!value)
        return false;
    return strpbrk(value, "\r\n") == NULL;
}

char *sdkrt_media_type_(const char *value)
{
    if (!value)
        return NULL;
    while (*value == ' ' || *value == '\t')
        value++;
    size_t n = strcspn(value, ";");
    while (n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t'))
        n--;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)value[i]);
    out[n] = '\0';
    return out;
}

long long sdkrt_now_ms_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool buf_reserve(sdkrt_buf_ *b, size_t extra)
{
    if (b->oom)
        return false;
    if (extra > SIZE_MAX - b->len - 1) {
        b->oom = true;
        return false;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void sdkrt_buf_append_(sdkrt_buf_ *b, const void *bytes, size_t len)
{
    if (!buf_reserve(b, len))
        return;
    if (len)
        memcpy(b->data + b->len, bytes, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void sdkrt_buf_puts_(sdkrt_buf_ *b, const char *s)
{
    sdkrt_buf_append_(b, s, strlen(s));
}

void sdkrt_buf_printf_(sdkrt_buf_ *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
    } else if (buf_reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void sdkrt_buf_cleanup_(sdkrt_buf_ *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = false;
}

void sdkrt_pct_encode_(sdkrt_buf_ *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (is_alnum_ascii(c)) {
            sdkrt_buf_append_(b, p, 1);
        } else if (c == '-' || c == '.' || c == '_' || c == '~') {
            sdkrt_buf_append_(b, p, 1);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            sdkrt_buf_append_(b, e, 3);
        }
    }
}
