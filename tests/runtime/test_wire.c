/* test_wire.c - wire fidelity: every OpenAPI parameter style and explode combination (the
 * specification's style table: color = "blue", ["blue","black","brown"], {R:100,G:200,B:150}),
 * percent-encoding and allowReserved, request bodies of every media type (JSON types,
 * form-urlencoded with encodings, multipart with fields and file parts, raw bytes from memory and
 * from a file), and security schemes (API key in header, query and cookie; Basic; Bearer, OAuth2;
 * `security: []`), over the in-memory transport, plus multipart over libcurl against a local
 * server. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdkrt/sdkrt.h"
#include "sdkrt/wire.h"
#include "test_server.h"

/* ---- parameter styles: the specification's table ---- */

typedef struct style_case {
    sdkrt_param_in in;
    sdkrt_param_style style;
    bool explode;
    const char *empty;  /* value "" */
    const char *string; /* "blue" */
    const char *array;  /* ["blue","black","brown"] */
    const char *object; /* {"R":100,"G":200,"B":150} */
} style_case;

/* NULL: the combination is not defined (n/a in the table) and is not checked. Brackets of
 * deepObject, the space of spaceDelimited and the pipe of pipeDelimited are percent-encoded (none
 * may stand in a query unencoded, RFC 3986); label follows RFC 6570 ({.x} joins with ','). */
