/* The consumer of an installed oc SDK (tests/emitter/install-sdk.sh, install-deb.sh): one call over
 * the in-memory transport; prints "ses_1 installed". */
#include <oc/oc.h>
#include <stdio.h>
#include <string.h>

static int handler(void *userdata, const oc_memory_request *req, oc_memory_response *resp)
{
    static const char body[] = "{\"data\":{\"id\":\"ses_1\",\"projectID\":\"p\",\"cost\":0,"
                               "\"tokens\":{\"input\":0,\"output\":0,\"reasoning\":0,\"cache\":"
                               "{\"read\":0,\"write\":0}},\"time\":{\"created\":1,\"updated\":1},"
                               "\"title\":\"installed\",\"location\":{\"directory\":\"/w\"}}}";
    (void)userdata;
    if (strcmp(req->target, "/api/session/ses_1") != 0) {
        oc_memory_response_set_status(resp, 404);
        return 0;
    }
    oc_memory_response_add_header(resp, "Content-Type", "application/json");
    oc_memory_response_add_chunk(resp, body, sizeof body - 1);
    return 0;
}

int main(void)
{
    int rc = 1;
    char id[] = "ses_1";
    oc_transport *t = NULL;
    oc_client *client = NULL;
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    if (oc_global_init() != OC_OK || oc_memory_transport_new(&t, handler, NULL, &err) != OC_OK)
        goto done;
    oc_client_options o = OC_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1";
    o.transport = t;
    if (oc_client_new(&client, &o, &err) != OC_OK)
        goto done;
    oc_session_get_request req = {0};
    req.session_id.value = id;
    if (oc_session_get(client, &req, NULL, &info, &err) != OC_OK)
        goto done;
    printf("%s %s\n", info->id.value, info->title);
    rc = 0;
done:
    if (err)
        printf("error: %s\n", oc_error_message(err));
    oc_error_clear(&err);
    oc_session_v2_info_free(info);
    oc_client_free(client);
    oc_transport_free(t);
    oc_global_cleanup();
    return rc;
}
