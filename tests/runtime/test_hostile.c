/* test_hostile.c - hostile servers and inputs against the libcurl transport over real sockets on
 * 127.0.0.1: a 1 GiB body against the default 64 MiB cap, a 100 MB SSE line without a newline,
 * JSON nested 100k deep, integers beyond int64, invalid UTF-8, duplicate keys and NUL escapes, a
 * drip of one byte per second, an unresolvable host, and TLS to a self-signed server (refused by
 * default, accepted with its certificate as ca_file). Each ends in the right client error reason,
 * with bounded memory and no credential in any message. */
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/valgrind.h>

#include "sdkrt/json.h"
#include "sdkrt/sdkrt.h"
#include "test_server.h"

#define SECRET_PASSWORD "pw-0f1e2d3c"
#define SECRET_TOKEN    "tok-9a8b7c6d"

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* valgrind and ASan keep shadow memory and quarantines per allocation: under them peak RSS says
 * more about the tool than about us, so the memory bounds are enforced in plain builds only. */
static bool rss_meaningful(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return false;
#endif
#endif
    return !RUNNING_ON_VALGRIND;
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* ---- the hostile server ---- */

enum {
    H_GIB_CHUNKED,      /* 1 GiB of body, chunked */
    H_GIB_LENGTH,       /* 1 GiB of body announced with Content-Length */
    H_SSE_LONG_LINE,    /* "data: " and 100 MB without a newline */
    H_BODY,             /* the body in hs.body as application/json */
    H_SSE_BODY,         /* the body in hs.body as one SSE event's data */
    H_DRIP,             /* a 200 with Content-Length 64, then one byte per second */
    H_SSE_SLOW_DRIP,    /* an SSE stream sending one byte every 1.5 s */
    H_ECHO_UNAUTHORIZED /* a 401 with a body that does not echo anything */
};

typedef struct hostile {
    int mode;
    const char *body;
    size_t body_len;
    atomic_size_t sent;
    atomic_bool write_failed;
} hostile;

static int push_bytes(hostile *h, ts_conn *c, size_t total, bool chunked)
{
    static char block[65536];
    memset(block, 'x', sizeof block);
    int rc = 0;
    for (size_t off = 0; rc == 0 && off < total; off += sizeof block) {
        rc = chunked ? ts_chunk(c, block, sizeof block) : ts_write(c, block, sizeof block);
        atomic_store(&h->sent, ts_sent(c));
    }
    if (rc != 0)
        atomic_store(&h->write_failed, true);
    return -1;
}

static int serve(void *ud, const ts_request *req, ts_conn *c)
{
    (void)req;
    hostile *h = ud;
    switch (h->mode) {
    case H_GIB_CHUNKED:
        if (ts_chunked_head(c, 200, "application/json") != 0)
            return -1;
        return push_bytes(h, c, (size_t)1 << 30, true);
    case H_GIB_LENGTH:
        if (ts_printf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         "Content-Length: 1073741824\r\n\r\n") != 0)
            return -1;
        return push_bytes(h, c, (size_t)1 << 30, false);
    case H_SSE_LONG_LINE:
        if (ts_chunked_head(c, 200, "text/event-stream") != 0 || ts_chunk(c, "data: ", 6) != 0)
            return -1;
        return push_bytes(h, c, (size_t)100 * 1000 * 1000, true);
    case H_BODY:
        return ts_respond(c, 200, "application/json", h->body, h->body_len);
    case H_SSE_BODY:
        if (ts_chunked_head(c, 200, "text/event-stream") != 0 || ts_chunk(c, "data: ", 6) != 0 ||
            ts_chunk(c, h->body, h->body_len) != 0 || ts_chunk(c, "\n\n", 2) != 0)
            return -1;
        return ts_chunk_end(c) == 0 ? 0 : -1;
    case H_DRIP:
        if (ts_printf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         "Content-Length: 64\r\n\r\n") != 0)
            return -1;
        for (int i = 0; i < 64; i++)
            if (ts_write(c, " ", 1) != 0 || ts_sleep(c, 1000) != 0)
                break;
        return -1;
    case H_SSE_SLOW_DRIP:
        if (ts_chunked_head(c, 200, "text/event-stream") != 0)
            return -1;
        for (int i = 0; i < 20; i++)
            if (ts_chunk(c, ":", 1) != 0 || ts_sleep(c, 1500) != 0)
                break;
        return -1;
    case H_ECHO_UNAUTHORIZED:
        return ts_respond(c, 401, "text/html", "<h1>who are you?</h1>", 21);
    }
    return -1;
}

