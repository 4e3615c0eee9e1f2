/* Names in the C model: every global name the SDK defines is reserved once, with the names
 * derived from it (a type's _decode, _encode, ...), so that no two things collide; struct members
 * and enum and union constants are made unique the same way. */
#include "emit_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names derived from a type's name: its functions and, for enums and unions, their typedefs. */
const char *const emit_type_derived[] = {"_decode", "_encode", "_cleanup", "_free", NULL};
const char *const emit_enum_derived[] = {"_decode", "_encode", "_cleanup", "_free",
                                         "_value",  "_wire",   NULL};
const char *const emit_union_derived[] = {"_decode", "_encode",    "_cleanup", "_free", "_kind",
                                          "_tag",    "_kind_name", "_common",  NULL};

static bool name_free(emit_ctx *cx, const char *name, const char *const *derived)
{
    if (sdkc_map_get(&cx->names, name))
        return false;
    for (size_t i = 0; derived && derived[i]; i++) {
        char *d = sdkc_arena_printf(cx->arena, "%s%s", name, derived[i]);
        if (!d || sdkc_map_get(&cx->names, d))
            return false;
    }
    return true;
}

/* Reserve a global name (without the prefix) and the names derived from it; when any is taken,
 * try want + suffix, then want + suffix + 2, 3, ... The first free candidate wins, so the
 * result depends only on the names reserved before. */
const char *emit_unique_with(emit_ctx *cx, const char *want, const char *suffix,
                             const char *const *derived, void *owner)
{
    const char *name = want;
    for (int i = 1; !name_free(cx, name, derived); i++) {
        name = i == 1 ? sdkc_arena_printf(cx->arena, "%s%s", want, suffix)
                      : sdkc_arena_printf(cx->arena, "%s%s%d", want, suffix, i);
        if (!name)
            return NULL;
    }
    char *copy = sdkc_arena_strdup(cx->arena, name);
    if (!copy || !sdkc_map_put(&cx->names, copy, owner ? owner : (void *)copy))
        return NULL;
    for (size_t i = 0; derived && derived[i]; i++) {
        if (!emit_reserve(cx, sdkc_arena_printf(cx->arena, "%s%s", copy, derived[i])))
            return NULL;
    }
    return copy;
}

const char *emit_unique(emit_ctx *cx, const char *want, void *owner)
{
    return emit_unique_with(cx, want, "_value", emit_type_derived, owner);
}

bool emit_reserve(emit_ctx *cx, const char *name)
{
    char *copy = name ? sdkc_arena_strdup(cx->arena, name) : NULL;
    return copy && sdkc_map_put(&cx->names, copy, copy);
}

static bool member_taken(const char *const *names, size_t n, const char *const *taken,
                         const char *want)
{
    for (size_t i = 0; i < n; i++) {
        if (names[i] && !strcmp(names[i], want))
            return true;
    }
    for (size_t i = 0; taken && taken[i]; i++) {
        if (!strcmp(taken[i], want))
            return true;
    }
    return false;
}

/* Is want the has_ or _null companion of a field other than self (by the fields' own names)? */
static bool companion_of_other(emit_ctx *cx, size_t n, size_t self, const char *const *safe,
                               const bool *optional, const bool *nullable, const char *want)
{
    size_t len = strlen(want);
    for (size_t j = 0; j < n; j++) {
        if (j == self)
            continue;
        if (optional[j] && len > 4 && !strncmp(want, "has_", 4) && !strcmp(want + 4, safe[j]))
            return true;
        size_t sl = strlen(safe[j]);
        if (nullable[j] && len == sl + 5 && !strncmp(want, safe[j], sl) &&
            !strcmp(want + sl, "_null"))
            return true;
    }
    (void)cx;
    return false;
}

