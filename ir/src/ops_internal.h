/* ops_internal.h - what the files of the operations stage share: an operation as found in the
 * contract (raw_op) and the functions one file gives the others (sdkc_ops_*). Only ops*.c
 * include it. Not installed.
 *
 *   ops.c            discovery (paths, methods, operationIds) and conversion of each operation;
 *                    the stage's entry point
 *   ops_groups.c     groups, names and safe names of the operations
 *   ops_params.c     parameters: path, query (also a query string in the path), header, cookie
 *   ops_responses.c  request bodies, the main success, other successes, errors by status
 *   ops_response_info.c  a response's media types, headers and links
 *   ops_streams.c    SSE streams (x-effect-stream), stream variants, durable streams (follow)
 *   ops_security.c   security schemes and requirements, the implied Basic scheme
 *   ops_hooks.c      webhooks and callbacks
 */
#ifndef SDKC_OPS_INTERNAL_H
#define SDKC_OPS_INTERNAL_H

#include "ops.h"
#include "schema.h"

/* One operation found in the document, before conversion. */
typedef struct raw_op {
    const sdkc_node *node;      /* the operation object */
    const sdkc_node *path_item; /* its path item */
    const char *path;           /* the path key as written */
    const sdkc_node *pathkey;   /* and its node */
    const char *route;          /* path without the query string written after '?' */
    const char *query;          /* that query string (after '?'), or NULL */
    const char *fragment;       /* after '#', or NULL */
    const char *method;         /* lower case as written */
    const char *id;
    const char *prefix; /* stripped prefix or NULL */
    const char *rest;   /* id without prefix */
    const char *safe;
    const char *ptr;      /* JSON pointer of the operation object */
    const char *item_ptr; /* and of its path item */
} raw_op;

/* ---- ops.c ---- */

/* A specification extension (`x-...`): allowed in most OpenAPI objects, never an error. */
bool sdkc_ops_is_extension(const char *k);
bool sdkc_ops_is_method(const char *k);
char *sdkc_ops_upper(cctx *c, const char *s);
const char *sdkc_ops_op_type_name(cctx *c, const raw_op *r, const char *suffix);

/* ---- ops_groups.c: groups and names (docs/naming.md#groups) ---- */

/* Before sdkc_ops_name: sets op's id, prefix and path (borrowed, they outlive the IR: arena
 * copies) and reads its tags and group extension from its operation object `node`. */
void sdkc_ops_seed(cctx *c, sdkc_operation *op, const sdkc_node *node, const char *id,
                   const char *prefix, const char *path);
/* Groups and names the n seeded operations together (their names depend on each other): group,
 * group_source, name, kept_prefix and safe_name. Out of memory sets c->nomem. */
void sdkc_ops_name(cctx *c, sdkc_operation *ops, size_t n);

/* ---- ops_response_info.c ---- */

/* The media types, headers and links of a response node into *out. */
void sdkc_ops_response_info(cctx *c, const sdkc_node *resp, sdkc_response_info *out);

/* ---- ops_params.c ---- */

/* The key of the component n refers to when it is a $ref to #/components/SECTION/KEY, in
 * Pascal case; else NULL. */
const char *sdkc_ops_component_name(cctx *c, const sdkc_node *n, const char *section);
/* Types under a component shared by operations (a parameter, a response) are named by what they
 * are, not after the first operation that uses them: by the component's key, else (a schema has
 * that name) the key and suffix ("StatusParam"), else by the operation's context. */
const char *sdkc_ops_shared_context(cctx *c, const char *key, const char *suffix,
                                    const char *op_ctx);
sdkc_param_style sdkc_ops_param_style(const char *s, sdkc_param_in in);
void sdkc_ops_build_params(cctx *c, const raw_op *r, sdkc_operation *op, const sdkc_node *pathkey,
                           bool has_body);

/* ---- ops_responses.c ---- */

/* ---- bodies and responses ---- */
sdkc_encoding sdkc_ops_encoding_of(const char *ct);
/* The preferred media type entry of a content map: a JSON type first, else the first listed;
 * a concrete type before a media range (a '*' in it), which is no Content-Type. */
const sdkc_pair *sdkc_ops_pick_content(const sdkc_node *content);
void sdkc_ops_build_body(cctx *c, const raw_op *r, sdkc_operation *op);
/* A response key: an exact status (100..599), a range `1XX`..`5XX` (1..5), `default`
 * (SDKC_STATUS_DEFAULT), or -1 for anything else. */
int sdkc_ops_status_of(const char *key);
const char *sdkc_ops_media_ptr(cctx *c, const raw_op *r, const char *key, const char *ct);
/* op->success, op->more_successes and op->errors; the main success response object (NULL when
 * none). */
const sdkc_node *sdkc_ops_build_responses(cctx *c, const raw_op *r, sdkc_operation *op);

/* ---- ops_streams.c ---- */

/* The stream a text/event-stream media type describes; *type is the declared body type (the
 * frame, or the item when the schema is the item). */
sdkc_stream *sdkc_ops_build_stream(cctx *c, const raw_op *r, const sdkc_node *media, const char *mp,
                                   const sdkc_type **type);
/* The same response also offered as text/event-stream (besides the JSON chosen as the main
 * success): the operation gets a stream variant whose items are the event schema. */
void sdkc_ops_build_stream_variant(cctx *c, const raw_op *r, sdkc_operation *op, const char *key,
                                   const sdkc_node *content);

/* ---- ops_security.c ---- */

/* ---- security ---- */
void sdkc_ops_build_schemes(cctx *c, sdkc_ir *ir, size_t *ndeclared);
void sdkc_ops_build_security(cctx *c, sdkc_ir *ir, const raw_op *r, sdkc_operation *op,
                             size_t ndeclared);
/* Without declared schemes the contract says nothing of authentication: clients send what they
 * are configured with everywhere. Said once, unless the HttpApi convention (401
 * UnauthorizedError) tells that the server wants HTTP Basic. */
void sdkc_ops_auth_unspecified(cctx *c, sdkc_ir *ir, size_t ndeclared);

/* ---- ops_hooks.c ---- */

/* The callbacks of one operation: {name: {expression: path item}}, each possibly a $ref. */
void sdkc_ops_op_callbacks(cctx *c, sdkc_vec *out, const raw_op *r, const sdkc_operation *op);
/* Top-level `webhooks` (OpenAPI 3.1): {name: path item}. */
void sdkc_ops_webhooks(cctx *c, sdkc_vec *out);
void sdkc_ops_finish_hooks(cctx *c, sdkc_ir *ir, sdkc_vec *hooks);

#endif
