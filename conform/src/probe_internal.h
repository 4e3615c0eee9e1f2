/* probe_internal.h - what the probe files share: the runner, its workers, a probe and its plan. */
#ifndef SDKC_PROBE_INTERNAL_H
#define SDKC_PROBE_INTERNAL_H

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "conform_internal.h"
#include "sdkc/synth.h"
#include "sdkc/validate.h"
#include "sdkrt/sdkrt.h"
#include "sdkrt/wire.h"
#include "sdkc/naming.h"
#include "sdkc/doc.h"

#define CREATE_REPEAT 3   /* resources made by a creator, so that pages have something to walk */
#define PAGE_LIMIT    2   /* page size asked for when walking (if the operation has a size) */
#define PAGE_BIG      100 /* page size of the reference page, within the parameter's maximum */
#define MAX_PAGES     50  /* pages walked per direction */
#define ENDLESS       "the pages do not end" /* how the runtime's walk rules say why */
#define MAX_FRAMES    200                    /* SSE frames judged per stream */
#define SNIPPET       160                    /* bytes of a body quoted in evidence */
#define MAX_JOBS      64

/* Check names (Schemathesis's where it has one). */
#define CHECK_SERVER_ERROR "not_a_server_error"
#define CHECK_STATUS       "status_code_conformance"
#define CHECK_CONTENT_TYPE "content_type_conformance"
#define CHECK_HEADERS      "response_headers_conformance"
#define CHECK_SCHEMA       "response_schema_conformance"
#define CHECK_NEGATIVE     "negative_data_rejection"
#define CHECK_IGNORED_AUTH "ignored_auth"
#define CHECK_USE_AFTER    "use_after_free"
#define CHECK_AVAILABILITY "ensure_resource_availability"
#define CHECK_MISSING      "missing_resource"
#define CHECK_PAGINATION   "pagination"
#define CHECK_TIMEOUT      "timeout"
#define CHECK_POSITIVE     "positive_data_acceptance"
#define CHECK_MISSING_HDR  "missing_required_header"
#define CHECK_UNSUPPORTED  "unsupported_method"

/* A value remembered from an answer: "brand:SessionID", "field:id", "coll:/items" (the id of
 * what a POST to /items made), "link:getItem:itemId" (an OpenAPI link's parameter). */
typedef struct stored {
    char *key;
    json_t *value;
} stored;

typedef struct runner {
    const sdkc_ir *ir;
    const sdkc_conform_options *opts;
    sdkc_conform_report *r;
    sdkrt_client *client; /* with credentials when given */
    sdkrt_client *anon;   /* without (NULL when no credentials are configured) */
    bool have_credentials;
    stored *store;
    size_t nstore, capstore;
    bool *probed; /* per operation: a valid probe got a real answer */
    long timeout_ms, stream_ms;
    unsigned checks;
    struct timespec deadline; /* tv_sec 0: none */
    pthread_mutex_t mu;       /* report, store, probed */
    /* phase queue */
    const sdkc_operation **queue;
    size_t nqueue;
    unsigned char *state; /* per queue entry: QUEUED, RUNNING, DONE */
    bool *needs;          /* nqueue x nqueue: needs[i * nqueue + j], entry i waits for j */
    pthread_cond_t cv;    /* an entry is done (with mu) */
    /* A malformed body went unanswered for the whole timeout (with mu): the server (Prism 5.16,
       for one) never answers such bodies, so the other malformed-body probes are a note each,
       not a timeout each. The probe that saw it, for the note. */
    char *malformed_hang;
    const sdkrt_transport *inner; /* what the workers' clients send through */
    sdkrt_transport *own_inner;   /* the libcurl transport made for the run, or NULL */
    conform_secret *secrets;      /* for curl lines: each secret and its variable's name */
    size_t nsecrets;
    uint64_t seed;       /* of the generated requests' choices */
    size_t max_examples; /* generated requests per operation and phase */
    size_t ndone;        /* operations done (with mu), for the progress line */
    bool progress_drawn; /* a progress line is on the terminal */
} runner;

enum { QUEUED, RUNNING, DONE };