static const style_case style_table[] = {
    {SDKRT_IN_PATH, SDKRT_STYLE_MATRIX, false, ";color", ";color=blue", ";color=blue,black,brown",
     ";color=R,100,G,200,B,150"},
    {SDKRT_IN_PATH, SDKRT_STYLE_MATRIX, true, ";color", ";color=blue",
     ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"},
    {SDKRT_IN_PATH, SDKRT_STYLE_LABEL, false, ".", ".blue", ".blue,black,brown",
     ".R,100,G,200,B,150"},
    {SDKRT_IN_PATH, SDKRT_STYLE_LABEL, true, ".", ".blue", ".blue.black.brown",
     ".R=100.G=200.B=150"},
    {SDKRT_IN_QUERY, SDKRT_STYLE_FORM, false, "color=", "color=blue", "color=blue,black,brown",
     "color=R,100,G,200,B,150"},
    {SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, "color=", "color=blue",
     "color=blue&color=black&color=brown", "R=100&G=200&B=150"},
    {SDKRT_IN_PATH, SDKRT_STYLE_SIMPLE, false, NULL, "blue", "blue,black,brown",
     "R,100,G,200,B,150"},
    {SDKRT_IN_PATH, SDKRT_STYLE_SIMPLE, true, NULL, "blue", "blue,black,brown",
     "R=100,G=200,B=150"},
    {SDKRT_IN_HEADER, SDKRT_STYLE_SIMPLE, false, "", "blue", "blue,black,brown",
     "R,100,G,200,B,150"},
    {SDKRT_IN_HEADER, SDKRT_STYLE_SIMPLE, true, "", "blue", "blue,black,brown",
     "R=100,G=200,B=150"},
    {SDKRT_IN_QUERY, SDKRT_STYLE_SPACE_DELIMITED, false, NULL, NULL, "color=blue%20black%20brown",
     "color=R%20100%20G%20200%20B%20150"},
    {SDKRT_IN_QUERY, SDKRT_STYLE_PIPE_DELIMITED, false, NULL, NULL, "color=blue%7Cblack%7Cbrown",
     "color=R%7C100%7CG%7C200%7CB%7C150"},
    {SDKRT_IN_QUERY, SDKRT_STYLE_DEEP_OBJECT, true, NULL, NULL,
     "color%5B0%5D=blue&color%5B1%5D=black&color%5B2%5D=brown",
     "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"},
    {SDKRT_IN_COOKIE, SDKRT_STYLE_FORM, false, "color=", "color=blue", "color=blue,black,brown",
     "color=R,100,G,200,B,150"},
    {SDKRT_IN_COOKIE, SDKRT_STYLE_FORM, true, "color=", "color=blue",
     "color=blue; color=black; color=brown", "R=100; G=200; B=150"},
};

static void check_one(const style_case *c, const char *what, const char *json, const char *want)
{
    if (!want)
        return;
    json_error_t je;
    json_t *v = json_loads(json, JSON_DECODE_ANY, &je);
    ck_assert_ptr_nonnull(v);
    sdkrt_param_spec sp = {"color", c->in, c->style, c->explode, false};
    char *out = NULL;
    sdkrt_error *err = NULL;
    sdkrt_status st = sdkrt_param_serialize(&out, &sp, v, &err);
    ck_assert_msg(st == SDKRT_OK, "%s: %s", what, err ? sdkrt_error_message(err) : "?");
    ck_assert_msg(strcmp(out, want) == 0, "style %d in %d explode %d %s: got \"%s\", want \"%s\"",
                  (int)c->style, (int)c->in, (int)c->explode, what, out, want);
    free(out);
    json_decref(v);
}

START_TEST(test_style_table)
{
    for (size_t i = 0; i < sizeof style_table / sizeof style_table[0]; i++) {
        const style_case *c = &style_table[i];
        check_one(c, "empty", "\"\"", c->empty);
        check_one(c, "string", "\"blue\"", c->string);
        check_one(c, "array", "[\"blue\",\"black\",\"brown\"]", c->array);
        check_one(c, "object", "{\"R\":100,\"G\":200,\"B\":150}", c->object);
    }
}
END_TEST

static char *ser(sdkrt_param_in in, sdkrt_param_style style, bool explode, bool reserved,
                 const char *json)
{
    json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(v);
    sdkrt_param_spec sp = {"k y", in, style, explode, reserved};
    char *out = NULL;
    sdkrt_error *err = NULL;
    sdkrt_status st = sdkrt_param_serialize(&out, &sp, v, &err);
    json_decref(v);
    if (st != SDKRT_OK) {
        sdkrt_error_free(err);
        return NULL;
    }
    return out;
}

#define CK_SER(want, ...)                                                                          \
    do {                                                                                           \
        char *got_ = ser(__VA_ARGS__);                                                             \
        ck_assert_ptr_nonnull(got_);                                                               \
        ck_assert_str_eq(got_, want);                                                              \
        free(got_);                                                                                \
    } while (0)

START_TEST(test_percent_encoding)
{
    /* values and names are encoded; the style's delimiters are not */
    CK_SER("k%20y=a%2Cb,c%26d", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, false, false,
           "[\"a,b\",\"c&d\"]");
    CK_SER("k%20y=%C3%A9%2F%3F%23", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, false, "\"é/?#\"");
    /* allowReserved keeps reserved characters and %XX, never '#' */
    CK_SER("k%20y=a/b?c:d@e!$&'()*+,;=%41%23%25zz", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, true,
           "\"a/b?c:d@e!$&'()*+,;=%41#%zz\"");
    /* paths: one segment */
    CK_SER("a%2Fb,..", SDKRT_IN_PATH, SDKRT_STYLE_SIMPLE, false, false, "[\"a/b\",\"..\"]");
    CK_SER(";k%20y=x%3By", SDKRT_IN_PATH, SDKRT_STYLE_MATRIX, false, false, "\"x;y\"");
    /* headers: not encoded */
    CK_SER("a b,é", SDKRT_IN_HEADER, SDKRT_STYLE_SIMPLE, false, false, "[\"a b\",\"é\"]");
    /* scalars: integers, whole reals, fractions, booleans; null is undefined */
    CK_SER("k%20y=1,2.5,100,true,false", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, false, false,
           "[1,2.5,100.0,true,false]");
    CK_SER("", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, false, "null");
    CK_SER("", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, false, "[]");
    /* deepObject: nested objects and arrays */
    CK_SER("k%20y%5Ba%5D%5Bb%5D=1&k%20y%5Bc%5D%5B0%5D=x&k%20y%5Bc%5D%5B1%5D=y", SDKRT_IN_QUERY,
           SDKRT_STYLE_DEEP_OBJECT, true, false,
           "{\"a\":{\"b\":1},\"c\":[\"x\",\"y\"],\"n\":null}");
    /* deepObject arrays: by index, nulls left out */
    CK_SER("k%20y%5B0%5D=a&k%20y%5B1%5D=b", SDKRT_IN_QUERY, SDKRT_STYLE_DEEP_OBJECT, true, false,
           "[\"a\",null,\"b\"]");
    CK_SER("k%20y%5B0%5D%5Bprice%5D=p1&k%20y%5B0%5D%5Bn%5D=2&k%20y%5B1%5D%5Bprice%5D=p2&"
           "k%20y%5B2%5D%5B0%5D=x",
           SDKRT_IN_QUERY, SDKRT_STYLE_DEEP_OBJECT, true, false,
           "[{\"price\":\"p1\",\"n\":2},{\"price\":\"p2\"},[\"x\"]]");
    /* nested values elsewhere: compact JSON text */
    CK_SER("k%20y=%7B%22a%22%3A1%7D", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, false, "[{\"a\":1}]");
    /* styles a location does not define */
    ck_assert_ptr_null(ser(SDKRT_IN_HEADER, SDKRT_STYLE_LABEL, false, false, "\"x\""));
    ck_assert_ptr_null(ser(SDKRT_IN_PATH, SDKRT_STYLE_DEEP_OBJECT, true, false, "{}"));
    ck_assert_ptr_null(ser(SDKRT_IN_PATH, SDKRT_STYLE_FORM, true, false, "\"x\""));
}
END_TEST

/* ---- a recording in-memory server ---- */

typedef struct seen {
    char target[2048];
    char headers[4096];
    char body[8192];
    size_t body_len;
    int calls;
} seen;

static int record_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    seen *s = ud;
    s->calls++;
    snprintf(s->target, sizeof s->target, "%s", req->target);
    s->headers[0] = '\0';
    for (size_t i = 0; i < req->header_count; i++) {
        size_t used = strlen(s->headers);
        snprintf(s->headers + used, sizeof s->headers - used, "%s: %s\n", req->headers[i].name,
                 req->headers[i].value);
    }
    s->body_len = req->body_len < sizeof s->body - 1 ? req->body_len : sizeof s->body - 1;
    if (req->body)
        memcpy(s->body, req->body, s->body_len);
    s->body[s->body_len] = '\0';
    sdkrt_memory_response_set_status(resp, 401);
    sdkrt_memory_response_add_header(resp, "Content-Type", "text/plain");
    return 0;
}

typedef struct fixture {
    seen s;
    sdkrt_transport *t;
    sdkrt_client *c;
} fixture;

static void fx_open(fixture *f, sdkrt_client_options *o)
{
    memset(&f->s, 0, sizeof f->s);
    ck_assert_int_eq(sdkrt_memory_transport_new(&f->t, record_handler, &f->s), SDKRT_OK);
    o->base_url = "http://h.test/base";
    o->transport = f->t;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&f->c, o, &err), SDKRT_OK);
}

static void fx_close(fixture *f)
{
    sdkrt_client_free(f->c);
    sdkrt_transport_free(f->t);
}