const char **emit_member_names(emit_ctx *cx, size_t n, const char *const *safe,
                               const bool *optional, const bool *nullable, const char *const *taken)
{
    /* every member name in use so far: the field names and their companions */
    const char **used = sdkc_arena_alloc(cx->arena, (3 * n + 1) * sizeof *used);
    const char **out = sdkc_arena_alloc(cx->arena, (n + 1) * sizeof *out);
    if (!used || !out)
        return NULL;
    size_t nused = 0;
    for (size_t i = 0; i < n; i++) {
        /* A field spelled like another field's companion yields: companions keep their form. */
        const char *name = safe[i];
        for (int k = 2;; k++) {
            const char *has = optional[i] ? sdkc_arena_printf(cx->arena, "has_%s", name) : NULL;
            const char *nul = nullable[i] ? sdkc_arena_printf(cx->arena, "%s_null", name) : NULL;
            if ((optional[i] && !has) || (nullable[i] && !nul))
                return NULL;
            bool clash = member_taken(used, nused, taken, name) ||
                         companion_of_other(cx, n, i, safe, optional, nullable, name) ||
                         (has && member_taken(used, nused, taken, has)) ||
                         (nul && member_taken(used, nused, taken, nul));
            for (size_t j = i + 1; j < n && !clash; j++)
                clash = (has && !strcmp(safe[j], has) &&
                         !companion_of_other(cx, n, j, safe, optional, nullable, safe[j])) ||
                        (nul && !strcmp(safe[j], nul) &&
                         !companion_of_other(cx, n, j, safe, optional, nullable, safe[j]));
            if (!clash) {
                used[nused++] = name;
                if (has)
                    used[nused++] = has;
                if (nul)
                    used[nused++] = nul;
                break;
            }
            name = sdkc_arena_printf(cx->arena, "%s_%d", safe[i], k);
            if (!name)
                return NULL;
        }
        out[i] = name;
    }
    return out;
}

/* The constants of enums and unions: PREFIX_TYPE_MEMBER, unique over the whole SDK (a type
 * "a_b" with member "c" and a type "a" with member "b_c" would both give A_B_C). */
static const char *unique_const(emit_ctx *cx, const char *want)
{
    const char *name = want;
    for (int i = 2;; i++) {
        const char *key = sdkc_arena_printf(cx->arena, "#%s", name);
        if (!key)
            return NULL;
        if (!sdkc_map_get(&cx->names, key))
            return emit_reserve(cx, key) ? name : NULL;
        name = sdkc_arena_printf(cx->arena, "%s_%d", want, i);
        if (!name)
            return NULL;
    }
}

bool emit_name_constants(emit_ctx *cx)
{
    for (size_t i = 0; i < cx->norder; i++) {
        ctype *c = cx->order[i];
        bool is_enum = c->t->kind == SDKC_TYPE_ENUM && !c->is_brand;
        bool is_union = c->t->kind == SDKC_TYPE_UNION;
        if (!is_enum && !is_union)
            continue;
        size_t n = is_enum ? c->t->u.enumeration.nvalues : c->nvariants;
        const char *U = sdkc_kit_upper(cx->arena, c->base);
        c->consts = sdkc_arena_alloc(cx->arena, (n + 1) * sizeof *c->consts);
        if (!c->consts || !U)
            return false;
        for (size_t k = 0; k < n; k++) {
            const char *member = is_enum ? c->t->u.enumeration.safe_values[k]
                                         : sdkc_kit_upper(cx->arena, c->variants[k].v->safe_name);
            /* a member's leading '_' only keeps a digit from starting it: after the type's name
               it is not needed (MODE_100644, not MODE__100644) */
            if (member && member[0] == '_' && member[1] >= '0' && member[1] <= '9')
                member++;
            c->consts[k] = member ? unique_const(cx, sdkc_arena_printf(cx->arena, "%s_%s_%s",
                                                                       cx->upper, U, member))
                                  : NULL;
            if (!c->consts[k])
                return false;
        }
        /* The sentinel yields to a member of the contract spelled UNKNOWN. */
        const char *unk = sdkc_arena_printf(cx->arena, "%s_%s_UNKNOWN", cx->upper, U);
        const char *key = unk ? sdkc_arena_printf(cx->arena, "#%s", unk) : NULL;
        if (!key)
            return false;
        if (sdkc_map_get(&cx->names, key))
            unk = sdkc_arena_printf(cx->arena, "%s_%s", unk, is_enum ? "VALUE" : "VARIANT");
        c->unknown_const = unk ? unique_const(cx, unk) : NULL;
        if (!c->unknown_const)
            return false;
    }
    return true;
}