/* Per thread: its own validator and arena. */
typedef struct worker {
    runner *rn;
    sdkc_validation *val;
    sdkc_arena *arena;
    /* The worker's clients send through rec, which writes each request's curl line into curl
       (new, or NULL) and hands it to the run's transport. */
    sdkrt_transport rec;
    sdkrt_client *client, *anon;
    char *curl;
} worker;

typedef enum probe_mode {
    MODE_VALID,
    MODE_POSITIVE,       /* every optional field and parameter set too */
    MODE_POSITIVE_BODY,  /* every optional body field, only the required parameters */
    MODE_UNKNOWN_ID,     /* a well-formed id nobody made: the declared 404 */
    MODE_BAD_CURSOR,     /* negative */
    MODE_MALFORMED_BODY, /* negative */
    MODE_NO_CREDENTIALS, /* ignored_auth */
    MODE_AFTER_DELETE,   /* use_after_free */
    MODE_AFTER_CREATE,   /* ensure_resource_availability */
    MODE_AFTER_UPDATE,   /* ensure_resource_availability: a chain's update kept the resource */
    MODE_EXAMPLE,        /* examples phase: the contract's own examples */
    MODE_COVERAGE,       /* coverage phase: a valid value at a boundary, an enum member, ... */
    MODE_NEGATIVE,       /* negative phase: one value the contract forbids, or one left out */
    MODE_UNSUPPORTED     /* a method the path does not declare */
} probe_mode;

/* What a probe provokes, when it provokes something declared. */
typedef struct expectation {
    int status;      /* 0 = anything declared */
    const char *tag; /* NULL = any declared tag of that status */
    const char *why; /* "an unknown sessionID" */
    /* MODE_NEGATIVE and MODE_EXAMPLE: the check a 2xx fails (NULL: none; a 4xx is expected) */
    const char *reject_check;
} expectation;

/* ---- judging one response ---- */

/* ---- requests ---- */

typedef struct gen_case gen_case;

typedef struct req_plan {
    probe_mode mode;
    const char *cursor;    /* continuation cursor, or NULL */
    long limit;            /* > 0: send `limit` when the operation has it */
    const json_t *last_id; /* the last path parameter's value, or NULL */
    bool no_id;            /* a branded path parameter had no known value */
    bool made_up;          /* a path parameter had no value from the server or --param */
    char *why;             /* a value that could not be made (new), or NULL */
    bool optional_params;  /* some optional parameter or body field exists */
    bool user_values;      /* a value came from --param */
    const char *method;    /* another method than the operation's (no body), or NULL */
    const gen_case *gc;    /* a generated request: the valid one with these changes */
    /* last_id is what a chain's own POST made (a value of the server's, not made up): a valid
       request all the same */
    bool chain;
    sdkrt_response **keep; /* gets the answer (new; NULL when none), or NULL */
    /* MODE_POSITIVE*: optional parameters and top-level body fields left out, by their index
       in conform_optional_at (a reduction) */
    uint64_t drop;
} req_plan;

/* A generated request (phases examples, coverage, negative): the valid request with a few
 * changes. */
struct gen_case {
    probe_mode mode;        /* MODE_EXAMPLE, MODE_COVERAGE or MODE_NEGATIVE */
    char *what;             /* "query limit = 101 (above the maximum 100)" (new) */
    const char *check;      /* negative: the check a 2xx fails */
    json_t *params;         /* "in:name" -> the value sent instead (new), or NULL */
    const sdkc_param *omit; /* a parameter left out, or NULL */
    json_t *body;           /* the body sent instead (new), or NULL: the valid one */
    bool no_body;           /* a required body left out */
    /* valid data positive_data_acceptance judges: an example valid by its schema, a coverage
       value of an operation whose valid request was accepted (else the refusal is not the
       value's doing) */
    bool contract_only;
    char *path;       /* where: "query limit", "$.name", "header X-Key" (new) */
    const char *rule; /* "type", "bounds", "enum", "required", "example", ... */
    int target;       /* the parameter or field it is about (for fair selection) */
};

typedef struct gen_list {
    gen_case *items;
    size_t n, cap;
} gen_list;

