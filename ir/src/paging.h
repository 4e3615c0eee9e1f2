/* paging.h - the paging stage: which style an operation's pages come in (docs/pagination.md).
 * Above the schema stage, below the operations; its state (struct sdkc_pages, c->pages) is its
 * own. Not installed. */
#ifndef SDKC_PAGING_H
#define SDKC_PAGING_H

#include "context.h"

/* The stage's state; load opts->pagination_file (errors at its own positions). */
sdkc_pass_fn sdkc_paging_load_config;
/* After the operations: op->pagination of every operation with a JSON success, from (first that
 * applies) its config entry, an extension of the operation object, the heuristics. */
sdkc_pass_fn sdkc_paging_decide;
/* Warn about config entries no operation took. */
sdkc_pass_fn sdkc_paging_check_config;
/* Release the stage's state (c->pages may be NULL). */
void sdkc_paging_cleanup(cctx *c);

#endif
