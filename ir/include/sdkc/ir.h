/* sdkc/ir.h - the SDK Contract IR: a runtime-neutral model of an HTTP API, compiled from a
 * contract and read by emitters and the conformance checker.
 *
 * Everything here is owned by one sdkc_ir (its arena) and is read-only for emitters. Lists are in
 * source order or name order, never in address order, so output built from the IR is
 * deterministic. Every type has two projections:
 *   wire    what is on the wire (JSON); a JSON_STRING is a string there, a brand is a string;
 *   domain  what an SDK hands its caller; a JSON_STRING is its decoded content type.
 *
 * This header is the model alone. Compiling a contract into it is sdkc/compile.h, IR JSON
 * sdkc/ir_json.h, the naming helpers sdkc/naming.h.
 */
#ifndef SDKC_IR_H
#define SDKC_IR_H

#include "sdkc/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDKC_IR_FORMAT "sdkc-ir/1"

typedef enum sdkc_type_kind {
    SDKC_TYPE_STRING,  /* str: format, pattern, brand, length bounds */
    SDKC_TYPE_INTEGER, /* num: int64 on the domain side; bounds */
    SDKC_TYPE_NUMBER,  /* num: double; bounds */
    SDKC_TYPE_BOOLEAN,
    SDKC_TYPE_NULL,
    SDKC_TYPE_LITERAL,     /* literal: exactly one JSON scalar value */
    SDKC_TYPE_ENUM,        /* enumeration: string values; open (unknown values kept) */
    SDKC_TYPE_ARRAY,       /* array: items */
    SDKC_TYPE_TUPLE,       /* tuple: prefix items, optional rest */
    SDKC_TYPE_MAP,         /* map: string keys to values */
    SDKC_TYPE_OBJECT,      /* object: fields, open or closed */
    SDKC_TYPE_UNION,       /* union_: variants, discriminated or not */
    SDKC_TYPE_NULLABLE,    /* nullable: inner type or JSON null */
    SDKC_TYPE_JSON_STRING, /* json_string: wire string holding JSON of the content type */
    SDKC_TYPE_ANY,         /* any JSON value, kept raw */
    SDKC_TYPE_NEVER        /* no value is valid (`not: {}`) */
} sdkc_type_kind;

/* "string", "integer", ..., "json-string", "any", "never" (the IR JSON spelling). */
const char *sdkc_type_kind_name(sdkc_type_kind k);

typedef struct sdkc_type sdkc_type;

/* An identifier type: a string schema whose pattern fixes a prefix (`^ses`, `^msg_`). Brands are
 * distinct domain types so that one kind of id cannot be passed as another. */
typedef struct sdkc_brand {
    const char *name;      /* "SessionID", derived from the fields that use it */
    const char *safe_name; /* "session_id" */
    const char *prefix;    /* "ses" */
    const char *pattern;   /* the pattern as written: "^ses" */
    size_t uses;           /* how many schemas use it */
} sdkc_brand;

typedef enum sdkc_literal_kind {
    SDKC_LIT_STRING,
    SDKC_LIT_NUMBER, /* text holds the number as written in the contract */
    SDKC_LIT_BOOL,   /* text is "true" or "false" */
    SDKC_LIT_NULL
} sdkc_literal_kind;

typedef struct sdkc_literal {
    sdkc_literal_kind kind;
    const char *text;
} sdkc_literal;

typedef struct sdkc_field {
    const char *wire_name; /* the JSON property name */
    const char *safe_name; /* snake_case, a C identifier, not a keyword, unique in the object */
    const sdkc_type *type; /* NULLABLE when the contract allows null */
    bool required;
    const char *docs; /* description, or NULL */
    sdkc_loc loc;
    /* readOnly: sent by the server only (a request leaves it out; `required` binds responses);
       writeOnly: sent by the client only */
    bool read_only;
    bool write_only;
} sdkc_field;

typedef struct sdkc_variant {
    const sdkc_type *type;
    const char *tag;       /* discriminator value for this variant; NULL in untagged unions */
    const char *safe_name; /* snake_case name for the variant, unique in the union */
} sdkc_variant;

