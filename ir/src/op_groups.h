/* op_groups.h - how operations are grouped and named (docs/naming.md#groups): the group from an
 * extension, the operationId's namespace, the first tag or the path; the name within the group;
 * the stripped prefix and when it comes back; safe names. Private to the compiler. */
#ifndef SDKC_OP_GROUPS_H
#define SDKC_OP_GROUPS_H

#include "compile_internal.h"

/* Before cc_name_ops: sets op's id, prefix and path (borrowed, they outlive the IR: arena
 * copies) and reads its tags and group extension from its operation object `node`. */
void cc_op_seed(cctx *c, sdkc_operation *op, const sdkc_node *node, const char *id,
                const char *prefix, const char *path);

/* Groups and names the n seeded operations together (their names depend on each other): group,
 * group_source, name, kept_prefix and safe_name. Out of memory sets c->nomem. */
void cc_name_ops(cctx *c, sdkc_operation *ops, size_t n);

#endif
