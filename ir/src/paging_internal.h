/* paging_internal.h - what the files of the paging stage share: a recognition (pgspec) before it
 * is checked, how its problems are reported (pgreport), the field and parameter lookups. Only
 * paging*.c include it. Not installed.
 *
 *   paging.c         checking and adopting a recognition, the config file, the pass
 *   paging_detect.c  recognitions from the extensions and from the heuristics
 */
#ifndef SDKC_PAGING_INTERNAL_H
#define SDKC_PAGING_INTERNAL_H

#include "paging.h"
#include "schema.h"

/* ---- what a recognition says, before it is checked against the operation ---- */

typedef struct pgspec {
    sdkc_page_style style;
    sdkc_page_source source;
    const char *reason;
    bool items_body;   /* the body is the array */
    const char *items; /* path of the items array; NULL (and !items_body): look for it */
    const char *cursor, *next, *previous, *has_more, *id;
    const char *param, *size_param; /* query parameter names */
    /* PAGE_NUMBER, OFFSET: param is declared a string that holds the number (the heuristics
       found its size parameter a string too) */
    bool count_text;
} pgspec;

/* How problems with an explicit recognition are reported: heuristics stay silent (the operation
 * is simply not paginated), an extension the contract carries gets a warning, a config entry an
 * error (the user asked for it). */
typedef struct pgreport {
    cctx *c;
    const sdkc_node *at; /* NULL: silent */
    bool error;
} pgreport;

/* ---- paging.c ---- */

/* Report a problem with an explicit recognition (nothing for a silent one). */
void sdkc_pg_report(const pgreport *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The field at a dotted path of object fields, or NULL. A field whose own name has dots
 * ("odata.nextLink") is taken first. */
const sdkc_field *sdkc_pg_field_at(const sdkc_type *t, const char *path);
bool sdkc_pg_kind_is(const sdkc_type *t, sdkc_type_kind k);
bool sdkc_pg_field_kind(const sdkc_type *t, const char *path, sdkc_type_kind k);
/* Can t carry a page number or offset: an integer or number, or a union with such a variant
 * (PandaScore's `page`: an integer, or an object for page[number] and page[size]). */
bool sdkc_pg_counts(const sdkc_type *t);
/* The first of names that is a query parameter of op (of kind k unless k is -1). */
const char *sdkc_pg_first_param(const sdkc_operation *op, const char *const *names, int k);
/* The first of paths that is a field of t of kind k. */
const char *sdkc_pg_first_field(const sdkc_type *t, const char *const *paths, sdkc_type_kind k);
/* The items of a page body: the body when it is an array; else the first array field with a
 * usual name; else its only array field. NULL when none (or several, none usual). */
const sdkc_type *sdkc_pg_find_items(const sdkc_type *body, const char **field, bool *is_body);
/* Check spec against op and, when it holds, adopt it as op->pagination. */
bool sdkc_pg_adopt_spec(cctx *c, sdkc_operation *op, const pgspec *s, const pgreport *rep);

/* ---- paging_detect.c ---- */

/* opnode: the operation object (a page parameter's default is read there); resp: its success
 * response object. */
void sdkc_pg_heuristics(cctx *c, const sdkc_node *opnode, const sdkc_node *resp,
                        sdkc_operation *op);
void sdkc_pg_items_from_path(pgspec *s, const char *path);
bool sdkc_pg_speakeasy(cctx *c, const sdkc_node *x, sdkc_operation *op);
bool sdkc_pg_fern(cctx *c, const sdkc_node *x, sdkc_operation *op);
/* Stainless names a page type; the fields are found as the heuristics find them, within that
 * type only. An object form may name them: {type, items, param, next, has_more, id}. */
bool sdkc_pg_stainless(cctx *c, const sdkc_node *x, sdkc_operation *op);
/* Azure's x-ms-pageable: {nextLinkName, itemName (default "value")}; a null nextLinkName means
 * one page. */
bool sdkc_pg_ms_pageable(cctx *c, const sdkc_node *x, sdkc_operation *op);

#endif
