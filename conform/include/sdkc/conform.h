/* sdkc/conform.h - contract conformance: probe a live server with requests built from the IR and
 * judge every response against the contract.
 *
 * For each included operation the runner sends probes (see docs/conformance.md):
 *   valid           a request built from the IR (ids come from resources created earlier)
 *   unknown-id      a well-formed identifier nobody created: the declared 404 tags expected
 *   bad-cursor      an invalid page cursor: a declared 400 InvalidCursorError expected
 *   malformed-body  a body that is not JSON: a declared 400 InvalidRequestError expected
 *   no-credentials  no Authorization header: a declared 401 UnauthorizedError expected
 *   page-walk       cursors walked forward and back: no item lost or repeated
 *   stream          SSE frames read for a short while: every frame and item against its schema
 * and records checks: status (declared for the operation), content-type, body (schema), tag
 * (declared for that status), expect (the error the probe provokes), frame, item, cursor. Every
 * result is a pass, a deviation, or a skip with its reason; skips never count as passes.
 */
#ifndef SDKC_CONFORM_H
#define SDKC_CONFORM_H

#include <stdio.h>

#include <jansson.h>

#include "sdkc/ir.h"
#include "sdkc/util.h"
#include "sdkrt/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `sdkc conform ...` (argv[0] = "conform"): exit status 0 conformant, 1 deviations found (or a
 * difference from --known), 2 usage or contract errors. Output goes to stdout/stderr. */
int sdkc_conform_main(int argc, char **argv);

typedef enum sdkc_verdict {
    SDKC_VERDICT_PASS,
    SDKC_VERDICT_DEVIATION,
    SDKC_VERDICT_SKIP
} sdkc_verdict;

const char *sdkc_verdict_name(sdkc_verdict v); /* "pass", "deviation", "skip" */

/* One result. Deviations with the same operation, check and path are merged, whichever probe or
 * rule saw them (count says how many times; probe, rule and evidence are the first one's). Paths
 * have array indices replaced by [*] so that results do not depend on how much data the server
 * holds. */
typedef struct sdkc_conform_result {
    const char *operation; /* "v2.session.get" */
    const char *probe;     /* "valid", "unknown-id", ... */
    const char *check;     /* "status", "content-type", "body", "tag", ... or "probe" for skips */
    sdkc_verdict verdict;
    const char *path; /* JSON path of a body deviation, or NULL */
    const char *rule; /* validator rule of a body deviation, or NULL */
    const char *evidence;
    size_t count;
} sdkc_conform_result;

/* A skip rule: operations matching glob (over operation ids) are not probed; reason is reported. */
typedef struct sdkc_conform_skip {
    const char *glob;
    const char *reason;
} sdkc_conform_skip;

typedef struct sdkc_conform_options {
    const char *base_url;       /* required */
    const char *username;       /* Basic auth user; NULL = "opencode" when password set */
    const char *password;       /* NULL = no credentials (no-credentials probes skipped) */
    const char *const *include; /* globs over operation ids; none = all */
    size_t ninclude;
    const sdkc_conform_skip *skips;
    size_t nskips;
    long timeout_ms;                  /* per unary call; 0 = 5000 */
    long stream_ms;                   /* how long each stream is watched; 0 = 1500 */
    const sdkrt_transport *transport; /* NULL = libcurl (borrowed) */
    FILE *log;                        /* progress lines, or NULL */
    /* The contract document the IR came from (borrowed), or NULL: with it every declared
       response counts (each 2xx, its media types and headers) and the validator applies what the
       IR leaves out (see sdkc/validate.h). */
    const sdkc_doc *doc;
} sdkc_conform_options;
#define SDKC_CONFORM_OPTIONS_INIT                                                                  \
    {                                                                                              \
        NULL, NULL, NULL, NULL, 0, NULL, 0, 0, 0, NULL, NULL, NULL                                 \
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
/* Pattern checks the validator could not perform (see sdkc/validate.h). */
size_t sdkc_conform_report_unchecked(const sdkc_conform_report *r);

/* The report as JSON (new reference): {"format": "sdkc-conform/1", "summary": {...},
 * "results": [...], "deviations": [...], "unchecked_patterns": [...]}. NULL on OOM. */
json_t *sdkc_conform_report_json(const sdkc_conform_report *r);
/* The readable table: operation, probe, check, verdict, evidence; passes folded per operation
 * unless verbose. */
void sdkc_conform_report_print(const sdkc_conform_report *r, FILE *f, bool verbose);

/* Compare deviations with a reviewed list (JSON: {"deviations": [{"operation", "check", "path",
 * "rule", "evidence"}...]}; path and rule may be null). Matching is on operation, check, path and
 * rule. Writes one line per new or vanished deviation to f (may be NULL) and returns how many
 * there are; -1 when the list cannot be read (message to f). */
/* Does the media type got (a Content-Type) match declared (a contract's media type)? type and
 * subtype without case, `*` wildcards in declared, and every parameter declared names equal
 * (without case, quotes removed) when got names it too; other parameters are free. */
bool sdkc_conform_media_match(const char *declared, const char *got);

long sdkc_conform_compare_known(const sdkc_conform_report *r, const char *known_path, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