static void send_ok(fixture *f, sdkrt_request *req)
{
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    sdkrt_status st = sdkrt_client_send(f->c, req, NULL, &resp, &err);
    ck_assert_msg(st == SDKRT_OK, "send: %s", err ? sdkrt_error_message(err) : "?");
    sdkrt_response_free(resp);
}

static json_t *J(const char *text)
{
    json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(v);
    return v;
}

static void add(sdkrt_request *req, const char *name, sdkrt_param_in in, sdkrt_param_style st,
                bool explode, const char *json)
{
    json_t *v = J(json);
    sdkrt_param_spec sp = {name, in, st, explode, false};
    sdkrt_error *err = NULL;
    ck_assert_msg(sdkrt_request_add_param(req, &sp, v, &err) == SDKRT_OK, "%s",
                  err ? sdkrt_error_message(err) : "?");
    json_decref(v);
}

START_TEST(test_params_on_request)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    fx_open(&f, &o);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/items/{ids}/{m}/{one}"), SDKRT_OK);
    add(req, "ids", SDKRT_IN_PATH, SDKRT_STYLE_LABEL, true, "[1,2]");
    add(req, "m", SDKRT_IN_PATH, SDKRT_STYLE_MATRIX, true, "{\"a\":\"x y\"}");
    add(req, "one", SDKRT_IN_PATH, SDKRT_STYLE_SIMPLE, false, "[\"a/b\",\"c\"]");
    add(req, "tags", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, false, "[\"x\",\"y\"]");
    add(req, "f", SDKRT_IN_QUERY, SDKRT_STYLE_DEEP_OBJECT, true, "{\"q\":\"1\"}");
    add(req, "absent", SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, "null");
    add(req, "X-Ids", SDKRT_IN_HEADER, SDKRT_STYLE_SIMPLE, false, "[3,4]");
    add(req, "session", SDKRT_IN_COOKIE, SDKRT_STYLE_FORM, true, "\"a b\"");
    add(req, "theme", SDKRT_IN_COOKIE, SDKRT_STYLE_FORM, false, "[\"dark\",\"wide\"]");
    send_ok(&f, req);
    ck_assert_str_eq(f.s.target, "/base/items/.1.2/;a=x%20y/a%2Fb,c?tags=x,y&f%5Bq%5D=1");
    ck_assert_ptr_nonnull(strstr(f.s.headers, "X-Ids: 3,4\n"));
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Cookie: session=a%20b; theme=dark,wide\n"));
    sdkrt_request_free(req);

    /* a dot segment or an empty text is refused, also when produced by a style */
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x/{p}"), SDKRT_OK);
    json_t *v = J("\"\"");
    sdkrt_param_spec sp = {"p", SDKRT_IN_PATH, SDKRT_STYLE_LABEL, false, false};
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_request_add_param(req, &sp, v, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "dot segment"));
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "GET /x/{p}: "));
    sdkrt_error_free(err);
    err = NULL;
    json_decref(v);
    /* a style its location does not have names the call and the parameter, once */
    v = J("1");
    sdkrt_param_spec sq = {"q", SDKRT_IN_QUERY, SDKRT_STYLE_LABEL, true, false};
    ck_assert_int_eq(sdkrt_request_add_param(req, &sq, v, &err), SDKRT_ERR);
    ck_assert_msg(strstr(sdkrt_error_message(err), "GET /x/{p}: parameter q: style"), "%s",
                  sdkrt_error_message(err));
    sdkrt_error_free(err);
    json_decref(v);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

/* ---- bodies ---- */

START_TEST(test_json_media_types)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    fx_open(&f, &o);
    ck_assert(sdkrt_media_is_json("application/json"));
    ck_assert(sdkrt_media_is_json("Application/JSON; charset=utf-8"));
    ck_assert(sdkrt_media_is_json("text/json"));
    ck_assert(sdkrt_media_is_json("application/merge-patch+json"));
    ck_assert(!sdkrt_media_is_json("application/jsonl"));
    ck_assert(!sdkrt_media_is_json("text/plain"));
    ck_assert(!sdkrt_media_is_json(NULL));
    const char *types[] = {"application/vnd.api+json", "text/json"};
    for (size_t i = 0; i < 2; i++) {
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/j"), SDKRT_OK);
        json_t *v = J("{\"a\":[1,\"x\"]}");
        sdkrt_error *err = NULL;
        ck_assert_int_eq(sdkrt_request_set_body_as(req, types[i], v, NULL, 0, NULL, NULL, 0, &err),
                         SDKRT_OK);
        json_decref(v);
        send_ok(&f, req);
        ck_assert_str_eq(f.s.body, "{\"a\":[1,\"x\"]}");
        char want[128];
        snprintf(want, sizeof want, "Content-Type: %s\n", types[i]);
        ck_assert_ptr_nonnull(strstr(f.s.headers, want));
        sdkrt_request_free(req);
    }
    fx_close(&f);
}
END_TEST

