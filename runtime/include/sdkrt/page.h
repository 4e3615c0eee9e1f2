/* sdkrt/page.h - the pagination engine: from a style descriptor, a page's response and the request
 * that fetched it, the request for the next page (or the end). Generated code describes each
 * paginated operation with one static sdkrt_page_desc and stays thin; docs/pagination.md lists
 * the styles.
 *
 * Everything the engine reads from a page comes from the raw response: the JSON body (through
 * dotted member paths, "links.next") and the Link headers, so it needs nothing from the decoded
 * value. A next URL (NEXT_URL, LINK_HEADER) is resolved against the URL of the page that gave it
 * and followed only when it stays on the client's origin (scheme, host and port of the base URL):
 * the client's credentials are never sent to another host.
 */
#ifndef SDKRT_PAGE_H
#define SDKRT_PAGE_H

#include <stdbool.h>

#include "sdkrt/base.h"
#include "sdkrt/client.h"
#include "sdkrt/error.h"
#include "sdkrt/request.h"
#include "sdkrt/response.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Same order as the IR's sdkc_page_style. */
typedef enum sdkrt_page_style {
    SDKRT_PAGE_CURSOR_OBJECT, /* next (a path such as "cursor.next") in param; only path
                                 parameters and the cursor are sent again */
    SDKRT_PAGE_CURSOR_TOKEN,  /* the token at next in param; the rest of the query kept */
    SDKRT_PAGE_CURSOR_ITEM,   /* the last item's item_id in param while has_more */
    SDKRT_PAGE_NEXT_URL,      /* the URL at next, followed with GET */
    SDKRT_PAGE_LINK_HEADER,   /* the Link header's rel="next" URL, followed with GET */
    SDKRT_PAGE_PAGE_NUMBER,   /* param + 1 (first_page when absent) until an empty or short page */
    SDKRT_PAGE_OFFSET         /* param + items on the page (0 when absent), likewise */
} sdkrt_page_style;

/* How one operation pages (static, read-only; all strings borrowed). Paths are member names
 * joined by '.'; a member whose own name is the whole path ("odata.nextLink") is taken first. */
typedef struct sdkrt_page_desc {
    sdkrt_page_style style;
    const char *items;      /* path of the items array; NULL: the body is the array */
    const char *next;       /* CURSOR_OBJECT, CURSOR_TOKEN, NEXT_URL: path of the cursor or URL */
    const char *param;      /* query parameter the next request sets (cursor styles, numbers) */
    const char *has_more;   /* path of a boolean whose false ends the pages, or NULL */
    const char *item_id;    /* CURSOR_ITEM: the member of the last item sent ("id") */
    const char *size_param; /* PAGE_NUMBER, OFFSET: a page size parameter; a page with fewer
                               items than the request asked for is the last. NULL: none */
    long long first_page;   /* PAGE_NUMBER: the page a request without param got (0 means 1) */
} sdkrt_page_desc;

#define SDKRT_PAGE_DESC_INIT                                                                       \
    {                                                                                              \
        SDKRT_PAGE_CURSOR_TOKEN, NULL, NULL, NULL, NULL, NULL, NULL, 0                             \
    }

/* The request for the page after resp, in *next (new; sdkrt_request_free), or NULL when resp was
 * the last page: no cursor or next link, has_more false, an empty page, or a short page. prev is
 * the request that fetched resp; client, desc, prev and resp are borrowed. Errors:
 * MALFORMED_RESPONSE when the body is not JSON where the style reads it, a next URL that does
 * not parse or leaves the client's origin, or a continuation identical to prev ("the pages do
 * not end: ...": a server repeating itself would loop); INVALID_ARGUMENT when prev's page number
 * or offset is too large to advance (past LLONG_MAX); OUT_OF_MEMORY. */
sdkrt_status sdkrt_page_next(sdkrt_request **next, const sdkrt_client *client,
                             const sdkrt_page_desc *desc, const sdkrt_request *prev,
                             const sdkrt_response *resp, sdkrt_error **err);

/* The target of the first link with relation rel (case-insensitive, one of a space-separated
 * list) in an RFC 8288 Link header value ("<u1>; rel=\"next\", <u2>; rel=last"), in *out (new,
 * free()), or NULL when none. Quoted parameter values may hold ',' and ';'. SDKRT_ERR only when
 * out of memory. */
