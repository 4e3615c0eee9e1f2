/* validate_union.c - the validator's unions: the discriminator's variant, else the closest. */
#include "validate_internal.h"

/* Validate against one variant into a list of its own. */
static void trial(walk *w, const sdkc_type *t, const json_t *value, dev_list *out)
{
    walk sub = *w;
    sub.out = out;
    conform_check_value(&sub, t, value);
}

static const char *variant_label(const sdkc_variant *var, size_t i, sdkc_buf *tmp)
{
    if (var->tag)
        return var->tag;
    if (var->type && var->type->name)
        return var->type->name;
    sdkc_buf_reset(tmp);
    if (var->type && var->type->kind == SDKC_TYPE_LITERAL) {
        const sdkc_literal *l = &var->type->u.literal;
        const char *q = l->kind == SDKC_LIT_STRING ? "\"" : "";
        sdkc_buf_printf(tmp, "%s%s%s", q, l->text ? l->text : "null", q);
        return tmp->data ? tmp->data : "?";
    }
    sdkc_buf_printf(tmp, "#%zu (%s)", i, var->type ? conform_type_kind(var->type->kind) : "?");
    return tmp->data ? tmp->data : "?";
}

void conform_check_union(walk *w, const sdkc_type *t, const json_t *value)
{
    size_t nv = t->u.union_.nvariants;
    const char *disc = t->u.union_.discriminator;
    if (nv == 0) {
        conform_report(w, "union", "the union has no variants");
        return;
    }
    if (disc && json_is_object(value)) {
        json_t *tagv = json_object_get(value, disc);
        if (json_is_string(tagv)) {
            const char *tag = json_string_value(tagv);
            for (size_t i = 0; i < nv; i++)
                if (t->u.union_.variants[i].tag && strcmp(t->u.union_.variants[i].tag, tag) == 0) {
                    conform_check_value(w, t->u.union_.variants[i].type, value);
                    return;
                }
        }
        /* No variant named by the discriminator: fall through to the closest variant, but say
           why first. */
        sdkc_buf d = SDKC_BUF_INIT;
        if (tagv)
            conform_describe(&d, tagv);
        size_t base = w->path->len;
        conform_path_key(w->path, disc);
        conform_report(w, "union",
                       tagv ? "discriminator \"%s\" value %s names no variant"
                            : "discriminator \"%s\" is missing%s",
                       disc, d.data ? d.data : "");
        conform_path_truncate(w->path, base);
        sdkc_buf_cleanup(&d);
    }
    /* Closest variant: fewest deviations, but a variant of the wrong JSON kind altogether (its
       one deviation is a type error at the union's own path) ranks after all others. */
    dev_list best = {0};
    size_t best_i = 0;
    bool have_best = false, best_mismatch = true;
    for (size_t i = 0; i < nv; i++) {
        dev_list l = {0};
        trial(w, t->u.union_.variants[i].type, value, &l);
        if (l.total == 0) {
            w->out->unchecked += l.unchecked;
            conform_dev_list_clear(&l);
            conform_dev_list_clear(&best);
            return;
        }
        /* A variant whose every deviation is at the union's own path (wrong kind, another
           literal or enum value) is no closer than the others: one union line says it all. */
        bool mismatch = l.n == l.total;
        for (size_t k = 0; k < l.n && mismatch; k++)
            mismatch = strcmp(l.items[k].path, w->path->data ? w->path->data : "$") == 0;
        if (!have_best || (best_mismatch && !mismatch) ||
            (mismatch == best_mismatch && l.total < best.total)) {
            conform_dev_list_clear(&best);
            best = l;
            best_i = i;
            best_mismatch = mismatch;
            have_best = true;
        } else {
            conform_dev_list_clear(&l);
        }
    }
    if (best_mismatch) {
        /* Nothing of the right kind: one deviation says so. */
        conform_dev_list_clear(&best);
        sdkc_buf d = SDKC_BUF_INIT, kinds = SDKC_BUF_INIT, tmp = SDKC_BUF_INIT;
        conform_describe(&d, value);
        for (size_t i = 0; i < nv && i < 8; i++)
            sdkc_buf_printf(&kinds, "%s%s", i ? " | " : "",
                            variant_label(&t->u.union_.variants[i], i, &tmp));
        if (nv > 8)
            sdkc_buf_puts(&kinds, " | ...");
        conform_report(w, "union", "no variant of %s matches %s %s (expected %s)",
                       t->name ? t->name : "the union", conform_kind_of(value),
                       d.data ? d.data : "", kinds.data ? kinds.data : "");
        sdkc_buf_cleanup(&d);
        sdkc_buf_cleanup(&kinds);
        sdkc_buf_cleanup(&tmp);
        return;
    }
    if (!disc || !json_is_object(value)) {
        sdkc_buf tmp = SDKC_BUF_INIT;
        conform_report(w, "union", "no variant of %s matches; closest is %s with %zu deviation%s",
                       t->name ? t->name : "the union",
                       variant_label(&t->u.union_.variants[best_i], best_i, &tmp), best.total,
                       best.total == 1 ? "" : "s");
        sdkc_buf_cleanup(&tmp);
    }
    conform_merge_devs(w, w->out, &best);
}
