/* test_pattern.c - sdkc_pattern_example: a string for a schema `pattern`.
 *
 * The positive cases are real patterns from the public OpenAPI corpus (the mock-test skips of
 * bench/results/mock-corpus-sample200 and the APIs-guru contracts), plus length bounds, escapes
 * and non-ASCII. Each result is compared with the expected string (where one is given), its
 * length in characters is checked against the bounds, and it is matched with regcomp/regexec
 * against a POSIX ERE written by hand for the case: the pattern itself where it already is one,
 * else a translation or, for classes a byte-level ERE cannot say exactly, a smaller language
 * (a match of the smaller one is a match of the pattern): an oracle independent of PCRE2, which
 * the generator verifies with. The shared matcher itself (sdkc/regex.h) is tested at the end.
 */
#include <check.h>
#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdkc/pattern.h"
#include "sdkc/regex.h"
#include "sdkc/util.h"

#define NOMAX SIZE_MAX

/* ---- helpers ---- */

/* Characters (code points) of a UTF-8 string. */
static size_t chars_of(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static bool valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
        if ((*p & 0xF8) == 0xF8 || ((*p & 0xC0) == 0x80))
            return false;
        for (size_t k = 1; k < len; k++)
            if ((p[k] & 0xC0) != 0x80)
                return false;
        p += len;
    }
    return true;
}

/* Does the POSIX ERE find a match in s (under the C locale, bytes)? */
static bool ere_finds(const char *ere, const char *s)
{
    locale_t loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    ck_assert_ptr_nonnull(loc);
    locale_t old = uselocale(loc);
    regex_t re;
    int rc = regcomp(&re, ere, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[128];
        regerror(rc, &re, msg, sizeof msg);
        uselocale(old);
        freelocale(loc);
        ck_abort_msg("the test's ERE %s does not compile: %s", ere, msg);
    }
    bool found = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    uselocale(old);
    freelocale(loc);
    return found;
}

/* ---- real patterns ---- */

typedef struct pcase {
    const char *pattern;
    size_t min, max;
    const char *expect; /* the exact value, or NULL when any value that checks out will do */
    const char *ere;    /* a POSIX ERE for the pattern (or a part of it); NULL: the pattern */
} pcase;

