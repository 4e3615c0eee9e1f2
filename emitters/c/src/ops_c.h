/* The parts of the src/ops.c output kind (driven by ops_c.c) that live in files of their own. */
#ifndef SDKC_OPS_C_H
#define SDKC_OPS_C_H

#include "emit_internal.h"

/* Requests (ops_builder.c). Is op's request built from a table by the one build_request of
 * ops.c? That build_request (once), op's request as a table (with build_<op> a macro over it),
 * or a builder function of op's own. */
bool emit_builder_table_ok(const cop *o);
void emit_build_request(sdkc_buf *b);
void emit_builder_table(emit_ctx *cx, sdkc_buf *b, const cop *o);
void emit_builder(emit_ctx *cx, sdkc_buf *b, const cop *o);
/* The calls of the operations that are not paged (ops_call.c): unary, and a stream's open,
 * next_event and close. */
void emit_unary(emit_ctx *cx, sdkc_buf *b, const cop *o);
void emit_stream(emit_ctx *cx, sdkc_buf *b, const cop *o);
/* The Accept header and the security requirements of every request of op (ops_request.c). */
void emit_accept_and_security(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op);
/* The same for a request built from a table: writes op's security table (sec_name, file scope)
 * and gives the Accept header (or NULL), the table's rows and whether security is set at all.
 * false when out of memory. */
bool emit_request_table_extras(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op,
                               const char *sec_name, const char **accept, size_t *nsec,
                               bool *secure);
/* A paginated operation: first page, continuation, iterator (ops_paged.c). */
void emit_paged(emit_ctx *cx, sdkc_buf *b, const cop *o);
/* The same API for every other style, over the runtime's pagination engine (ops_paged.c). */
void emit_paged_engine(emit_ctx *cx, sdkc_buf *b, const cop *o);
/* Is o paged by the engine (emit_paged_engine)? What those share, once in ops.c before the
 * first (ops_paged.c). */
bool emit_page_engine(const cop *o);
void emit_paged_engine_shared(emit_ctx *cx, sdkc_buf *b);

/* Followers of durable streams (ops_follow.c): whether op gets one, its declarations in ops.h
 * and its code in ops.c. */
bool emit_follow_ok(const cop *o);
void emit_follow_h(emit_ctx *cx, sdkc_buf *b, const cop *o);
void emit_follow_c(emit_ctx *cx, sdkc_buf *b, const cop *o);
/* For an operation with a follower: its sequence path as text ("durable.seq"), and the static
 * array follow_seq_<op> of its wire names in ops.c (emitted once, before the stream's code, which
 * also reports sequences). */
const char *emit_follow_seq_text(emit_ctx *cx, const cop *o);
void emit_follow_seq_c(sdkc_buf *b, const cop *o);

/* The asynchronous forms: the loop's functions in ops.h (once) and each operation's async form
 * after its blocking one (ops_async_h.c); in ops.c what they share (once, after the
 * engine-paged operations' shared code; ops_async_shared.c) and each operation's (ops_async.c). */
void emit_async_shared_h(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops);
void emit_async_h(emit_ctx *cx, sdkc_buf *b, const cop *o);
void emit_async_shared_c(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops);
/* Per operation, whose trampoline its unary async form calls through (its own name, or an
 * earlier operation's whose callback has the same type); NULL when out of memory. */
const char **emit_async_trampolines(emit_ctx *cx, const cop *ops, size_t nops);
void emit_async_c(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *tramp);
/* What the three async files share (ops_async.c). An operation's shape: the same dispatch as
 * emit_ops_c's. */
typedef enum op_shape { SHAPE_UNARY, SHAPE_PAGE_CURSOR, SHAPE_PAGE_ENGINE, SHAPE_STREAM } op_shape;
op_shape emit_async_shape(const cop *o);
/* A unary result that the blocking call copies out of the runtime's storage (a scalar, a char *,
 * a json_t *): the callback gets it by value. */
bool emit_async_copied(const cop *o);
/* Is the async form a macro over a shared function and the operation's descriptor (P__ao_<op>)?
 * And is any operation's of that shape? */
bool emit_async_macro_form(const cop *o);
bool emit_async_any_macro_form(const cop *ops, size_t nops, op_shape shape);
/* The callback's result parameter ("oc_x *result", "double result"), or NULL when it has none. */
const char *emit_async_result_param(emit_ctx *cx, const cop *o);
/* The request parameter of an operation's async forms ("" when it takes none). */
const char *emit_async_request_arg(emit_ctx *cx, const cop *o);

#endif
