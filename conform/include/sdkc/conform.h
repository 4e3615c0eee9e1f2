/* sdkc/conform.h - contract conformance: probe a live server with requests built from the IR and
 * judge every response against the contract (docs/conformance.md).
 *
 * Operations run in phases (creators, other writes, reads, deletes), `jobs` at a time. Each gets
 * the probes its contract and the checks on call for:
 *   valid           required parameters and body fields (values from sdkc_synth_value; path ids
 *                   from links, --param, earlier answers or a POST to the collection)
 *   positive        every optional parameter and body field set too (not for DELETE)
 *   after-create    GET of what a POST just made (its id or Location)
 *   after-delete    GET of what a DELETE just removed
 *   unknown-id      a well-formed id nobody made: the declared 404 (only where declared)
 *   bad-cursor      an invalid page cursor (OpenCode's cursor object)
 *   malformed-body  a body that is not JSON (JSON bodies)
 *   no-credentials  no credentials, where security is required and the valid probe sent some
 *   page-walk       pages of any style followed to the end as the runtime's engine does, and
 *                   compared with one big page: no item lost, repeated or made up
 *   examples        the contract's own examples (options.doc), as requests and, paired with a
 *                   response example of the same name, with that answer expected
 *   coverage        one parameter or body field at an edge the contract allows (enum members,
 *                   bounds, lengths, item counts, null, an optional value present)
 *   negative        one value the contract forbids, or a required one left out
 *   unsupported-method  a method no operation declares for the URL
 * The generated ones (examples, coverage, negative) are checked with the validator first (a
 * coverage value valid, a negative one invalid), at most max_examples per operation and phase,
 * chosen by seed. A failing positive probe is reduced (optional values left out one at a time
 * while it still fails) before it is judged.
 * Streams (SSE) open within timeout_ms, as a unary call, then are read for stream_ms: every frame
 * and item against its schema. Every answer is judged by the checks below, each result a pass, a
 * deviation, or a skip with its reason (a 401/403 to any probe but no-credentials is a skip); skips
 * never count as passes. */
#ifndef SDKC_CONFORM_H
#define SDKC_CONFORM_H

#include <signal.h>
#include <stdio.h>

#include <jansson.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/util.h"
#include "sdkrt/client.h"
#include "sdkrt/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `sdkc conform ...` (argv[0] = "conform"): exit status, the first that applies: 2 usage,
 * contract or file errors (before any request), 3 stopped early (--max-time, a signal), 1
 * deviations found (or a difference from --known), 3 nothing really checked (no valid probe
 * answered), 0 conformant. Output goes to stdout/stderr. */
int sdkc_conform_main(int argc, char **argv);

typedef enum sdkc_verdict {
    SDKC_VERDICT_PASS,
    SDKC_VERDICT_DEVIATION,
    SDKC_VERDICT_SKIP
} sdkc_verdict;

const char *sdkc_verdict_name(sdkc_verdict v); /* "pass", "deviation", "skip" */

/* One result. Deviations with the same operation, check, path and rule are merged, whichever probe
 * saw them (count says how many times; probe and evidence are the first one's). Paths
 * have array indices replaced by [*] so that results do not depend on how much data the server
 * holds. */
typedef struct sdkc_conform_result {
    const char *operation; /* "v2.session.get" */
    const char *probe;     /* "valid", "unknown-id", ... */
    const char *check;     /* a check name (below), or "probe" / "transport" for skips */
    sdkc_verdict verdict;
    const char *path; /* JSON path of a body deviation, or NULL */
    const char *rule; /* validator rule of a body deviation, or NULL */
    const char *evidence;
    size_t count;
    /* A deviation's request as a curl command line (secrets as "$ENV"), or NULL (none sent,
       or a secret that could not be named). */
    const char *curl;
} sdkc_conform_result;

/* A skip rule: operations matching glob (over operation ids) are not probed; reason is reported. */
typedef struct sdkc_conform_skip {
    const char *glob;
    const char *reason;
} sdkc_conform_skip;

/* A parameter value given by the user (--param NAME=VALUE): used for every parameter of that
 * wire name (path, query, header or cookie), typed like the parameter. */
typedef struct sdkc_conform_param {
    const char *name;
    const char *value;
} sdkc_conform_param;