START_TEST(test_form_body)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    fx_open(&f, &o);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/v1/customers"), SDKRT_OK);
    json_t *v =
        J("{\"email\":\"a+b@x.io\",\"name\":\"Jo Doe\",\"tags\":[\"a\",\"b\"],"
          "\"ids\":[1,2],\"metadata\":{\"k\":\"v\",\"n\":1},\"address\":{\"city\":\"Oslo\"},"
          "\"meta\":{\"x\":true},\"skip\":null,\"amount\":12.5}");
    sdkrt_body_encoding enc[] = {
        {"ids", NULL, SDKRT_STYLE_FORM, false, false, true},
        {"metadata", NULL, SDKRT_STYLE_DEEP_OBJECT, true, false, true},
        {"meta", "application/json", SDKRT_STYLE_FORM, true, false, false},
        {"tags", NULL, SDKRT_STYLE_PIPE_DELIMITED, false, false, true},
    };
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_request_set_body_as(req, "application/x-www-form-urlencoded", v, enc, 4,
                                               NULL, NULL, 0, &err),
                     SDKRT_OK);
    json_decref(v);
    send_ok(&f, req);
    ck_assert_str_eq(f.s.body, "email=a%2Bb%40x.io&name=Jo%20Doe&tags=a%7Cb&ids=1,2&"
                               "metadata%5Bk%5D=v&metadata%5Bn%5D=1&city=Oslo&"
                               "meta=%7B%22x%22%3Atrue%7D&amount=12.5");
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Content-Type: application/x-www-form-urlencoded\n"));
    sdkrt_request_free(req);

    /* Stripe: expand and metadata declared deepObject; a style makes contentType ignored */
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/v1/customers"), SDKRT_OK);
    v = J("{\"expand\":[\"sources\",\"tax\"],\"metadata\":{\"order\":\"6735\"},"
          "\"items\":[{\"price\":\"price_1\",\"quantity\":2}],\"j\":{\"a\":1}}");
    sdkrt_body_encoding stripe[] = {
        {"expand", NULL, SDKRT_STYLE_DEEP_OBJECT, true, false, true},
        {"metadata", NULL, SDKRT_STYLE_DEEP_OBJECT, true, false, true},
        {"items", NULL, SDKRT_STYLE_DEEP_OBJECT, true, false, true},
        {"j", "application/json", SDKRT_STYLE_DEEP_OBJECT, true, false, true},
    };
    ck_assert_int_eq(sdkrt_request_set_form_body(req, v, stripe, 4, &err), SDKRT_OK);
    json_decref(v);
    send_ok(&f, req);
    ck_assert_str_eq(f.s.body, "expand%5B0%5D=sources&expand%5B1%5D=tax&metadata%5Border%5D=6735&"
                               "items%5B0%5D%5Bprice%5D=price_1&items%5B0%5D%5Bquantity%5D=2&"
                               "j%5Ba%5D=1");
    sdkrt_request_free(req);

    /* not an object */
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/x"), SDKRT_OK);
    v = J("[1]");
    ck_assert_int_eq(sdkrt_request_set_form_body(req, v, NULL, 0, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
    json_decref(v);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

static char *temp_file(const char *content)
{
    char *path = strdup("/tmp/sdkrt-wire-XXXXXX");
    ck_assert_ptr_nonnull(path);
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, content, strlen(content)), (ssize_t)strlen(content));
    close(fd);
    return path;
}

/* Multipart properties with an explicit style (OpenAPI 3.1): text parts named as the style makes
 * them in a form body, decoded; contentType then ignored. Without a style an object is one JSON
 * part (the Encoding Object's default contentType). */
START_TEST(test_multipart_styles)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    fx_open(&f, &o);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/v1/files"), SDKRT_OK);
    sdkrt_multipart *mp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_multipart_new(&mp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_set_boundary(mp, "B", &err), SDKRT_OK);
    json_t *v = J("{\"purpose\":\"batch\",\"expires_after\":{\"anchor\":\"created_at\","
                  "\"seconds\":3600},\"tags\":[\"a b\",\"c&d=e\"],\"pipes\":[1,2],"
                  "\"plain\":{\"x\":[1]},\"flat\":{\"R\":100,\"G\":200}}");
    sdkrt_body_encoding enc[] = {
        {"expires_after", "application/json", SDKRT_STYLE_DEEP_OBJECT, true, false, true},
        {"tags", NULL, SDKRT_STYLE_FORM, false, false, true},
        {"pipes", NULL, SDKRT_STYLE_PIPE_DELIMITED, false, false, true},
        {"flat", NULL, SDKRT_STYLE_FORM, true, false, true},
    };
    ck_assert_int_eq(sdkrt_multipart_add_json(mp, v, enc, 4, NULL, NULL, 0, &err), SDKRT_OK);
    json_decref(v);
    ck_assert_int_eq(sdkrt_request_set_multipart_body(req, mp), SDKRT_OK);
    send_ok(&f, req);
#define PART(name, value)                                                                          \
    "--B\r\nContent-Disposition: form-data; name=\"" name "\"\r\n\r\n" value "\r\n"
    ck_assert_str_eq(f.s.body,
                     PART("purpose", "batch") PART("expires_after[anchor]", "created_at")
                         PART("expires_after[seconds]", "3600") PART("tags", "a b,c&d=e")
                             PART("pipes", "1|2") "--B\r\nContent-Disposition: form-data; "
                                                  "name=\"plain\"\r\nContent-Type: "
                                                  "application/json\r\n\r\n{\"x\":[1]}\r\n" PART(
                                                      "R", "100") PART("G", "200") "--B--\r\n");