typedef struct fx {
    hostile h;
    ts_server *srv;
    sdkrt_client *client;
} fx;

/* A client with credentials (so that every message can be checked for them) and opts. */
static void fx_open(fx *f, int mode, sdkrt_client_options *o)
{
    memset(&f->h, 0, sizeof f->h);
    f->h.mode = mode;
    ck_assert_int_eq(ts_start(&f->srv, serve, &f->h), 0);
    sdkrt_client_options def = SDKRT_CLIENT_OPTIONS_INIT;
    def.retry.max_attempts = 1; /* one attempt is what these tests mean */
    if (!o)
        o = &def;
    o->base_url = ts_url(f->srv);
    if (o->auth == SDKRT_AUTH_NONE) {
        o->auth = SDKRT_AUTH_BASIC;
        o->username = "opencode";
        o->password = SECRET_PASSWORD;
    }
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&f->client, o, &err), SDKRT_OK);
}

static void fx_close(fx *f)
{
    sdkrt_client_free(f->client);
    ts_stop(f->srv);
}

static void no_secret(const sdkrt_error *err)
{
    const char *msg = sdkrt_error_message(err);
    ck_assert_ptr_nonnull(msg);
    ck_assert_msg(strstr(msg, SECRET_PASSWORD) == NULL, "password in: %s", msg);
    ck_assert_msg(strstr(msg, SECRET_TOKEN) == NULL, "token in: %s", msg);
    size_t len = 0;
    const char *body = sdkrt_error_body(err, &len);
    if (body)
        ck_assert_msg(memmem(body, len, SECRET_PASSWORD, strlen(SECRET_PASSWORD)) == NULL,
                      "password in the kept body");
}

static void expect(const sdkrt_error *err, sdkrt_reason reason, const char *in_message)
{
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(sdkrt_error_reason(err) == reason, "reason %s, want %s: %s",
                  sdkrt_reason_name(sdkrt_error_reason(err)), sdkrt_reason_name(reason),
                  sdkrt_error_message(err));
    if (in_message)
        ck_assert_msg(strstr(sdkrt_error_message(err), in_message) != NULL,
                      "message '%s' lacks '%s'", sdkrt_error_message(err), in_message);
    no_secret(err);
}

/* Send GET path; return the error of a failed call (the caller frees it). */
static sdkrt_error *send_fails(sdkrt_client *client, const char *path,
                               const sdkrt_call_options *call)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", path), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(client, req, call, &resp, &err), SDKRT_ERR);
    ck_assert_ptr_null(resp);
    sdkrt_request_free(req);
    return err;
}

/* ---- size caps ---- */

static void gib_body(int mode)
{
    fx f;
    fx_open(&f, mode, NULL); /* the default cap: 64 MiB */
    long before = max_rss_kib();
    long long t0 = now_ms();
    sdkrt_error *err = send_fails(f.client, "/gib", NULL);
    expect(err, SDKRT_REASON_RESPONSE_TOO_LARGE, "67108864 bytes");
    sdkrt_error_free(err);
    long growth = max_rss_kib() - before;
    for (int i = 0; i < 1000 && !atomic_load(&f.h.write_failed); i++)
        usleep(5000);
    size_t sent = atomic_load(&f.h.sent);
    fprintf(stderr, "%s: refused after %lld ms; the server pushed %zu MiB of 1024; RSS +%ld KiB\n",
            mode == H_GIB_LENGTH ? "1 GiB, Content-Length" : "1 GiB, chunked", now_ms() - t0,
            sent >> 20, growth);
    ck_assert(atomic_load(&f.h.write_failed)); /* the client hung up */
    ck_assert_uint_lt(sent, (size_t)256 << 20);
    /* never more than the cap held (plus libcurl's buffers and the allocator's slack) */
    if (rss_meaningful())
        ck_assert_int_lt(growth, 100 * 1024);
    if (mode == H_GIB_LENGTH) /* refused from the header, before the body */
        ck_assert_uint_lt(sent, (size_t)32 << 20);
    fx_close(&f);
}

