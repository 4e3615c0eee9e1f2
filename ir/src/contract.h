/* contract.h - the first pass: the contract's header (OpenAPI version, info, servers). A stage
 * of its own beside the schema stage: it includes the compiler context only. Not installed. */
#ifndef SDKC_CONTRACT_H
#define SDKC_CONTRACT_H

#include "context.h"

/* ir->source_*, ir->title, version, description, servers; c->oas31. Stops the compile when the
 * document is no mapping. */
sdkc_pass_fn sdkc_contract_header;

#endif