#undef PART
    sdkrt_request_free(req);
    /* a style multipart does not define */
    ck_assert_int_eq(sdkrt_multipart_new(&mp, &err), SDKRT_OK);
    v = J("{\"o\":{\"a\":1}}");
    sdkrt_body_encoding bad = {"o", NULL, SDKRT_STYLE_MATRIX, false, false, true};
    ck_assert_int_eq(sdkrt_multipart_add_json(mp, v, &bad, 1, NULL, NULL, 0, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
    json_decref(v);
    sdkrt_multipart_free(mp);
    fx_close(&f);
}
END_TEST

START_TEST(test_multipart_memory)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    fx_open(&f, &o);
    char *path = temp_file("file bytes\n");
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/upload"), SDKRT_OK);
    sdkrt_multipart *mp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_multipart_new(&mp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_set_boundary(mp, "XyZ", &err), SDKRT_OK);
    json_t *v = J("{\"title\":\"hi\",\"n\":3,\"meta\":{\"a\":1},\"tags\":[\"x\",\"y\"],"
                  "\"file\":\"ignored\",\"none\":null}");
    sdkrt_body_encoding enc[] = {{"title", "text/plain; charset=utf-8", 0, false, false, false},
                                 {"file", "image/png", 0, false, false, false}};
    const char *names[] = {"file", "extra"};
    sdkrt_blob fileblob = SDKRT_BLOB_INIT, memblob = SDKRT_BLOB_INIT;
    fileblob.path = path;
    memblob.data = "\x00\x01\x02";
    memblob.len = 3;
    memblob.filename = "raw.bin";
    const sdkrt_blob *blobs[] = {&fileblob, &memblob};
    ck_assert_int_eq(sdkrt_multipart_add_json(mp, v, enc, 2, names, blobs, 2, &err), SDKRT_OK);
    json_decref(v);
    ck_assert_uint_eq(sdkrt_multipart_count(mp), 7);
    ck_assert_int_eq(sdkrt_request_set_multipart_body(req, mp), SDKRT_OK);
    send_ok(&f, req);
    const char *base = strrchr(path, '/') + 1;
    char want[2048];
    snprintf(want, sizeof want,
             "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n"
             "Content-Type: text/plain; charset=utf-8\r\n\r\nhi\r\n"
             "--XyZ\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n3\r\n"
             "--XyZ\r\nContent-Disposition: form-data; name=\"meta\"\r\n"
             "Content-Type: application/json\r\n\r\n{\"a\":1}\r\n"
             "--XyZ\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nx\r\n"
             "--XyZ\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\ny\r\n"
             "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
             "Content-Type: image/png\r\n\r\nfile bytes\n\r\n"
             "--XyZ\r\nContent-Disposition: form-data; name=\"extra\"; filename=\"raw.bin\"\r\n"
             "Content-Type: application/octet-stream\r\n\r\n",
             base);
    size_t wl = strlen(want);
    ck_assert_uint_eq(f.s.body_len, wl + 3 + strlen("\r\n--XyZ--\r\n"));
    ck_assert(memcmp(f.s.body, want, wl) == 0);
    ck_assert(memcmp(f.s.body + wl, "\x00\x01\x02\r\n--XyZ--\r\n", 3 + 11) == 0);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Content-Type: multipart/form-data; boundary=XyZ\n"));

    /* a random boundary differs between bodies and never occurs in a part */
    sdkrt_multipart *m2 = NULL;
    ck_assert_int_eq(sdkrt_multipart_new(&m2, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_add_field(m2, "a", "b", NULL, &err), SDKRT_OK);
    char *b1 = NULL, *b2 = NULL, *ct1 = NULL, *ct2 = NULL;
    size_t l1, l2;
    ck_assert_int_eq(sdkrt_multipart_serialize(m2, &b1, &l1, &ct1, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_serialize(m2, &b2, &l2, &ct2, &err), SDKRT_OK);
    ck_assert_str_ne(ct1, ct2);
    ck_assert_ptr_nonnull(strstr(ct1, "multipart/form-data; boundary=sdkrt-"));
    free(b1);
    free(b2);
    free(ct1);
    free(ct2);
    /* a fixed boundary that a part holds is refused */
    sdkrt_multipart *m3 = NULL;
    ck_assert_int_eq(sdkrt_multipart_new(&m3, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_set_boundary(m3, "XyZ", &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_add_field(m3, "a", "x\r\n--XyZ--", NULL, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_serialize(m3, &b1, &l1, &ct1, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    sdkrt_multipart_free(m3);
    /* hostile names and a missing file */
    ck_assert_int_eq(sdkrt_multipart_add_field(m2, "a\"\r\nX: y", "v", NULL, &err), SDKRT_ERR);
    sdkrt_error_clear(&err);
    sdkrt_blob missing = SDKRT_BLOB_INIT;
    missing.path = "/nonexistent/sdkrt/file";
    ck_assert_int_eq(sdkrt_multipart_add_blob(m2, "f", &missing, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_multipart_body(req, m2), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "cannot open /nonexistent/sdkrt/file"));
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    unlink(path);
    free(path);
    fx_close(&f);
}
END_TEST

START_TEST(test_raw_bodies)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    fx_open(&f, &o);
    sdkrt_error *err = NULL;
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "PUT", "/blob"), SDKRT_OK);
    sdkrt_blob b = SDKRT_BLOB_INIT;
    b.data = "\x00\xff";
    b.len = 2;
    ck_assert_int_eq(sdkrt_request_set_blob_body(req, "application/octet-stream", &b, &err),
                     SDKRT_OK);
    send_ok(&f, req);
    ck_assert_uint_eq(f.s.body_len, 2);
    ck_assert(memcmp(f.s.body, "\x00\xff", 2) == 0);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Content-Type: application/octet-stream\n"));
    /* from a file, with the blob's own content type */
    char *path = temp_file("<a>1</a>");
    sdkrt_blob fb = SDKRT_BLOB_INIT;
    fb.path = path;
    fb.content_type = "application/xml";
    ck_assert_int_eq(sdkrt_request_set_blob_body(req, "application/octet-stream", &fb, &err),
                     SDKRT_OK);
    send_ok(&f, req);
    ck_assert_str_eq(f.s.body, "<a>1</a>");
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Content-Type: application/xml\n"));
    /* a JSON string sent as text/plain; other values as JSON text */
    json_t *v = J("\"line one\\nline two\"");
    ck_assert_int_eq(sdkrt_request_set_body_as(req, "text/plain", v, NULL, 0, NULL, NULL, 0, &err),
                     SDKRT_OK);
    json_decref(v);
    send_ok(&f, req);
    ck_assert_str_eq(f.s.body, "line one\nline two");
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Content-Type: text/plain\n"));
    /* both data and a path, or a missing file */
    fb.data = "x";
    ck_assert_int_eq(sdkrt_request_set_blob_body(req, "text/plain", &fb, &err), SDKRT_ERR);
    sdkrt_error_clear(&err);
    fb.data = NULL;
    fb.path = "/nonexistent/sdkrt";
    ck_assert_int_eq(sdkrt_request_set_blob_body(req, "text/plain", &fb, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    sdkrt_request_free(req);
    unlink(path);
    free(path);
    fx_close(&f);
}
END_TEST

/* ---- security ---- */

static const sdkrt_security_scheme schemes[] = {
    {"api_header", SDKRT_SECURITY_API_KEY, SDKRT_IN_HEADER, "X-API-Key", false},
    {"api_query", SDKRT_SECURITY_API_KEY, SDKRT_IN_QUERY, "api_key", false},
    {"api_cookie", SDKRT_SECURITY_API_KEY, SDKRT_IN_COOKIE, "sid", false},
    {"basic", SDKRT_SECURITY_HTTP_BASIC, SDKRT_IN_HEADER, NULL, false},
    {"oauth", SDKRT_SECURITY_HTTP_BEARER, SDKRT_IN_HEADER, NULL, false},
};

/* Send GET /s?x=1 with the given schemes (n == (size_t)-1: security not set). */
static void send_sec(fixture *f, const sdkrt_security_scheme *s, size_t n)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/s"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query(req, "x", "1"), SDKRT_OK);
    if (n != (size_t)-1)
        ck_assert_int_eq(sdkrt_request_set_security(req, s, n), SDKRT_OK);
    send_ok(f, req);
    sdkrt_request_free(req);
}

START_TEST(test_security_schemes)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    sdkrt_credential creds[] = {
        {"api_header", NULL, NULL, "hkey"}, {"api_query", NULL, NULL, "q key&"},
        {"api_cookie", NULL, NULL, "ckey"}, {"basic", "user", "pa:ss", NULL},
        {"oauth", NULL, NULL, "tok-123"},
    };
    o.credentials = creds;
    o.credential_count = 5;
    o.auth = SDKRT_AUTH_BEARER;
    o.token = "legacy";
    fx_open(&f, &o);
    send_sec(&f, &schemes[0], 1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "X-API-Key: hkey\n"));
    ck_assert_ptr_null(strstr(f.s.headers, "Authorization"));
    send_sec(&f, &schemes[1], 1);
    ck_assert_str_eq(f.s.target, "/base/s?x=1&api_key=q%20key%26");
    send_sec(&f, &schemes[2], 1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Cookie: sid=ckey\n"));
    send_sec(&f, &schemes[3], 1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Authorization: Basic dXNlcjpwYTpzcw==\n"));
    send_sec(&f, &schemes[4], 1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Authorization: Bearer tok-123\n"));
    /* security: [] sends nothing, not even the client's auth */
    send_sec(&f, schemes, 0);
    ck_assert_ptr_null(strstr(f.s.headers, "Authorization"));
    ck_assert_str_eq(f.s.target, "/base/s?x=1");
    /* no security on the request: the client's auth, as before */
    send_sec(&f, NULL, (size_t)-1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Authorization: Bearer legacy\n"));
    fx_close(&f);

    /* credentials without a scheme name fit by kind; the first fitting scheme wins; `auth`
     * fits a scheme of its kind */
    sdkrt_client_options o2 = SDKRT_CLIENT_OPTIONS_INIT;
    o2.retry.max_attempts = 1; /* one attempt is what these tests mean */
    sdkrt_credential anon[] = {{NULL, NULL, NULL, "any-token"}};
    o2.credentials = anon;
    o2.credential_count = 1;
    fx_open(&f, &o2);
    send_sec(&f, &schemes[3], 2); /* basic (no fitting credential), then oauth */
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Authorization: Bearer any-token\n"));
    fx_close(&f);
    sdkrt_client_options o3 = SDKRT_CLIENT_OPTIONS_INIT;
    o3.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o3.auth = SDKRT_AUTH_BASIC;
    o3.username = "opencode";
    o3.password = "pw";
    fx_open(&f, &o3);
    send_sec(&f, &schemes[3], 1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Authorization: Basic b3BlbmNvZGU6cHc=\n"));
    send_sec(&f, &schemes[4], 1); /* bearer wanted, only basic configured: nothing sent */
    ck_assert_ptr_null(strstr(f.s.headers, "Authorization"));
    fx_close(&f);

    /* bad credentials are refused without showing them */
    sdkrt_client_options o4 = SDKRT_CLIENT_OPTIONS_INIT;
    o4.retry.max_attempts = 1; /* one attempt is what these tests mean */
    sdkrt_credential bad[] = {{"x", NULL, NULL, "sec\r\nret"}};
    o4.credentials = bad;
    o4.credential_count = 1;
    o4.base_url = "http://h.test";
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o4, &err), SDKRT_ERR);
    ck_assert_ptr_null(strstr(sdkrt_error_message(err), "sec"));
    sdkrt_error_free(err);
    err = NULL;

    /* API_KEY: its header where the request names no scheme (a contract without schemes), an
     * apiKey scheme's own place where it does, nothing for other kinds or security: [] */
    sdkrt_client_options o5 = SDKRT_CLIENT_OPTIONS_INIT;
    o5.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o5.auth = SDKRT_AUTH_API_KEY;
    o5.token = "k-5";
    o5.api_key_header = "X-Token";
    fx_open(&f, &o5);
    send_sec(&f, NULL, (size_t)-1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "X-Token: k-5\n"));
    ck_assert_ptr_null(strstr(f.s.headers, "Authorization"));
    send_sec(&f, &schemes[1], 1);
    ck_assert_str_eq(f.s.target, "/base/s?x=1&api_key=k-5");
    ck_assert_ptr_null(strstr(f.s.headers, "X-Token"));
    send_sec(&f, &schemes[4], 1);
    ck_assert_ptr_null(strstr(f.s.headers, "k-5"));
    send_sec(&f, schemes, 0);
    ck_assert_ptr_null(strstr(f.s.headers, "k-5"));
    fx_close(&f);
    /* without api_key_header the key still fits a declared apiKey scheme; a request that names
     * no scheme fails with a message that says what is missing, never sending it unauthenticated */
    o5.api_key_header = NULL;
    fx_open(&f, &o5);
    send_sec(&f, &schemes[0], 1);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "X-API-Key: k-5\n"));
    send_sec(&f, &schemes[1], 1);
    ck_assert_str_eq(f.s.target, "/base/s?x=1&api_key=k-5");
    sdkrt_request *r = NULL;
    ck_assert_int_eq(sdkrt_request_new(&r, "GET", "/s"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, r, NULL, &resp, &err), SDKRT_ERR);
    ck_assert_ptr_null(resp);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "GET /s"));
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "api_key_header"));
    ck_assert_ptr_null(strstr(sdkrt_error_message(err), "k-5"));
    sdkrt_error_free(err);
    err = NULL;
    sdkrt_request_free(r);
    fx_close(&f);
    o5.api_key_header = "Bad Header"; /* a header name with a space is refused */
    o5.base_url = "http://h.test";
    ck_assert_int_eq(sdkrt_client_new(&c, &o5, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_null(strstr(sdkrt_error_message(err), "k-5"));
    sdkrt_error_free(err);
}
END_TEST

/* A huge path parameter: an over-long URL is refused as INVALID_ARGUMENT naming the operation,
 * and messages quote a long URL shortened, never the whole of it. */
START_TEST(test_huge_url)
{
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    fx_open(&f, &o);
    size_t n = (size_t)SDKRT_MAX_URL_BYTES + 1;
    char *v = malloc(n + 1);
    ck_assert_ptr_nonnull(v);
    memset(v, 'a', n);
    v[n] = '\0';
    sdkrt_request *r = NULL;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_request_new(&r, "GET", "/x/{id}"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_path_param(r, "id", v), SDKRT_OK);
    ck_assert_int_eq(sdkrt_client_send(f.c, r, NULL, &resp, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "GET /x/{id}"));
    ck_assert_uint_lt(strlen(sdkrt_error_message(err)), 400);
    ck_assert_int_eq(f.s.calls, 0);
    sdkrt_error_free(err);
    err = NULL;
    sdkrt_request_free(r);

    /* 100 kB fits, but a message about it shows 200 bytes of the URL and its size */
    v[100000] = '\0';
    ck_assert_int_eq(sdkrt_request_new(&r, "GET", "/x/{id}"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_path_param(r, "id", v), SDKRT_OK);
    sdkrt_header bad = {"Bad Name", "v"};
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.headers = &bad;
    call.header_count = 1;
    ck_assert_int_eq(sdkrt_client_send(f.c, r, &call, &resp, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "GET http://h.test/base/x/aaa"));
    ck_assert_msg(strstr(sdkrt_error_message(err), "... (100021 bytes)"), "%s",
                  sdkrt_error_message(err));
    ck_assert_uint_lt(strlen(sdkrt_error_message(err)), 400);
    sdkrt_error_free(err);
    sdkrt_request_free(r);
    free(v);
    fx_close(&f);
}
END_TEST

/* A requirement of several schemes sends all of them, or is passed over for the next one. */
START_TEST(test_security_requirements_together)
{
    /* [oauth] or [api_header + api_query + api_cookie + client id header] */
    static const sdkrt_security_scheme reqs[] = {
        {"oauth", SDKRT_SECURITY_HTTP_BEARER, SDKRT_IN_HEADER, NULL, false},
        {"api_header", SDKRT_SECURITY_API_KEY, SDKRT_IN_HEADER, "X-API-Key", false},
        {"api_query", SDKRT_SECURITY_API_KEY, SDKRT_IN_QUERY, "api_key", true},
        {"api_cookie", SDKRT_SECURITY_API_KEY, SDKRT_IN_COOKIE, "sid", true},
        {"client_id", SDKRT_SECURITY_API_KEY, SDKRT_IN_HEADER, "X-Client-Id", true},
    };
    fixture f;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    sdkrt_credential creds[] = {
        {"api_header", NULL, NULL, "hkey"},
        {"api_query", NULL, NULL, "qkey"},
        {"api_cookie", NULL, NULL, "ckey"},
        {"client_id", NULL, NULL, "cid"},
    };
    o.credentials = creds;
    o.credential_count = 4;
    fx_open(&f, &o);
    send_sec(&f, reqs, 5);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "X-API-Key: hkey\n"));
    ck_assert_ptr_nonnull(strstr(f.s.headers, "X-Client-Id: cid\n"));
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Cookie: sid=ckey\n"));
    ck_assert_str_eq(f.s.target, "/base/s?x=1&api_key=qkey");
    ck_assert_ptr_null(strstr(f.s.headers, "Authorization"));
    fx_close(&f);

    /* one credential of the run missing: the whole requirement is passed over */
    o.credential_count = 3;
    fx_open(&f, &o);
    send_sec(&f, reqs, 5);
    ck_assert_ptr_null(strstr(f.s.headers, "X-API-Key"));
    ck_assert_ptr_null(strstr(f.s.headers, "Cookie"));
    ck_assert_str_eq(f.s.target, "/base/s?x=1");
    fx_close(&f);

    /* ... for a later requirement that fits; two query keys join with & */
    static const sdkrt_security_scheme two_queries[] = {
        {"client_id", SDKRT_SECURITY_API_KEY, SDKRT_IN_HEADER, "X-Client-Id", false},
        {"api_query", SDKRT_SECURITY_API_KEY, SDKRT_IN_QUERY, "api_key", true},
        {"api_query", SDKRT_SECURITY_API_KEY, SDKRT_IN_QUERY, "api_key", false},
        {"api_cookie", SDKRT_SECURITY_API_KEY, SDKRT_IN_QUERY, "k2", true},
    };
    fx_open(&f, &o);
    send_sec(&f, two_queries, 4);
    ck_assert_ptr_null(strstr(f.s.headers, "X-Client-Id"));
    ck_assert_str_eq(f.s.target, "/base/s?x=1&api_key=qkey&k2=ckey");
    fx_close(&f);
}
END_TEST

