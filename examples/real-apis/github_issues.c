/* github_issues.c - list every open issue of a repository and open a new one, with the SDK that
 * `sdkc generate` made from GitHub's OpenAPI contract (prefix github).
 *   GITHUB_TOKEN=ghp_... github_issues [BASE_URL [OWNER REPO]]
 * BASE_URL defaults to the contract's server (GITHUB_DEFAULT_BASE_URL); run.sh passes a Prism
 * mock's, and the program fails when Prism reports a request that breaks the contract. Exit status
 * 3: only the list walk stopped with an error ("list stopped: ..." says why). */
#include <github/github.h>
#include <stdio.h>
#include <stdlib.h>

#include "prism_check.h"

static void count_violations(void *violations, int status, const github_header *h, size_t n)
{
    (void)status;
    for (size_t i = 0; i < n; i++)
        *(int *)violations += prism_violations(h[i].name, h[i].value);
}

int main(int argc, char **argv)
{
    const char *token = getenv("GITHUB_TOKEN");
    const char *owner = argc > 3 ? argv[2] : "octocat";
    const char *repo = argc > 3 ? argv[3] : "hello-world";
    int violations = 0;
    int list_stopped = 0; /* the list walk ended with an error */
    github_client *client = NULL;
    github_error *err = NULL;
    github_issues_list_for_repo_iter *it = NULL;
    github_issue *created = NULL;

    github_global_init();
    github_client_options opts = GITHUB_CLIENT_OPTIONS_INIT;
    opts.base_url = argc > 1 ? argv[1] : GITHUB_DEFAULT_BASE_URL;
    opts.auth = GITHUB_AUTH_BEARER; /* the contract declares no scheme: sent on every call */
    opts.token = token ? token : "ghp_example";
    opts.user_agent = "sdkc-example"; /* GitHub refuses requests without one */
    opts.retry.max_attempts = 3;
    github_call_options call = GITHUB_CALL_OPTIONS_INIT;
    call.on_response = count_violations;
    call.userdata = &violations;
    if (github_client_new(&client, &opts, &err) != GITHUB_OK)
        goto done;

    /* Every open issue: the iterator follows the Link header's rel="next" to the last page. */
    github_issues_list_for_repo_request list = {0};
    list.owner = owner;
    list.repo = repo;
    list.has_per_page = true;
    list.per_page = 100;
    if (github_issues_list_for_repo_iter_new(&it, client, &list, &call, &err) != GITHUB_OK)
        goto done;
    const github_issue *issue;
    github_next step;
    size_t count = 0;
    while ((step = github_issues_list_for_repo_iter_next(it, &issue, &err)) == GITHUB_NEXT_ITEM) {
        if (count++ < 3)
            printf("#%lld %s\n", (long long)issue->number, issue->title);
    }
    printf("listed %zu issues\n", count);
    /* A walk that stops with an error has given its items: say why and go on; the exit status
       tells (3). Against a Prism mock, whose static example pages repeat, this is the runtime's
       "the pages do not end" (run.sh checks that it is). */
    if (step == GITHUB_NEXT_ERROR) {
        printf("list stopped: %s\n", github_error_message(err));
        list_stopped = 1;
        github_error_free(err);
        err = NULL;
    }

    github_issues_create_request create = {0};
    create.owner = owner;
    create.repo = repo;
    create.body.title.kind = GITHUB_ISSUES_CREATE_BODY_TITLE_STRING; /* string or integer */
    create.body.title.u.string = "Found a bug";
    create.body.has_body = true;
    create.body.body = "Steps to reproduce: ...";
    if (github_issues_create(client, &create, &call, &created, &err) != GITHUB_OK)
        goto done;
    printf("created issue #%lld\n", (long long)created->number);

done:
    if (err)
        fprintf(stderr, "github: %s\n", github_error_message(err));
    printf("request violations: %d\n", violations);
    int failed = err != NULL || violations > 0;
    int status = failed ? EXIT_FAILURE : list_stopped ? 3 : EXIT_SUCCESS;
    github_error_free(err);
    github_issue_free(created);
    github_issues_list_for_repo_iter_free(it);
    github_client_free(client);
    github_global_cleanup();
    return status;
}