typedef struct probe_ctx {
    worker *wk;
    runner *rn;
    const sdkc_operation *op;
    const char *probe;
    const char *desc; /* "GET /api/session/ses_x" */
    probe_mode mode;
    int status;    /* the answer's, 0 when none */
    bool answered; /* a valid probe got an answer that was not a refusal */
    /* A valid request made of the contract's own constraints only (no made-up or unknown path
       id, no --param): positive_data_acceptance judges it */
    bool contract_only;
    const req_plan *plan; /* the request's plan, or NULL */
} probe_ctx;

/* What a probe brought back. */
typedef struct probe_out {
    json_t *body;   /* the success body (new), or NULL */
    int status;     /* 0: no answer */
    char *location; /* a Location header (new), or NULL */
    bool answered;  /* a valid probe got an answer that was not a refusal */
} probe_out;

/* probe_judge.c */
bool conform_check_on(const runner *rn, const char *check);
const sdkc_error_status *conform_error_status(const sdkc_operation *op, int status);
const sdkc_success *conform_success_for(const sdkc_operation *op, int status);
const sdkc_success *conform_success_read(const sdkc_operation *op, int status);
const sdkc_error_tag *conform_error_tag(const sdkc_error_status *es, const char *tag);
const sdkc_param *conform_param_named(const sdkc_operation *op, sdkc_param_in in, const char *name);
size_t conform_path_param_count(const sdkc_operation *op);
void conform_snippet(sdkc_buf *b, const char *body, size_t len);
size_t conform_validate_into(probe_ctx *pc, const char *check, const sdkc_type *t, const json_t *v,
                             const char *where);
const sdkc_response_info *conform_response_info(const sdkc_operation *op, int status);
bool conform_is_valid(probe_mode m);
void conform_judge_expectation(probe_ctx *pc, int status, const char *got_tag,
                               const expectation *ex, const char *evidence);
json_t *conform_judge(probe_ctx *pc, int status, const char *ct, const char *body, size_t len,
                      const expectation *ex, const sdkrt_response *resp);
