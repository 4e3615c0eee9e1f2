/* report.c - conformance results: recording, JSON, the readable table, the known-deviation diff. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conform_internal.h"

const char *sdkc_verdict_name(sdkc_verdict v)
{
    switch (v) {
    case SDKC_VERDICT_PASS:
        return "pass";
    case SDKC_VERDICT_DEVIATION:
        return "deviation";
    case SDKC_VERDICT_SKIP:
        return "skip";
    }
    return "?";
}

static char *xstrdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

/* "$.data[3].time" -> "$.data[*].time" */
static char *normalise_path(const char *path)
{
    if (!path)
        return NULL;
    sdkc_buf b = SDKC_BUF_INIT;
    for (const char *s = path; *s; s++) {
        if (*s == '[' && isdigit((unsigned char)s[1])) {
            const char *e = s + 1;
            while (isdigit((unsigned char)*e))
                e++;
            if (*e == ']') {
                sdkc_buf_puts(&b, "[*]");
                s = e;
                continue;
            }
        }
        sdkc_buf_putc(&b, *s);
    }
    return sdkc_buf_steal(&b, NULL);
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

void conform_add(sdkc_conform_report *r, const char *op, const char *probe, const char *check,
                 sdkc_verdict v, const char *path, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    conform_vadd(r, op, probe, check, v, path, rule, NULL, fmt, ap);
    va_end(ap);
}

void conform_vadd(sdkc_conform_report *r, const char *op, const char *probe, const char *check,
                  sdkc_verdict v, const char *path, const char *rule, const char *curl,
                  const char *fmt, va_list ap)
{
    char *npath = normalise_path(path);
    if (path && !npath) {
        r->oom = true;
        return;
    }
    for (size_t i = 0; i < r->n; i++) {
        sdkc_conform_result *x = &r->items[i];
        /* A deviation is one per (operation, check, path, rule), whichever probe saw it: a
           missing required field and a wrong type at one path are two deviations. */
        bool dev = v == SDKC_VERDICT_DEVIATION;
        if (x->verdict == v && same(x->operation, op) && (dev || same(x->probe, probe)) &&
            same(x->check, check) && same(x->path, npath) && same(x->rule, rule)) {
            x->count++;
            free(npath);
            return;
        }
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        sdkc_conform_result *items = realloc(r->items, cap * sizeof *items);
        if (!items) {
            free(npath);
            r->oom = true;
            return;
        }
        r->items = items;
        r->cap = cap;
    }
    sdkc_buf ev = SDKC_BUF_INIT;
    sdkc_buf_vprintf(&ev, fmt, ap);
    sdkc_conform_result *x = &r->items[r->n];
    x->operation = xstrdup(op);
    x->probe = xstrdup(probe);
    x->check = xstrdup(check);
    x->verdict = v;
    x->path = npath;
    x->rule = xstrdup(rule);
    x->evidence = sdkc_buf_steal(&ev, NULL);
    x->count = 1;
    x->curl = v == SDKC_VERDICT_DEVIATION && curl ? xstrdup(curl) : NULL;
    sdkc_buf_cleanup(&ev);
    r->n++;
    if (!x->operation || !x->probe || !x->check || (rule && !x->rule) || !x->evidence ||
        (v == SDKC_VERDICT_DEVIATION && curl && !x->curl))
        r->oom = true;
}

void conform_note_unchecked(sdkc_conform_report *r, const char *pattern, size_t count)
{
    r->unchecked += count;
    for (size_t i = 0; i < r->nunchecked_patterns; i++)
        if (strcmp(r->unchecked_patterns[i], pattern) == 0)
            return;
    char **p = realloc(r->unchecked_patterns, (r->nunchecked_patterns + 1) * sizeof *p);
    if (!p) {
        r->oom = true;
        return;
    }
    r->unchecked_patterns = p;
    p[r->nunchecked_patterns] = xstrdup(pattern);
    if (!p[r->nunchecked_patterns])
        r->oom = true;
    else
        r->nunchecked_patterns++;
}

void sdkc_conform_report_free(sdkc_conform_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        sdkc_conform_result *x = &r->items[i];
        free((char *)x->operation);
        free((char *)x->probe);
        free((char *)x->check);
        free((char *)x->path);
        free((char *)x->rule);
        free((char *)x->evidence);
        free((char *)x->curl);
    }
    free(r->items);
    for (size_t i = 0; i < r->nunchecked_patterns; i++)
        free(r->unchecked_patterns[i]);
    free(r->unchecked_patterns);
    free(r->base_url);
    free(r->contract);
    free(r);
}