struct sdkc_type {
    sdkc_type_kind kind;
    const char *name;      /* named types: component name or a name derived from context;
                              NULL for anonymous primitives, arrays, maps, nullables */
    const char *safe_name; /* snake_case of name, unique among named types; NULL if anonymous */
    const char *docs;      /* description, or NULL */
    const char *origin;    /* JSON pointer of the schema it came from ("/components/schemas/X") */
    sdkc_loc loc;
    bool recursive; /* reachable from itself: emitters must break the cycle by pointer */
    /* A schema of components.schemas of its own (the contract declared it), not a name the
       compiler made up for an inline schema */
    bool declared;
    /* The kind comes from keywords (`items`, `properties`, `pattern`...) of a schema without
       `type` or composition: JSON Schema applies those keywords only to values of that kind, so
       a value of another JSON kind is valid */
    bool inferred;
    union {
        struct {
            const char *format;      /* "date-time", "binary", ... or NULL */
            const char *pattern;     /* or NULL */
            const sdkc_brand *brand; /* or NULL */
            bool has_min_length, has_max_length;
            uint64_t min_length, max_length;
            /* with a pattern: the schema's own string `example`, `examples`, `default` and
               `enum` values, in that order, for a generator that cannot satisfy the pattern */
            const char *const *examples;
            size_t nexamples;
        } str;
        struct {
            const char *format; /* "int64", "int32", "double", ... or NULL */
            bool has_minimum, has_maximum;
            bool exclusive_minimum, exclusive_maximum;
            double minimum, maximum;
        } num;
        sdkc_literal literal;
        struct {
            const char *const *values;      /* wire strings, in contract order */
            const char *const *safe_values; /* SCREAMING_SNAKE member names, unique */
            size_t nvalues;
        } enumeration;
        struct {
            const sdkc_type *items;
            bool has_min_items, has_max_items;
            uint64_t min_items, max_items;
            bool unique_items; /* uniqueItems: no two items equal (JSON equality) */
        } array;
        struct {
            const sdkc_type *const *items;
            size_t nitems;
            const sdkc_type *rest; /* type of items past the prefix, or NULL if none allowed */
        } tuple;
        struct {
            const sdkc_type *value;
            const char *key_pattern; /* from patternProperties, or NULL */
        } map;
        struct {
            const sdkc_field *fields; /* contract order */
            size_t nfields;
            /* NULL: closed (additionalProperties false); else the type of extra properties
               (ANY for an open object) */
            const sdkc_type *additional;
            /* names the contract requires (the schema's or an allOf member's `required`) that
               no property declares: a value must still have them */
            const char *const *required_only;
            size_t nrequired_only;
        } object;
        struct {
            const sdkc_variant *variants; /* contract order, duplicates removed */
            size_t nvariants;
            const char *discriminator; /* wire name of the tag field ("type", "_tag") or NULL */
        } union_;
        struct {
            const sdkc_type *inner;
            /* added by the compiler, not the contract (a leniency SDKs need for live servers,
               such as null page cursors): the contract does not allow null here */
            bool lenient;
        } nullable;
        struct {
            const char *media_type; /* "application/json" */
            const sdkc_type *content;
        } json_string;
        struct {
            /* NULL when the contract said "any" (`{}`); otherwise why the compiler fell back to
               raw JSON (a warning was also reported at loc) */
            const char *fallback_reason;
        } any;
    } u;
};

typedef enum sdkc_param_in {
    SDKC_PARAM_PATH,
    SDKC_PARAM_QUERY,
    SDKC_PARAM_HEADER,
    SDKC_PARAM_COOKIE
} sdkc_param_in;

typedef enum sdkc_param_style {
    SDKC_STYLE_SIMPLE,      /* path and header default */
    SDKC_STYLE_FORM,        /* query default; arrays as repeated keys when explode */
    SDKC_STYLE_DEEP_OBJECT, /* key[prop]=value */
    SDKC_STYLE_LABEL,
    SDKC_STYLE_MATRIX,
    SDKC_STYLE_SPACE_DELIMITED,
    SDKC_STYLE_PIPE_DELIMITED
} sdkc_param_style;

const char *sdkc_param_in_name(sdkc_param_in in);          /* "path", "query", ... */
const char *sdkc_param_style_name(sdkc_param_style style); /* "simple", "form", "deepObject" */

typedef struct sdkc_param {
    const char *wire_name;
    const char *safe_name; /* unique among the operation's parameters and body */
    sdkc_param_in in;
    sdkc_param_style style;
    bool explode;
    bool required;
    const sdkc_type *type;
    const char *docs;
    sdkc_loc loc;
    bool allow_reserved; /* query: RFC 3986 reserved characters sent unencoded */
} sdkc_param;