static const pcase POSITIVE[] = {
    {"([A-Z]{3}|[A-Z]{2})|([0-9][A-Z])|([A-Z][0-9])", 0, NOMAX, "AAA", NULL},
    {"^[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\\.[a-zA-Z0-9-.]+$", 0, NOMAX, "a@a.a",
     "^[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\\.[-a-zA-Z0-9.]+$"},
    {"^[a-zA-Z0-9\\/\\._\\-]+$", 1, 50, "a", "^[-a-zA-Z0-9/._]+$"},
    {".*\\S.*", 0, NOMAX, "a", ".*[^[:space:]].*"},
    {"^arn:aws:[A-Za-z0-9][A-Za-z0-9_/.-]{0,62}:[A-Za-z0-9_/.-]{0,63}:[A-Za-z0-9_/"
     ".-]{0,63}:[A-Za-z0-9][A-Za-z0-9:_/+=,@.-]{0,1023}$",
     1, 1011, "arn:aws:a:::a", NULL},
    {"[A-Za-z0-9\\-_\\/]+", 1, 255, "a", "[-A-Za-z0-9_/]+"},
    {"[a-fA-F0-9]{8}(?:-[a-fA-F0-9]{4}){3}-[a-fA-F0-9]{12}", 0, NOMAX,
     "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", "[a-fA-F0-9]{8}(-[a-fA-F0-9]{4}){3}-[a-fA-F0-9]{12}"},
    {"(arn:aws(-[a-z]+)*:resource-groups:[a-z]{2}(-[a-z]+)+-\\d{1}:[0-9]{12}:group/"
     ")?[a-zA-Z0-9_\\.-]{1,300}",
     1, 1600, "a",
     "(arn:aws(-[a-z]+)*:resource-groups:[a-z]{2}(-[a-z]+)+-[0-9]{1}:[0-9]{12}:group/"
     ")?[a-zA-Z0-9_.-]{1,300}"},
    {"[-_a-zA-Z0-9]*", 0, NOMAX, "", NULL},
    {"[0-9a-f]{32}", 0, NOMAX, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL},
    {"[0-9a-zA-Z]$", 0, NOMAX, "a", NULL},
    {"[A-Z]{1,2}[0-9R][0-9A-Z]? [0-9](?:A-Z-245|[^CIKMOV]){2}", 0, NOMAX, "AR 0A-Z-245A-Z-245",
     "[A-Z]{1,2}[0-9R][0-9A-Z]? [0-9](A-Z-245|[^CIKMOV]){2}"},
    {"[A-Za-z][0-9A-Za-z-:._]*", 0, NOMAX, "a", "[A-Za-z][-0-9A-Za-z:._]*"},
    {"[\\s\\S]*", 0, NOMAX, "", ".*"},
    {"[a-z0-9]+$", 0, NOMAX, "a", NULL},
    {"[a-zA-Z0-9][a-zA-Z0-9_:\\.\\-\\/]{0,2047}", 1, 2048, "a",
     "[a-zA-Z0-9][a-zA-Z0-9_:./-]{0,2047}"},
    {"[a-zA-Z][a-zA-Z0-9]*(-[a-zA-Z0-9]+)*", 0, NOMAX, "a", NULL},
    {"\\S+", 0, NOMAX, "a", "[^[:space:]]+"},
    {"^(-?(?:[1-9][0-9]*)?[0-9]{4})-(1[0-2]|0[1-9])-(3[0-1]|0[1-9]|[1-2][0-9])T(2[0-3]|[0-1][0-9]):"
     "([0-5][0-9]):([0-5][0-9])(\\.[0-9]+)?(Z|[+-](?:2[ 0-3]|[0-1][0-9]):[0-5][0-9])+$",
     0, NOMAX, "0000-10-30T20:00:00Z",
     "^(-?([1-9][0-9]*)?[0-9]{4})-(1[0-2]|0[1-9])-(3[0-1]|0[1-9]|[1-2][0-9])T(2[0-3]|[0-1][0-9]):(["
     "0-5][0-9]):([0-5][0-9])(\\.[0-9]+)?(Z|[+-](2[ 0-3]|[0-1][0-9]):[0-5][0-9])+$"},
    {"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$", 0, NOMAX,
     "aa==", "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"},
    {"^(?:first|last|after:\\d+)$", 0, NOMAX, "first", "^(first|last|after:[0-9]+)$"},
    {"^([0-9a-zA-Z][_-]?){1,100}$", 1, 100, "a", NULL},
    {"^([1-9][0-9]*)$", 0, NOMAX, "1", NULL},
    {"^([a-zA-Z0-9]([a-zA-Z0-9\\-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z0-9]([a-zA-Z0-9\\-]{0,61}[a-zA-Z0-"
     "9])?$",
     0, NOMAX, "a.a",
     "^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
     "$"},
    {"^(\\d{12})$", 0, NOMAX, "000000000000", "^([0-9]{12})$"},
    {"^CR[0-9a-fA-F]{32}$", 0, NOMAX, "CRaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL},
    {"^[!-~]{1,1024}$", 0, NOMAX, "a", NULL},
    {"^[-\\w\\._\\(\\)]+$", 0, NOMAX, "a", "^[-A-Za-z0-9_.()]+$"},
    {"^[0-9A-Fa-f]{8}-([0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$", 0, NOMAX,
     "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", NULL},
    {"^[A-Za-z0-9-_.,:/()@!&?#+'\u2019\\s]+$", 0, NOMAX, "a",
     "^([-A-Za-z0-9_.,:/()@!&?#+'[:space:]]|\u2019)+$"},
    {"^[^\\s\\x00]( *[^\\s\\x00])*$", 1, 256, "a", "^[^[:space:]]( *[^[:space:]])*$"},
    {"^[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$", 1, 63, "a",
     "^[a-zA-Z]([a-zA-Z0-9-]*[a-zA-Z0-9])?$"},
    {"^arn:.*", 0, NOMAX, "arn:", NULL},
    {"^arn:[\\w+=/,.@-]+:aws-marketplace:[\\w+=/,.@-]*:[0-9]+:[\\w+=,.@-]+(/[\\w+=,.@-]+)*$", 1,
     1024, "arn:a:aws-marketplace::0:a",
     "^arn:[[:alnum:]_+=/,.@-]+:aws-marketplace:[[:alnum:]_+=/,.@-]*:[0-9]+:[[:alnum:]_+=,.@-]+(/"
     "[[:alnum:]_+=,.@-]+)*$"},
    {"^arn:aws(-(cn|us-gov|iso-b|iso-c|iso-d))?:[A-Za-z0-9][A-Za-z0-9_/.-]{0,62}:[A-Za-z0-9_/"
     ".-]{0,63}:[A-Za-z0-9_/.-]{0,63}:[A-Za-z0-9][A-Za-z0-9:_/+=,@.-]{0,1023}$",
     0, NOMAX, "arn:aws:a:::a", NULL},
    {"^arn:aws:payment-cryptography:[a-z]{2}-[a-z]{1,16}-[0-9]+:[0-9]{12}:(key/"
     "[0-9a-zA-Z]{16,64}|alias/[a-zA-Z0-9/_-]+)$|^alias/[a-zA-Z0-9/_-]+$",
     7, 322, "arn:aws:payment-cryptography:aa-a-0:000000000000:key/aaaaaaaaaaaaaaaa", NULL},
    {"^sg-[0-9a-fA-F]{8,}$", 0, NOMAX, "sg-aaaaaaaa", NULL},
    {"^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ", 0, NOMAX, "ssh-rsa ", NULL},
    {"arn:(\\w|-)+:oam:.+:.+:.+.*", 0, NOMAX, "arn:a:oam:a:a:a",
     "arn:([[:alnum:]_]|-)+:oam:.+:.+:.+.*"},
    {"arn:aws[-a-z]*:wellarchitected:[a-z]{2}(-gov)?-[a-z]+-\\d:\\d{12}:profile/[a-z0-9]+", 0,
     NOMAX, "arn:aws:wellarchitected:aa-a-0:000000000000:profile/a",
     "arn:aws[-a-z]*:wellarchitected:[a-z]{2}(-gov)?-[a-z]+-[0-9]:[0-9]{12}:profile/[a-z0-9]+"},
    {"^\\w+$", 0, NOMAX, "a", "^[[:alnum:]_]+$"},
    {"\\b[0-9a-f]{8}\\b-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-\\b[0-9a-f]{12}\\b", 0, NOMAX,
     "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa", NULL},
    {"^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=)?$", 0, NOMAX, "",
     "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"},
    {"(^$)|(^arn:aws:sns:.*:\\w{12}:.+$)", 0, NOMAX, "",
     "(^$)|(^arn:aws:sns:.*:[[:alnum:]_]{12}:.+$)"},
    {"^i-(\\w{8}|\\w{17})$|^[a-zA-Z]([\\w-]{0,61}\\w)?$", 0, NOMAX, "i-aaaaaaaa",
     "^i-([[:alnum:]_]{8}|[[:alnum:]_]{17})$|^[a-zA-Z]([[:alnum:]_-]{0,61}[[:alnum:]_])?$"},
    {"^[+][1-9][0-9]{4,18}$", 0, NOMAX, "+10000", NULL},
    {"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[-+]\\d{2}:\\d{2})$", 0, NOMAX,
     "0000-00-00T00:00:00Z",
     "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})"
     "$"},
    {"(^0x[A-Fa-f0-9]{0,8}$|^[1-9][0-9]{0,8}$)", 0, NOMAX, "0x", NULL},
    {"^[0-9A-Za-z\u00c6\u00d8\u00c5\u00e6\u00f8\u00e5!\"#$%&()*+,\\-./:;<=>?@\\[\\]\\^_`{|}~ ]+$",
     0, NOMAX, "a",
     "^([]0-9A-Za-z!\"#$%&()*+,./:;<=>?@[^_`{|}~ -]|\u00c6|\u00d8|\u00c5|\u00e6|\u00f8|\u00e5)+$"},
    {"^[^\\u0000\\u0085\\u2028\\u2029\\r\\n]{1,256}$", 1, 256, "a", "^[ -~]{1,256}$"},
    {"[\\u0009\\u000A\\u000D\\u0020-\\u007E\\u0085\\u00A0-\\uD7FF\\uE000-\\uFFFD\\u10000-\\u10FFFF]"
     "+",
     0, NOMAX, "a", "[ -~]+"},
    {"-{5}BEGIN "
     "CERTIFICATE-{5}\\u000D?\\u000A([A-Za-z0-9/+]{64}\\u000D?\\u000A)*[A-Za-z0-9/"
     "+]{1,64}={0,2}\\u000D?\\u000A-{5}END CERTIFICATE-{5}(\\u000D?\\u000A)?",
     0, NOMAX, "-----BEGIN CERTIFICATE-----\na\n-----END CERTIFICATE-----",
     "-{5}BEGIN CERTIFICATE-{5}\r?\n([A-Za-z0-9/+]{64}\r?\n)*[A-Za-z0-9/+]{1,64}={0,2}\r?\n-{5}END "
     "CERTIFICATE-{5}(\r?\n)?"},
    {"^\\s*<(.|\\n)*ManifestConfirmConditionNotification(.|\\n)*>\\s*$", 0, NOMAX,
     "<ManifestConfirmConditionNotification>",
     "^[[:space:]]*<.*ManifestConfirmConditionNotification.*>[[:space:]]*$"},
    {"^[a-z0-9sW "
     "-\u27ef\u4e00-\u9fbf\u3040-\u309f\u30a0-\u30ff\u2e80-\u2fd5\u3190-\u319f\u3400-\u4dbf\u4e00-"
     "\u9fcc\uf900-\ufaad]+$",
     0, NOMAX, "a", "^[a-z0-9sW ]+$"},
    {"^[^\\u0000-\\u00FF]$", 0, NOMAX, "\u0100", "^(\304[\200-\277]|[\305-\337][\200-\277])$"},
    {"[A-Za-z0-9\u00e0\u00e2\u00e8\u00e7\u00f1\u00f3'-_(). ]*", 0, NOMAX, "",
     "([A-Za-z0-9'-_(). ]|\u00e0|\u00e2|\u00e8|\u00e7|\u00f1|\u00f3)*"},
    {"^(af|ap|ca|eu|il|me|mx|sa|us|cn|us-gov)-\\w+-\\d+$", 0, NOMAX, "af-a-0",
     "^(af|ap|ca|eu|il|me|mx|sa|us|cn|us-gov)-[[:alnum:]_]+-[0-9]+$"},
    {"^https?://[-a-zA-Z0-9+\\x38@#/%?=~_|!:,.;]*[-a-zA-Z0-9+\\x38@#/%=~_|]$", 0, NOMAX, "http://a",
     "^https?://[-a-zA-Z0-9+8@#/%?=~_|!:,.;]*[-a-zA-Z0-9+8@#/%=~_|]$"},
    {"^(\\w+-){2,3}\\d+\\w+$", 0, NOMAX, "a-a-0a", "^([[:alnum:]_]+-){2,3}[0-9]+[[:alnum:]_]+$"},
    {"^LakeFormation(?:-V[0-9]+)-([a-zA-Z0-9]+)-([\\\\\\w\\-_:/.@=+]*)$", 0, NOMAX,
     "LakeFormation-V0-a-", "^LakeFormation(-V[0-9]+)-([a-zA-Z0-9]+)-([\\[:alnum:]_:/.@=+-]*)$"},
    {"^\\\\w{0,4}$", 0, NOMAX, "\\", NULL},
    {"\\(\\?i\\)all\\|[0-9]\\{12\\}", 0, NOMAX, "(?i)all|0{12}", "[(][?]i[)]all[|][0-9][{]12[}]"},
    {"^[\\w\\W\\s\\S]*$", 0, NOMAX, "", "^.*$"},
    {"^/v1/issuing/settlements", 0, NOMAX, "/v1/issuing/settlements", NULL},
    {"^(?<year>\\d{4})-(?<month>\\d{2})$", 0, NOMAX, "0000-00", "^([0-9]{4})-([0-9]{2})$"},
    {"^([a-z]+)?[0-9]+?\\.[a-z]*?$", 0, NOMAX, "0.", "^([a-z]+)?[0-9]+\\.[a-z]*$"},
    {"^(\\bAmazonLexTestAlias\\b|[0-9a-zA-Z][_-]?)+$", 0, NOMAX, "AmazonLexTestAlias", NULL},
    {"^arn:aws(-[\\w]+)*:sagemaker:.+:[0-9]{12}:image/[a-z0-9]([-.]?[a-z0-9])*$", 0, NOMAX,
     "arn:aws:sagemaker:a:000000000000:image/a",
     "^arn:aws(-[[:alnum:]_]+)*:sagemaker:.+:[0-9]{12}:image/[a-z0-9]([-.]?[a-z0-9])*$"},
    {"^https:\\/\\/[A-Za-z0-9]((\\.|-+)?[A-Za-z0-9]){0,252}\\/[a-z0-9](-?[a-z0-9]){2,62}$", 0,
     NOMAX, "https://a/aaa",
     "^https://[A-Za-z0-9]((\\.|-+)?[A-Za-z0-9]){0,252}/[a-z0-9](-?[a-z0-9]){2,62}$"},
    {"(\\(|\\)|\\[|\\]|\\{|\\})+", 0, NOMAX, "(", "[][(){}]+"},
    {"^[A-Za-z0-9]((\\.|-+)?[A-Za-z0-9]){0,252}$", 100, 253,
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaaaaaa",
     NULL},
    {"^[a-zA-Z0-9]{1,64}$", 64, 64,
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL},
    {"^[0-9]{4}$", 4, 4, "0000", NULL},
    {"[a-z0-9]+$", 10, 10, "aaaaaaaaaa", NULL},
    {"^(?:first|last|after:\\d+)$", 12, NOMAX, "after:000000", "^(first|last|after:[0-9]+)$"},
    {"^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ", 12, NOMAX, "ssh-ed25519 ", NULL},
    {"([A-Z]{3}|[A-Z]{2})|([0-9][A-Z])|([A-Z][0-9])", 12, 12, "AAAaaaaaaaaa", NULL},
    {"\\bfoo\\b", 8, 8, "foo     ", NULL},
    {"^[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\\.[a-zA-Z0-9-.]+$", 20, 30, "aaaaaaaaaaaaaaaa@a.a",
     "^[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\\.[-a-zA-Z0-9.]+$"},
    {"^arn:aws:[A-Za-z0-9][A-Za-z0-9_/.-]{0,62}:[A-Za-z0-9_/.-]{0,63}:[A-Za-z0-9_/"
     ".-]{0,63}:[A-Za-z0-9][A-Za-z0-9:_/+=,@.-]{0,1023}$",
     30, NOMAX, "arn:aws:aaaaaaaaaaaaaaaaaa:::a", NULL},
    {"^arn:aws:[A-Za-z0-9][A-Za-z0-9_/.-]{0,62}:[A-Za-z0-9_/.-]{0,63}:[A-Za-z0-9_/"
     ".-]{0,63}:[A-Za-z0-9][A-Za-z0-9:_/+=,@.-]{0,1023}$",
     300, NOMAX, NULL, NULL},
    {"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$", 9, 12,
     "aaaaaaaaaa==",
     "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"},
    {"^\\d{3,}:[\\w-]{5,}$", 12, 12, "000000:aaaaa", "^[0-9]{3,}:[[:alnum:]_-]{5,}$"},
    {"^[a-z]{1,3}(\\.[a-z]{1,3})*$", 10, 10, "aaa.aa.a.a", NULL},
    {"^(ab|cde)+$", 7, 7, "cdeabab", NULL},
    {".{6,128}$", 200, 200, NULL, NULL},
    {"^(a(b(c(d(e)?)?)?)?)?$", 3, 3, "abc", NULL},
    {"()", 5, 5, "aaaaa", ""},
    {"^\u00e9+$", 3, 3, "\u00e9\u00e9\u00e9", "^(\u00e9)+$"},
    {"^[^\\x00-\\x7F]{2}$", 0, NOMAX, "\u00c0\u00c0", "^(\u00c0){2}$"},
    {"\U0001f600{2}", 0, NOMAX, "\U0001f600\U0001f600", "(\U0001f600){2}"},
    {"^\\u0041\\x42\\cJ\\t$", 0, NOMAX, "AB\n\t", "^AB\n\t$"},
    {"^[\\b]$", 0, NOMAX, "\b", "^\b$"},
    {"^[\\0a]$", 0, NOMAX, "a", "^a$"},
    {"[^/]+", 0, NOMAX, "a", NULL},
    {"[^a-zA-Z0-9]", 0, NOMAX, "!", NULL},
    {"\\W", 0, NOMAX, "!", "[^[:alnum:]_]"},
    {"\\s", 0, NOMAX, " ", "[[:space:]]"},
    {"[^\\w\\s]", 0, NOMAX, "!", "[^[:alnum:]_[:space:]]"},
    {"\\D\\S\\W", 0, NOMAX, "aa!", "[^0-9][^[:space:]][^[:alnum:]_]"},
    {"a.c", 0, NOMAX, "aac", NULL},
    {"(?:a|b|)+c", 0, NOMAX, "ac", "(a|b)*c"},
    {"[\\w-_]+", 0, NOMAX, "a", "[[:alnum:]_-]+"},
    {"x*?y+?z?\?", 0, NOMAX, "y", "x*y+z?"},
    {"a{", 0, NOMAX, "a{", "a[{]"},
    {"]}", 0, NOMAX, "]}", "[]][}]"},
    {"^(?:\\d+|x){2}$", 0, NOMAX, "00", "^([0-9]+|x){2}$"},
    {"(\\b)+a|(?:^)*b", 0, NOMAX, "a", "\\ba|b"},
    {"a|^b$", 3, 3, "aaa", "a"},
};
#define NPOSITIVE (sizeof POSITIVE / sizeof POSITIVE[0])

START_TEST(real_patterns)
{
    const pcase *t = &POSITIVE[_i];
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    const char *why = "unset";
    const char *v = sdkc_pattern_example(a, t->pattern, t->min, t->max, &why);
    ck_assert_msg(v != NULL, "%s [%zu, %zu]: no value: %s", t->pattern, t->min, t->max,
                  why ? why : "(no reason)");
    ck_assert_ptr_null(why);
    ck_assert(valid_utf8(v));
    size_t n = chars_of(v);
    ck_assert_msg(n >= t->min && n <= t->max, "%s: %zu characters, outside [%zu, %zu]", t->pattern,
                  n, t->min, t->max);
    if (t->expect)
        ck_assert_str_eq(v, t->expect);
    ck_assert_msg(ere_finds(t->ere ? t->ere : t->pattern, v), "%s: %s does not match the ERE %s",
                  t->pattern, v, t->ere ? t->ere : t->pattern);
    /* the same again: no hidden state */
    const char *again = sdkc_pattern_example(a, t->pattern, t->min, t->max, NULL);
    ck_assert_ptr_nonnull(again);
    ck_assert_str_eq(again, v);
    sdkc_arena_free(a);
}
END_TEST

/* ---- rejections: NULL and a reason ---- */

typedef struct ncase {
    const char *pattern;
    size_t min, max;
    const char *reason; /* a part of the reason */
} ncase;

static const ncase NEGATIVE[] = {
    /* corpus: PCRE-isms, slashes as delimiters */
    {"^(?<!-)a(?<=b)$", 0, NOMAX, "lookaround assertion could not be satisfied"},
    {"^(?=.*[0-9])[a-z0-9]{8}$", 0, NOMAX, "lookaround assertion could not be satisfied"},
    {"(?<=a+)b", 0, NOMAX, "lookbehind assertion is not fixed length"},
    {"^\\p{Nope}$", 0, NOMAX, "unknown property"},
    {"^[\\p{Nope}a]$", 0, NOMAX, "unknown property"},
    {"\\p{L", 0, NOMAX, "malformed \\p{...} escape"},
    {"\\A[a-zA-Z0-9_]+\\z", 0, NOMAX, "unsupported escape \\A"},
    {"/(?P<product_ref>.*)-.*/", 0, NOMAX, "inline flags"},
    {"(?i)^[a-z]+$", 0, NOMAX, "inline flags"},
    {"[^/:|\\000-\\037]+", 0, NOMAX, "octal escapes are not supported"},
    {"^([$\\-._+!*\\x{60}(),;/?:@=&\\w]|%([0-9a-fA-F?]{2}|[0-9a-fA-F?]?[*]))+$", 0, NOMAX,
     "malformed \\x escape"},
    {"/^[0-9]{5}$/i", 0, NOMAX, "cannot match any string"},
    {" ^[-\\w\\._\\(\\)]+[^\\.]$", 0, NOMAX, "cannot match any string"},
    {"^([0-1]\\d|2[0-3]):[0-5]\\d$:[0-5]\\d$", 0, NOMAX, "cannot match any string"},
    /* backreferences */
    {"(a)\\1", 0, NOMAX, "backreferences are not supported"},
    {"(?<n>a)\\k<n>", 0, NOMAX, "backreferences are not supported"},
    /* syntax errors */
    {"[z-a]", 0, NOMAX, "range out of order"},
    {"a{3,2}", 0, NOMAX, "out of order"},
    {"*a", 0, NOMAX, "nothing to repeat"},
    {"a**", 0, NOMAX, "nothing to repeat"},
    {"a{2}{3}", 0, NOMAX, "nothing to repeat"},
    {"^*", 0, NOMAX, "nothing to repeat"},
    {"\\b+", 0, NOMAX, "nothing to repeat"},
    {"{2}", 0, NOMAX, "nothing to repeat"},
    {"(ab", 0, NOMAX, "a ( is not closed"},
    {"ab)", 0, NOMAX, "a ) without a ("},
    {"((a)|b", 0, NOMAX, "not closed"},
    {"[abc", 0, NOMAX, "unterminated character class"},
    {"abc\\", 0, NOMAX, "ends with a backslash"},
    {"\\u12", 0, NOMAX, "malformed \\u escape"},
    {"\\u{110000}", 0, NOMAX, "malformed \\u{...} escape"},
    {"\\c1", 0, NOMAX, "malformed \\c escape"},
    {"(?<1a>x)", 0, NOMAX, "malformed group name"},
    {"[\\B]", 0, NOMAX, "\\B inside a character class"},
    {"\xff\xfe", 0, NOMAX, "not valid UTF-8"},
    {"a\xc3", 0, NOMAX, "not valid UTF-8"},
    /* 'u'-only and 'u'-rejected syntax together: the meaning depends on the flag */
    {"\\u{1F600}+]", 0, NOMAX, "mixes syntax"},
    {"\U0001f600{2}\\-", 0, NOMAX, "mixes syntax"},
    /* length bounds */
    {"^[0-9]{4}$", 5, 10, "no string of the length bounds"},
    {"^[0-9]{4}$", 0, 3, "within [0, 3]"},
    {"[0-9a-f]{32}", 0, 10, "no string of the length bounds"},
    {"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$", 9, 11, "length bounds"},
    {"^(ab|cde)+$", 1, 1, "length bounds"},
    {"^$", 1, 5, "length bounds"},
    {"a", 5, 4, "length bounds"},
    {"a", 4097, NOMAX, "4096-character limit"},
    {"^a{5}$", 6, NOMAX, "up to the 4096-character limit"},
    /* what cannot be generated */
    {"^\\0$", 0, NOMAX, "cannot match any string"},
    {"^\\uD800$", 0, NOMAX, "cannot match any string"},
    {"[]", 0, NOMAX, "cannot match any string"},
    {"[^\\s\\S]+", 0, NOMAX, "cannot match any string"},
    {"$a", 0, NOMAX, "cannot match any string"},
    {"a^", 0, NOMAX, "cannot match any string"},
    {"a\\bb", 0, NOMAX, "word boundary"},
    {"^\\b$", 0, NOMAX, "word boundary"},
    /* hostile */
    {"a{99999}", 0, NOMAX, "longer than the 4096-character limit"},
    {"(a{100}){100}", 0, NOMAX, "longer than the 4096-character limit"},
};
#define NNEGATIVE (sizeof NEGATIVE / sizeof NEGATIVE[0])

/* Lookaround and Unicode properties: the generator takes a lookaround as empty and sets with a
 * property from the characters PCRE2 says are members; every value is verified with PCRE2. The
 * expected values are checked here by hand. */
static const struct {
    const char *pattern;
    size_t min, max;
    const char *expect;
} LOOK_PROP[] = {
    {"(?!^.*--)(?!^[0-9]+$)(?!^-)(?!.*-$)^[A-Za-z0-9-]+$", 0, NOMAX, "a"},
    {"((?=^.{1,127}$)^([a-zA-Z0-9_][a-zA-Z0-9-_]{0,61}[a-zA-Z0-9_]|[a-zA-Z0-9])(\\.([a-zA-Z0-9_]"
     "[a-zA-Z0-9-_]{0,61}[a-zA-Z0-9_]|[a-zA-Z0-9]))*$)|(^\\.$)",
     0, NOMAX, "aa"},
    {"^(?!env-)[a-zA-Z0-9]+[a-zA-Z0-9-_ ]+$", 0, NOMAX, "aa"},
    {"(arn:aws[a-z\\-]*:sagemaker:[a-z0-9\\-]*:[0-9]{12}:[a-z\\-]*\\/)?([a-zA-Z0-9]([a-zA-Z0-9-])"
     "{0,62})(?<!-)$",
     0, NOMAX, "a"},
    {"^(?=a)[a-z]{3}$", 0, NOMAX, "aaa"},
    /* the lookaround missed by the shortest string: longer ones are tried */
    {"^(?=.{8,})[a-z]*$", 0, NOMAX, "aaaaaaaa"},
    {"(?!\\s*$)[\\u0020-\\uD7FF\\uE000-\\uFFFD\\uD800\\uDBFF-\\uDC00\\uDFFF\\t\\r\\n]*", 0, NOMAX,
     "a"}, /* surrogates in a class: none matches, the rest of the class stands */
    {"[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*", 0, NOMAX, ""},
    {"[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*", 3, 3, "aaa"},
    {"^[\\p{L}\\p{Z}\\p{N}_.:/=\\-@]*$|resource-groups:ResourceTypeFilters|resource-groups:Name", 0,
     NOMAX, ""},
    {"arn:(aws|aws-us-gov|aws-cn|aws-iso|aws-iso-b):iam::aws:policy/"
     "[\\p{L}\\p{M}\\p{Z}\\p{S}\\p{N}\\p{P}]+",
     0, NOMAX, "arn:aws:iam::aws:policy/a"},
    {"^\\p{Lu}\\p{Ll}+$", 0, NOMAX, "Aa"},
    {"[^\\p\\{C\\}]*\\+", 0, NOMAX, "+"}, /* Annex B: \p without a name is p */
    {"^\\p{Letter}{2}$", 0, NOMAX, "aa"},
    {"^\\p{Greek}{2}$", 0, NOMAX, "\u0391\u0391"},
    {"^\\p{Script=Han}$", 0, NOMAX, "\u4e00"},
    {"^\\p{gc=Nd}+$", 0, NOMAX, "0"},
    {"^[^\\p{L}\\p{N}]$", 0, NOMAX, "!"},
    {"^\\P{L}$", 0, NOMAX, "0"},
    {"^[\\p{Lu}\\u00e9]+$", 0, NOMAX, "A"},
};
#define NLOOK_PROP (sizeof LOOK_PROP / sizeof LOOK_PROP[0])

START_TEST(lookaround_and_properties)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    const char *why = NULL;
    const char *v =
        sdkc_pattern_example(a, LOOK_PROP[_i].pattern, LOOK_PROP[_i].min, LOOK_PROP[_i].max, &why);
    ck_assert_msg(v != NULL, "%s: %s", LOOK_PROP[_i].pattern, why);
    ck_assert_msg(!strcmp(v, LOOK_PROP[_i].expect), "%s: \"%s\", expected \"%s\"",
                  LOOK_PROP[_i].pattern, v, LOOK_PROP[_i].expect);
    sdkc_arena_free(a);
}
END_TEST