size_t sdkc_conform_report_count(const sdkc_conform_report *r)
{
    return r ? r->n : 0;
}

const sdkc_conform_result *sdkc_conform_report_get(const sdkc_conform_report *r, size_t i)
{
    return r && i < r->n ? &r->items[i] : NULL;
}

static size_t count_verdict(const sdkc_conform_report *r, sdkc_verdict v)
{
    size_t n = 0;
    for (size_t i = 0; r && i < r->n; i++)
        n += r->items[i].verdict == v;
    return n;
}

size_t sdkc_conform_report_deviations(const sdkc_conform_report *r)
{
    return count_verdict(r, SDKC_VERDICT_DEVIATION);
}

size_t sdkc_conform_report_skips(const sdkc_conform_report *r)
{
    return count_verdict(r, SDKC_VERDICT_SKIP);
}

size_t sdkc_conform_report_passes(const sdkc_conform_report *r)
{
    return count_verdict(r, SDKC_VERDICT_PASS);
}

size_t sdkc_conform_report_operations(const sdkc_conform_report *r)
{
    return r ? r->operations : 0;
}

size_t sdkc_conform_report_probed(const sdkc_conform_report *r)
{
    return r ? r->probed : 0;
}

size_t sdkc_conform_report_checks(const sdkc_conform_report *r)
{
    size_t n = 0;
    for (size_t i = 0; r && i < r->n; i++)
        if (r->items[i].verdict != SDKC_VERDICT_SKIP)
            n += r->items[i].count;
    return n;
}

bool sdkc_conform_report_stopped(const sdkc_conform_report *r)
{
    return r && (r->interrupted || r->deadline);
}

