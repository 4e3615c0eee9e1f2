/* ops.h - the operations stage: paths and operations to IR operations, with the Effect HttpApi
 * conventions (tagged errors per status, `{data: X}` unwrapping, SSE streams, implied Basic
 * auth), security, webhooks and callbacks. The top stage: above the schema stage, whose
 * sdkc_schema_type converts the schemas it meets. Not installed. */
#ifndef SDKC_OPS_H
#define SDKC_OPS_H

#include "context.h"

/* ir->ops (with c->op_sources), ir->schemes, ir->webhooks. */
sdkc_pass_fn sdkc_ops_build;
/* After pagination: a main JSON success `{data: X}` that is no page returns X. */
sdkc_pass_fn sdkc_ops_unwrap_data;
/* Durable streams: op->stream->follow from --follow or from the stream's shape; warns about
 * --follow options that name no stream operation. */
sdkc_pass_fn sdkc_ops_detect_follow;

#endif