static char *repeat(const char *unit, size_t n, const char *mid, const char *close);

/* ---- the shared matcher (sdkc/regex.h): ECMAScript meaning on PCRE2, limits ---- */

static int rx(const char *pattern, const char *s)
{
    sdkc_regex *re = NULL;
    const char *why = NULL;
    sdkc_status st = sdkc_regex_new(&re, pattern, NULL, &why);
    ck_assert_msg(st == SDKC_OK, "%s: %s", pattern, why);
    int r = sdkc_regex_match(re, s, strlen(s), &why);
    sdkc_regex_free(re);
    return r;
}

static const char *rx_refused(const char *pattern)
{
    sdkc_regex *re = NULL;
    const char *why = NULL;
    ck_assert_int_eq(sdkc_regex_new(&re, pattern, NULL, &why), SDKC_ERR_INVALID);
    ck_assert_ptr_null(re);
    ck_assert_ptr_nonnull(why);
    return why;
}

START_TEST(regex_semantics)
{
    /* \d \w \b are ASCII; \s is ECMAScript's white space; . and $ as in ECMAScript */
    ck_assert_int_eq(rx("^\\d$", "7"), 1);
    ck_assert_int_eq(rx("^\\d$", "\u0663"), 0); /* ARABIC-INDIC THREE */
    ck_assert_int_eq(rx("^\\w+$", "caf\u00e9"), 0);
    ck_assert_int_eq(rx("\\bb", "\u00e9b"), 1); /* é is not a word character: a boundary */
    ck_assert_int_eq(rx("^\\s$", "\u00a0"), 1);
    ck_assert_int_eq(rx("^\\s$", "\ufeff"), 1);
    ck_assert_int_eq(rx("^[\\S]$", "\u2028"), 0);
    ck_assert_int_eq(rx("^[\\S]$", "x"), 1);
    ck_assert_int_eq(rx("^.$", "\r"), 0);
    ck_assert_int_eq(rx("^.$", "\u2029"), 0);
    ck_assert_int_eq(rx("^.$", "\U0001f600"), 1); /* one character in Unicode mode */
    ck_assert_int_eq(rx("^a$", "a\n"), 0);        /* $ is the end only */
    ck_assert_int_eq(rx("^\\v$", "\v"), 1);
    ck_assert_int_eq(rx("^\\v$", "\n"), 0);
    /* escapes */
    ck_assert_int_eq(rx("^\\u{1F600}$", "\U0001f600"), 1);
    ck_assert_int_eq(rx("^\\uD83D\\uDE00$", "\U0001f600"), 1); /* a surrogate pair */
    ck_assert_int_eq(rx("^\\x41\\u0042$", "AB"), 1);
    ck_assert_int_eq(rx("^\\cJ$", "\n"), 1);
    ck_assert_int_eq(rx("^a\\0b$", "a"), 0);
    ck_assert_int_eq(rx("^\\a\\e\\z$", "aez"), 1); /* Annex B: escaped letters are letters */
    ck_assert_int_eq(rx("^\\uD800$", "x"), 0);     /* a lone surrogate matches nothing */
    ck_assert_int_eq(rx("^[\\uD800]$", "x"), 0);
    ck_assert_int_eq(rx("^[^\\uD800]$", "x"), 1);
    ck_assert_int_eq(rx("^[a\\uD800-\\uFFFF]+$", "a\ue000"), 1);
    ck_assert_int_eq(rx("^[a\\uD800-\\uFFFF]+$", "b"), 0);
    ck_assert_int_eq(rx("^[\\u0100-\\uDBFF]$", "\ud7ff"), 1);
    ck_assert_int_eq(rx("^[\\uD800-\\uDBFFx]$", "x"), 1);
    /* classes */
    ck_assert_int_eq(rx("^[^]$", "\n"), 1);
    ck_assert_int_eq(rx("[]", "anything"), 0);
    ck_assert_int_eq(rx("^[\\w-]+$", "a-b"), 1);
    ck_assert_int_eq(rx("^[\\w-.]+$", "a-.b"), 1);  /* Annex B: - after a class escape */
    ck_assert_int_eq(rx("^[[:alpha:]]$", ":]"), 1); /* no POSIX classes: [[:alpha:] then ] */
    ck_assert_int_eq(rx("^[\\b]$", "\b"), 1);
    ck_assert_int_eq(rx("^[a#]$", "#"), 1);
    /* lone braces, lookaround, back references, properties */
    ck_assert_int_eq(rx("^a{$", "a{"), 1);
    ck_assert_int_eq(rx("^a{,2}$", "a{,2}"), 1);
    ck_assert_int_eq(rx("^x}$", "x}"), 1);
    ck_assert_int_eq(rx("^(?!foo)\\w+$", "foobar"), 0);
    ck_assert_int_eq(rx("^(?!foo)\\w+$", "barfoo"), 1);
    ck_assert_int_eq(rx("(?<=\\$)\\d+", "$12"), 1);
    ck_assert_int_eq(rx("(?<!\\$)\\b\\d+", "$12"), 0);
    ck_assert_int_eq(rx("^(a)\\1$", "aa"), 1);
    ck_assert_int_eq(rx("^(?:(a)|b)\\1$", "b"), 1); /* an unset group matches empty */
    ck_assert_int_eq(rx("^(?<q>['\"]).*\\k<q>$", "'x'"), 1);
    ck_assert_int_eq(rx("^\\p{L}+$", "\u00c5sa"), 1);
    ck_assert_int_eq(rx("^\\p{L}+$", "a1"), 0);
    ck_assert_int_eq(rx("^\\p{Lowercase_Letter}$", "\u00e9"), 1);
    ck_assert_int_eq(rx("^\\p{General_Category=Decimal_Number}$", "\u0663"), 1);
    ck_assert_int_eq(rx("^\\p{sc=Cyrillic}$", "\u0416"), 1);
    ck_assert_int_eq(rx("^\\P{L}$", "\u0416"), 0);
    ck_assert_int_eq(rx("^a{2,3}?$", "aaa"), 1);
    ck_assert_int_eq(rx("^[\\p{Ll}&&]$", "&"), 1); /* no class intersection without 'v' */
    /* counts PCRE2 does not take are rewritten */
    ck_assert_int_eq(rx("^a{70000}$", "a"), 0);
    ck_assert_int_eq(rx("^a{0,70000}$", "aaa"), 1);
    ck_assert_int_eq(rx("^[ab]{1,100000}$", "abab"), 1);
    ck_assert_int_eq(rx("^x{5,200000}$", "xxxx"), 0);
    ck_assert_ptr_nonnull(strstr(rx_refused("^(?:ab){1,100000}$"), "")); /* PCRE2: too large */
    /* what ECMAScript does not have, or PCRE2 cannot run */
    ck_assert_ptr_nonnull(strstr(rx_refused("(?i)abc"), "inline flags"));
    ck_assert_ptr_nonnull(strstr(rx_refused("a*+"), "possessive"));
    ck_assert_ptr_nonnull(strstr(rx_refused("(*LIMIT_MATCH=99999999)a"), "(* is not ECMAScript"));
    ck_assert_ptr_nonnull(strstr(rx_refused("(?P<x>a)"), "does not have"));
    ck_assert_ptr_nonnull(strstr(rx_refused("a\\"), "backslash"));
    ck_assert_ptr_nonnull(strstr(rx_refused("[a"), "unterminated"));
    ck_assert_ptr_nonnull(strstr(rx_refused("\\01"), "octal"));
    ck_assert_ptr_nonnull(strstr(rx_refused("(a){70000}"), "65535"));
    ck_assert_ptr_nonnull(strstr(rx_refused("{0,70000}"), "nothing to repeat"));
    ck_assert_ptr_nonnull(strstr(rx_refused("a|{70000}"), "nothing to repeat"));
    ck_assert_ptr_nonnull(rx_refused("(?<=a+)b"));
    ck_assert_ptr_nonnull(rx_refused("\\p{NoSuchProperty}"));
    ck_assert_ptr_nonnull(rx_refused("(a"));
    char *deep = repeat("(", 100, "a", ")");
    ck_assert_ptr_nonnull(strstr(rx_refused(deep), "nested"));
    free(deep);
    char *huge = repeat("a", SDKC_REGEX_MAX_BYTES + 1, "", "");
    ck_assert_ptr_nonnull(strstr(rx_refused(huge), "32768-byte limit"));
    free(huge);
    /* a subject that is not UTF-8 has no answer */
    sdkc_regex *re = NULL;
    const char *why = NULL;
    ck_assert_int_eq(sdkc_regex_new(&re, "a", NULL, &why), SDKC_OK);
    ck_assert_int_eq(sdkc_regex_match(re, "\xff", 1, &why), SDKC_REGEX_LIMIT);
    ck_assert_ptr_nonnull(strstr(why, "UTF-8"));
    ck_assert_int_eq(sdkc_regex_match(re, "x\0a", 3, &why), SDKC_REGEX_MATCH); /* NUL inside */
    sdkc_regex_free(re);
    sdkc_regex_free(NULL);
}
END_TEST

