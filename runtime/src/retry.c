/* The call layer of unary calls: retries (backoff with jitter, Retry-After), idempotency keys and
 * the attempts of one call (call.h). No I/O: the blocking driver (send.c) and the loop engine
 * (engine.c) run each attempt on their transport, wait as told, and ask here what comes next. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call.h"

/* ---- randomness: keys and jitter ---- */

/* splitmix64 over the clocks and an address: jitter needs no secrecy, and it is the fallback for
 * keys when /dev/urandom cannot be read. */
static uint64_t mix_clock(uint64_t salt)
{
    struct timespec a, b;
    clock_gettime(CLOCK_REALTIME, &a);
    clock_gettime(CLOCK_MONOTONIC, &b);
    uint64_t z = (uint64_t)a.tv_nsec ^ ((uint64_t)a.tv_sec << 30) ^ ((uint64_t)b.tv_nsec << 17) ^
                 (uint64_t)(uintptr_t)&a ^ (salt * 0x9E3779B97F4A7C15ull);
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void random_bytes(unsigned char *out, size_t n)
{
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = 0;
    if (f) {
        got = fread(out, 1, n, f);
        fclose(f);
    }
    for (size_t i = got; i < n; i += 8) {
        uint64_t z = mix_clock(i);
        for (size_t k = 0; k < 8 && i + k < n; k++, z >>= 8)
            out[i + k] = (unsigned char)z;
    }
}

/* A random UUIDv4 (RFC 9562) in lower-case hex, 36 characters and a NUL. */
static void uuid4(char out[37])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char r[16];
    random_bytes(r, sizeof r);
    r[6] = (unsigned char)((r[6] & 0x0F) | 0x40);
    r[8] = (unsigned char)((r[8] & 0x3F) | 0x80);
    size_t n = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[n++] = '-';
        out[n++] = hex[r[i] >> 4];
        out[n++] = hex[r[i] & 15];
    }
    out[n] = '\0';
}

/* ---- policy ---- */

sdkrt_status sdkrt_retry_policy_check_(const sdkrt_retry_policy *p, sdkrt_error **err)
{
    if (p->max_attempts < 0 || p->initial_delay_ms < 0 || p->max_delay_ms < 0 ||
        p->max_retry_after_ms < 0)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "retry policy: attempts and delays may not be negative");
    return SDKRT_OK;
}

/* The policy with its defaults filled in. */
static sdkrt_retry_policy resolved(const sdkrt_retry_policy *p)
{
    sdkrt_retry_policy r = *p;
    if (r.max_attempts < 1)
        r.max_attempts = SDKRT_RETRY_DEFAULT_MAX_ATTEMPTS;
    if (!r.initial_delay_ms)
        r.initial_delay_ms = SDKRT_RETRY_DEFAULT_INITIAL_DELAY_MS;
    if (!r.max_delay_ms)
        r.max_delay_ms = SDKRT_RETRY_DEFAULT_MAX_DELAY_MS;
    if (!r.max_retry_after_ms)
        r.max_retry_after_ms = SDKRT_RETRY_DEFAULT_MAX_RETRY_AFTER_MS;
    return r;
}

static bool idempotent_method(const char *m)
{
    static const char *const safe[] = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"};
    for (size_t i = 0; i < sizeof safe / sizeof safe[0]; i++) {
        if (strcmp(m, safe[i]) == 0)
            return true;
    }
    return false;
}

static bool retryable_status(int s)
{
    return s == 408 || s == 409 || s == 425 || s == 429 || (s >= 500 && s <= 599);
}

/* min(initial * 2^(attempt-1), max), less up to 25% at random. */
static long backoff_ms(const sdkrt_retry_policy *p, int attempt)
{
    long d = p->initial_delay_ms;
    for (int i = 1; i < attempt && d < p->max_delay_ms; i++)
        d = d > LONG_MAX / 2 ? LONG_MAX : d * 2;
    if (d > p->max_delay_ms)
        d = p->max_delay_ms;
    uint64_t r = mix_clock((uint64_t)attempt) % 1000; /* 0..999 */
    return d - (long)((double)d * 0.25 * (double)r / 1000.0);
}

/* ---- Retry-After ---- */

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Digits (and an optional fraction, dropped) in *out, saturating at 10^12; the rest must be
 * blank. */
static bool parse_number(const char *s, long long *out)
{
    s = skip_ws(s);
    if (*s < '0' || *s > '9')
        return false;
    long long v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        v = v >= 1000000000000LL ? v : v * 10 + (*s - '0');
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9'; s++) {
        }
    }
    if (*skip_ws(s))
        return false;
    *out = v;
    return true;
}

static int month_of(const char *s)
{
    static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    for (int i = 0; i < 12; i++) {
        if (strncmp(s, names + 3 * i, 3) == 0)
            return i + 1;
    }
    return 0;
}

