/* openai_chat.c - a chat completion, the same streamed, a file upload and every file listed, with
 * the SDK that `sdkc generate` made from OpenAI's OpenAPI contract (prefix openai).
 *   OPENAI_API_KEY=sk-... openai_chat [BASE_URL [FILE.jsonl]]
 * BASE_URL defaults to the contract's server (OPENAI_DEFAULT_BASE_URL); run.sh passes a Prism
 * mock's, and the program fails when Prism reports a request that breaks the contract. Exit status
 * 3: only the list walk stopped with an error ("list stopped: ..." says why). */
#include <openai/openai.h>
#include <stdio.h>
#include <stdlib.h>

#include "prism_check.h"

static void count_violations(void *violations, int status, const openai_header *h, size_t n)
{
    (void)status;
    for (size_t i = 0; i < n; i++)
        *(int *)violations += prism_violations(h[i].name, h[i].value);
}

int main(int argc, char **argv)
{
    const char *key = getenv("OPENAI_API_KEY");
    int violations = 0;
    int list_stopped = 0; /* the list walk ended with an error */
    openai_client *client = NULL;
    openai_error *err = NULL;
    openai_create_chat_completion_response *reply = NULL;
    openai_create_chat_completion_stream *stream = NULL;
    openai_openai_file *uploaded = NULL;
    openai_list_files_iter *it = NULL;

    openai_global_init();
    openai_client_options opts = OPENAI_CLIENT_OPTIONS_INIT;
    opts.base_url = argc > 1 ? argv[1] : OPENAI_DEFAULT_BASE_URL;
    opts.auth = OPENAI_AUTH_BEARER; /* the contract declares no scheme: sent on every call */
    opts.token = key ? key : "sk-example";
    opts.retry.max_attempts = 3;
    openai_call_options call = OPENAI_CALL_OPTIONS_INIT;
    call.on_response = count_violations;
    call.userdata = &violations;
    if (openai_client_new(&client, &opts, &err) != OPENAI_OK)
        goto done;

    openai_chat_completion_request_message_in message = {0};
    message.role.value = OPENAI_CHAT_COMPLETION_REQUEST_MESSAGE_ROLE_USER;
    message.content = "Say this is a test";
    openai_create_chat_completion_request chat = {0};
    chat.body.model = "gpt-4o-mini";
    chat.body.messages.items = &message;
    chat.body.messages.count = 1;
    if (openai_create_chat_completion(client, &chat, &call, &reply, &err) != OPENAI_OK)
        goto done;
    if (reply->choices.count > 0 && reply->choices.items[0].has_message)
        printf("reply: %s\n", reply->choices.items[0].message.content);

    /* The same request through the stream variant, which sends stream: true itself: one chunk
       per event. */
    if (openai_create_chat_completion_stream_open(&stream, client, &chat, &call, &err) != OPENAI_OK)
        goto done;
    const openai_create_chat_completion_stream_response *chunk;
    openai_next step;
    size_t chunks = 0;
    printf("streamed: ");
    while ((step = openai_create_chat_completion_stream_next(stream, &chunk, &err)) ==
           OPENAI_NEXT_ITEM) {
        chunks++;
        if (chunk->choices.count > 0 && chunk->choices.items[0].delta.has_content)
            printf("%s", chunk->choices.items[0].delta.content);
    }
    printf(" (%zu chunks)\n", chunks);
    if (step == OPENAI_NEXT_ERROR)
        goto done;

    /* multipart/form-data: the file part read from disk, expires_after as expires_after[...]. */
    openai_create_file_request upload = {0};
    upload.body.purpose = "fine-tune";
    upload.body.has_expires_after = true;
    upload.body.expires_after.seconds = 3600;
    upload.body_files.file.path = argc > 2 ? argv[2] : "mydata.jsonl";
    upload.body_files.file.content_type = "application/jsonl";
    if (openai_create_file(client, &upload, &call, &uploaded, &err) != OPENAI_OK)
        goto done;
    printf("uploaded %s (%lld bytes)\n", uploaded->id, (long long)uploaded->bytes);

    /* Every file: the iterator sends after = the last id until has_more is false. */
    if (openai_list_files_iter_new(&it, client, NULL, &call, &err) != OPENAI_OK)
        goto done;
    const openai_openai_file *file;
    size_t count = 0;
    while ((step = openai_list_files_iter_next(it, &file, &err)) == OPENAI_NEXT_ITEM)
        count++;
    printf("listed %zu files\n", count);
    /* A walk that stops with an error has given its items: say why and go on; the exit status
       tells (3). Against a Prism mock, whose static example pages repeat, this is the runtime's
       "the pages do not end" (run.sh checks that it is). */
    if (step == OPENAI_NEXT_ERROR) {
        printf("list stopped: %s\n", openai_error_message(err));
        list_stopped = 1;
        openai_error_free(err);
        err = NULL;
    }

done:
    if (err)
        fprintf(stderr, "openai: %s\n", openai_error_message(err));
    printf("request violations: %d\n", violations);
    int failed = err != NULL || violations > 0;
    int status = failed ? EXIT_FAILURE : list_stopped ? 3 : EXIT_SUCCESS;
    openai_error_free(err);
    openai_list_files_iter_free(it);
    openai_openai_file_free(uploaded);
    openai_create_chat_completion_stream_close(stream);
    openai_create_chat_completion_response_free(reply);
    openai_client_free(client);
    openai_global_cleanup();
    return status;
}