START_TEST(regex_limits)
{
    /* catastrophic backtracking ends at the match limit with a clear outcome, not a hang */
    static const char *const bad[] = {"^(a+)+$", "^(a|a)*$", "^(\\w+\\s?)*$", "^(a|aa)+$"};
    char *s = repeat("a", 60, "!", "");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sdkc_regex *re = NULL;
        const char *why = NULL;
        ck_assert_int_eq(sdkc_regex_new(&re, bad[i], NULL, &why), SDKC_OK);
        ck_assert_int_eq(sdkc_regex_match(re, s, strlen(s), &why), SDKC_REGEX_LIMIT);
        ck_assert_msg(why && strstr(why, "limit"), "%s: %s", bad[i], why ? why : "(null)");
        ck_assert_int_eq(sdkc_regex_match(re, "aaaa", 4, &why), SDKC_REGEX_MATCH);
        sdkc_regex_free(re);
    }
    free(s);
    /* deep recursion on a long subject */
    s = repeat("ab", 200000, "", "");
    ck_assert_int_ne(rx("^(?:(a)|b)*$", s), SDKC_REGEX_NOMATCH);
    free(s);
}
END_TEST

START_TEST(regex_cache)
{
    sdkc_regex_cache *c = NULL;
    ck_assert_int_eq(sdkc_regex_cache_new(&c), SDKC_OK);
    const sdkc_regex *r1 = NULL, *r2 = NULL;
    const char *why = NULL;
    ck_assert_int_eq(sdkc_regex_cache_get(c, &r1, "^a+$", &why), SDKC_OK);
    ck_assert_int_eq(sdkc_regex_cache_get(c, &r2, "^a+$", &why), SDKC_OK);
    ck_assert_ptr_eq(r1, r2); /* compiled once */
    ck_assert_int_eq(sdkc_regex_match(r1, "aa", 2, NULL), SDKC_REGEX_MATCH);
    ck_assert_int_eq(sdkc_regex_cache_get(c, &r2, "(?i)a", &why), SDKC_ERR_INVALID);
    ck_assert_ptr_null(r2);
    ck_assert_ptr_nonnull(strstr(why, "inline flags"));
    ck_assert_int_eq(sdkc_regex_cache_get(c, &r2, "(?i)a", &why), SDKC_ERR_INVALID);
    ck_assert_int_eq(sdkc_regex_cache_get(c, &r2, "(?<=a+)", &why), SDKC_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(why, "lookbehind"));
    for (int i = 0; i < 100; i++) {
        char p[32];
        snprintf(p, sizeof p, "^x{%d}$", i);
        ck_assert_int_eq(sdkc_regex_cache_get(c, &r2, p, &why), SDKC_OK);
    }
    ck_assert_int_eq(sdkc_regex_cache_get(c, &r2, "^a+$", &why), SDKC_OK);
    ck_assert_ptr_eq(r1, r2);
    sdkc_regex_cache_free(c);
    sdkc_regex_cache_free(NULL);
}
END_TEST