size_t sdkc_conform_report_unchecked(const sdkc_conform_report *r)
{
    return r ? r->unchecked : 0;
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *result_json(const sdkc_conform_result *x, bool with_verdict)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int rc = 0;
    rc |= json_object_set_new(o, "operation", str_or_null(x->operation));
    rc |= json_object_set_new(o, "probe", str_or_null(x->probe));
    rc |= json_object_set_new(o, "check", str_or_null(x->check));
    if (with_verdict)
        rc |= json_object_set_new(o, "verdict", json_string(sdkc_verdict_name(x->verdict)));
    rc |= json_object_set_new(o, "path", str_or_null(x->path));
    rc |= json_object_set_new(o, "rule", str_or_null(x->rule));
    rc |= json_object_set_new(o, "evidence", str_or_null(x->evidence));
    rc |= json_object_set_new(o, "count", json_integer((json_int_t)x->count));
    if (x->curl)
        rc |= json_object_set_new(o, "curl", json_string(x->curl));
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *sdkc_conform_report_json(const sdkc_conform_report *r)
{
    if (!r)
        return NULL;
    json_t *root = json_object();
    json_t *summary = json_object();
    json_t *results = json_array();
    json_t *devs = json_array();
    json_t *skips = json_array();
    json_t *unchecked = json_array();
    int rc = !root || !summary || !results || !devs || !skips || !unchecked;
    for (size_t i = 0; !rc && i < r->n; i++) {
        const sdkc_conform_result *x = &r->items[i];
        rc |= json_array_append_new(results, result_json(x, true));
        if (x->verdict == SDKC_VERDICT_DEVIATION)
            rc |= json_array_append_new(devs, result_json(x, false));
        if (x->verdict == SDKC_VERDICT_SKIP)
            rc |= json_array_append_new(skips, result_json(x, false));
    }
    for (size_t i = 0; !rc && i < r->nunchecked_patterns; i++)
        rc |= json_array_append_new(unchecked, json_string(r->unchecked_patterns[i]));
    if (!rc) {
        rc |= json_object_set_new(summary, "operations", json_integer((json_int_t)r->operations));
        rc |= json_object_set_new(summary, "probed", json_integer((json_int_t)r->probed));
        rc |= json_object_set_new(summary, "not_probed",
                                  json_integer((json_int_t)(r->operations - r->probed)));
        rc |= json_object_set_new(summary, "checks",
                                  json_integer((json_int_t)sdkc_conform_report_checks(r)));
        rc |= json_object_set_new(summary, "seed", json_integer((json_int_t)r->seed));
        rc |=
            json_object_set_new(summary, "max_examples", json_integer((json_int_t)r->max_examples));
        rc |= json_object_set_new(summary, "stopped",
                                  r->interrupted ? json_string("interrupted")
                                  : r->deadline  ? json_string("max-time")
                                                 : json_null());
        rc |= json_object_set_new(summary, "passes",
                                  json_integer((json_int_t)sdkc_conform_report_passes(r)));
        rc |= json_object_set_new(summary, "deviations",
                                  json_integer((json_int_t)sdkc_conform_report_deviations(r)));
        rc |= json_object_set_new(summary, "skips",
                                  json_integer((json_int_t)sdkc_conform_report_skips(r)));
        rc |= json_object_set_new(summary, "unchecked_pattern_checks",
                                  json_integer((json_int_t)r->unchecked));
        /* conformant only when something was checked: the same rule as exit status 0 */
        rc |= json_object_set_new(summary, "conformant",
                                  json_boolean(sdkc_conform_report_deviations(r) == 0 &&
                                               r->probed > 0 && !sdkc_conform_report_stopped(r)));
        rc |= json_object_set_new(root, "format", json_string("sdkc-conform/1"));
        rc |= json_object_set_new(root, "contract", str_or_null(r->contract));
        rc |= json_object_set_new(root, "base_url", str_or_null(r->base_url));
        rc |= json_object_set_new(root, "summary", summary);
        summary = NULL;
        rc |= json_object_set_new(root, "deviations", devs);
        devs = NULL;
        rc |= json_object_set_new(root, "skips", skips);
        skips = NULL;
        rc |= json_object_set_new(root, "unchecked_patterns", unchecked);
        unchecked = NULL;
        rc |= json_object_set_new(root, "results", results);
        results = NULL;
    }
    json_decref(summary);
    json_decref(devs);
    json_decref(skips);
    json_decref(unchecked);
    json_decref(results);
    if (rc) {
        json_decref(root);
        return NULL;
    }
    return root;
}

/* Evidence on one line, bounded. */
static void put_clipped(FILE *f, const char *s, size_t max)
{
    size_t i = 0;
    for (; s && s[i] && i < max; i++)
        fputc(s[i] == '\n' || s[i] == '\r' || s[i] == '\t' ? ' ' : s[i], f);
    if (s && s[i])
        fputs("...", f);
}

void sdkc_conform_report_print(const sdkc_conform_report *r, FILE *f, bool verbose)
{
    if (!r || !f)
        return;
    fprintf(f, "%-34s %-15s %-28s %-9s %s\n", "OPERATION", "PROBE", "CHECK", "VERDICT", "EVIDENCE");
    for (size_t i = 0; i < r->n; i++) {
        const sdkc_conform_result *x = &r->items[i];
        if (x->verdict == SDKC_VERDICT_PASS && !verbose)
            continue;
        fprintf(f, "%-34s %-15s %-28s %-9s ", x->operation, x->probe, x->check,
                sdkc_verdict_name(x->verdict));
        if (x->path)
            fprintf(f, "%s [%s] ", x->path, x->rule ? x->rule : "");
        put_clipped(f, x->evidence, 200);
        if (x->count > 1)
            fprintf(f, " (x%zu)", x->count);
        fputc('\n', f);
        if (x->curl) {
            fputs("    reproduce: ", f);
            put_clipped(f, x->curl, 2000);
            fputc('\n', f);
        }
    }
    if (!verbose) {
        /* Passes folded: one line per operation with how many checks passed. */
        for (size_t i = 0; i < r->n; i++) {
            const sdkc_conform_result *x = &r->items[i];
            if (x->verdict != SDKC_VERDICT_PASS)
                continue;
            bool first = true;
            for (size_t j = 0; j < i && first; j++)
                first = !(r->items[j].verdict == SDKC_VERDICT_PASS &&
                          strcmp(r->items[j].operation, x->operation) == 0);
            if (!first)
                continue;
            size_t n = 0;
            for (size_t j = i; j < r->n; j++)
                if (r->items[j].verdict == SDKC_VERDICT_PASS &&
                    strcmp(r->items[j].operation, x->operation) == 0)
                    n++;
            fprintf(f, "%-34s %-15s %-28s %-9s %zu check%s passed\n", x->operation, "*", "*",
                    "pass", n, n == 1 ? "" : "s");
        }
    }
    fprintf(f,
            "\n%zu operation%s: %zu probed, %zu not probed; %zu check%s run: %zu deviation%s, "
            "%zu skip%s, %zu pass%s; %zu pattern check%s not performed (unchecked)%s\n",
            r->operations, r->operations == 1 ? "" : "s", r->probed, r->operations - r->probed,
            sdkc_conform_report_checks(r), sdkc_conform_report_checks(r) == 1 ? "" : "s",
            sdkc_conform_report_deviations(r), sdkc_conform_report_deviations(r) == 1 ? "" : "s",
            sdkc_conform_report_skips(r), sdkc_conform_report_skips(r) == 1 ? "" : "s",
            sdkc_conform_report_passes(r), sdkc_conform_report_passes(r) == 1 ? "" : "es",
            r->unchecked, r->unchecked == 1 ? "" : "s",
            r->interrupted ? " [interrupted]"
            : r->deadline  ? " [stopped at --max-time]"
                           : "");
}

static const char *jstr(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

json_t *sdkc_conform_known_load(const char *known_path, FILE *f)
{
    json_error_t jerr;
    json_t *known = json_load_file(known_path, 0, &jerr);
    json_t *list = known ? json_object_get(known, "deviations") : NULL;
    const char *bad = known ? (json_is_array(list) ? NULL : "no \"deviations\" array") : jerr.text;
    for (size_t k = 0; !bad && k < json_array_size(list); k++) {
        json_t *e = json_array_get(list, k);
        if (!json_is_object(e) || !jstr(e, "operation") || !jstr(e, "check"))
            bad = "an entry without \"operation\" and \"check\"";
    }
    if (bad) {
        if (f)
            fprintf(f, "%s: %s\n", known_path, bad);
        json_decref(known);
        return NULL;
    }
    return known;
}

long sdkc_conform_compare_known(const sdkc_conform_report *r, const char *known_path, FILE *f)
{
    json_t *known = sdkc_conform_known_load(known_path, f);
    long diffs = known ? sdkc_conform_compare_known_json(r, known, f) : -1;
    json_decref(known);
    return diffs;
}

long sdkc_conform_compare_known_json(const sdkc_conform_report *r, const json_t *known, FILE *f)
{
    const json_t *list = json_object_get(known, "deviations");
    if (!json_is_array(list))
        return -1;
    long diffs = 0;
    size_t nk = json_array_size(list);
    bool *seen = calloc(nk ? nk : 1, sizeof *seen);
    if (!seen)
        return -1;
    for (size_t i = 0; i < r->n; i++) {
        const sdkc_conform_result *x = &r->items[i];
        if (x->verdict != SDKC_VERDICT_DEVIATION)
            continue;
        /* On the merge key of conform_vadd, (operation, check, path): a deviation keeps the
         * probe and rule that saw it first, which may differ from run to run (-j N). Every
         * entry with that key is seen (a list may name it once per probe or rule). */
        bool found = false;
        for (size_t k = 0; k < nk; k++) {
            json_t *e = json_array_get(list, k);
            if (same(jstr(e, "operation"), x->operation) && same(jstr(e, "check"), x->check) &&
                same(jstr(e, "path"), x->path)) {
                found = true;
                seen[k] = true;
            }
        }
        if (!found) {
            diffs++;
            if (f) {
                fprintf(f, "NEW deviation: %s %s %s %s [%s]: ", x->operation, x->probe, x->check,
                        x->path ? x->path : "-", x->rule ? x->rule : "-");
                put_clipped(f, x->evidence, 300);
                fputc('\n', f);
            }
        }
    }
    for (size_t k = 0; k < nk; k++) {
        if (seen[k])
            continue;
        json_t *e = json_array_get(list, k);
        diffs++;
        if (f)
            fprintf(f, "VANISHED deviation (listed, not seen): %s %s %s %s [%s]\n",
                    jstr(e, "operation") ? jstr(e, "operation") : "?",
                    jstr(e, "probe") ? jstr(e, "probe") : "*",
                    jstr(e, "check") ? jstr(e, "check") : "?",
                    jstr(e, "path") ? jstr(e, "path") : "-",
                    jstr(e, "rule") ? jstr(e, "rule") : "-");
    }
    free(seen);
    return diffs;
}

/* ---- JUnit XML ---- */

/* s as XML text or attribute value: markup escaped, control characters and bytes that are not
 * UTF-8 replaced (bodies quoted in evidence may hold any bytes). */
static void xml_put(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned char c = *p;
        size_t n = c < 0x80             ? 1
                   : (c & 0xE0) == 0xC0 ? 2
                   : (c & 0xF0) == 0xE0 ? 3
                   : (c & 0xF8) == 0xF0 ? 4
                                        : 0;
        bool ok = n > 0 && !(n == 2 && c < 0xC2);
        for (size_t i = 1; ok && i < n; i++)
            ok = (p[i] & 0xC0) == 0x80;
        if (!ok) {
            fputc('?', f);
            p++;
            continue;
        }
        if (n > 1) {
            fwrite(p, 1, n, f);
            p += n;
            continue;
        }
        switch (c) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\n':
        case '\t':
            fputc(' ', f);
            break;
        default:
            fputc(c < 0x20 || c == 0x7F ? ' ' : (char)c, f);
        }
        p++;
    }
}

