/* tcp_bridge.h - serves an in-memory transport's handler over real sockets on 127.0.0.1, so that
 * a test server written as an sdkrt_memory_handler can also be probed through libcurl.
 *
 * One connection at a time, one request per connection (Connection: close). Bodies go out
 * chunked as the handler's chunks come; a handler ending with an error becomes a connection cut
 * without the final chunk; a handler that refuses the request (returns -1) gets the connection
 * closed without an answer. Only the status and the Content-Type of the handler's response are
 * passed on. */
#ifndef TCP_BRIDGE_H
#define TCP_BRIDGE_H

#include "sdkrt/sdkrt.h"

typedef struct tcp_bridge tcp_bridge;

/* Start serving handler(ud, ...) on an ephemeral port (0 on success; *out is new). */
int tcp_bridge_start(tcp_bridge **out, sdkrt_memory_handler handler, void *ud);
/* "http://127.0.0.1:<port>" (borrowed). */
const char *tcp_bridge_url(const tcp_bridge *b);
/* Stop, join and free. NULL is a no-op. */
void tcp_bridge_stop(tcp_bridge *b);

#endif