START_TEST(rejected_patterns)
{
    const ncase *t = &NEGATIVE[_i];
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    const char *why = NULL;
    const char *v = sdkc_pattern_example(a, t->pattern, t->min, t->max, &why);
    ck_assert_msg(v == NULL, "%s [%zu, %zu]: unexpected value \"%s\"", t->pattern, t->min, t->max,
                  v ? v : "");
    ck_assert_ptr_nonnull(why);
    ck_assert_msg(strstr(why, t->reason) != NULL, "%s: reason \"%s\", expected \"%s\"", t->pattern,
                  why, t->reason);
    sdkc_arena_free(a);
}
END_TEST

/* ---- hostile inputs: NULL and a reason (or a value), no crash, no hang ---- */

static char *repeat(const char *unit, size_t n, const char *mid, const char *close)
{
    size_t u = strlen(unit), m = strlen(mid), cl = strlen(close);
    char *s = malloc(n * (u + cl) + m + 1);
    ck_assert_ptr_nonnull(s);
    size_t k = 0;
    for (size_t i = 0; i < n; i++, k += u)
        memcpy(s + k, unit, u);
    memcpy(s + k, mid, m);
    k += m;
    for (size_t i = 0; i < n; i++, k += cl)
        memcpy(s + k, close, cl);
    s[k] = '\0';
    return s;
}