START_TEST(gib_chunked_refused_at_cap)
{
    gib_body(H_GIB_CHUNKED);
}
END_TEST

START_TEST(gib_content_length_refused_at_cap)
{
    gib_body(H_GIB_LENGTH);
}
END_TEST

START_TEST(sse_100mb_line_refused_at_event_cap)
{
    fx f;
    fx_open(&f, H_SSE_LONG_LINE, NULL); /* the default event cap: 16 MiB */
    long before = max_rss_kib();
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/event"), SDKRT_OK);
    sdkrt_stream *st = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_stream(f.client, req, NULL, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    expect(err, SDKRT_REASON_EVENT_TOO_LARGE, NULL);
    sdkrt_error_free(err);
    sdkrt_stream_close(st);
    sdkrt_request_free(req);
    long growth = max_rss_kib() - before;
    for (int i = 0; i < 1000 && !atomic_load(&f.h.write_failed); i++)
        usleep(5000);
    size_t sent = atomic_load(&f.h.sent);
    fprintf(stderr, "100 MB SSE line: the server pushed %zu MiB of 95; RSS +%ld KiB\n", sent >> 20,
            growth);
    ck_assert(atomic_load(&f.h.write_failed));
    ck_assert_uint_lt(sent, (size_t)64 << 20);
    if (rss_meaningful())
        ck_assert_int_lt(growth, 64 * 1024);
    fx_close(&f);
}
END_TEST

/* ---- hostile JSON, through the unary response parser and the SSE path ---- */

typedef struct json_case {
    const char *name;
    char *text; /* owned */
    const char *in_message;
} json_case;

static char *deep_json(size_t depth)
{
    char *s = malloc(depth * 2 + 1);
    ck_assert_ptr_nonnull(s);
    memset(s, '[', depth);
    memset(s + depth, ']', depth);
    s[depth * 2] = '\0';
    return s;
}

static size_t json_cases(json_case *c)
{
    size_t n = 0;
    c[n++] = (json_case){"nested 100k deep", deep_json(100000), "maximum parsing depth"};
    c[n++] = (json_case){"integer above int64", strdup("{\"n\":99999999999999999999}"), "too big"};
    c[n++] = (json_case){"integer below int64", strdup("{\"n\":-99999999999999999999}"), "too big"};
    c[n++] = (json_case){"invalid UTF-8", strdup("{\"s\":\"\xc3\x28\"}"), "unable to decode byte"};
    c[n++] = (json_case){"overlong UTF-8", strdup("{\"s\":\"\xc0\xaf\"}"), "unable to decode byte"};
    c[n++] = (json_case){"lone surrogate", strdup("{\"s\":\"\\ud800\"}"), "invalid Unicode"};
    c[n++] =
        (json_case){"duplicate keys", strdup("{\"id\":\"ses_a\",\"id\":\"ses_b\"}"), "duplicate"};
    for (size_t i = 0; i < n; i++)
        ck_assert_ptr_nonnull(c[i].text);
    return n;
}

START_TEST(hostile_json_bodies_malformed)
{
    json_case cases[8];
    size_t n = json_cases(cases);
    fx f;
    fx_open(&f, H_BODY, NULL);
    for (size_t i = 0; i < n; i++) {
        f.h.body = cases[i].text;
        f.h.body_len = strlen(cases[i].text);
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/j"), SDKRT_OK);
        sdkrt_response *resp = NULL;
        sdkrt_error *err = NULL;
        ck_assert_int_eq(sdkrt_client_send(f.client, req, NULL, &resp, &err), SDKRT_OK);
        json_t *j = NULL;
        ck_assert_msg(sdkrt_response_parse_json(resp, &j, &err) == SDKRT_ERR, "%s parsed",
                      cases[i].name);
        ck_assert_ptr_null(j);
        expect(err, SDKRT_REASON_MALFORMED_RESPONSE, cases[i].in_message);
        sdkrt_error_free(err);
        sdkrt_response_free(resp);
        sdkrt_request_free(req);
        free(cases[i].text);
    }
    fx_close(&f);
}
END_TEST

/* The same texts as SSE data: the stream hands them over as bytes (it does not parse JSON); the
 * typed decoder then refuses them. */
START_TEST(hostile_json_events_refused_by_decoder)
{
    json_case cases[8];
    size_t n = json_cases(cases);
    fx f;
    fx_open(&f, H_SSE_BODY, NULL);
    static const sdkrt_jtype t_any = {
        .kind = SDKRT_JK_ANY, .name = "any", .size = sizeof(json_t *)};
    for (size_t i = 0; i < n; i++) {
        f.h.body = cases[i].text;
        f.h.body_len = strlen(cases[i].text);
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/event"), SDKRT_OK);
        sdkrt_stream *st = NULL;
        sdkrt_error *err = NULL;
        ck_assert_int_eq(sdkrt_client_stream(f.client, req, NULL, &st, &err), SDKRT_OK);
        sdkrt_stream_event ev;
        ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_EVENT);
        ck_assert_uint_eq(ev.data_len, strlen(cases[i].text));
        json_t *v = NULL;
        ck_assert_msg(sdkrt_json_decode_text(&t_any, &v, ev.data, ev.data_len, "$", &err) ==
                          SDKRT_ERR,
                      "%s decoded", cases[i].name);
        expect(err, SDKRT_REASON_MALFORMED_RESPONSE, cases[i].in_message);
        sdkrt_error_free(err);
        err = NULL;
        ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_END);
        sdkrt_stream_close(st);
        sdkrt_request_free(req);
        free(cases[i].text);
    }
    fx_close(&f);
}
END_TEST