void conform_padd(probe_ctx *pc, const char *check, sdkc_verdict v, const char *path,
                  const char *rule, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* probe_store.c */
const json_t *conform_link_value(const char *expr, const json_t *body);
json_t *conform_param_value(worker *wk, const sdkc_param *p, const json_t *v);
const json_t *conform_store_get_str(runner *rn, const char *kind, const char *name);
char *conform_collection_of(const char *path, const char *name);
json_t *conform_fitting(worker *wk, const sdkc_param *p, json_t *v);
json_t *conform_known_path_value(worker *wk, const sdkc_operation *op, const sdkc_param *p);
json_t *conform_unknown_value(const sdkc_param *p);
json_t *conform_created_id(const sdkc_operation *op, int status, const json_t *body,
                           const char *location);
void conform_learn(runner *rn, const sdkc_operation *op, const probe_out *o);

/* probe_request.c */
const sdkc_type *conform_unwrap_nullable(const sdkc_type *t);
char *conform_unknown_id(const sdkc_brand *b);
json_t *conform_user_param(const runner *rn, const sdkc_param *p);
bool conform_has_optional_body(const sdkc_operation *op);
bool conform_has_optional_params(const sdkc_operation *op);
const sdkc_param *conform_size_param(const sdkc_operation *op);
json_t *conform_synth(worker *wk, probe_mode mode, const sdkc_type *t, const char **why);
unsigned conform_optional_params(const sdkc_operation *op);
unsigned conform_optional_count(const sdkc_operation *op);
sdkrt_request *conform_build(worker *wk, const sdkc_operation *op, req_plan *plan, sdkc_buf *desc);

/* probe_streams.c */
void conform_run_stream(probe_ctx *pc, sdkrt_client *client, sdkrt_request *req,
                        const expectation *ex);

/* probe_pages.c */
void conform_engine_walk(worker *wk, const sdkc_operation *op);
void conform_page_walk(worker *wk, const sdkc_operation *op);
long conform_page_size(const sdkc_operation *op, long want);

/* probe_plan.c */
int conform_phase_of(const sdkc_operation *op);
bool conform_included(const sdkc_conform_options *o, const char *id);
const char *conform_skip_reason(const sdkc_conform_options *o, const char *id);
void conform_probe_operation(worker *wk, const sdkc_operation *op);
bool conform_expect_error(const sdkc_operation *op, int status, const char *tag, const char *why,
                          expectation *ex);
void conform_probe_mode_op(worker *wk, const sdkc_operation *op, const char *probe, probe_mode mode,
                           const expectation *ex, const json_t *last_id);

/* probe_stateful.c */
const sdkc_operation *conform_item_op(const runner *rn, const char *path, const char *method);
const sdkc_operation *conform_item_reader(const runner *rn, const char *path);
const sdkc_operation *conform_reader_at(const runner *rn, const char *path);
const sdkc_param *conform_last_path_param(const sdkc_operation *op);
void conform_after_create(worker *wk, const sdkc_operation *op, const probe_out *out);
bool conform_conditional_creation(worker *wk, const sdkc_operation *op, const char *probe);
void conform_after_delete(worker *wk, const sdkc_operation *op, const json_t *delete_id);
void conform_unknown_id_probe(worker *wk, const sdkc_operation *op);
bool conform_gives_id(runner *rn, const sdkc_operation *a, const sdkc_operation *b);

/* probe_chain.c: the sequence on a resource of its own that a POST makes */
void conform_chain(worker *wk, const sdkc_operation *op);

/* probe_negative.c */
void conform_phase_negative(worker *wk, const sdkc_operation *op, bool no_id);

/* probe_runner.c */
void conform_log(runner *rn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *conform_strdup(const char *s);
bool conform_past_deadline(const runner *rn);
long conform_request_timeout(const runner *rn, long want);
void conform_probe_out_cleanup(probe_out *o);
void conform_run_probe(worker *wk, const sdkc_operation *op, const char *probe, req_plan *plan,
                       const expectation *ex, probe_out *out);
void conform_send_probe(probe_ctx *pc, sdkrt_client *client, sdkrt_request *req,
                        const expectation *ex, probe_out *out, sdkrt_response **keep);

/* probe_gen.c */
/* Push a case (taken: its strings and values belong to the list); false when out of memory. */
bool conform_gen_push(gen_list *l, gen_case *c);
void conform_gen_free(gen_list *l);
/* Keep at most max cases: round robin over targets, in an order drawn from the run's seed. */
void conform_gen_select(gen_list *l, size_t max, uint64_t seed, const char *op_id);
/* The valid body (new) as the valid probe sends it, or NULL. */
json_t *conform_base_body(worker *wk, const sdkc_operation *op);
/* The request value of parameter p in the valid probe (new), or NULL when left out. */
json_t *conform_base_param(worker *wk, const sdkc_param *p);
/* Deviations of v against t that the reference ref does not have too (ref may be NULL). */
size_t conform_new_deviations(worker *wk, const sdkc_type *t, const json_t *v, const json_t *ref);
/* "in:name", the key of gen_case.params (new). */
char *conform_param_key(const sdkc_param *p);
/* Send every case of l as a probe of op. */
void conform_run_cases(worker *wk, const sdkc_operation *op, gen_list *l);
/* Coverage and negative values of a scalar type, into l (cases of one target). */
void conform_cover_values(worker *wk, const sdkc_type *t, bool negative, json_t *base,
                          void (*emit)(void *u, json_t *v, const char *what), void *u);

/* probe_coverage.c: the coverage phase, or the negative one; at most max cases */
void conform_phase_generated(worker *wk, const sdkc_operation *op, bool negative, size_t max,
                             bool base_accepted);

/* probe_examples.c */
void conform_phase_examples(worker *wk, const sdkc_operation *op);

/* probe_negative.c */
void conform_unsupported_methods(worker *wk, const sdkc_operation *op);

#define ADD conform_padd

/* progress.c: the progress line (opts->progress) after an operation is done, with rn->mu held;
 * and its clearing, once the workers are done. */
void conform_progress(runner *rn);
void conform_progress_clear(runner *rn);

#endif
