/* The parts of the src/ops.c output kind that live in files of their own. */
#ifndef SDKC_OPS_C_H
#define SDKC_OPS_C_H

#include "emit_internal.h"

/* The Accept header and the security requirements of every request of op (ops_request.c). */
void emit_accept_and_security(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op);
/* A paginated operation: first page, continuation, iterator (ops_paged.c). */
void emit_paged(emit_ctx *cx, sdkc_buf *b, const cop *o);
/* The same API for every other style, over the runtime's pagination engine (ops_paged.c). */
void emit_paged_engine(emit_ctx *cx, sdkc_buf *b, const cop *o);

#endif