/* ---- slow servers ---- */

START_TEST(drip_times_out)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.timeout_ms = 1500;
    fx f;
    fx_open(&f, H_DRIP, &o);
    long long t0 = now_ms();
    sdkrt_error *err = send_fails(f.client, "/drip", NULL);
    long long took = now_ms() - t0;
    expect(err, SDKRT_REASON_TIMEOUT, NULL);
    sdkrt_error_free(err);
    ck_assert_int_ge(took, 1400);
    ck_assert_int_lt(took, 15000); /* 64 bytes at one a second would be 64 s */
    fx_close(&f);
}
END_TEST

START_TEST(stream_drip_slower_than_idle_timeout)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.idle_timeout_ms = 1000;
    fx f;
    fx_open(&f, H_SSE_SLOW_DRIP, &o);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/event"), SDKRT_OK);
    sdkrt_stream *st = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_stream(f.client, req, NULL, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    expect(err, SDKRT_REASON_TIMEOUT, "no data for 1000 ms");
    sdkrt_error_free(err);
    sdkrt_stream_close(st);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

/* ---- where the server is not ---- */

START_TEST(unresolvable_host)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.base_url = "http://sdkc-no-such-host.invalid:8080/api"; /* RFC 6761: never resolves */
    o.auth = SDKRT_AUTH_BEARER;
    o.token = SECRET_TOKEN;
    o.connect_timeout_ms = 5000;
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    err = send_fails(c, "/session", NULL);
    expect(err, SDKRT_REASON_TRANSPORT, "GET http://sdkc-no-such-host.invalid:8080/api/session: ");
    sdkrt_error_free(err);
    sdkrt_client_free(c);
}
END_TEST

START_TEST(undeclared_401_keeps_no_credentials)
{
    fx f;
    fx_open(&f, H_ECHO_UNAUTHORIZED, NULL);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.client, req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_response_status(resp), 401);
    ck_assert_int_eq(sdkrt_error_unexpected_status(&err, resp), SDKRT_ERR);
    expect(err, SDKRT_REASON_UNEXPECTED_STATUS, "HTTP 401");
    sdkrt_error_free(err);
    err = NULL;
    json_t *j = NULL;
    ck_assert_int_eq(sdkrt_response_parse_json(resp, &j, &err), SDKRT_ERR);
    expect(err, SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE, "text/html");
    sdkrt_error_free(err);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