/* Checks, named in the report as Schemathesis names them where it has the check:
 *   not_a_server_error            no 5xx answer, to any request
 *   status_code_conformance       the status is declared (an invalid or unauthenticated request
 *                                 may get any 4xx)
 *   content_type_conformance      the media type is declared for that status
 *   response_headers_conformance  required response headers are present
 *   response_schema_conformance   the body (error tag, SSE frame) matches its schema
 *   negative_data_rejection       an invalid request (body that is not JSON, bad cursor) is not
 *                                 accepted; where the contract declares 400 InvalidRequestError
 *                                 or InvalidCursorError, that is the answer
 *   ignored_auth                  no 2xx without credentials where security is required
 *   use_after_free                GET after a successful DELETE is not 2xx
 *   ensure_resource_availability  GET of what a POST just made is 2xx
 *   missing_resource              an unknown id gets the declared 404 (only where declared)
 *   pagination                    a page walk loses and repeats no item
 *   timeout                       the server answers within the timeout
 *   positive_data_acceptance      a valid request made of the contract's own constraints gets
 *                                 no 4xx but 404, 409 and 429 (401/403 are skips)
 *   missing_required_header       a request without a required header parameter is refused
 *   unsupported_method            a method a path does not declare gets 405 (with Allow), 404
 *                                 or 501, never a 2xx
 * A check that is off also turns off the probes that exist for it. */
#define SDKC_CHECK_NOT_A_SERVER_ERROR    (1u << 0)
#define SDKC_CHECK_STATUS_CODE           (1u << 1)
#define SDKC_CHECK_CONTENT_TYPE          (1u << 2)
#define SDKC_CHECK_RESPONSE_HEADERS      (1u << 3)
#define SDKC_CHECK_RESPONSE_SCHEMA       (1u << 4)
#define SDKC_CHECK_NEGATIVE_DATA         (1u << 5)
#define SDKC_CHECK_IGNORED_AUTH          (1u << 6)
#define SDKC_CHECK_USE_AFTER_FREE        (1u << 7)
#define SDKC_CHECK_RESOURCE_AVAILABILITY (1u << 8)
#define SDKC_CHECK_MISSING_RESOURCE      (1u << 9)
#define SDKC_CHECK_PAGINATION            (1u << 10)
#define SDKC_CHECK_TIMEOUT               (1u << 11)
#define SDKC_CHECK_POSITIVE_DATA         (1u << 12)
#define SDKC_CHECK_MISSING_HEADER        (1u << 13)
#define SDKC_CHECK_UNSUPPORTED_METHOD    (1u << 14)
#define SDKC_CHECK_ALL                   ((1u << 15) - 1)
/* The bit of a check name, 0 when unknown. */
unsigned sdkc_conform_check_bit(const char *name);
/* The i-th check name (static), NULL past the end. */
const char *sdkc_conform_check_name(size_t i);

typedef struct sdkc_conform_options {
    const char *base_url;       /* required */
    const char *username;       /* Basic auth user; NULL = "opencode" when password set */
    const char *password;       /* NULL = no such credential */
    const char *const *include; /* globs over operation ids; none = all */
    size_t ninclude;
    const sdkc_conform_skip *skips;
    size_t nskips;
    long timeout_ms;                  /* per unary call; 0 = 5000 */
    long stream_ms;                   /* how long each stream is watched once open; 0 = 1500 */
    const sdkrt_transport *transport; /* NULL = libcurl (borrowed) */
    FILE *log;                        /* progress lines, or NULL */
    /* Credentials per security scheme (copied by the runtime; never printed). Requests send the
       first requirement of the operation they have credentials for. */
    const sdkrt_credential *credentials;
    size_t ncredentials;
    const sdkrt_header *headers; /* sent with every request (--header); credential-like ones
                                    (Authorization, Cookie, API key headers) not without */
    size_t nheaders;
    const sdkc_conform_param *params;
    size_t nparams;
    unsigned checks;  /* SDKC_CHECK_* bits; 0 = all */
    int jobs;         /* operations probed at once (threads); 0 = 1 */
    long max_time_ms; /* the whole run; 0 = no limit. Probes not sent by then are skips */
    const volatile sig_atomic_t
        *stop; /* set (e.g. by a signal handler) to stop sending probes, or NULL */
    /* Triggered with stop (sdkrt_cancel_trigger is async-signal-safe): requests in flight end at
       once, as skips. Borrowed; NULL = they run to their timeout. */
    sdkrt_cancel *cancel;
    const char *ca_file; /* CA certificates (PEM) to verify the server with; NULL = system's */
    bool insecure;       /* do not verify the server's TLS certificate (--insecure) */
    /* For the curl lines of deviations: the environment variable each credential came from
       (parallel to credentials; NULL entries or array: the line of a request carrying that
       secret is withheld), and password's. Secrets never show, only these names. */
    const char *const *credential_envs;
    const char *password_env;
    /* Generated requests (phases examples, coverage, negative): seed of the choices (the same
       seed, contract and server give the same requests) and how many per operation at most
       (0 = SDKC_CONFORM_MAX_EXAMPLES; negative = none). */
    unsigned long long seed;
    long max_examples;
    /* The contract as loaded (borrowed), for its examples; NULL = no examples phase. */
    const sdkc_doc *doc;
    /* A terminal to keep one progress line on ("conform: 12/40 operations, 3 deviations",
       redrawn with \r after each operation, cleared before sdkc_conform_run returns), or NULL. */
    FILE *progress;
} sdkc_conform_options;
#define SDKC_CONFORM_MAX_EXAMPLES 12
#define SDKC_CONFORM_OPTIONS_INIT                                                                  \
    {                                                                                              \
        NULL, NULL, NULL, NULL, 0, NULL, 0, 0, 0, NULL, NULL, NULL, 0, NULL, 0, NULL, 0, 0, 0, 0,  \
            NULL, NULL, NULL, false, NULL, NULL, 0, 0, NULL, NULL                                  \
    }

