/* asana_tasks.c - every project of a workspace and every task of the first project, with the SDK
 * that `sdkc generate` made from Asana's OpenAPI contract (prefix asana).
 *   ASANA_TOKEN=... asana_tasks [BASE_URL [WORKSPACE_GID]]
 * BASE_URL defaults to the contract's server (ASANA_DEFAULT_BASE_URL); run.sh passes a Prism
 * mock's, and the program fails when Prism reports a request that breaks the contract. Exit status
 * 3: only a list walk stopped with an error ("list stopped: ..." says why). */
#include <asana/asana.h>
#include <stdio.h>
#include <stdlib.h>

#include "prism_check.h"

static void count_violations(void *violations, int status, const asana_header *h, size_t n)
{
    (void)status;
    for (size_t i = 0; i < n; i++)
        *(int *)violations += prism_violations(h[i].name, h[i].value);
}

/* A walk that stops with an error has given its items: say why and go on; the exit status tells
 * (3). Against a Prism mock, whose static example pages repeat, this is the runtime's "the pages
 * do not end" (run.sh checks that it is). False when there is no error to tell. */
static int stopped(asana_error **err, int *list_stopped)
{
    if (!*err)
        return 0;
    printf("list stopped: %s\n", asana_error_message(*err));
    *list_stopped = 1;
    asana_error_free(*err);
    *err = NULL;
    return 1;
}

int main(int argc, char **argv)
{
    const char *token = getenv("ASANA_TOKEN");
    const char *workspace = argc > 2 ? argv[2] : "1331";
    int violations = 0;
    int list_stopped = 0; /* a list walk ended with an error */
    asana_client *client = NULL;
    asana_error *err = NULL;
    asana_get_projects_iter *projects = NULL;
    asana_get_tasks_iter *tasks = NULL;
    char first[64] = "";

    asana_global_init();
    asana_client_options opts = ASANA_CLIENT_OPTIONS_INIT;
    opts.base_url = argc > 1 ? argv[1] : ASANA_DEFAULT_BASE_URL;
    opts.auth = ASANA_AUTH_BEARER; /* a personal access token */
    opts.token = token ? token : "0/example-token";
    opts.retry.max_attempts = 3;
    asana_call_options call = ASANA_CALL_OPTIONS_INIT;
    call.on_response = count_violations;
    call.userdata = &violations;
    if (asana_client_new(&client, &opts, &err) != ASANA_OK)
        goto done;

    /* Every project: the iterator sends next_page.offset back as `offset` until next_page is
     * null. Asana pages only when a limit is given. */
    asana_get_projects_request list = {0};
    list.has_workspace = true;
    list.workspace = workspace;
    list.has_limit = true;
    list.limit = 100;
    if (asana_get_projects_iter_new(&projects, client, &list, &call, &err) != ASANA_OK)
        goto done;
    const asana_project_compact *project;
    asana_next step;
    size_t count = 0;
    while ((step = asana_get_projects_iter_next(projects, &project, &err)) == ASANA_NEXT_ITEM) {
        if (count++ == 0 && project->has_gid)
            snprintf(first, sizeof first, "%s", project->gid);
    }
    printf("listed %zu projects\n", count);
    if (step == ASANA_NEXT_ERROR && !stopped(&err, &list_stopped))
        goto done;

    /* Every task of the first project, the same way. */
    asana_get_tasks_request tl = {0};
    tl.has_project = first[0] != '\0';
    tl.project = first;
    tl.has_limit = true;
    tl.limit = 100;
    if (asana_get_tasks_iter_new(&tasks, client, &tl, &call, &err) != ASANA_OK)
        goto done;
    const asana_task_compact *task;
    count = 0;
    while ((step = asana_get_tasks_iter_next(tasks, &task, &err)) == ASANA_NEXT_ITEM) {
        if (count++ == 0)
            printf("task %s: %s\n", task->has_gid ? task->gid : "?",
                   task->has_name ? task->name : "");
    }
    printf("listed %zu tasks of project %s\n", count, first[0] ? first : "(none)");
    if (step == ASANA_NEXT_ERROR && !stopped(&err, &list_stopped))
        goto done;

done:
    if (err)
        fprintf(stderr, "asana: %s\n", asana_error_message(err));
    printf("request violations: %d\n", violations);
    int failed = err != NULL || violations > 0;
    int status = failed ? EXIT_FAILURE : list_stopped ? 3 : EXIT_SUCCESS;
    asana_error_free(err);
    asana_get_tasks_iter_free(tasks);
    asana_get_projects_iter_free(projects);
    asana_client_free(client);
    asana_global_cleanup();
    return status;
}