/* ---- TLS to a self-signed server (openssl s_server) ---- */

typedef struct tls_fx {
    char dir[64];
    char cert[96];
    pid_t pid;
    int port;
} tls_fx;

static int run(const char *cmd)
{
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static bool accepting(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

static void tls_start(tls_fx *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/sdkrt-tls-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(t->dir));
    snprintf(t->cert, sizeof t->cert, "%s/cert.pem", t->dir);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
             "-addext subjectAltName=IP:127.0.0.1 -keyout %s/key.pem -out %s >/dev/null 2>&1",
             t->dir, t->cert);
    ck_assert_msg(run(cmd) == 0, "openssl could not make a certificate (is openssl installed?)");
    t->port = free_port();
    t->pid = fork();
    ck_assert_int_ge(t->pid, 0);
    if (t->pid == 0) {
        char accept[32], key[96];
        snprintf(accept, sizeof accept, "127.0.0.1:%d", t->port);
        snprintf(key, sizeof key, "%s/key.pem", t->dir);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        execlp("openssl", "openssl", "s_server", "-accept", accept, "-cert", t->cert, "-key", key,
               "-www", "-quiet", (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 200 && !accepting(t->port); i++)
        usleep(25000);
    ck_assert_msg(accepting(t->port), "openssl s_server did not start on port %d", t->port);
}

static void tls_stop(tls_fx *t)
{
    kill(t->pid, SIGTERM);
    waitpid(t->pid, NULL, 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", t->dir);
    run(cmd);
}

static sdkrt_status tls_get(const tls_fx *t, bool verify, const char *ca_file, int *status,
                            sdkrt_error **err)
{
    char url[64];
    snprintf(url, sizeof url, "https://127.0.0.1:%d", t->port);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.base_url = url;
    o.verify_tls = verify;
    o.ca_file = ca_file;
    o.auth = SDKRT_AUTH_BASIC;
    o.username = "opencode";
    o.password = SECRET_PASSWORD;
    o.timeout_ms = 10000;
    sdkrt_client *c = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, err), SDKRT_OK);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_status st = sdkrt_client_send(c, req, NULL, &resp, err);
    *status = resp ? sdkrt_response_status(resp) : 0;
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
    return st;
}

START_TEST(tls_self_signed)
{
    tls_fx t;
    tls_start(&t);
    int status = 0;
    sdkrt_error *err = NULL;
    /* refused by default: verification is on */
    ck_assert_int_eq(tls_get(&t, true, NULL, &status, &err), SDKRT_ERR);
    expect(err, SDKRT_REASON_TRANSPORT, "certificate");
    sdkrt_error_free(err);
    err = NULL;
    /* trusted when its certificate is the CA: verification really checks, and ca_file works */
    ck_assert_msg(tls_get(&t, true, t.cert, &status, &err) == SDKRT_OK, "%s",
                  err ? sdkrt_error_message(err) : "");
    ck_assert_int_eq(status, 200);
    /* and with verification off (the caller's explicit choice) */
    ck_assert_int_eq(tls_get(&t, false, NULL, &status, &err), SDKRT_OK);
    ck_assert_int_eq(status, 200);
    tls_stop(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("caps");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, gib_chunked_refused_at_cap);
    tcase_add_test(tc, gib_content_length_refused_at_cap);
    tcase_add_test(tc, sse_100mb_line_refused_at_event_cap);
    suite_add_tcase(s, tc);
    tc = tcase_create("json");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hostile_json_bodies_malformed);
    tcase_add_test(tc, hostile_json_events_refused_by_decoder);
    suite_add_tcase(s, tc);
    tc = tcase_create("peers");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, drip_times_out);
    tcase_add_test(tc, stream_drip_slower_than_idle_timeout);
    tcase_add_test(tc, unresolvable_host);
    tcase_add_test(tc, undeclared_401_keeps_no_credentials);
    tcase_add_test(tc, tls_self_signed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (sdkrt_global_init() != SDKRT_OK)
        return 1;
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    sdkrt_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