typedef struct sdkc_conform_report sdkc_conform_report;

/* Probe the server described by ir (borrowed) as opts says (borrowed). *out is new (owned by the
 * caller; sdkc_conform_report_free) whenever the return is SDKC_OK, whatever the verdicts.
 * SDKC_ERR_INVALID for bad options (message in *errmsg, new, free()), SDKC_ERR_NOMEM. */
sdkc_status sdkc_conform_run(sdkc_conform_report **out, const sdkc_ir *ir,
                             const sdkc_conform_options *opts, char **errmsg);
void sdkc_conform_report_free(sdkc_conform_report *r); /* NULL is a no-op */

size_t sdkc_conform_report_count(const sdkc_conform_report *r);
/* Borrowed until the report is freed; NULL when out of range. */
const sdkc_conform_result *sdkc_conform_report_get(const sdkc_conform_report *r, size_t i);
size_t sdkc_conform_report_deviations(const sdkc_conform_report *r); /* merged entries */
size_t sdkc_conform_report_skips(const sdkc_conform_report *r);
size_t sdkc_conform_report_passes(const sdkc_conform_report *r);
/* Operations included, and those where a valid probe got an answer that was not a refusal (401,
 * 403), a transport failure or a timeout. */
size_t sdkc_conform_report_operations(const sdkc_conform_report *r);
size_t sdkc_conform_report_probed(const sdkc_conform_report *r);
/* Checks run: passes and deviations, each counted as often as seen. */
size_t sdkc_conform_report_checks(const sdkc_conform_report *r);
/* Whether the run stopped early: interrupted (options.stop) or at --max-time. */
bool sdkc_conform_report_stopped(const sdkc_conform_report *r);
/* Pattern checks the validator could not perform (see sdkc/validate.h). */
size_t sdkc_conform_report_unchecked(const sdkc_conform_report *r);

/* The report as JSON (new reference): {"format": "sdkc-conform/1", "summary": {...},
 * "results": [...], "deviations": [...], "unchecked_patterns": [...]}. NULL on OOM. */
json_t *sdkc_conform_report_json(const sdkc_conform_report *r);
/* The report as JUnit XML to f: one testsuite per operation, one testcase per check (a failure
 * when it has a deviation, with evidence and curl lines; skipped when it has only skips).
 * 0, or -1 on a write error. */
int sdkc_conform_report_junit(const sdkc_conform_report *r, FILE *f);
/* The readable table: operation, probe, check, verdict, evidence; passes folded per operation
 * unless verbose. */
void sdkc_conform_report_print(const sdkc_conform_report *r, FILE *f, bool verbose);

/* Does the media type got (a Content-Type) match declared (a contract's media type)? type and
 * subtype without case, `*` wildcards in declared, and every parameter declared names equal
 * (without case, quotes removed) when got names it too; other parameters are free. */
bool sdkc_conform_media_match(const char *declared, const char *got);

/* Compare deviations with a reviewed list (JSON: {"deviations": [{"operation", "check", "path",
 * "probe", "rule", "evidence"}...]}; path, probe and rule may be null). Matching is on operation,
 * check and path, the key deviations are merged on; probe and rule are ignored (a deviation keeps
 * whichever probe and rule saw it first). Writes one line per new or vanished deviation to f (may
 * be NULL) and returns how many there are; -1 when the list cannot be read (message to f). */
long sdkc_conform_compare_known(const sdkc_conform_report *r, const char *known_path, FILE *f);
/* Read and check a reviewed list before a run (every entry an object with "operation" and
 * "check"): the document (new reference), or NULL with the reason written to f (may be NULL). */
json_t *sdkc_conform_known_load(const char *known_path, FILE *f);
/* As sdkc_conform_compare_known, with a list sdkc_conform_known_load read (borrowed). */
long sdkc_conform_compare_known_json(const sdkc_conform_report *r, const json_t *known, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