/* Returns the value (arena) or NULL with the reason checked to be present. */
static const char *try(sdkc_arena *a, const char *p, size_t min, size_t max)
{
    const char *why = NULL;
    const char *v = sdkc_pattern_example(a, p, min, max, &why);
    if (v) {
        ck_assert_ptr_null(why);
        ck_assert(valid_utf8(v));
        size_t n = chars_of(v);
        ck_assert(n >= min && n <= max && n <= SDKC_PATTERN_MAX_CHARS);
    } else {
        ck_assert_ptr_nonnull(why);
        ck_assert(*why);
    }
    return v;
}

START_TEST(hostile_nesting)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    const char *why = NULL;
    char *p = repeat("(", 100000, "", "");
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "longer than 32768 bytes"));
    free(p);
    p = repeat("(", 10000, "a", ")");
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "nested too deeply"));
    free(p);
    p = repeat("(", 65, "a", ")");
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "nested too deeply"));
    free(p);
    p = repeat("((", 40, "a", "))");
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "nested too deeply"));
    free(p);
    p = repeat("(?:", 64, "a", ")*");
    ck_assert_str_eq(try(a, p, 0, NOMAX), "");
    try(a, p, 4096, NOMAX); /* 4096 letters, or "too complex to verify" */
    free(p);
    p = repeat("(", 64, "a", ")");
    ck_assert_str_eq(try(a, p, 0, NOMAX), "a");
    free(p);
    p = repeat("(a|", 60, "b", ")");
    ck_assert_str_eq(try(a, p, 0, NOMAX), "a");
    free(p);
    p = repeat("(", 60, "", ")");
    ck_assert_str_eq(try(a, p, 0, NOMAX), "");
    free(p);
    p = repeat("((", 1000, "", "");
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    free(p);
    p = repeat(")", 1000, "", "");
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "a ) without a ("));
    free(p);
    p = repeat("[", 1000, "", "");
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "unterminated"));
    free(p);
    p = repeat("x", 32768, "", ""); /* as long as allowed: the match is too long */
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "4096-character limit"));
    free(p);
    p = repeat("a|", 8000, "b", ""); /* a wide alternation */
    ck_assert_str_eq(try(a, p, 0, NOMAX), "a");
    free(p);
    p = repeat("a|", 16000, "b", ""); /* wider than PCRE2 compiles: refused, with the reason */
    ck_assert_ptr_null(sdkc_pattern_example(a, p, 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "too large"));
    free(p);
    sdkc_arena_free(a);
}
END_TEST

