/* sdkc/naming.h - spelling names for generated code, shared by the compiler and emitters. */
#ifndef SDKC_NAMING_H
#define SDKC_NAMING_H

#include <stdbool.h>

#include "sdkc/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Does an operation id match a glob (`*` any run, `?` one char)? */
bool sdkc_glob_match(const char *pattern, const char *s);

/* Naming helpers used by the compiler and emitters. Results are arena copies (NULL on OOM). */
char *sdkc_snake_case(sdkc_arena *a, const char *s);  /* "sessionID.list" -> "session_id_list" */
char *sdkc_upper_snake(sdkc_arena *a, const char *s); /* "session.idle" -> "SESSION_IDLE" */
char *sdkc_pascal_case(sdkc_arena *a, const char *s); /* "session-v2.info" -> "SessionV2Info" */
bool sdkc_is_c_keyword(const char *s);

#ifdef __cplusplus
}
#endif
#endif