/* Up to max digits into *out; the number of digits read. */
static int digits(const char **s, int max, int *out)
{
    int n = 0, v = 0;
    while (n < max && **s >= '0' && **s <= '9') {
        v = v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    *out = v;
    return n;
}

static bool clock_of(const char **s, int *h, int *m, int *sec)
{
    if (digits(s, 2, h) != 2 || **s != ':')
        return false;
    (*s)++;
    if (digits(s, 2, m) != 2 || **s != ':')
        return false;
    (*s)++;
    return digits(s, 2, sec) == 2 && *h < 24 && *m < 60 && *sec < 61;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static long long days_from_civil(long long y, int m, int d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* An HTTP-date (RFC 9110 5.6.7: IMF-fixdate, the obsolete RFC 850 and asctime forms) as seconds
 * since the epoch. */
static bool parse_http_date(const char *s, long long *out)
{
    int day = 0, mon = 0, year = 0, h = 0, mi = 0, sec = 0;
    s = skip_ws(s);
    while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))
        s++; /* the day name */
    if (*s == ',') {
        /* "06 Nov 1994 08:49:37 GMT" or "06-Nov-94 08:49:37 GMT" */
        s = skip_ws(s + 1);
        if (digits(&s, 2, &day) != 2 || (*s != ' ' && *s != '-'))
            return false;
        char sep = *s++;
        if (!(mon = month_of(s)) || s[3] != sep)
            return false;
        s += 4;
        int n = digits(&s, 4, &year);
        if (n == 2)
            year += year < 70 ? 2000 : 1900;
        else if (n != 4 || sep != ' ')
            return false;
        if (*s++ != ' ' || !clock_of(&s, &h, &mi, &sec) || strncmp(s, " GMT", 4) != 0)
            return false;
        s += 4;
    } else {
        /* asctime: "Nov  6 08:49:37 1994" */
        s = skip_ws(s);
        if (!(mon = month_of(s)))
            return false;
        s = skip_ws(s + 3);
        if (digits(&s, 2, &day) < 1 || *s++ != ' ' || !clock_of(&s, &h, &mi, &sec) || *s++ != ' ' ||
            digits(&s, 4, &year) != 4)
            return false;
    }
    if (*skip_ws(s) || day < 1 || day > 31)
        return false;
    *out = days_from_civil(year, mon, day) * 86400LL + h * 3600LL + mi * 60LL + sec;
    return true;
}

/* The server's requested delay in ms: retry-after-ms, else Retry-After (seconds or a date
 * relative to now_s). False when neither is present and readable. */
static bool server_delay_ms(const sdkrt_response *r, long long now_s, long long *ms)
{
    const char *v = sdkrt_response_header(r, "retry-after-ms");
    long long n = 0;
    if (v && parse_number(v, &n)) {
        *ms = n;
        return true;
    }
    v = sdkrt_response_header(r, "retry-after");
    if (!v)
        return false;
    if (parse_number(v, &n)) {
        *ms = n * 1000;
        return true;
    }
    long long at = 0;
    if (!parse_http_date(v, &at))
        return false;
    *ms = at > now_s ? (at - now_s) * 1000 : 0;
    return true;
}

/* Whether the attempt's outcome is worth another attempt, and after how long. */
static bool should_retry(const sdkrt_retry_policy *p, int attempt, sdkrt_status st,
                         const sdkrt_response *r, const sdkrt_error *e, sdkrt_retry_info *info)
{
    memset(info, 0, sizeof *info);
    info->attempt = attempt;
    info->max_attempts = p->max_attempts;
    if (st != SDKRT_OK) {
        sdkrt_reason why = e ? sdkrt_error_reason(e) : SDKRT_REASON_NONE;
        if (why != SDKRT_REASON_TRANSPORT && why != SDKRT_REASON_TIMEOUT)
            return false;
        info->reason = why;
        info->delay_ms = backoff_ms(p, attempt);
        return true;
    }
    info->status = sdkrt_response_status(r);
    const char *hint = sdkrt_response_header(r, "x-should-retry");
    bool yes = retryable_status(info->status);
    bool success = info->status >= 200 && info->status <= 299;
    if (hint && sdkrt_strcasecmp_(hint, "true") == 0 && !success)
        yes = true; /* never a success: it is the result */
    else if (hint && sdkrt_strcasecmp_(hint, "false") == 0)
        yes = false;
    if (!yes)
        return false;
    long long ms = 0;
    if (server_delay_ms(r, (long long)time(NULL), &ms)) {
        info->server_delay = true;
        info->delay_ms = ms > p->max_retry_after_ms ? p->max_retry_after_ms : (long)ms;
    } else {
        info->delay_ms = backoff_ms(p, attempt);
    }
    return true;
}

/* ---- idempotency keys ---- */

static bool has_header(const sdkrt_header *h, size_t n, const char *name)
{
    for (size_t i = 0; h && i < n; i++) {
        if (h[i].name && sdkrt_strcasecmp_(h[i].name, name) == 0)
            return true;
    }
    return false;
}

sdkrt_status sdkrt_keyed_call_init_(sdkrt_keyed_call_ *k, const sdkrt_client *client,
                                    const sdkrt_request *req, const sdkrt_call_options *call,
                                    sdkrt_error **err)
{
    static const sdkrt_call_options none = SDKRT_CALL_OPTIONS_INIT;
    memset(k, 0, sizeof *k);
    k->call = call ? *call : none;
    /* the contract's header for the operation, else the client's */
    const char *name =
        req->idempotency_header ? req->idempotency_header : client->idempotency_header;
    const char *key = k->call.idempotency_key;
    if (key && !*key)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s %s: empty idempotency key",
                               req->method, req->path_template);
    bool given = has_header(k->call.headers, k->call.header_count, name);
    for (size_t i = 0; !given && i < req->header_count; i++)
        given = sdkrt_strcasecmp_(req->headers[i].name, name) == 0;
    if (!key && !given && req->idempotency_header)
        key = SDKRT_IDEMPOTENCY_AUTO; /* declared by the contract: always sent */
    if (key) {
        if (strcmp(key, SDKRT_IDEMPOTENCY_AUTO) == 0) {
            uuid4(k->key);
            key = k->key;
        }
        if (k->call.header_count && !k->call.headers)
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "%s %s: invalid call options", req->method, req->path_template);
        /* the key first: a header of the same name among the call's own replaces it */
        k->headers = calloc(k->call.header_count + 1, sizeof *k->headers);
        if (!k->headers)
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        k->headers[0].name = name;
        k->headers[0].value = key;
        if (k->call.header_count)
            memcpy(k->headers + 1, k->call.headers, k->call.header_count * sizeof *k->headers);
        k->call.headers = k->headers;
        k->call.header_count++;
    }
    k->keyed = has_header(k->call.headers, k->call.header_count, name);
    for (size_t i = 0; !k->keyed && i < req->header_count; i++)
        k->keyed = sdkrt_strcasecmp_(req->headers[i].name, name) == 0;
    return SDKRT_OK;
}