START_TEST(hostile_repetitions)
{
    static const char *const patterns[] = {
        "a{99999}",
        "a{0,99999}",
        "a{4096}",
        "a{4097}",
        "a{99999999999999999999}",
        "a{0,99999999999999999999}",
        "(a{0,4000}){0,4000}",
        "((a{0,4000}){0,4000}){0,4000}",
        "(a|b){1,4000}",
        "(a|bcd)*",
        "(a|bcd){0,4096}",
        "(^|a){1000000000}",
        "(^|a)*",
        "((^|a)*)*",
        "(a?){1000000000}",
        "(a*)*$",
        "((a|b)*)*c",
        "(x+x+)+y",
        "[^]{4096}",
        ".{4096}",
        "(.{0,4096}){0,4096}",
        "(a{1,2}){2000}",
        "(?:a|b|c|d|e|f|g|h){1,4096}$",
        "((((((((a{2}){2}){2}){2}){2}){2}){2}){2}){2}",
        "(((a{16}){16}){16})",
        "([a-z]{1,1000}){1,1000}",
        "(a|bb|ccc|dddd|eeeee)*",
        "(\\b\\B)+a",
        "((a*\\b)?(a*\\B)?(a*$)?)*",
        "(($)?(\\B)?(\\b)?)*x",
        "((x?y?z?w?){0,40}v?){0,40}",
        "(((x?){0,3}y?){0,3}z?){0,3}",
        "(\\B()?\\b()?)*",
        "^(a|aa)+$",
        "(a+)+b",
        "(|a)+",
        "(a||b){5}",
    };
    static const size_t bounds[][2] = {{0, NOMAX}, {4096, NOMAX}, {7, 7}};
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
        for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            try(a, patterns[i], bounds[b][0], bounds[b][1]);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
            /* generous: valgrind and sanitizer builds run this too */
            ck_assert_msg(s < 30, "%s [%zu, %zu] took %.1f s", patterns[i], bounds[b][0],
                          bounds[b][1], s);
        }
    const char *why = NULL;
    ck_assert_ptr_null(sdkc_pattern_example(a, "a{99999}", 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "4096-character limit"));
    /* a count PCRE2 cannot take, of a group that captures: refused, with the reason */
    ck_assert_ptr_null(sdkc_pattern_example(a, "(a?){1000000000}", 0, NOMAX, &why));
    ck_assert_ptr_nonnull(strstr(why, "over 65535"));
    try(a, "(?:a?){1000000000}", 0, NOMAX); /* ends either way */
    ck_assert_str_eq(try(a, "a{0,1000000}", 0, NOMAX), "");
    ck_assert_int_eq(strlen(try(a, ".{4096}", 0, NOMAX)), 4096);
    sdkc_arena_free(a);
}
END_TEST

/* ---- lengths are characters; UTF-8 is copied through ---- */

START_TEST(utf8_characters)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    ck_assert_str_eq(try(a, "^\u00c5sa$", 0, NOMAX), "\u00c5sa");
    ck_assert_str_eq(try(a, "^\u00c5sa$", 3, 3), "\u00c5sa");
    ck_assert_ptr_null(try(a, "^\u00c5sa$", 4, 4)); /* 4 bytes, but 3 characters */
    const char *v = try(a, "^\u00e9{2,}$", 5, 5);
    ck_assert_str_eq(v, "\u00e9\u00e9\u00e9\u00e9\u00e9");
    ck_assert_int_eq(strlen(v), 10);
    ck_assert_str_eq(try(a, "^[\u4e00-\u9fff]{3}$", 0, NOMAX), "\u4e00\u4e00\u4e00");
    ck_assert_str_eq(try(a, "^[^\\x00-\\x7F]$", 0, NOMAX), "\u00c0");
    ck_assert_str_eq(try(a, "^\\u00e9\\u4E2D$", 0, NOMAX), "\u00e9\u4e2d");
    ck_assert_str_eq(try(a, "^\\uD83D\\uDE00$", 0, NOMAX), "\U0001f600"); /* a surrogate pair */
    ck_assert_str_eq(try(a, "^\\u{1F600}+$", 3, 3), "\U0001f600\U0001f600\U0001f600");
    ck_assert_str_eq(try(a, "^[\\u{1F600}-\\u{1F64F}]$", 0, NOMAX), "\U0001f600");
    /* without the 'u' flag (here: \- outside a class) a class matches one UTF-16 unit */
    ck_assert_ptr_null(try(a, "^[^\\u0000-\\uFFFF]\\-$", 0, NOMAX));
    ck_assert_str_eq(try(a, "^\\-[^a]$", 0, NOMAX), "-b");
    /* a whole padded string counts characters too */
    v = try(a, "^\u00e9", 4, 4);
    ck_assert_str_eq(v, "\u00e9aaa");
    sdkc_arena_free(a);
}
END_TEST

/* ---- \b and \B ---- */

START_TEST(word_boundaries)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    ck_assert_str_eq(try(a, "\\bfoo\\b", 0, NOMAX), "foo");
    ck_assert_str_eq(try(a, "\\bfoo\\b", 8, 8), "foo     "); /* 'a' padding would join the word */
    ck_assert_str_eq(try(a, "a\\Bb", 0, NOMAX), "ab");
    ck_assert_str_eq(try(a, "!\\B!", 0, NOMAX), "!!");
    ck_assert_str_eq(try(a, "(arn:\\b(aws|aws-us-gov|aws-cn)\\b:[-a-zA-Z0-9:/._+]*)", 0, NOMAX),
                     "arn:aws:");
    ck_assert_str_eq(try(a, "^(\\bTSTALIASID\\b|[0-9a-zA-Z]+)$", 0, NOMAX), "TSTALIASID");
    ck_assert_str_eq(try(a, "\\b\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\b", 0, NOMAX),
                     "0.0.0.0");
    /* glibc's regexec accepts these; the second check does not */
    ck_assert_ptr_null(try(a, "^aab(\\b\u00e9\u00e9!!){3}", 0, NOMAX));
    ck_assert_ptr_null(try(a, "a\\bb", 0, NOMAX));
    sdkc_arena_free(a);
}
END_TEST

