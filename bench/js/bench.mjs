// The @opencode-ai/sdk v2 client contestant (node). Same work as bench/floor.c and the C SDK:
//   node bench.mjs unary BASE N          N x client.v2.session.list({ limit: 100 })
//   node bench.mjs sse BASE SESSION N    client.v2.session.events({ sessionID }); N events
//   node bench.mjs pages BASE TOTAL      v2.session.list pages of 100 following cursor.next
// SDKC_BENCH_NODE names the folder the pinned npm packages were installed into.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dir = process.env.SDKC_BENCH_NODE;
if (!dir) throw new Error("SDKC_BENCH_NODE is not set");
const { createOpencodeClient } = await import(
  pathToFileURL(join(dir, "node_modules/@opencode-ai/sdk/dist/v2/client.js")).href
);

const [mode, baseUrl, a, b] = process.argv.slice(2);
const client = createOpencodeClient({ baseUrl });
const t0 = performance.now();
let count = 0;

if (mode === "unary") {
  const n = Number(a);
  for (let i = 0; i < n; i++) {
    const r = await client.v2.session.list({ limit: 100 });
    if (!r.data || !Array.isArray(r.data.data) || r.data.data.length === 0)
      throw new Error(`call ${i}: no data (${r.response?.status})`);
  }
  count = n;
} else if (mode === "pages") {
  const total = Number(a);
  let cursor;
  for (;;) {
    const r = await client.v2.session.list(cursor ? { limit: 100, cursor } : { limit: 100 });
    if (!r.data) throw new Error(`page: HTTP ${r.response?.status}`);
    count += r.data.data.length;
    cursor = r.data.cursor?.next;
    if (!cursor) break;
  }
  if (count !== total) throw new Error(`${count} items, expected ${total}`);
} else if (mode === "sse") {
  const n = Number(b);
  const ac = new AbortController();
  const r = await client.v2.session.events({ sessionID: a }, { signal: ac.signal, sseMaxRetryAttempts: 0 });
  for await (const ev of r.stream) {
    if (ev === undefined || ev === null) throw new Error("empty event");
    if (++count >= n) break;
  }
  ac.abort();
  if (count !== n) throw new Error(`${count} events, expected ${n}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
const seconds = (performance.now() - t0) / 1000;
console.log(`mode=${mode} count=${count} seconds=${seconds.toFixed(4)}`);