typedef enum sdkc_encoding {
    SDKC_ENC_NONE, /* no content (204) */
    SDKC_ENC_JSON,
    SDKC_ENC_SSE,
    SDKC_ENC_BYTES, /* application/octet-stream and other binary */
    SDKC_ENC_TEXT   /* text/... other than event-stream */
} sdkc_encoding;

const char *sdkc_encoding_name(sdkc_encoding e); /* "none", "json", "sse", "bytes", "text" */

/* How one property of a form or multipart body is sent (the media type's `encoding` map). */
typedef struct sdkc_body_encoding {
    const char *property;     /* wire name */
    const char *content_type; /* `contentType`, or NULL */
    bool has_style;           /* `style` or `explode` given (form bodies) */
    sdkc_param_style style;   /* default form */
    bool explode;             /* default: style == form */
    bool allow_reserved;
} sdkc_body_encoding;

typedef struct sdkc_body {
    const char *content_type; /* the default: the first JSON type, else the first listed */
    const sdkc_type *type;
    bool required;
    const char *docs;
    const sdkc_body_encoding *encodings; /* of content_type, in contract order */
    size_t nencodings;
    /* Other media types the operation accepts with the same schema, in contract order (a caller
       may choose one); types whose schema differs are left out with a warning. */
    const char *const *alternatives;
    size_t nalternatives;
} sdkc_body;

/* A response header the contract declares (OpenAPI ignores one named Content-Type). */
typedef struct sdkc_header {
    const char *name; /* as written: "X-Rate-Limit" */
    bool required;
    const char *docs; /* description, or NULL */
} sdkc_header;

/* One parameter an OpenAPI link gives its target operation. */
typedef struct sdkc_link_param {
    const char *name;  /* as written: "itemId", or "path.itemId" */
    const char *value; /* a runtime expression ("$response.body#/id") or a constant's text */
} sdkc_link_param;

/* An OpenAPI link of a response (by operationId; links by operationRef are not kept). */
typedef struct sdkc_link {
    const char *name;              /* the link's key: "GetItem" */
    const char *operation_id;      /* the target's operationId as written */
    const sdkc_link_param *params; /* contract order */
    size_t nparams;
} sdkc_link;

/* What a declared response says besides its body type. */
typedef struct sdkc_response_info {
    const char *const *media_types; /* every `content` key, in contract order */
    size_t nmedia_types;
    const sdkc_header *headers; /* contract order */
    size_t nheaders;
    const sdkc_link *links; /* contract order */
    size_t nlinks;
} sdkc_response_info;

/* A declared response status, as OpenAPI keys responses: an exact status (100..599), a range
 * `1XX`..`5XX` (the class digit, 1..5), or `default` (SDKC_STATUS_DEFAULT: every status not
 * declared otherwise). */
#define SDKC_STATUS_DEFAULT 0
/* Does the declared status key cover the HTTP status? A range covers its class, default all. */
bool sdkc_status_covers(int key, int status);
/* The key as OpenAPI writes it: "404", "4XX", "default" (into buf, returned). */
const char *sdkc_status_text(int key, char *buf, size_t size);

typedef struct sdkc_success {
    int status; /* 200, 201, 204, ...; 2 for a `2XX` range; 0 when no 2xx response
                   is declared: `default` is then the success (OpenAPI), or the
                   operation declares no responses (3.1 may omit them). 0 and 2
                   accept any 2xx status. With neither a 2xx nor default: the lowest
                   declared 3xx (a redirect, whose Location is the answer) */
    sdkc_encoding encoding;
    const char *content_type; /* NULL for NONE */
    const sdkc_type *type;    /* the declared body type (wire), NULL for NONE */
    /* When the body is an object whose only field is `data`, the client returns that field:
       unwrap is "data" and result its type. Otherwise unwrap is NULL and result == type. For
       paginated operations result is the page object itself. */
    const char *unwrap;
    const sdkc_type *result;
    sdkc_response_info response; /* the response's media types, headers and links */
} sdkc_success;

typedef struct sdkc_error_tag {
    const char *tag;       /* the `_tag` literal: "SessionNotFoundError" */
    const sdkc_type *type; /* the error body's object type */
} sdkc_error_tag;