/* ---- API edges ---- */

START_TEST(api_edges)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    const char *why = NULL;
    ck_assert_ptr_null(sdkc_pattern_example(NULL, "a", 0, NOMAX, &why));
    ck_assert_str_eq(why, "no pattern");
    ck_assert_ptr_null(sdkc_pattern_example(a, NULL, 0, NOMAX, &why));
    ck_assert_str_eq(why, "no pattern");
    ck_assert_ptr_null(sdkc_pattern_example(a, "(", 0, NOMAX, NULL)); /* why may be NULL */
    ck_assert_str_eq(sdkc_pattern_example(a, "", 0, NOMAX, &why), "");
    ck_assert_ptr_null(why);
    ck_assert_str_eq(sdkc_pattern_example(a, "", 3, 3, &why), "aaa");
    ck_assert_str_eq(sdkc_pattern_example(a, "x*", 0, 0, &why), "");
    ck_assert_ptr_null(sdkc_pattern_example(a, "^x", 0, 0, &why));
    /* results and formatted reasons live in the caller's arena until it is freed */
    const char *v = sdkc_pattern_example(a, "^[a-f]{8}$", 0, NOMAX, NULL);
    ck_assert_ptr_null(sdkc_pattern_example(a, "^[0-9]{4}$", 7, 9, &why));
    ck_assert_str_eq(v, "aaaaaaaa");
    ck_assert_str_eq(why, "no string of the length bounds: none matching the pattern has a length "
                          "within [7, 9]");
    sdkc_arena_free(a);
}
END_TEST

/* Other matches for tests that vary a value: the longest, the last alternatives. */
START_TEST(variants)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    const char *why = NULL;
    ck_assert_str_eq(sdkc_pattern_variant(a, "^(ab|cde)+$", 0, 7, SDKC_PATTERN_NATURAL, &why),
                     "ab");
    ck_assert_str_eq(sdkc_pattern_variant(a, "^(ab|cde)+$", 0, 7, SDKC_PATTERN_LONGEST, &why),
                     "cdeabab");
    ck_assert_str_eq(
        sdkc_pattern_variant(a, "^(ab|cd)+$", 0, 7, SDKC_PATTERN_LAST_ALTERNATIVES, &why), "cd");
    ck_assert_str_eq(sdkc_pattern_variant(a, "^[a-z]{2,5}$", 0, 100, SDKC_PATTERN_LONGEST, &why),
                     "aaaaa");
    ck_assert_str_eq(sdkc_pattern_variant(a, "^[a-z]{2,5}$", 3, 4, SDKC_PATTERN_LONGEST, &why),
                     "aaaa");
    /* a pattern with one match gives it whatever the preference */
    ck_assert_str_eq(sdkc_pattern_variant(a, "^abc$", 0, 10, SDKC_PATTERN_LONGEST, &why), "abc");
    ck_assert_str_eq(sdkc_pattern_variant(a, "^abc$", 0, 10, SDKC_PATTERN_LAST_ALTERNATIVES, &why),
                     "abc");
    ck_assert_ptr_null(sdkc_pattern_variant(a, "^[0-9]{4}$", 7, 9, SDKC_PATTERN_LONGEST, &why));
    ck_assert_ptr_nonnull(why);
    /* every variant of the real patterns matches and keeps the bounds */
    for (size_t i = 0; i < NPOSITIVE; i++) {
        for (int ch = SDKC_PATTERN_LONGEST; ch <= SDKC_PATTERN_LAST_ALTERNATIVES; ch++) {
            const char *v =
                sdkc_pattern_variant(a, POSITIVE[i].pattern, 0, 64, (sdkc_pattern_choice)ch, &why);
            if (!v)
                continue;
            ck_assert(chars_of(v) <= 64);
            ck_assert_msg(rx(POSITIVE[i].pattern, v) == SDKC_REGEX_MATCH, "%s: %s",
                          POSITIVE[i].pattern, v);
        }
    }
    sdkc_arena_free(a);
}
END_TEST

/* ---- many random patterns: no crash (ASan, valgrind), every value valid ---- */

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

START_TEST(random_patterns)
{
    static const char *const pieces[] = {
        "a",     "b",     "-",      ".",      "\\d", "\\w",    "\\s",     "\\S",   "\\W",
        "[a-c]", "[^a]",  "[\\w-]", "^",      "$",   "\\b",    "\\B",     "(",     "(?:",
        ")",     "|",     "*",      "+",      "?",   "{2}",    "{0,3}",   "{1,}",  "*?",
        "[",     "]",     "{",      "}",      "\\",  "\u00e9", "\\u00e9", "\\x41", "[^\\x00-\\x7f]",
        "(?=",   "(?<n>", "\\1",    "\\p{L}", "[]",  "[^]",    "\\0",     "\\t",   "\U0001f600",
        "\\-",   "{,",    "x{2,1}",
    };
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    char p[256];
    size_t generated = 0;
    for (int i = 0; i < 1500; i++) {
        size_t len = 0, n = 1 + rng(&seed) % 12;
        for (size_t k = 0; k < n; k++) {
            const char *s = pieces[rng(&seed) % (sizeof pieces / sizeof pieces[0])];
            size_t l = strlen(s);
            if (len + l < sizeof p) {
                memcpy(p + len, s, l);
                len += l;
            }
        }
        p[len] = '\0';
        size_t min = rng(&seed) % 4 == 0 ? rng(&seed) % 40 : 0;
        size_t max = rng(&seed) % 3 == 0 ? min + rng(&seed) % 40 : NOMAX;
        generated += try(a, p, min, max) != NULL;
        if (i % 100 == 99) { /* keep the arena small */
            sdkc_arena_free(a);
            ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
        }
    }
    ck_assert_uint_gt(generated, 100);
    sdkc_arena_free(a);
}
END_TEST

/* ---- threads: the C locale for regcomp is per thread, nothing else is shared ---- */

static void *worker(void *arg)
{
    (void)arg;
    sdkc_arena *a = NULL;
    if (sdkc_arena_new(&a) != SDKC_OK)
        return (void *)1;
    uintptr_t bad = 0;
    for (int i = 0; i < 200; i++) {
        const pcase *t = &POSITIVE[(size_t)i % NPOSITIVE];
        const char *v = sdkc_pattern_example(a, t->pattern, t->min, t->max, NULL);
        if (!v || (t->expect && strcmp(v, t->expect)))
            bad++;
    }
    sdkc_arena_free(a);
    return (void *)bad;
}

START_TEST(threads)
{
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, worker, NULL), 0);
    for (int i = 0; i < 2; i++) {
        void *r = NULL;
        ck_assert_int_eq(pthread_join(th[i], &r), 0);
        ck_assert_ptr_null(r);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("pattern");
    const struct {
        const char *name;
        const TTest *test;
        int loop;
    } cases[] = {
        {"real", real_patterns, (int)NPOSITIVE},
        {"rejected", rejected_patterns, (int)NNEGATIVE},
        {"lookaround_properties", lookaround_and_properties, (int)NLOOK_PROP},
        {"regex", regex_semantics, 0},
        {"regex_limits", regex_limits, 0},
        {"regex_cache", regex_cache, 0},
        {"hostile_nesting", hostile_nesting, 0},
        {"hostile_repetitions", hostile_repetitions, 0},
        {"utf8", utf8_characters, 0},
        {"word_boundaries", word_boundaries, 0},
        {"api", api_edges, 0},
        {"variants", variants, 0},
        {"random", random_patterns, 0},
        {"threads", threads, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_set_timeout(tc, 600);
        if (cases[i].loop)
            tcase_add_loop_test(tc, cases[i].test, 0, cases[i].loop);
        else
            tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