void sdkrt_keyed_call_cleanup_(sdkrt_keyed_call_ *k)
{
    free(k->headers);
    memset(k, 0, sizeof *k);
}

/* ---- the call: attempts ---- */

sdkrt_status sdkrt_unary_init_(sdkrt_unary_ *u, const sdkrt_client *client,
                               const sdkrt_request *req, const sdkrt_call_options *call,
                               sdkrt_error **err)
{
    memset(u, 0, sizeof *u);
    const sdkrt_retry_policy *given = call && call->retry ? call->retry : &client->retry;
    if (sdkrt_retry_policy_check_(given, err) != SDKRT_OK)
        return SDKRT_ERR;
    u->policy = resolved(given);
    if (sdkrt_keyed_call_init_(&u->k, client, req, call, err) != SDKRT_OK ||
        sdkrt_prepare_(&u->p, client, req, &u->k.call, false, err) != SDKRT_OK) {
        sdkrt_keyed_call_cleanup_(&u->k);
        return SDKRT_ERR;
    }
    u->repeatable = req->method && (idempotent_method(req->method) || u->k.keyed);
    u->attempt = 1;
    return SDKRT_OK;
}

bool sdkrt_unary_retry_(sdkrt_unary_ *u, sdkrt_status st, sdkrt_response *r, sdkrt_error *e,
                        long *delay_ms)
{
    *delay_ms = 0;
    if (u->attempt >= u->policy.max_attempts || !u->repeatable ||
        !should_retry(&u->policy, u->attempt, st, r, e, &u->info))
        return false;
    sdkrt_response_free(r);
    sdkrt_error_free(e);
    if (u->policy.on_retry)
        u->policy.on_retry(u->policy.userdata, &u->info);
    *delay_ms = u->info.delay_ms;
    u->attempt++;
    return true;
}

sdkrt_status sdkrt_unary_cancelled_waiting_(const sdkrt_unary_ *u, sdkrt_error **err)
{
    char after[48];
    if (u->info.status)
        snprintf(after, sizeof after, "HTTP %d", u->info.status);
    else
        snprintf(after, sizeof after, "%s", sdkrt_reason_name(u->info.reason));
    return sdkrt_error_set(err, SDKRT_REASON_CANCELLED,
                           "%s %s: cancelled while waiting to retry after %s (attempt %d of %d)",
                           u->p.method, u->p.shown_url, after, u->info.attempt,
                           u->info.max_attempts);
}

void sdkrt_unary_cleanup_(sdkrt_unary_ *u)
{
    sdkrt_prepared_cleanup_(&u->p);
    sdkrt_keyed_call_cleanup_(&u->k);
}