static int refuse_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)ud;
    (void)req;
    (void)resp;
    return -1; /* connection refused */
}

START_TEST(test_security_not_in_messages)
{
    sdkrt_transport *t = NULL;
    ck_assert_int_eq(sdkrt_memory_transport_new(&t, refuse_handler, NULL), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    sdkrt_credential creds[] = {{"api_query", NULL, NULL, "TOPSECRET"}};
    o.credentials = creds;
    o.credential_count = 1;
    o.base_url = "http://h.test";
    o.transport = t;
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/s"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_security(req, &schemes[1], 1), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(c, req, NULL, &resp, &err), SDKRT_ERR);
    ck_assert_ptr_null(strstr(sdkrt_error_message(err), "TOPSECRET"));
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "api_key=REDACTED"));
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
    sdkrt_transport_free(t);
}
END_TEST

/* ---- multipart over libcurl (curl_mime) against a local server ---- */

typedef struct got {
    char ct[256];
    char body[4096];
    size_t len;
} got;

static int echo_handler(void *ud, const ts_request *req, ts_conn *c)
{
    got *g = ud;
    ts_header(req, "Content-Type", g->ct, sizeof g->ct);
    g->len = req->body_len < sizeof g->body - 1 ? req->body_len : sizeof g->body - 1;
    memcpy(g->body, req->body, g->len);
    g->body[g->len] = '\0';
    ts_respond(c, 204, NULL, "", 0);
    return 0;
}