static bool seen_before(const sdkc_conform_report *r, size_t i, bool by_check)
{
    const sdkc_conform_result *x = &r->items[i];
    for (size_t j = 0; j < i; j++)
        if (strcmp(r->items[j].operation, x->operation) == 0 &&
            (!by_check || strcmp(r->items[j].check, x->check) == 0))
            return true;
    return false;
}

int sdkc_conform_report_junit(const sdkc_conform_report *r, FILE *f)
{
    if (!r || !f)
        return -1;
    size_t tests = 0, failures = 0, skipped = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (seen_before(r, i, true))
            continue;
        tests++;
        bool dev = false, pass = false;
        for (size_t j = i; j < r->n; j++)
            if (strcmp(r->items[j].operation, r->items[i].operation) == 0 &&
                strcmp(r->items[j].check, r->items[i].check) == 0) {
                dev = dev || r->items[j].verdict == SDKC_VERDICT_DEVIATION;
                pass = pass || r->items[j].verdict == SDKC_VERDICT_PASS;
            }
        failures += dev;
        skipped += !dev && !pass;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"sdkc conform ");
    xml_put(f, r->contract);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", tests, failures, skipped);
    /* one suite per operation, one case per check (a deviation fails it; only skips skip it) */
    for (size_t i = 0; i < r->n; i++) {
        if (seen_before(r, i, false))
            continue;
        const char *op = r->items[i].operation;
        fprintf(f, "  <testsuite name=\"");
        xml_put(f, op);
        fprintf(f, "\">\n");
        for (size_t k = i; k < r->n; k++) {
            if (strcmp(r->items[k].operation, op) != 0 || seen_before(r, k, true))
                continue;
            const char *check = r->items[k].check;
            fprintf(f, "    <testcase classname=\"");
            xml_put(f, op);
            fprintf(f, "\" name=\"");
            xml_put(f, check);
            fprintf(f, "\">");
            bool dev = false, pass = false;
            for (size_t j = k; j < r->n; j++) {
                const sdkc_conform_result *x = &r->items[j];
                if (strcmp(x->operation, op) != 0 || strcmp(x->check, check) != 0)
                    continue;
                pass = pass || x->verdict == SDKC_VERDICT_PASS;
                if (x->verdict != SDKC_VERDICT_DEVIATION)
                    continue;
                if (!dev)
                    fprintf(f, "\n      <failure message=\"%s deviation%s\">", check,
                            x->count > 1 ? "s" : "");
                dev = true;
                fprintf(f, "[%s] ", x->probe);
                if (x->path) {
                    xml_put(f, x->path);
                    fprintf(f, " [");
                    xml_put(f, x->rule);
                    fprintf(f, "] ");
                }
                xml_put(f, x->evidence);
                if (x->curl) {
                    fprintf(f, "&#10;  reproduce: ");
                    xml_put(f, x->curl);
                }
                fprintf(f, "&#10;");
            }
            if (dev)
                fprintf(f, "</failure>\n    ");
            if (!dev && !pass) {
                const sdkc_conform_result *x = &r->items[k];
                fprintf(f, "<skipped message=\"");
                xml_put(f, x->evidence);
                fprintf(f, "\"/>");
            }
            fprintf(f, "</testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    return ferror(f) ? -1 : 0;
}