typedef struct sdkc_error_status {
    int status; /* an exact status, a range (4 for 4XX) or SDKC_STATUS_DEFAULT; see above */
    const sdkc_error_tag *tags; /* deduplicated, sorted by tag */
    size_t ntags;
    const sdkc_type *untagged;   /* a body schema without a `_tag` literal, or NULL */
    const char *content_type;    /* "application/json", or NULL when the response has no body */
    sdkc_response_info response; /* the response's media types, headers and links */
} sdkc_error_status;
/* Is the error body declared under a non-JSON media type (text/plain, text/html, XML, ...)? Its
 * untagged type is then a string: the body's text, not JSON (a structured schema under a media
 * range such as star/star stays JSON). */
bool sdkc_error_is_text(const sdkc_error_status *e);

/* How a continuation is formed from a page (docs/pagination.md). */
typedef enum sdkc_page_style {
    SDKC_PAGE_CURSOR_OBJECT, /* {items, cursor: {next, previous}}: next goes in cursor_param
                                (OpenCode) */
    SDKC_PAGE_CURSOR_TOKEN,  /* a token at next_field goes in cursor_param (nextPageToken) */
    SDKC_PAGE_CURSOR_ITEM,   /* the last item's item_id_field goes in cursor_param (starting_after)
                                while has_more_field is true */
    SDKC_PAGE_NEXT_URL,      /* a URL at next_field (absolute or relative to the host), sent as is
                                with GET (next_page_uri, links.next) */
    SDKC_PAGE_LINK_HEADER,   /* the RFC 8288 Link header's rel="next" URL, sent as is with GET */
    SDKC_PAGE_PAGE_NUMBER, /* cursor_param counts pages (1, 2, ...) until an empty or short page */
    SDKC_PAGE_OFFSET       /* cursor_param counts the items seen until an empty or short page */
} sdkc_page_style;

/* "cursor-object", "cursor-token", "cursor-item", "next-url", "link-header", "page-number",
 * "offset" (the IR JSON and config file spelling); sdkc_page_style_parse is the inverse (false
 * for an unknown name). */
const char *sdkc_page_style_name(sdkc_page_style s);
bool sdkc_page_style_parse(const char *name, sdkc_page_style *out);

/* Where a recognition came from. */
typedef enum sdkc_page_source {
    SDKC_PAGE_FROM_HEURISTIC, /* parameter names and response fields of a known shape */
    SDKC_PAGE_FROM_EXTENSION, /* x-speakeasy-pagination, x-fern-pagination, ... */
    SDKC_PAGE_FROM_CONFIG     /* the --pagination file */
} sdkc_page_source;

const char *sdkc_page_source_name(sdkc_page_source s); /* "heuristic", "extension", "config" */
bool sdkc_page_source_parse(const char *name, sdkc_page_source *out);

/* Field paths are wire names joined by '.' ("links.next"): each step is an object field. */
typedef struct sdkc_pagination {
    const sdkc_type *item;          /* the element type of the items array */
    const sdkc_type *page;          /* the success body type */
    const char *items_field;        /* "data"; NULL when the body is the array itself */
    const char *cursor_field;       /* CURSOR_OBJECT: "cursor"; else NULL */
    const char *next_field;         /* CURSOR_OBJECT: "next" (in cursor_field); CURSOR_TOKEN and
                                       NEXT_URL: the path of the token or URL; else NULL */
    const char *previous_field;     /* CURSOR_OBJECT: "previous", or NULL if the page has none */
    const sdkc_param *cursor_param; /* the query parameter a continuation sets (cursor, last id,
                                       page number, offset); NULL for NEXT_URL and LINK_HEADER */
    sdkc_page_style style;
    sdkc_page_source source;
    /* why, for `inspect`: "x-speakeasy-pagination", "heuristic: starting_after + has_more",
       "config pages.json:3:5" */
    const char *reason;
    const char *has_more_field;   /* a boolean path: false ends the pages; or NULL */
    const char *item_id_field;    /* CURSOR_ITEM: the item field sent ("id"); else NULL */
    const sdkc_param *size_param; /* PAGE_NUMBER, OFFSET: the page size parameter ("per_page",
                                     "limit") whose value tells a short page, or NULL */
} sdkc_pagination;

/* A durable stream: each item carries an integer sequence and the operation can be reopened after
 * one, so a client can follow it across reconnects. Detected when the item (every variant of a
 * union item) has an integer field named `seq` or `sequence`, directly or in an object field, at
 * the same wire path, and the operation has a query parameter `after` of type integer or string
 * (a string parameter is sent the decimal text); or given by the `follow` compile option. */