START_TEST(test_multipart_curl)
{
    ck_assert_int_eq(sdkrt_global_init(), SDKRT_OK);
    got g;
    memset(&g, 0, sizeof g);
    ts_server *srv = NULL;
    ck_assert_int_eq(ts_start(&srv, echo_handler, &g), 0);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.base_url = ts_url(srv);
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    char *path = temp_file("from disk");
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/up"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_header(req, "Content-Type", "application/json"), SDKRT_OK);
    sdkrt_multipart *mp = NULL;
    ck_assert_int_eq(sdkrt_multipart_new(&mp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_add_field(mp, "purpose", "fine-tune", NULL, &err), SDKRT_OK);
    sdkrt_blob fb = SDKRT_BLOB_INIT;
    fb.path = path;
    fb.filename = "data.jsonl";
    fb.content_type = "application/jsonl";
    ck_assert_int_eq(sdkrt_multipart_add_blob(mp, "file", &fb, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_multipart_body(req, mp), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(c, req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_response_status(resp), 204);
    sdkrt_response_free(resp);
    ck_assert_ptr_nonnull(strstr(g.ct, "multipart/form-data; boundary="));
    const char *boundary = strstr(g.ct, "boundary=") + 9;
    char want[512];
    snprintf(want, sizeof want,
             "--%s\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nfine-tune\r\n"
             "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"data.jsonl\"\r\n"
             "Content-Type: application/jsonl\r\n\r\nfrom disk\r\n--%s--\r\n",
             boundary, boundary, boundary);
    ck_assert_str_eq(g.body, want);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
    ts_stop(srv);
    unlink(path);
    free(path);
    sdkrt_global_cleanup();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("wire");
    TCase *tc = tcase_create("wire");
    tcase_add_test(tc, test_style_table);
    tcase_add_test(tc, test_percent_encoding);
    tcase_add_test(tc, test_params_on_request);
    tcase_add_test(tc, test_json_media_types);
    tcase_add_test(tc, test_form_body);
    tcase_add_test(tc, test_multipart_memory);
    tcase_add_test(tc, test_multipart_styles);
    tcase_add_test(tc, test_raw_bodies);
    tcase_add_test(tc, test_security_schemes);
    tcase_add_test(tc, test_security_requirements_together);
    tcase_add_test(tc, test_security_not_in_messages);
    tcase_add_test(tc, test_multipart_curl);
    tcase_add_test(tc, test_huge_url);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
