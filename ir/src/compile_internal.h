/* compile_internal.h - private declarations shared by the compiler's source files (compile.c,
 * schema.c, ops.c, naming.c). Not installed. */
#ifndef SDKC_COMPILE_INTERNAL_H
#define SDKC_COMPILE_INTERNAL_H

#include <stdlib.h>

#include "ir_internal.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"

#endif