typedef struct sdkc_follow {
    const char *const *sequence; /* wire names from the item to the sequence: {"durable", "seq"} */
    size_t depth;
    const sdkc_param *after_param; /* the query parameter a resume sends */
    bool from_option;              /* given by the follow compile option, not detected */
} sdkc_follow;

typedef struct sdkc_stream {
    sdkc_encoding encoding;    /* SSE */
    const sdkc_type *frame;    /* the declared frame schema, or NULL when the schema is the item */
    const sdkc_type *item;     /* the decoded item type each `data:` carries */
    bool item_encoded;         /* the frame's data is a JSON_STRING of item (x-effect-stream) */
    const char *failure_event; /* "effect/httpapi/stream/failure", or NULL */
    const sdkc_type *cause;    /* the failure frame's data type (a Cause array), or NULL */
    const sdkc_type *error;    /* the Fail cause's error type (NEVER when none), or NULL */
    const sdkc_follow *follow; /* NULL unless durable (see sdkc_follow) */
} sdkc_stream;

typedef struct sdkc_security_scheme {
    const char *name;   /* key in components.securitySchemes, or "basic" when implied */
    const char *type;   /* "http", "apiKey", ... */
    const char *scheme; /* "basic", "bearer" for http */
    const char *in;     /* apiKey: "header", "query", "cookie" */
    const char *param;  /* apiKey: the header or parameter name */
    bool implied;       /* not declared; implied by the HttpApi 401 UnauthorizedError convention */
} sdkc_security_scheme;

/* Where an operation's group came from (docs/naming.md#groups), in the order tried. */
typedef enum sdkc_group_source {
    SDKC_GROUP_NONE,         /* no group: the path has no resource segment (`/`) */
    SDKC_GROUP_EXTENSION,    /* x-speakeasy-group, x-fern-sdk-group-name, x-group, ... */
    SDKC_GROUP_OPERATION_ID, /* the operationId's namespace: "session" of "v2.session.list" */
    SDKC_GROUP_TAG,          /* the first tag: "issues" */
    SDKC_GROUP_PATH          /* the path's first resource segment: "customers" of /v1/customers */
} sdkc_group_source;

/* "none", "extension", "operation-id", "tag", "path" (the IR JSON spelling); parse is the
 * inverse (false for an unknown name). */
const char *sdkc_group_source_name(sdkc_group_source s);
bool sdkc_group_source_parse(const char *name, sdkc_group_source *out);

typedef struct sdkc_operation {
    const char *id;        /* operationId as written: "v2.session.list" */
    const char *prefix;    /* the strippable prefix ("v2"), or NULL */
    const char *group;     /* "session", "issues", "customers"; NULL when none */
    const char *name;      /* in its group: "list"; "revert.stage" keeps inner dots;
                              "list-for-repo" of "issues/list-for-repo"; unique (snake_case) in
                              kept_prefix + group */
    const char *safe_name; /* "session_list", unique among operations */
    /* The prefix when it came back because stripping it made operations meet (one without the
       prefix has the same name or group): the namespace of the group ("v2":
       client.v2.session.list, oc_v2_session_list). NULL when stripped or absent. */
    const char *kept_prefix;
    sdkc_group_source group_source;
    const char *const *tags; /* the operation's tags, in contract order */
    size_t ntags;
    const char *method; /* upper case: "GET" */
    const char *path;   /* template as written: "/api/session/{sessionID}" */
    /* The path key's fragment ("X-Amz-Target=X" of "/#X-Amz-Target=X"), or NULL: never sent
       (RFC 3986); converted AWS contracts tell operations on one path apart with it. */
    const char *fragment;
    const char *summary;
    const char *description;
    bool deprecated;
    const sdkc_param *params; /* path parameters in template order, then query, header, cookie */
    size_t nparams;
    const sdkc_body *body; /* NULL when no request body */
    sdkc_success success;
    /* exact statuses ascending, then ranges ascending, then default: the order in which a
       response status is matched */
    const sdkc_error_status *errors;
    size_t nerrors;
    const sdkc_pagination *pagination; /* NULL unless paginated */
    const sdkc_stream *stream;         /* NULL unless streamed */
    /* The other declared successes when the operation declares several 2xx statuses (or an exact
       2xx and 2XX): exact statuses ascending, then 2XX. `success` is the lowest exact one; each
       decodes as its own type (its `data` unwrapped like the main one). */
    const sdkc_success *more_successes;
    size_t nmore_successes;
    /* The main success (JSON) also offered as text/event-stream in the same response (a request
       flag such as `stream: true` selects it): the operation's stream variant, or NULL. */
    const sdkc_stream *stream_variant;
    /* With a stream variant: the wire name of the request body's boolean field that selects it
       (`stream`, OpenAI style), which the stream form sets to true itself; NULL when the body
       has no such field. */
    const char *stream_flag;
    /* The security requirements, any one of which authenticates the operation, flattened in
       contract order: a requirement of several schemes (all sent together) is a run whose
       entries after the first have security_with_previous set. */
    const sdkc_security_scheme *const *security;
    const bool *security_with_previous; /* NULL when every requirement names one scheme */
    /* One of the requirements is empty (`{}`): the operation also answers without credentials. */
    bool security_optional;
    size_t nsecurity;
    sdkc_loc loc;
} sdkc_operation;