sdkrt_status sdkrt_link_find(char **out, const char *value, const char *rel);

/* Walks that end (docs/pagination.md): what a walk across pages has seen, so that a server whose
 * pages would go on forever ends it with MALFORMED_RESPONSE ("the pages do not end: ...") after
 * the items it gave. The rules, checked on each page that has a next request: the page is the
 * same body as the page before it, with items; SDKRT_PAGE_EMPTY_MAX empty pages in a row; the
 * next request (method and target) was already sent in this walk (64-bit hashes are kept). The
 * pager applies them; a program walking with sdkrt_page_next applies them with one walk. */
#define SDKRT_PAGE_EMPTY_MAX 10

typedef struct sdkrt_page_walk sdkrt_page_walk;

/* A walk in *out (new; sdkrt_page_walk_free): a new one when from is NULL, else a copy of from
 * (borrowed), so that a walk can be continued from any of its pages. */
sdkrt_status sdkrt_page_walk_new(sdkrt_page_walk **out, const sdkrt_page_walk *from,
                                 sdkrt_error **err);
/* Record one page: sent (through client) fetched resp, whose count items were found, and next is
 * the request sdkrt_page_next made of it (NULL at the end). SDKRT_ERR with MALFORMED_RESPONSE
 * when next must not be sent (the rules above); OUT_OF_MEMORY; the errors of a request that does
 * not build. All borrowed. */
sdkrt_status sdkrt_page_walk_step(sdkrt_page_walk *w, const sdkrt_client *client,
                                  const sdkrt_request *sent, const sdkrt_response *resp,
                                  size_t count, const sdkrt_request *next, sdkrt_error **err);
/* The same rules for a walk by cursor values (OpenCode's cursor object, whose continuation sends
 * the cursor alone): sent is the cursor that fetched the page (NULL for the first page), next the
 * page's next cursor (NULL at the end), param the cursor's query parameter (for the message);
 * a page's body is not compared (a repeated page repeats its cursor). All borrowed. */
sdkrt_status sdkrt_page_walk_cursor(sdkrt_page_walk *w, const char *param, const char *sent,
                                    size_t count, const char *next, sdkrt_error **err);
/* The pages recorded. */
size_t sdkrt_page_walk_pages(const sdkrt_page_walk *w);
void sdkrt_page_walk_free(sdkrt_page_walk *w); /* NULL is a no-op */

/* Items of one page, walked across pages with one page resident: the engine behind every
 * generated _iter. Each page's body is decoded by the caller-supplied decode function (the
 * generated operation's typed mapping) and its items found at items_offset. */
typedef struct sdkrt_pager sdkrt_pager;

/* Decode a page response into *page (new, owned by the pager until the next page; freed with
 * free_page) and point *items / *count at its items array (borrowed from *page). */
typedef sdkrt_status (*sdkrt_page_decode_fn)(const sdkrt_response *resp, void **page,
                                             const void **items, size_t *count, sdkrt_error **err);
typedef void (*sdkrt_page_free_fn)(void *page);

/* A pager (no I/O yet) in *out (new; sdkrt_pager_free). first is copied; client, call (may be
 * NULL), desc are borrowed for the pager's life. item_size is the size of one decoded item. */
sdkrt_status sdkrt_pager_new(sdkrt_pager **out, sdkrt_client *client, const sdkrt_request *first,
                             const sdkrt_call_options *call, const sdkrt_page_desc *desc,
                             sdkrt_page_decode_fn decode, sdkrt_page_free_fn free_page,
                             size_t item_size, sdkrt_error **err);
/* The next item across pages: 1 with *item (borrowed until the next call or free), 0 at the end,
 * -1 with *err (later calls then give 0). The first call fetches the first page. A page whose
 * continuation fails (including pages that do not end, above) gives its items first. */
int sdkrt_pager_next(sdkrt_pager *p, const void **item, sdkrt_error **err);
/* The current page (borrowed) and how many pages were fetched. */
const void *sdkrt_pager_page(const sdkrt_pager *p);
size_t sdkrt_pager_pages(const sdkrt_pager *p);
void sdkrt_pager_free(sdkrt_pager *p); /* NULL is a no-op */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