/* The header parameter in which the operation's contract declares an idempotency key (a name
 * ending in "Idempotency-Key", case-insensitively, after a '-' or '_' or alone: Idempotency-Key,
 * X-Idempotency-Key, x-apideck-idempotency-key), or NULL. SDKs send a generated key there when
 * the caller sets none, and then retry a POST or PATCH. */
const sdkc_param *sdkc_operation_idempotency_param(const sdkc_operation *op);

/* The end of the security requirement that starts at op->security[i]: the index after its last
 * scheme (i + 1 for a requirement of one scheme). */
size_t sdkc_security_requirement_end(const sdkc_operation *op, size_t i);

/* A request the API sends rather than serves: an OpenAPI 3.1 webhook (top-level `webhooks`) or a
 * callback of an operation. SDKs emit its types (a receiver decodes body and answers response);
 * no client function calls it. */
typedef struct sdkc_webhook {
    const char *name;       /* the webhook's key ("newPet"), or the callback's ("onData") */
    const char *operation;  /* callbacks: id of the operation declaring it; NULL for a webhook */
    const char *expression; /* callbacks: the URL's runtime expression ("{$request.body#/url}") */
    const char *method;     /* upper case: "POST" */
    const char *id;         /* its operationId, or NULL */
    const sdkc_body *body;  /* the request body sent, or NULL */
    const sdkc_type *response; /* the body of the lowest 2xx answer expected, or NULL */
    sdkc_loc loc;
} sdkc_webhook;

/* A `servers` entry of the contract. */
typedef struct sdkc_server {
    const char *url;         /* server variables replaced by their defaults */
    const char *description; /* or NULL */
    /* An http or https URL with a host and every variable substituted: usable as a base URL.
       False for a relative URL ("/api/v3", resolved against the contract's own location, which
       a client does not know) and for a variable without a default. */
    bool absolute;
    sdkc_loc loc;
} sdkc_server;

typedef struct sdkc_ir {
    const char *source_name;   /* contract file name as given (basename when written as JSON) */
    const char *source_sha256; /* of the contract bytes */
    const char *title;
    const char *version;
    const char *description;
    const sdkc_type *const *types; /* named types, sorted by name */
    size_t ntypes;
    const sdkc_brand *brands; /* sorted by name */
    size_t nbrands;
    const sdkc_operation *ops; /* in path order of the contract, methods in contract order */
    size_t nops;
    const sdkc_security_scheme *schemes;
    size_t nschemes;
    const sdkc_webhook *webhooks; /* webhooks in contract order, then callbacks by operation */
    size_t nwebhooks;
    const sdkc_server *servers; /* the top-level `servers`, in contract order */
    size_t nservers;
    /* The contract declares no security schemes: it says nothing of how callers authenticate, so
       a client sends the credentials it is configured with on every operation (an operation's
       declared 401 or implied scheme never narrows that). */
    bool auth_unspecified;
} sdkc_ir;

/* The default base URL of a client: the first server's URL when it is absolute, else NULL
 * (borrowed). */
const char *sdkc_ir_default_server(const sdkc_ir *ir);

/* Lookups (borrowed, NULL when absent). */
const sdkc_operation *sdkc_ir_operation(const sdkc_ir *ir, const char *id);
const sdkc_type *sdkc_ir_type(const sdkc_ir *ir, const char *name);

#define SDKC_VERSION "0.5.0"

#ifdef __cplusplus
}
#endif
#endif
